import Foundation
import Testing
import WshTestSupport
@testable import WshShell

/// `-x` and `--keep-going` through the real loop, as a user of `sh -x` and of psql
/// without `ON_ERROR_STOP` expects them: every command that runs is echoed on
/// stderr with its words expanded, one `+` per level; a failure is printed and the
/// run goes on with the next command, and ends with the first failure's status.
@Suite("-x and --keep-going through the real loop")
struct EchoKeepGoingTranscriptTests {
    /// The `+` lines of stderr.
    private func echoed(_ transcript: Transcript) -> [String] {
        transcript.stderr.split(separator: "\n").map(String.init).filter { $0.hasPrefix("+") }
    }

    // MARK: -x

    @Test("-x echoes echo and set, the commands the compiler turns into instructions (issue 25)")
    func echoesCompiledForms() async throws {
        let harness = try await ShellHarness(echo: true)
        let transcript = await harness.run("echo a; set b 2")
        #expect(transcript.status == 0)
        #expect(transcript.stdout == "a\n")
        #expect(transcript.stderr == "+ echo a\n+ set b 2\n")
    }

    @Test("-x echoes every compiled form with its words expanded, and each evaluated condition")
    func everyForm() async throws {
        let folder = WshProcess.temporaryDirectory()
        let library = folder + "/lib.wsh"
        try "set greeting hello\ndef greet { echo $greeting $1 }\n".write(toFile: library, atomically: true, encoding: .utf8)
        let harness = try await ShellHarness(echo: true)
        let script = """
            set x 3
            let y = $x * 2 + 1
            expr $y - 1
            if $x > 5 { echo big } elif $x > 1 { echo mid } else { echo small }
            for i in a "b c" { echo $i }
            set n 0
            while $n < 2 { let n = $n + 1 }
            repeat 2 { echo r }
            def twice { echo $1 $1 }
            twice hi
            try { nosuch } catch { echo caught: $error }
            source \(library)
            greet you
            fetch 2
            """
        let transcript = await harness.run(script)
        #expect(transcript.status == 0, "\(transcript.stderr)")
        #expect(transcript.stdout == "6\nmid\na\nb c\nr\nr\nhi hi\ncaught: unknown command\nhello you\n")
        #expect(echoed(transcript) == [
            "+ set x 3",
            "+ let y = 3 * 2 + 1",
            "+ expr 7 - 1",
            "+ if 3 > 5", "+ elif 3 > 1", "+ echo mid",
            "+ for i in a 'b c'", "+ echo a", "+ echo 'b c'",
            "+ set n 0",
            "+ while 0 < 2", "+ let n = 0 + 1", "+ while 1 < 2", "+ let n = 1 + 1", "+ while 2 < 2",
            "+ repeat 2", "+ echo r", "+ echo r",
            "+ def twice", "+ twice hi", "++ echo hi hi",
            "+ try", "+ nosuch", "+ catch", "+ echo caught: 'unknown command'",
            "+ source \(library)", "++ set greeting hello", "++ def greet",
            "+ greet you", "++ echo hello you",
            "+ fetch 2",
        ])
    }

    @Test("-x adds a + for each function call, sourced file and $(…), and echoes nothing for lines that do not run")
    func nestingAndUntakenBranches() async throws {
        let harness = try await ShellHarness(echo: true)
        let script = """
            def inner { echo $(expr $1 + 1) }
            def outer { inner $1 }
            outer 1
            if 0 { echo not run; fetch 1 } else { echo run }
            set k 0; while $k > 0 { echo never }
            for w in { echo never }
            try { echo fine } catch { echo never }
            """
        let transcript = await harness.run(script)
        #expect(transcript.status == 0, "\(transcript.stderr)")
        #expect(transcript.stdout == "2\nrun\nfine\n")
        #expect(echoed(transcript) == [
            "+ def inner", "+ def outer",
            "+ outer 1", "++ inner 1", "++++ expr 1 + 1", "+++ echo 2",
            "+ if 0", "+ echo run",
            "+ set k 0", "+ while 0 > 0",
            "+ for w in",
            "+ try", "+ echo fine",
        ])
        #expect(!transcript.stderr.contains("never") && !transcript.stderr.contains("not run"))
    }

    @Test("-x lines mask secrets like every other line")
    func masksSecrets() async throws {
        let harness = ShellHarness(api: "http://127.0.0.1:9/", token: "sekrit-token-value", echo: true)
        let transcript = await harness.run("set t sekrit-token-value; let u = \"sekrit-token-value\" == $t")
        #expect(transcript.status == 0, "\(transcript.stderr)")
        #expect(echoed(transcript) == ["+ set t ***", "+ let u = *** == ***"])
        #expect(!transcript.stderr.contains("sekrit"))
    }

    // MARK: --keep-going

    @Test("--keep-going goes on with the command after ; and exits 1 at the end (issue 25)")
    func keepGoingAfterSemicolon() async throws {
        let harness = try await ShellHarness(keepGoing: true)
        let transcript = await harness.run("nosuch_cmd; echo after")
        #expect(transcript.status == 1)
        #expect(transcript.stdout == "after\n")
        #expect(transcript.stderr == "-c:1: nosuch_cmd: unknown command\n")
    }

    @Test("--keep-going goes on after failures on later lines and inside loops, conditionals and functions")
    func keepGoingInBlocks() async throws {
        let harness = try await ShellHarness(keepGoing: true)
        let script = """
            fetch 3
            for i in 1 9 2 { detail $i; echo row $i }
            def check { assert $1 < 3 "row $1 is past the end"; echo checked $1 }
            check 2; check 7
            if 1 { let n = $count / 0; echo in if }
            echo "[$(nosuch; echo inner)]"
            echo end
            """
        let transcript = await harness.run(script, name: "s.wsh")
        #expect(transcript.status == 1)
        // The script's own lines, without the statuses `detail` shows.
        let marks = ["row ", "checked ", "in if", "[", "end"]
        let lines = transcript.stdout.split(separator: "\n").filter { line in marks.contains { line.hasPrefix($0) } }
        #expect(lines == ["row 1", "row 9", "row 2", "checked 2", "checked 7", "in if", "[inner]", "end"])
        let errors = transcript.stderr.split(separator: "\n").filter { $0.hasPrefix("s.wsh:") }
        #expect(errors == [
            "s.wsh:2: detail: no row 9: the list has 3 rows",
            "s.wsh:3: assert: row 7 is past the end",
            "s.wsh:5: let: division by zero",
            "s.wsh:6: nosuch: unknown command",
        ])
    }

    @Test("--keep-going skips a line that does not parse, and ends with the first failure's status")
    func keepGoingStatuses() async throws {
        let harness = try await ShellHarness(keepGoing: true)
        let skipped = await harness.run("echo a\necho b; } ; echo c\necho d")
        #expect(skipped.stdout == "a\nd\n")
        #expect(skipped.stderr == "-c:2: syntax error: unexpected close-brace\n")
        #expect(skipped.status == 2)
        let failedFirst = await harness.run("nosuch; let x; echo on")
        #expect(failedFirst.status == 1)
        #expect(failedFirst.stdout == "on\n")
        let usageFirst = await harness.run("let x; nosuch; echo on")
        #expect(usageFirst.status == 2)
        #expect(usageFirst.stdout == "on\n")
        // A plain `exit` still reports the failure it ran past; `exit N` is N.
        let exited = await harness.run("nosuch; echo before; exit; echo never")
        #expect(exited.status == 1)
        #expect(exited.stdout == "before\n")
        let exitedWith = await harness.run("nosuch; exit 3\necho never")
        #expect(exitedWith.status == 3)
        #expect(exitedWith.stdout.isEmpty)
        // `try` still catches: nothing failed.
        let caught = await harness.run("try { nosuch; echo skipped } catch { echo caught }; echo after")
        #expect(caught.status == 0)
        #expect(caught.stdout == "caught\nafter\n")
        #expect(caught.stderr.isEmpty)
    }

    @Test("-x with --keep-going shows each command before the error it ends in")
    func echoAndKeepGoing() async throws {
        let harness = try await ShellHarness(echo: true, keepGoing: true)
        let transcript = await harness.run("nosuch_cmd; echo after\nlet q = 1 / 0; echo $?")
        #expect(transcript.status == 1)
        #expect(transcript.stdout == "after\n1\n")
        #expect(transcript.stderr == """
            + nosuch_cmd
            -c:1: nosuch_cmd: unknown command
            + echo after
            + let q = 1 / 0
            -c:2: let: division by zero
            + echo 1

            """)
    }
}
