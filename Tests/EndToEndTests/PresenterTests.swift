import Foundation
import Testing
import WshTestSupport

/// `wsh --present LESSON`: a lesson as a script without a terminal, and
/// command by command, key by key, on one.
@Suite("Presenter mode", .serialized)
struct PresenterTests {
    static let lesson = """
        #!/usr/bin/env wsh
        # The calculator is a ViewModel too.
        # Each calc is one operation in the history.
        calc 12 +

        # pause
        calc 7 =
        # Now step back with b.
        led

        """

    /// Whether the LED shows `value` on `screen` (boxed or plain, as the terminal allows).
    func ledShows(_ value: String, on screen: String) -> Bool {
        screen.split(separator: "\n").contains { line in
            !line.contains(">") && line.trimmingCharacters(in: CharacterSet(charactersIn: " │")) == value
        }
    }

    @Test("without a terminal the lesson runs straight through: the output and exit status of the same script")
    func withoutTerminal() async throws {
        let path = try WshProcess.writeScript(Self.lesson, name: "lesson.wsh")
        let presented = try await WshProcess.run(["--present", path])
        let script = try await WshProcess.run([path])
        #expect(presented.status == 0, "\(presented.stderr)")
        #expect(presented.stdout == script.stdout)
        #expect(presented.stdout.contains("19"))
        #expect(presented.stderr == script.stderr)

        let failing = try WshProcess.writeScript("calc 1\ndetail 99\ncalc 2\n", name: "failing.wsh")
        let failed = try await WshProcess.run(["--present", failing])
        let asScript = try await WshProcess.run([failing])
        #expect(failed.status == 1)
        #expect(failed.status == asScript.status)
        #expect(failed.stdout == asScript.stdout)
    }

    @Test("--present with -c is a usage error")
    func withCommand() async throws {
        let run = try await WshProcess.run(["--present", "lesson.wsh", "-c", "led"])
        #expect(run.status == 2)
        #expect(run.stderr.contains("give -c or --present, not both"))
    }

    @Test("on a terminal: narration shows dimmed above the command, Enter runs it, # pause waits, b undoes and moves back, s skips",
          .enabled(if: Tmux.isAvailable, "needs tmux"))
    func onTerminal() async throws {
        let path = try WshProcess.writeScript(Self.lesson, name: "lesson.wsh")
        let tmux = try Tmux(command: "\(WshProcess.binary) --present \(path)",
                            environment: ["HOME": WshProcess.temporaryDirectory(), "TERM": "xterm-256color"])
        defer { tmux.kill() }
        var screen = try await tmux.waitFor { $0.contains("> calc 12 +") }
        #expect(screen.contains("# The calculator is a ViewModel too.\n# Each calc is one operation in the history."))
        // Shown, not run: no LED yet.
        #expect(!ledShows("12", on: screen))

        try tmux.send("Enter")
        screen = try await tmux.waitFor { $0.contains("(paused: press a key)") }
        #expect(ledShows("12", on: screen))
        #expect(!screen.contains("calc 7 ="))

        try tmux.send("Space")
        try await tmux.waitFor { $0.contains("> calc 7 =") }
        try tmux.send("Space")
        screen = try await tmux.waitFor { $0.contains("> led") }
        #expect(ledShows("19", on: screen))
        #expect(screen.contains("# Now step back with b."))

        // b: the last operation is undone and the lesson shows calc 7 = again.
        try tmux.type("b")
        screen = try await tmux.waitFor { $0.contains("undone: calc 7 =") && $0.trimmingCharacters(in: .whitespacesAndNewlines).hasSuffix("> calc 7 =") }

        try tmux.type("s")
        screen = try await tmux.waitFor { $0.contains("(skipped)") && $0.trimmingCharacters(in: .whitespacesAndNewlines).hasSuffix("> led") }
        try tmux.send("Enter")
        #expect(try await tmux.waitForExit() == 0)
        screen = try tmux.screen()
        let afterSkip = screen.components(separatedBy: "(skipped)").last ?? ""
        #expect(ledShows("12", on: afterSkip), "\(screen)")
        #expect(!ledShows("19", on: afterSkip))
    }

    @Test("on a terminal q ends the lesson at once", .enabled(if: Tmux.isAvailable, "needs tmux"))
    func quit() async throws {
        let path = try WshProcess.writeScript(Self.lesson, name: "lesson.wsh")
        let tmux = try Tmux(command: "\(WshProcess.binary) --present \(path)",
                            environment: ["HOME": WshProcess.temporaryDirectory(), "TERM": "xterm-256color"])
        defer { tmux.kill() }
        try await tmux.waitFor { $0.contains("> calc 12 +") }
        try tmux.type("q")
        #expect(try await tmux.waitForExit() == 0)
        #expect(!ledShows("12", on: try tmux.screen()))
    }
}
