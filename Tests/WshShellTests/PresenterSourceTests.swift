import Synchronization
import Testing
@testable import WshShell

/// The lesson a presenter steps through, without a terminal: keys come from a list.
@Suite("PresenterSource: a lesson, key by key")
struct PresenterSourceTests {
    @Test("a lesson's stops: comment lines right above a command are its narration, a blank line ends narration, # pause waits, a brace spans lines")
    func steps() {
        let steps = PresenterSource.steps(in: """
            #!/usr/bin/env wsh
            # stray comment

            # Fetch five.
            fetch 5
            # Look closer.
            # pause
            for i {1 2} {
              echo $i
            }
            """)
        #expect(steps == [
            .init(kind: .command(["fetch 5"]), narration: ["Fetch five."]),
            .init(kind: .pause, narration: ["Look closer."]),
            .init(kind: .command(["for i {1 2} {", "  echo $i", "}"]), narration: []),
        ])
    }

    @Test("Enter runs, s skips, b undoes the last operation and shows its command again, q ends; output is what the prompt prints")
    func keys() async throws {
        let harness = try await ShellHarness()
        let keys = Mutex(Array("\rs b\rq".utf8))
        let shown = Mutex("")
        let source = PresenterSource(
            name: "lesson.wsh", text: "# Twelve.\ncalc 12 +\ncalc 1 =\ncalc 7 =\nled\n", style: Style(enabled: false),
            readKey: { keys.withLock { $0.isEmpty ? nil : $0.removeFirst() } },
            show: { text in shown.withLock { $0 += text } })
        let run = await harness.run(source: source)
        #expect(run.status == 0)
        let screen = shown.withLock { $0 }
        #expect(screen.hasPrefix("# Twelve.\n"))
        #expect(screen.contains("calc 1 =  (skipped)"))
        #expect(screen.contains("(back: undo)"))
        #expect(run.stderr.contains("undone: calc 7 ="))
        // Run: 12 +, (skip 1 =), 7 = → 19, back → 12, 7 = again → 19, then led is shown and q ends before it runs.
        #expect(await harness.run("history").stdout == "1  calc 12 +\n2  calc 7 =\n")
        #expect(screen.hasSuffix("> led\n"), "shown, then q: \(screen)")
    }
}
