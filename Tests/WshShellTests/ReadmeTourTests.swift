import Foundation
import Testing
@testable import WshShell
import WshTestSupport

/// README's Mastodon tour, run as written: notifications → detail → a reply
/// with a content warning → undo, against the sandbox's Mastodon side.
@Suite("README's Mastodon tour")
struct ReadmeTourTests {
    private static func json(_ text: String) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
    }

    @Test("notifications → detail 2 → post --reply 2 --cw → undo: the reply answers notification 2's status, behind the CW, and undo deletes it on the server")
    func tourRuns() async throws {
        let harness = try await ShellHarness(dialect: .mastodon)
        let readme = try String(contentsOfFile: WshProcess.packageRoot + "/README.md", encoding: .utf8)
        #expect(readme.contains("back; post --reply 2 --cw \"spoilers\" -- it was the butler"), "the tour's line changed")

        let opened = await harness.run("notifications 20 --types mention,favourite; detail 2 --json")
        #expect(opened.status == 0, "\(opened.stderr)")
        let notified = try Self.json(opened.stdout.components(separatedBy: "\n{").dropFirst().first.map { "{" + $0 } ?? "")
        let statusID = try #require(notified["id"] as? String)

        let replied = await harness.run(#"back; post --reply 2 --cw "spoilers" -- it was the butler; list --json"#)
        #expect(replied.status == 0, "\(replied.stderr)")
        let rows = try #require(try JSONSerialization.jsonObject(with: Data(replied.stdout.utf8)) as? [[String: Any]])
        let reply = try #require(rows.first)
        #expect(reply["in_reply_to_id"] as? String == statusID, "the reply answers notification 2's status")
        #expect(reply["spoiler_text"] as? String == "spoilers")
        let replyID = try #require(reply["id"] as? String)

        let undone = await harness.run("undo; undo")
        #expect(undone.status == 0, "\(undone.stderr)")
        #expect(undone.stderr.contains("deleted status \(replyID) on the server"), "\(undone.stderr)")
        let gone = await harness.run("api get api/v1/statuses/\(replyID)")
        #expect(gone.status == 1 && gone.stderr.contains("404"), "\(gone.stderr)")
        let screen = await harness.run("state --json")
        #expect(screen.stdout.contains("\"notifications\""), "undo brings the notifications screen back: \(screen.stdout)")
    }
}
