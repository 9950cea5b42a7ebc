import Foundation
import Testing
import WshRequest
import WshSandbox
@testable import WshShell

/// `edit`, `edits`, `post --at`, `scheduled`, `unschedule` through the real
/// loop against the sandbox: output, `--json`, `undo`, and what Weibo says.
@Suite("Editing and scheduling through the shell", .serialized)
struct EditTranscriptTests {
    /// The source text of status `id` on the sandbox's Mastodon side.
    private static func source(_ id: String, on sandbox: SandboxServer) async -> String? {
        let request = HTTPRequest(url: sandbox.mastodonBaseURL + "api/v1/statuses/\(id)/source",
                                  headers: [HTTPHeader("Authorization", "Bearer " + sandbox.token)])
        guard let response = try? await CurlHTTPClient(secrets: [sandbox.token]).send(request),
              let json = try? JSONSerialization.jsonObject(with: response.body) as? [String: Any] else { return nil }
        return json["text"] as? String
    }

    @Test("edit N changes the row; edits N lists the versions (and --json); undo edits the text back on the server")
    func editEditsUndo() async throws {
        let harness = try await ShellHarness(dialect: .mastodon)
        let posted = await harness.run("post 'first <draft>'\nedit 1 second take\nlist")
        #expect(posted.status == 0, "\(posted.stderr)")
        #expect(posted.stdout.contains("second take"), "\(posted.stdout)")
        #expect(posted.stderr.contains("edited status "), "\(posted.stderr)")
        let id = try #require(try await harness.rows().first?["id"] as? String)

        let edits = await harness.run("edits 1")
        #expect(edits.status == 0, "\(edits.stderr)")
        #expect(edits.stdout.contains("2 versions (1 edit)"), "\(edits.stdout)")
        let lines = edits.stdout.split(separator: "\n")
        #expect(lines.count == 3)
        #expect(lines[1].hasPrefix("1 ") && lines[1].hasSuffix("first <draft>"), "\(edits.stdout)")
        #expect(lines[2].hasPrefix("2 ") && lines[2].hasSuffix("second take"), "\(edits.stdout)")
        let json = await harness.run("back\nedits 1 --json")
        let document = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        #expect(document["status_id"] as? String == id)
        let versions = try #require(document["versions"] as? [[String: Any]])
        #expect(versions.map { $0["text"] as? String } == ["first <draft>", "second take"])

        // undo of the edit (after undoing the screens opened since) edits it back on the server.
        #expect(await harness.run("undo\nundo\nundo").status == 0)
        let undo = await harness.run("undo\nhistory")
        #expect(undo.status == 0, "\(undo.stderr)")
        #expect(undo.stderr.contains("says \"first <draft>\" again on the server"), "\(undo.stderr)")
        #expect(await Self.source(id, on: harness.sandbox) == "first <draft>")
        #expect(try await harness.rows().first?["content"] as? String == "<p>first &lt;draft&gt;</p>")
        #expect(undo.stdout.contains("⇅ post"))
        #expect(!undo.stdout.contains("⇅ edit"))
    }

    @Test("post --at schedules (--json), scheduled lists it, unschedule cancels, undo schedules it again with a new id")
    func scheduleListUnscheduleUndo() async throws {
        let harness = try await ShellHarness(dialect: .mastodon)
        let made = await harness.run("post see you soon --at +2h --json")
        #expect(made.status == 0, "\(made.stderr)")
        let scheduled = try #require(try JSONSerialization.jsonObject(with: Data(made.stdout.utf8)) as? [String: Any])
        let id = try #require(scheduled["id"] as? String)
        #expect(scheduled["text"] as? String == "see you soon")
        #expect((scheduled["scheduled_at"] as? String)?.hasSuffix("Z") == true)

        let listed = await harness.run("scheduled")
        #expect(listed.stdout.contains("1 scheduled status"), "\(listed.stdout)")
        #expect(listed.stdout.contains("see you soon"))
        let listedJSON = await harness.run("scheduled --json")
        let rows = try #require(try JSONSerialization.jsonObject(with: Data(listedJSON.stdout.utf8)) as? [[String: Any]])
        #expect(rows.map { $0["id"] as? String } == [id])
        #expect(rows.first?["index"] as? Int == 1)

        let cancelled = await harness.run("unschedule 1\nscheduled")
        #expect(cancelled.status == 0, "\(cancelled.stderr)")
        #expect(cancelled.stdout.contains("0 scheduled statuses"), "\(cancelled.stdout)")
        let undo = await harness.run("undo\nundo\nscheduled --json")
        #expect(undo.status == 0, "\(undo.stderr)")
        #expect(undo.stderr.contains("new scheduled status"), "\(undo.stderr)")
        let again = try #require(try JSONSerialization.jsonObject(with: Data(undo.stdout.utf8)) as? [[String: Any]])
        #expect(again.count == 1)
        #expect(again.first?["id"] as? String != id)

        let soon = await harness.run("post too soon --at +3m")
        #expect(soon.status == 2)
        #expect(soon.stderr.contains("at least 5 minutes ahead"), "\(soon.stderr)")
        let garbage = await harness.run("post whenever --at someday")
        #expect(garbage.status == 2)
        #expect(garbage.stderr.contains("+30m, +1h, +2d, HH:MM, or ISO 8601"), "\(garbage.stderr)")
    }

    @Test("on Weibo, edit, edits, post --at, scheduled and unschedule say in one line that the API cannot, sending nothing")
    func weiboRefuses() async throws {
        let harness = try await ShellHarness()
        #expect(await harness.run("fetch 2").status == 0)
        for (command, line) in [("edit 1 x", "this API (weibo) cannot edit a status"),
                                ("edits 1", "this API (weibo) cannot edit a status, so has no edit history"),
                                ("post later --at +1h", "this API (weibo) cannot schedule a status"),
                                ("scheduled", "this API (weibo) cannot schedule a status"),
                                ("unschedule 1", "this API (weibo) cannot schedule a status")] {
            let refused = await harness.run("trace on\n" + command)
            #expect(refused.status == 2, "\(command): \(refused.stderr)")
            #expect(refused.stderr.contains(line), "\(command): \(refused.stderr)")
            #expect(refused.stderr.split(separator: "\n").count == 1, "\(command): \(refused.stderr)")
            #expect(!(refused.stdout + refused.stderr).contains("GET ") && !(refused.stdout + refused.stderr).contains("POST "))
        }
        let help = await harness.run("help edit\nhelp scheduled")
        #expect(help.stdout.contains("Not on this API: weibo has no status edits."), "\(help.stdout)")
        #expect(help.stdout.contains("Not on this API: weibo has no scheduled statuses."), "\(help.stdout)")
        let list = await harness.run("help")
        for command in ["edit", "edits", "scheduled", "unschedule"] {
            let line = list.stdout.split(separator: "\n").first { $0.hasPrefix("  \(command) ") }
            #expect(line?.hasSuffix(" [not on weibo]") == true, "\(command): \(line ?? "missing")")
        }
    }
}
