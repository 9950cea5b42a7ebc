import Foundation
import Testing
@testable import WshShell

/// `state`, `state --json` and `state --diff` through the real loop.
@Suite("state: the Top ViewModel's state, shown")
struct StateTranscriptTests {
    @Test("given each kind of operation when undone then state --json is byte for byte what it was before, and redo gives back the after-state")
    func undoRestoresStateJSON() async throws {
        let harness = try await ShellHarness()
        _ = await harness.run("fetch 5")
        for operation in ["more", "detail 2", "mute 3", "calc 12 + 7 =", "comments 1", "fetch 2 --page 2"] {
            let before = await harness.run("state --json")
            #expect(before.status == 0)
            let done = await harness.run(operation)
            #expect(done.status == 0, "\(operation): \(done.stderr)")
            let after = await harness.run("state --json")
            #expect(after.stdout != before.stdout, "\(operation) changed nothing")
            let undone = await harness.run("undo\nstate --json")
            #expect(undone.status == 0)
            #expect(undone.stdout == before.stdout, "undo \(operation)")
            let redone = await harness.run("redo\nstate --json")
            #expect(redone.stdout == after.stdout, "redo \(operation)")
            _ = await harness.run("undo")
        }
    }

    @Test("state is not recorded in the history")
    func stateIsNotRecorded() async throws {
        let harness = try await ShellHarness()
        let run = await harness.run("fetch 3\nstate\nstate --json\nstate --diff\nhistory")
        #expect(run.status == 0)
        #expect(run.stdout.hasSuffix("1  fetch 3 → 3 statuses\n"), "\(run.stdout)")
    }

    @Test("given a muted author when state then the tree shows the screens, the rows with the muted one marked, paging, muted users and the calculator")
    func stateTree() async throws {
        let harness = try await ShellHarness()
        let rows = try await harness.rows(after: "fetch 4")
        let author = try #require((rows[1]["user"] as? [String: Any])?["screen_name"] as? String)
        let run = await harness.run("mute \(author)\ndetail 1\ncalc 5 *\nstate")
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout.contains("├─ screens   list › detail of status \(rows[0]["idstr"] as? String ?? "?")"), "\(run.stdout)")
        #expect(run.stdout.contains("@\(author)  ✕ muted"), "\(run.stdout)")
        #expect(run.stdout.contains("├─ source    public · page size 4 · next: page 2"), "\(run.stdout)")
        #expect(run.stdout.contains("├─ muted     @\(author)"), "\(run.stdout)")
        #expect(run.stdout.contains("└─ calculator LED 5 · pending * · entries 5 *"), "\(run.stdout)")
    }

    @Test("state --diff names rows added by id, the screen pushed and popped, the muted user, LED before → after")
    func stateDiff() async throws {
        let harness = try await ShellHarness()
        let empty = await harness.run("state --diff --json")
        #expect(empty.stdout == "null\n")
        let rows = try await harness.rows(after: "fetch 2")
        let ids = rows.compactMap { $0["idstr"] as? String }
        let fetch = await harness.run("state --diff")
        #expect(fetch.stdout.contains("+ rows   2: \(ids.joined(separator: ", "))"), "\(fetch.stdout)")
        #expect(await harness.run("detail 1\nstate --diff").stdout.contains("+ screen pushed detail of status \(ids[0])"))
        #expect(await harness.run("back\nstate --diff").stdout.contains("- screen popped detail of status \(ids[0])"))
        #expect(await harness.run("mute bob\nstate --diff").stdout.contains("+ muted  @bob"))
        #expect(await harness.run("calc 3\nstate --diff").stdout.contains("~ LED    0 → 3"))
        let json = await harness.run("state --diff --json")
        let diff = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        #expect(diff["operation"] as? String == "calc 3")
        #expect((diff["led"] as? [String: String]) == ["before": "0", "after": "3"])
        #expect(Set(diff.keys) == ["operation", "rows_added", "rows_removed", "screens_pushed", "screens_popped",
                                   "muted_added", "muted_removed", "source", "led"])
    }

    @Test("state --json has the documented fields, every one present")
    func stateJSONFields() async throws {
        let harness = try await ShellHarness()
        let run = await harness.run("state --json")
        let state = try #require(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any])
        #expect(Set(state.keys) == ["screens", "rows", "source", "page_size", "next", "fetched", "muted", "calculator"])
        #expect(Set((state["calculator"] as? [String: Any] ?? [:]).keys) == ["led", "pending", "entries", "error"])
        #expect(state["next"] is NSNull)
    }

    @Test("every example line of help state and help trace runs and succeeds")
    func helpExamples() async throws {
        let harness = try await ShellHarness()
        let help = await harness.run("help state\nhelp trace").stdout
        let examples = help.split(separator: "\n").map { $0.trimmingPrefix(while: { $0 == " " }) }
            .filter { $0.hasPrefix("fetch 5;") || $0.hasPrefix("set before") || $0.hasPrefix("trace on --json;") }
        #expect(examples.count == 3, "\(help)")
        _ = await harness.run("fetch 5")
        for example in examples {
            let run = await harness.run(String(example))
            #expect(run.status == 0, "\(example): \(run.stderr)")
        }
    }
}
