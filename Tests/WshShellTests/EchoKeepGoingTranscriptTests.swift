import Foundation
import Testing
import WshTestSupport
@testable import WshShell

/// `-x` through the real loop, as a user of `sh -x` expects it: every command that
/// runs is echoed on stderr with its words expanded, one `+` per level.
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
}
