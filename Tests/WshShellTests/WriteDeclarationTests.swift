import Foundation
import Testing
import WshDataController
import WshHAR
import WshRequest
@testable import WshShell

/// A remote write is one declaration: a status toggle declared only here
/// ("pin", which wsh itself does not have) gets its two commands, help that
/// names the path it sends, a history line, undo, redo and a trace, with no
/// other file of wsh knowing of it.
@Suite("a write declared once")
struct WriteDeclarationTests {
    static let pin = StatusToggle(
        name: "pin", oppositeName: "unpin", on: "pinned", off: "unpinned", undoOfOn: "unpins", undoOfOff: "pins again",
        abstract: ("Pin row N to your profile.", "Unpin row N."), field: ["mastodon": "pinned"],
        flag: { _ in nil }, setFlag: { _, _ in }, feature: "pinned statuses",
        calls: ["mastodon": .init(on: ToggleCall(.post, "/api/v1/statuses/:id/pin"),
                                  off: ToggleCall(.post, "/api/v1/statuses/:id/unpin"))])

    static func status(_ id: String) -> String {
        #"{"id":"\#(id)","created_at":"2026-12-01T10:00:00.000Z","content":"<p>status \#(id)</p>","#
            + #""account":{"id":"1","username":"ann","acct":"ann","display_name":"Ann"},"#
            + #""replies_count":0,"reblogs_count":0,"favourites_count":0}"#
    }

    /// A shell on a recorded Mastodon server that serves a page of two statuses, pin and unpin.
    static func harness() throws -> ShellHarness {
        func entry(_ method: String, _ url: String, _ body: String) -> [String: Any] {
            ["request": ["method": method, "url": url],
             "response": ["status": 200, "headers": [["name": "Content-Type", "value": "application/json"]],
                          "content": ["text": body]]]
        }
        let har: [String: Any] = ["log": ["version": "1.2", "entries": [
            entry("GET", "https://pin.example/api/v1/timelines/public?limit=2", "[\(status("101")),\(status("102"))]"),
            entry("POST", "https://pin.example/api/v1/statuses/102/pin", status("102")),
            entry("POST", "https://pin.example/api/v1/statuses/102/unpin", status("102")),
        ]]]
        let recording = try HARRecording.parse(try JSONSerialization.data(withJSONObject: har), name: "pin.har")
        var configuration = Shell.Configuration(target: .url("https://pin.example/"), tokenSource: .value(Secret("t0123456789")))
        configuration.dialect = .mastodon
        configuration.tape = .replay(ReplayHTTPClient(recording: recording))
        configuration.moreStatusToggles = [pin]
        return ShellHarness(configuration: configuration)
    }

    @Test("pin, declared only in this test: a command, help naming its path, a history line, undo, redo and a trace")
    func pinDeclaredInTheTest() async throws {
        let harness = try Self.harness()
        let help = await harness.run("help pin")
        #expect(help.status == 0, "\(help.stderr)")
        #expect(help.stdout.contains("Pin row N to your profile."), "\(help.stdout)")
        #expect(help.stdout.contains("POST /api/v1/statuses/:id/pin, field \"pinned\"; undo: POST /api/v1/statuses/:id/unpin"),
                "\(help.stdout)")
        let pinned = await harness.run("fetch 2; trace on; pin 2; trace off; history --effects")
        #expect(pinned.status == 0, "\(pinned.stderr)")
        #expect(pinned.stderr.contains("pinned status 102 on the server"), "\(pinned.stderr)")
        #expect(pinned.stderr.contains("StatusDataController.pin(id: 102)"), "\(pinned.stderr)")
        #expect(pinned.stderr.contains("POST") && pinned.stderr.contains("api/v1/statuses/102/pin"), "\(pinned.stderr)")
        #expect(pinned.stdout.contains("pin 2"), "\(pinned.stdout)")
        #expect(pinned.stdout.contains("pinned status 102 · undo unpins"), "\(pinned.stdout)")
        let undone = await harness.run("undo")
        #expect(undone.status == 0, "\(undone.stderr)")
        #expect(undone.stderr.contains("unpinned status 102 on the server"), "\(undone.stderr)")
        let redone = await harness.run("redo")
        #expect(redone.status == 0, "\(redone.stderr)")
        #expect(redone.stderr.contains("pinned status 102 on the server"), "\(redone.stderr)")
        let unpinned = await harness.run("unpin 2; history")
        #expect(unpinned.status == 0, "\(unpinned.stderr)")
        #expect(unpinned.stdout.contains("unpin 2"), "\(unpinned.stdout)")
    }

    @Test("the declaration alone decides where it is offered: on Weibo, pin is refused in one line before any request")
    func pinNotOnWeibo() async throws {
        var configuration = Shell.Configuration(target: .url("https://weibo.example/2/"), tokenSource: .value(Secret("t0123456789")))
        configuration.dialect = .weibo
        // One exchange that no command here asks for: a request would fail as not in the recording.
        let har = ["log": ["version": "1.2", "entries": [
            ["request": ["method": "GET", "url": "https://weibo.example/2/account/rate_limit_status.json"],
             "response": ["status": 200, "content": ["text": "{}"]]]]]] as [String: Any]
        let recording = try HARRecording.parse(try JSONSerialization.data(withJSONObject: har), name: "weibo.har")
        configuration.tape = .replay(ReplayHTTPClient(recording: recording))
        configuration.moreStatusToggles = [Self.pin]
        let harness = ShellHarness(configuration: configuration)
        let help = await harness.run("help pin")
        #expect(help.stdout.contains("Not on this API: weibo has no pinned statuses."), "\(help.stdout)")
        let refused = await harness.run("pin 1")
        #expect(refused.status != 0)
        #expect(refused.stderr.contains("this API (weibo) has no pinned statuses"), "\(refused.stderr)")
        #expect(refused.stderr.split(separator: "\n").count == 1, "\(refused.stderr)")
    }
}
