import Foundation
import Testing
import WshRequest
import WshSandbox
import WshTestSupport
@testable import WshShell

/// `post` with options, media and polls, and `vote`, through the real loop
/// against the sandbox (Mastodon side; Weibo's refusals).
@Suite("post with options, media and polls; vote", .serialized)
struct PostingTranscriptTests {
    @Test("post --media --alt --cw --visibility --reply: detail shows it, --json keeps it, undo deletes it on the server")
    func mediaReplyUndo() async throws {
        let path = NSTemporaryDirectory() + "wsh-transcript-\(UUID().uuidString).png"
        let png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + Array(repeating: 7, count: 64)
        _ = FileManager.default.createFile(atPath: path, contents: Data(png))
        defer { try? FileManager.default.removeItem(atPath: path) }
        let harness = try await ShellHarness(dialect: .mastodon)
        let posted = await harness.run("fetch 3\npost --media \(path) --alt 'a tiny square' --cw spoilers --visibility unlisted -- the butler did it\ndetail 1")
        #expect(posted.status == 0, "\(posted.stderr)")
        #expect(posted.stderr.contains("uploaded 1 file"), "\(posted.stderr)")
        #expect(posted.stdout.contains("CW: spoilers"), "\(posted.stdout)")
        #expect(posted.stdout.contains("unlisted"))
        #expect(posted.stdout.contains("— a tiny square"), "\(posted.stdout)")
        #expect(!posted.stdout.contains("the butler did it"), "the text shows behind the warning")

        let json = await harness.run("detail 1 --json")
        let detail = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        #expect(detail["spoiler_text"] as? String == "spoilers" && detail["visibility"] as? String == "unlisted")
        let media = try #require((detail["media_attachments"] as? [[String: Any]])?.first)
        #expect(media["description"] as? String == "a tiny square")
        let id = try #require(detail["id"] as? String)

        let undone = await undo(harness, until: "deleted status \(id)")
        #expect(undone.status == 0, "\(undone.stderr)")
        let gone = try await CurlHTTPClient().send(HTTPRequest(
            url: harness.sandbox.mastodonBaseURL + "api/v1/statuses/\(id)",
            headers: [HTTPHeader("Authorization", "Bearer \(harness.sandbox.token)")]))
        #expect(gone.status == 404)

        let reply = await harness.run("post --reply 2 --language en -- well said\nhistory")
        #expect(reply.status == 0, "\(reply.stderr)")
        #expect(reply.stdout.contains("post --reply --language \"well said\""), "\(reply.stdout)")
    }

    @Test("post --poll then vote; help says undo cannot take a vote back, undo says so; bad input is one line, status 2")
    func pollVote() async throws {
        let harness = try await ShellHarness(dialect: .mastodon)
        let posted = await harness.run("post --poll 'tea|coffee|water' --poll-expires 1h --multiple which?\nvote 1 1 3\ndetail 1")
        #expect(posted.status == 0, "\(posted.stderr)")
        #expect(posted.stdout.contains("1. tea · 1 vote ✓"), "\(posted.stdout)")
        #expect(posted.stdout.contains("3. water · 1 vote ✓"))
        #expect(posted.stdout.contains("several choices · you voted"))
        let json = await harness.run("detail 1 --json")
        let poll = try #require((try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])?["poll"] as? [String: Any])
        #expect(poll["own_votes"] as? [Int] == [0, 2])
        #expect(poll["votes_count"] as? Int == 2 && poll["voters_count"] as? Int == 1)

        #expect(harness.shell.completions(forLine: "post --visibility un") == ["unlisted"])
        #expect(harness.shell.completions(forLine: "post --poll-m").isEmpty)
        #expect(harness.shell.completions(forLine: "post --mul") == ["--multiple"])
        let undo = await undo(harness, until: "Mastodon cannot take a vote back")
        #expect(undo.status != 0)
        #expect(undo.stderr.split(separator: "\n").count == 1, "\(undo.stderr)")
        #expect(await harness.run("help vote").stdout.contains("undo cannot take a vote back"))

        for (input, message) in [("vote 1 2", "you already voted in the poll of row 1"),
                                 ("post --language english hi", "--language: english is not an ISO 639-1 code"),
                                 ("post --visibility secret hi", "--visibility: secret is not one of"),
                                 ("post --poll 'only' hi", "--poll: give two or more options"),
                                 ("post --alt 'no media' hi", "--alt goes after the --media"),
                                 ("post --poll 'a|b' --media x.png hi", "--poll and --media do not go together")] {
            let refused = await harness.run(input)
            #expect(refused.status != 0, "\(input)")
            #expect(refused.stderr.contains(message), "\(input): \(refused.stderr)")
            #expect(refused.stderr.split(separator: "\n").count == 1, "\(input): \(refused.stderr)")
        }
    }

    /// Undoes one operation at a time (screens first) until one says `text`; that undo's transcript.
    private func undo(_ harness: ShellHarness, until text: String) async -> Transcript {
        var last = await harness.run("undo")
        for _ in 0..<5 where !last.stderr.contains(text) { last = await harness.run("undo") }
        #expect(last.stderr.contains(text), "\(last.stderr)")
        return last
    }

    @Test("on Weibo, post --cw and vote are refused before any request; help post says what Weibo lacks")
    func weiboRefuses() async throws {
        let harness = try await ShellHarness(dialect: .weibo)
        let refused = await harness.run("trace on\npost --cw x hello")
        #expect(refused.status == 2)
        #expect(refused.stderr.contains("--cw: weibo has no content warnings"), "\(refused.stderr)")
        #expect(!(refused.stdout + refused.stderr).contains("statuses/update.json"))
        let vote = await harness.run("vote 1 1")
        #expect(vote.stderr.contains("vote: this API (weibo) has no polls"), "\(vote.stderr)")
        let help = await harness.run("help post")
        #expect(help.stdout.contains("On this API (weibo): text, and one picture (--media, JPG, GIF or PNG, sent with the post; no --alt); it has no --visibility, --cw, --reply, --language; --poll"), "\(help.stdout)")
        #expect(await harness.run("help vote").stdout.contains("Not on this API: weibo has no polls."))
        #expect(await harness.run("post plain text is fine\nundo").status == 0)
    }
}
