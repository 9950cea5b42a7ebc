import Foundation
import Testing
import WshSandbox

/// Writes against the real sandbox, through the real loop and libcurl: undo
/// takes a post back on the server, and a post whose answer is lost is
/// reported as what the server shows, exactly once.
@Suite("Remote writes through the shell and the sandbox")
struct RemoteWriteTranscriptTests {
    /// The account's statuses on the sandbox with `text`.
    func ownStatuses(_ harness: ShellHarness, text: String) async throws -> [[String: Any]] {
        let transcript = await harness.run("api get statuses/user_timeline.json count=100")
        let page = try JSONSerialization.jsonObject(with: Data(transcript.stdout.utf8)) as? [String: Any]
        let statuses = page?["statuses"] as? [[String: Any]] ?? []
        return statuses.filter { $0["text"] as? String == text }
    }

    @Test("post hello; undo deletes the status on the server; history marks the post ⇅ and remote")
    func postUndo_deletesOnServer() async throws {
        let harness = try await ShellHarness()
        let posted = await harness.run("fetch 2\npost hello from wsh\nhistory\nhistory --json")
        #expect(posted.status == 0, "\(posted.stderr)")
        #expect(posted.stdout.hasPrefix("1  fetch 2 → 2 statuses\n2  ⇅ post \"hello from wsh\"\n"))
        let json = posted.stdout.split(separator: "\n", maxSplits: 2).dropFirst(2).joined()
        let entries = try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [[String: Any]]
        #expect(entries?.map { $0["remote"] as? Bool } == [false, true])
        #expect(entries?.last?["operation"] as? String == "post \"hello from wsh\"")
        let id = try #require(try await harness.rows().first?["idstr"] as? String)
        #expect(await harness.run("api get statuses/show.json id=\(id)").status == 0)

        let undone = await harness.run("undo")
        #expect(undone.status == 0, "\(undone.stderr)")
        #expect(undone.stderr.contains("deleted status \(id) on the server"))
        #expect(undone.stderr.contains("undone: post \"hello from wsh\""))
        let gone = await harness.run("api get statuses/show.json id=\(id)")
        #expect(gone.status == 1)
        #expect(gone.stderr.contains("20101"))
        #expect(harness.sandbox.stats.deletions == 1)
        #expect(try await harness.rows().count == 2)
    }

    @Test("a post whose answer the sandbox loses after posting is a success, reported once; the server has it once")
    func lostAnswer_landedOnce() async throws {
        let harness = try await ShellHarness()
        // A kept-alive connection first: a client must not silently resend the POST on it.
        #expect(await harness.run("fetch 3").status == 0)
        harness.sandbox.setFaults(SandboxFaults(dropAfter: true, path: "statuses/update.json"))

        let transcript = await harness.run("post landed once")

        #expect(transcript.status == 0, "\(transcript.stderr)")
        #expect(transcript.stderr.contains("the answer was lost; found the status on the server"))
        #expect(harness.sandbox.stats.posts == 1)
        harness.sandbox.setFaults(SandboxFaults())
        #expect(try await ownStatuses(harness, text: "landed once").count == 1)
        #expect(try await harness.rows().first?["text"] as? String == "landed once")
        #expect(await harness.run("history").stdout == "1  fetch 3 → 3 statuses\n2  ⇅ post \"landed once\"\n")
    }

    @Test("a post dropped before the sandbox posts is a failure saying nothing was posted; nothing is on the server")
    func lostAnswer_notPosted() async throws {
        let harness = try await ShellHarness()
        harness.sandbox.setFaults(SandboxFaults(drop: true, path: "statuses/update.json"))

        let transcript = await harness.run("post never landed\necho unreachable", name: "job.wsh")

        #expect(transcript.status == 1)
        #expect(transcript.stderr.contains("job.wsh:1: post:"))
        #expect(transcript.stderr.contains("the server shows nothing was posted"))
        #expect(!transcript.stdout.contains("unreachable"))
        #expect(harness.sandbox.stats.posts == 0)
        harness.sandbox.setFaults(SandboxFaults())
        #expect(try await ownStatuses(harness, text: "never landed").isEmpty)
        #expect(await harness.run("history").stdout == "")
    }

    @Test("an undo whose delete fails exits 1 in a script and changes nothing")
    func undoFails_inScript() async throws {
        let harness = try await ShellHarness()
        #expect(await harness.run("post keep me").status == 0)
        harness.sandbox.setFaults(SandboxFaults(failStatus: 500, failRate: 1, path: "statuses/destroy.json"))

        let failed = await harness.run("undo\necho unreachable", name: "job.wsh")

        #expect(failed.status == 1)
        #expect(failed.stderr.contains("job.wsh:1: undo: cannot undo post \"keep me\": deleting status"))
        #expect(!failed.stdout.contains("unreachable"))
        harness.sandbox.setFaults(SandboxFaults())
        #expect(await harness.run("history").stdout == "1  ⇅ post \"keep me\"\n")
        #expect(try await ownStatuses(harness, text: "keep me").count == 1)
        #expect(try await harness.rows().first?["text"] as? String == "keep me")
    }

    @Test("history --effects says under a write what it changed on the server and what undo sends; history alone does not")
    func historyEffects_sayWhatUndoSends() async throws {
        let harness = try await ShellHarness()
        #expect(await harness.run("fetch 2\nfavorite 1").status == 0)
        let id = try #require(try await harness.rows().first?["idstr"] as? String)

        let shown = await harness.run("history --effects")
        #expect(shown.status == 0, "\(shown.stderr)")
        #expect(shown.stdout == "1  fetch 2 → 2 statuses\n2  ⇅ favorite 1\n     favourited status \(id) · undo unfavourites\n")
        #expect(await harness.run("history").stdout == "1  fetch 2 → 2 statuses\n2  ⇅ favorite 1\n")
        let json = await harness.run("history --effects --json")
        let entries = try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [[String: Any]]
        #expect(entries?.map { $0["effect"] as? String } == [nil, "favourited status \(id) · undo unfavourites"])

        // What it said undo sends is what undo sends.
        let undone = await harness.run("undo\nhistory --effects")
        #expect(undone.status == 0, "\(undone.stderr)")
        #expect(undone.stderr.contains("unfavourited status \(id)"), "\(undone.stderr)")
        #expect(undone.stdout == "1  fetch 2 → 2 statuses\n")
    }

    @Test("redo posts again, and clear leaves the server alone")
    func redoAndClear() async throws {
        let harness = try await ShellHarness()
        let transcript = await harness.run("post round trip\nundo\nredo\nclear")
        #expect(transcript.status == 0, "\(transcript.stderr)")
        #expect(transcript.stderr.contains("posted again as status"))
        #expect(harness.sandbox.stats.posts == 2)
        #expect(harness.sandbox.stats.deletions == 1)
        #expect(try await ownStatuses(harness, text: "round trip").count == 1)
    }

    @Test("fetch 1 says 1 status · 1 row")
    func fetchOne_singular() async throws {
        let harness = try await ShellHarness()
        let transcript = await harness.run("fetch 1")
        #expect(transcript.stderr.contains("fetched 1 status · 1 row\n"))
    }
}
