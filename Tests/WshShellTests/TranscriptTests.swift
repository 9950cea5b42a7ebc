import Foundation
import Testing
import WshTestSupport
import WshSandbox
@testable import WshShell

/// The behaviours of the shell's commands, through the real loop and an
/// in-process sandbox: what a user types, what stdout and stderr show.
@Suite("Transcripts through the real loop")
struct TranscriptTests {
    @Test("fetch 5; list --json gives 5 statuses with the API's field names")
    func fetchAndListJSON() async throws {
        let harness = try await ShellHarness()
        let rows = try await harness.rows(after: "fetch 5")
        #expect(rows.count == 5)
        let first = try #require(rows.first)
        #expect(first["index"] as? Int == 1)
        #expect((first["idstr"] as? String)?.count == 16)
        #expect(first["id"] is NSNumber)
        #expect((first["created_at"] as? String)?.contains("+0800") == true)
        #expect(first["text"] is String)
        #expect((first["user"] as? [String: Any])?["screen_name"] is String)
    }

    @Test("fetch sets $count and notes on stderr, leaving stdout for results")
    func fetchSetsCount() async throws {
        let harness = try await ShellHarness()
        let transcript = await harness.run("fetch 7\necho $count")
        #expect(transcript.status == 0)
        #expect(transcript.stdout == "7\n")
        #expect(transcript.stderr.contains("fetched 7 statuses"))
    }

    @Test("fetch 5; more gives 10 distinct rows")
    func more() async throws {
        let harness = try await ShellHarness()
        let rows = try await harness.rows(after: "fetch 5\nmore")
        #expect(rows.count == 10)
        #expect(Set(rows.compactMap { $0["idstr"] as? String }).count == 10)
    }

    @Test("fetch 5; fetch 3; undo gives 5 rows again and redo 3")
    func undoRedo() async throws {
        let harness = try await ShellHarness()
        #expect(try await harness.rows(after: "fetch 5\nfetch 3\nundo").count == 5)
        #expect(try await harness.rows(after: "redo").count == 3)
        let transcript = await harness.run("undo")
        #expect(transcript.stderr.contains("undone: fetch 3"))
    }

    @Test("fetch 5; detail 2; history shows 2 numbered operations")
    func history() async throws {
        let harness = try await ShellHarness()
        let transcript = await harness.run("fetch 5\ndetail 2 --json\nhistory")
        #expect(transcript.status == 0)
        #expect(transcript.stdout.hasSuffix("1  fetch 5 → 5 statuses\n2  detail 2\n"))
    }

    @Test("clear leaves no rows and no history")
    func clear() async throws {
        let harness = try await ShellHarness()
        let transcript = await harness.run("fetch 5\ncalc 1 + 1 =\nclear\nhistory\nlist\nled")
        #expect(transcript.stdout == "0\n")
        #expect(try await harness.rows().isEmpty)
    }

    @Test("calc 5 + 5 =; calc + 1 =; undo; led shows 10")
    func calculator() async throws {
        let harness = try await ShellHarness()
        #expect(await harness.run("calc 5 + 5 =\ncalc + 1 =\nled").stdout == "11\n")
        #expect(await harness.run("undo\nled").stdout == "10\n")
        #expect(await harness.run("calc C 12 + 7 * 2 =\nled").stdout == "38\n")
        #expect(await harness.run("calc C 0.1 + 0.2 =\nled").stdout == "0.3\n")
        #expect(await harness.run("calc C 1 / 0 =\nled").stdout == "Error\n")
    }

    @Test("mute NAME hides that author's rows and undo brings them back")
    func mute() async throws {
        let harness = try await ShellHarness()
        let all = try await harness.rows(after: "fetch 30")
        let author = try #require((all.first?["user"] as? [String: Any])?["screen_name"] as? String)
        let byAuthor = all.filter { (($0["user"] as? [String: Any])?["screen_name"] as? String) == author }.count
        let muted = try await harness.rows(after: "mute \(author)")
        #expect(muted.count == all.count - byAuthor)
        #expect(!muted.contains { (($0["user"] as? [String: Any])?["screen_name"] as? String) == author })
        #expect(try await harness.rows(after: "undo").count == all.count)
    }

    @Test("a failing fetch keeps the previous rows and history, exits 1 and names the line")
    func failingFetchKeepsState() async throws {
        let harness = try await ShellHarness()
        _ = await harness.run("fetch 5")
        harness.sandbox.setFaults(SandboxFaults(failStatus: 500, failRate: 1))
        let failed = await harness.run("history\nfetch 3\necho never", name: "job.wsh")
        #expect(failed.status == 1)
        #expect(failed.stderr.contains("job.wsh:2: fetch:"))
        #expect(failed.stderr.contains("10001") || failed.stderr.contains("500"))
        #expect(!failed.stdout.contains("never"))
        harness.sandbox.setFaults(SandboxFaults())
        #expect(try await harness.rows().count == 5)
        #expect(await harness.run("history").stdout == "1  fetch 5 → 5 statuses\n")
    }

    @Test("an interactive session prints an error and goes on")
    func interactiveGoesOn() async throws {
        let harness = try await ShellHarness()
        let transcript = await harness.run("detail 4\necho still here", interactive: true)
        #expect(transcript.status == 0)
        #expect(transcript.stdout.contains("still here"))
        #expect(transcript.stderr.contains("detail: no row 4"))
        #expect(!transcript.stderr.contains("<prompt>:"))
    }

    @Test("an open brace asks for more lines and runs once closed")
    func continuation() async throws {
        let harness = try await ShellHarness()
        let transcript = await harness.run("for i in a b {\n  echo $i\n}", interactive: true)
        #expect(transcript.stdout == "a\nb\n")
    }

    @Test("usage errors exit 2 and say what was wrong")
    func usage() async throws {
        let harness = try await ShellHarness()
        let transcript = await harness.run("fetch lots")
        #expect(transcript.status == 2)
        #expect(transcript.stderr.contains("unknown timeline 'lots': public, local, home, tag NAME, user NAME, mentions, reposts ROW, list NAME, bookmarks or favourites"))
        let notANumber = await harness.run("fetch home lots")
        #expect(notANumber.status == 2)
        #expect(notANumber.stderr.contains("N must be a whole number, not 'lots'"))
        for line in ["fetch user", "fetch home 5 6", "fetch home --page 2", "fetch --limit 5", "fetch --all --page 2"] {
            #expect(await harness.run(line).status == 2, "\(line)")
        }
        #expect(await harness.run("detail").status == 2)
        for line in ["fetch 0", "fetch 201", "fetch 999", "fetch 5 --page 0"] {
            let outOfRange = await harness.run(line)
            #expect(outOfRange.status == 2, "\(line)")
            #expect(outOfRange.stderr.contains("must be 1 to"), "\(line): \(outOfRange.stderr)")
        }
    }

    @Test("text from the API is stripped of terminal control sequences in every view")
    func controlSequencesStripped() async throws {
        let harness = try await ShellHarness()
        harness.shell.interpreter.setVariable("evil", to: .string("hi" + HostileText.payload + " there!"))
        let transcript = await harness.run("post $evil\nlist\nlist --json\ndetail 1\ndetail 1 --json\nhistory\nhistory --json")
        #expect(transcript.status == 0)
        #expect(!HostileText.leaks(transcript.stdout + transcript.stderr), "\((transcript.stdout + transcript.stderr).debugDescription)")
        #expect(transcript.stdout.contains("hi"))
        #expect(transcript.stdout.contains(" there!"))
    }

    @Test("trace on shows each layer on stderr, with the token masked")
    func trace() async throws {
        let harness = try await ShellHarness(token: "tok-TRACE-42")
        let transcript = await harness.run("trace on\nfetch 2\ndetail 1\napi get statuses/show.json id=1")
        #expect(transcript.stdout.contains("@"))
        for layer in ["ViewModel", "DataController", "Request", "Response", "Model", "View", "answered from the cache"] {
            #expect(transcript.stderr.contains(layer), "\(layer)")
        }
        #expect(transcript.stderr.contains("GET http://127.0.0.1:"))
        #expect(!(transcript.stdout + transcript.stderr).contains("tok-TRACE-42"))
    }

    @Test("--json makes list, history and status answer in JSON")
    func globalJSON() async throws {
        let harness = try await ShellHarness(json: true)
        let transcript = await harness.run("fetch 2\nhistory")
        let history = try JSONSerialization.jsonObject(with: Data(transcript.stdout.utf8)) as? [[String: Any]]
        #expect(history?.first?["operation"] as? String == "fetch 2 → 2 statuses")
        #expect(try await harness.rows().count == 2)
    }

    @Test("api prints the API's JSON, and an API error fails the command after printing it")
    func api() async throws {
        let harness = try await ShellHarness()
        let ok = await harness.run("api get statuses/public_timeline.json count=1")
        #expect(ok.status == 0)
        #expect(ok.stdout.contains("\"statuses\": ["))
        let missing = await harness.run("api get statuses/show.json id=1")
        #expect(missing.status == 1)
        #expect(missing.stdout.contains("20101"))
        #expect(missing.stderr.contains("API error 20101"))
    }

    @Test("help is rendered from the command table, shell commands included")
    func help() async throws {
        let harness = try await ShellHarness()
        let all = await harness.run("help")
        for name in ["fetch", "more", "list", "detail", "back", "comments", "user", "mute", "unmute", "post",
                     "calc", "led", "history", "undo", "redo", "clear", "api", "connect", "status", "ping", "trace"] {
            #expect(all.stdout.contains(name), "\(name)")
        }
        #expect(await harness.run("help fetch").stdout.contains("--page"))
    }

    @Test("TAB candidates: command names, options, row numbers")
    func completion() async throws {
        let harness = try await ShellHarness()
        #expect(harness.shell.completions(forLine: "fe").contains("fetch"))
        #expect(harness.shell.completions(forLine: "list --j") == ["--json"])
        _ = await harness.run("fetch 3")
        #expect(harness.shell.completions(forLine: "detail ") == ["1", "2", "3"])
    }

    @Test("the prompt shows the connection and the row count")
    func prompt() async throws {
        let harness = try await ShellHarness()
        #expect(harness.shell.prompt() == "wsh sandbox [0]> ")
        _ = await harness.run("fetch 4")
        #expect(harness.shell.prompt() == "wsh sandbox [4]> ")
    }
}
