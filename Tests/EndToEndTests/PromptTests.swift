import Foundation
import Testing
import WshSandbox
import WshTestSupport
#if canImport(Glibc)
import Glibc
#endif

/// The interactive prompt, driven through a real terminal (tmux): what a
/// person typing sees.
@Suite("The prompt in a terminal", .serialized, .enabled(if: Tmux.isAvailable, "needs tmux"))
struct PromptTests {
    /// Starts wsh in tmux against `sandbox`, with its own HOME.
    func startWsh(_ sandbox: SandboxServer, home: String) async throws -> Tmux {
        let tmux = try Tmux(command: "\(WshProcess.binary) --api \(sandbox.baseURL)",
                            environment: ["HOME": home, "WSH_ACCESS_TOKEN": sandbox.token, "TERM": "xterm-256color"])
        let screen = try await tmux.waitFor { $0.contains("[0]>") }
        #expect(screen.contains("wsh 127.0.0.1:\(sandbox.port) [0]>"))
        return tmux
    }

    @Test("TAB completes commands, options and row numbers; the prompt counts rows; non-ASCII edits")
    func completionAndPrompt() async throws {
        let sandbox = try await SandboxServer.start(SandboxConfiguration())
        defer { Thread.detachNewThread { sandbox.stop() } }
        let tmux = try await startWsh(sandbox, home: WshProcess.temporaryDirectory())
        defer { tmux.kill() }

        try tmux.type("fet")
        try tmux.send("Tab")
        try tmux.type("3")
        try tmux.send("Enter")
        var screen = try await tmux.waitFor { $0.contains("[3]>") }
        #expect(screen.contains("fetch 3"))

        try tmux.type("list --j")
        try tmux.send("Tab")
        #expect(try await tmux.waitFor { $0.contains("list --json") }.contains("list --json"))
        try tmux.send("C-u")

        try tmux.type("detail ")
        try tmux.send("Tab")
        screen = try await tmux.waitFor { $0.contains("1  2  3") }
        #expect(screen.contains("1  2  3"))
        try tmux.send("C-u")

        // Type, move left over a wide character, insert before it.
        try tmux.type("echo 微博😀")
        try tmux.send("Left", "Left")
        try tmux.type("é")
        try tmux.send("Enter")
        screen = try await tmux.waitFor { $0.contains("微é博😀\n") || $0.contains("微é博😀") }
        #expect(screen.contains("微é博😀"))
    }

    @Test("Ctrl-C clears the line at the prompt, and cancels a slow request within moments, keeping the rows")
    func controlC() async throws {
        let sandbox = try await SandboxServer.start(SandboxConfiguration())
        defer { Thread.detachNewThread { sandbox.stop() } }
        let tmux = try await startWsh(sandbox, home: WshProcess.temporaryDirectory())
        defer { tmux.kill() }

        try tmux.type("echo typed-but-dropped")
        _ = try await tmux.waitFor { $0.contains("> echo typed-but-dropped") }
        try tmux.send("C-c")
        // Type on only once the fresh prompt is drawn: keys sent sooner race the interrupt.
        _ = try await tmux.waitFor { $0.components(separatedBy: "[0]>").count >= 3 }
        try tmux.type("echo fresh")
        try tmux.send("Enter")
        var screen = try await tmux.waitFor { $0.contains("\nfresh") }
        #expect(screen.contains("\nfresh"))
        #expect(!screen.contains("typed-but-droppedecho"))

        try tmux.type("fetch 2")
        try tmux.send("Enter")
        try await tmux.waitFor { $0.contains("[2]>") }
        sandbox.setFaults(SandboxFaults(latencyMilliseconds: 20_000))
        let requestsBefore = sandbox.stats.requests
        try tmux.type("fetch 5")
        try tmux.send("Enter")
        // Ctrl-C once the request is in flight: the sandbox has counted it.
        try await waitUntil { sandbox.stats.requests > requestsBefore }
        let pressed = Date()
        try tmux.send("C-c")
        screen = try await tmux.waitFor(timeout: 5) { $0.contains("interrupted") && $0.hasSuffix("[2]>") || $0.contains("interrupted\nwsh") }
        #expect(Date().timeIntervalSince(pressed) < 2)
        #expect(screen.contains("fetch: interrupted"))
        sandbox.setFaults(SandboxFaults())
        try tmux.type("list")
        try tmux.send("Enter")
        screen = try await tmux.waitFor { $0.contains("\n2  @") }
        #expect(screen.contains("\n2  @"))
    }

    @Test("history persists across restarts in a 0600 file that never holds the token")
    func historyAcrossRestarts() async throws {
        let sandbox = try await SandboxServer.start(SandboxConfiguration())
        defer { Thread.detachNewThread { sandbox.stop() } }
        let home = WshProcess.temporaryDirectory()
        let first = try await startWsh(sandbox, home: home)
        try first.type("echo remembered-line")
        try first.send("Enter")
        try first.type("set secret \(sandbox.token)")
        try first.send("Enter")
        try await first.waitFor { $0.contains("remembered-line\n") }
        // The prompt after both lines: three prompts on screen, the last one empty.
        try await first.waitFor { $0.components(separatedBy: "]>").count >= 4 && promptShown($0) }
        try first.send("C-d")
        #expect(try await first.waitForExit() == 0)
        first.kill()

        let path = home + "/.local/state/wsh/history"
        let attributes = try FileManager.default.attributesOfItem(atPath: path)
        #expect((attributes[.posixPermissions] as? Int) == 0o600)
        let stored = try String(contentsOfFile: path, encoding: .utf8)
        #expect(stored.contains("remembered-line"))
        #expect(!stored.contains(sandbox.token))

        let second = try await startWsh(sandbox, home: home)
        defer { second.kill() }
        try second.send("Up", "Up")
        let screen = try await second.waitFor { $0.contains("> echo remembered-line") }
        #expect(screen.contains("> echo remembered-line"))
    }

    @Test("Ctrl-\\ at the prompt is ignored, as in bash: no crash report, the session goes on")
    func quitIgnoredAtPrompt() async throws {
        let sandbox = try await SandboxServer.start(SandboxConfiguration())
        defer { Thread.detachNewThread { sandbox.stop() } }
        let tmux = try await startWsh(sandbox, home: WshProcess.temporaryDirectory())
        defer { tmux.kill() }

        try tmux.type("echo half")
        // Ctrl-\ only once libedit has the line (it draws what it read).
        _ = try await tmux.waitFor { $0.contains("> echo half") }
        try tmux.send("C-\\")
        try tmux.type("_typed")
        try tmux.send("Enter")
        var screen = try await tmux.waitFor { $0.contains("\nhalf_typed") }
        // A command runs with the terminal's quit key live: ignored there too.
        try tmux.send("C-\\")
        try tmux.type("echo still-here")
        try tmux.send("Enter")
        screen = try await tmux.waitFor { $0.contains("\nstill-here") }
        #expect(!screen.contains("[exited"))
        #expect(!screen.contains("Crash") && !screen.contains("Backtrace"), "\(screen)")
        try await tmux.waitFor(promptShown)
        try tmux.send("C-d")
        #expect(try await tmux.waitForExit() == 0)
    }

    @Test("PgUp, PgDn, Insert, F5 insert nothing; Ctrl-Left/Right move by words; Home, End and Delete edit")
    func editingKeys() async throws {
        let sandbox = try await SandboxServer.start(SandboxConfiguration())
        defer { Thread.detachNewThread { sandbox.stop() } }
        let tmux = try await startWsh(sandbox, home: WshProcess.temporaryDirectory())
        defer { tmux.kill() }

        try tmux.type("echo one two")
        try tmux.send("PPage", "NPage", "IC", "F5", "C-Up")
        try tmux.send("C-Left")
        try tmux.type("X")
        try tmux.send("C-Left", "C-Left", "C-Right")
        try tmux.type("Y")
        try tmux.send("Home", "Delete")
        try tmux.type("e")
        try tmux.send("End")
        try tmux.type("Z")
        try tmux.send("Enter")
        // "echo one two" → "echo one Xtwo" → back two words, forward to the end of "one": "echo oneY Xtwo"
        // → Home, Delete the "e", type it again → End, "Z".
        let screen = try await tmux.waitFor { $0.components(separatedBy: "[0]>").count > 2 }
        #expect(screen.contains("> echo oneY XtwoZ\noneY XtwoZ\n"), "\(screen)")
        #expect(!screen.contains("~") && !screen.contains("5D") && !screen.contains("5C"), "\(screen)")
    }

    @Test("Ctrl-D at the ...> prompt abandons the unfinished input and gives a fresh prompt")
    func controlDAtContinuation() async throws {
        let sandbox = try await SandboxServer.start(SandboxConfiguration())
        defer { Thread.detachNewThread { sandbox.stop() } }
        let tmux = try await startWsh(sandbox, home: WshProcess.temporaryDirectory())
        defer { tmux.kill() }

        try tmux.type("echo \"open")
        try tmux.send("Enter")
        try await tmux.waitFor { $0.contains("...>") }
        try tmux.send("C-d")
        try await tmux.waitFor { $0.components(separatedBy: "[0]>").count > 2 }
        try tmux.type("echo after")
        try tmux.send("Enter")
        let screen = try await tmux.waitFor { $0.contains("\nafter") }
        #expect(!screen.contains("[exited"))
        #expect(!screen.contains("open\nafter"), "the abandoned line never ran: \(screen)")
        try await tmux.waitFor(promptShown)
        try tmux.send("C-d")
        #expect(try await tmux.waitForExit() == 0)
    }

    @Test("two sessions at once both keep their lines in the history file, which stays 0600")
    func twoSessionsShareHistory() async throws {
        let sandbox = try await SandboxServer.start(SandboxConfiguration())
        defer { Thread.detachNewThread { sandbox.stop() } }
        let home = WshProcess.temporaryDirectory()
        let first = try await startWsh(sandbox, home: home)
        defer { first.kill() }
        let second = try await startWsh(sandbox, home: home)
        defer { second.kill() }

        try first.type("echo from-first")
        try first.send("Enter")
        try await first.waitFor { $0.contains("\nfrom-first") }
        try second.type("echo from-second")
        try second.send("Enter")
        try await second.waitFor { $0.contains("\nfrom-second") }
        // The first to start leaves last: it must not drop the other's line.
        try await second.waitFor(promptShown)
        try second.send("C-d")
        #expect(try await second.waitForExit() == 0)
        try await first.waitFor(promptShown)
        try first.send("C-d")
        #expect(try await first.waitForExit() == 0)

        let path = home + "/.local/state/wsh/history"
        let stored = try String(contentsOfFile: path, encoding: .utf8)
        #expect(stored.contains("from-first") && stored.contains("from-second"), "\(stored)")
        let attributes = try FileManager.default.attributesOfItem(atPath: path)
        #expect((attributes[.posixPermissions] as? Int) == 0o600)
        let folder = try FileManager.default.attributesOfItem(atPath: home + "/.local/state/wsh")
        #expect((folder[.posixPermissions] as? Int) == 0o700)
    }

    @Test("a history location that cannot be written is named once, and the session goes on")
    func unwritableHistory() async throws {
        let sandbox = try await SandboxServer.start(SandboxConfiguration())
        defer { Thread.detachNewThread { sandbox.stop() } }
        let home = WshProcess.temporaryDirectory()
        // XDG_STATE_HOME is a file, so no folder can be made under it.
        let blocker = home + "/state-is-a-file"
        try "".write(toFile: blocker, atomically: true, encoding: .utf8)
        let tmux = try Tmux(command: "\(WshProcess.binary) --api \(sandbox.baseURL)",
                            environment: ["HOME": home, "XDG_STATE_HOME": blocker,
                                          "WSH_ACCESS_TOKEN": sandbox.token, "TERM": "xterm-256color"])
        defer { tmux.kill() }
        try await tmux.waitFor { $0.contains("[0]>") }
        for word in ["one", "two", "three"] {
            try tmux.type("echo line-\(word)")
            try tmux.send("Enter")
            try await tmux.waitFor { $0.contains("\nline-\(word)") }
        }
        let screen = try tmux.screen()
        #expect(screen.components(separatedBy: "cannot keep history in \(blocker)/wsh/history").count == 2, "\(screen)")
        try await tmux.waitFor(promptShown)
        try tmux.send("C-d")
        #expect(try await tmux.waitForExit() == 0)
    }

    @Test("each line typed is stored once, whether the session ends by Ctrl-D, exit or SIGTERM; Up walks them")
    func historyLinesStoredOnce() async throws {
        let sandbox = try await SandboxServer.start(SandboxConfiguration())
        defer { Thread.detachNewThread { sandbox.stop() } }
        let home = WshProcess.temporaryDirectory()

        let first = try await startWsh(sandbox, home: home)
        defer { first.kill() }
        try await enter("echo once-first", in: first, showing: "once-first")
        try first.send("C-d")
        #expect(try await first.waitForExit() == 0)

        let second = try await startWsh(sandbox, home: home)
        defer { second.kill() }
        try await enter("echo once-second", in: second, showing: "once-second")
        try second.type("exit")
        try second.send("Enter")
        #expect(try await second.waitForExit() == 0)

        // The third is ended by a signal. libedit passes a signal on to the whole process group, so wsh
        // runs as a job in a group of its own, as under an interactive shell; the job writes its process id.
        let pidFile = home + "/wsh.pid"
        let script = home + "/run.sh"
        try "set -m\nsh -c 'echo $$ > \(pidFile); exec \(WshProcess.binary) --api \(sandbox.baseURL)'\n"
            .write(toFile: script, atomically: true, encoding: .utf8)
        let third = try Tmux(command: "sh \(script)",
                             environment: ["HOME": home, "WSH_ACCESS_TOKEN": sandbox.token, "TERM": "xterm-256color"])
        defer { third.kill() }
        try await third.waitFor { $0.contains("[0]>") }
        try await enter("echo once-third", in: third, showing: "once-third")
        let pid = try #require(Int32(String(contentsOfFile: pidFile, encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)))
        #expect(Glibc.kill(pid, SIGTERM) == 0)
        #expect(try await third.waitForExit() == 128 + SIGTERM)

        let stored = try String(contentsOfFile: home + "/.local/state/wsh/history", encoding: .utf8)
        for word in ["once-first", "once-second", "exit", "once-third", "_HiStOrY_V2_"] {
            #expect(stored.components(separatedBy: word).count == 2, "\(word) once in:\n\(stored)")
        }

        let fourth = try await startWsh(sandbox, home: home)
        defer { fourth.kill() }
        try fourth.send("Up", "Up", "Up", "Up")
        let screen = try await fourth.waitFor { $0.contains("> echo once-first") }
        #expect(screen.contains("> echo once-first"))
    }

    @Test("a history file that is a symbolic link is named once; its target keeps its text and mode")
    func symlinkedHistoryRefused() async throws {
        let sandbox = try await SandboxServer.start(SandboxConfiguration())
        defer { Thread.detachNewThread { sandbox.stop() } }
        let home = WshProcess.temporaryDirectory()
        let target = home + "/precious"
        try "precious text\n".write(toFile: target, atomically: false, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: target)
        let path = home + "/.local/state/wsh/history"
        try FileManager.default.createDirectory(atPath: home + "/.local/state/wsh", withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: path, withDestinationPath: target)

        let tmux = try await startWsh(sandbox, home: home)
        defer { tmux.kill() }
        for word in ["one", "two"] {
            try await enter("echo line-\(word)", in: tmux, showing: "line-\(word)")
        }
        let screen = try tmux.screen()
        let refusal = "wsh: cannot keep history in \(path): it is a symbolic link, which wsh does not follow; "
            + "this session has no history file"
        #expect(screen.replacingOccurrences(of: "\n", with: "").components(separatedBy: refusal).count == 2, "\(screen)")
        try tmux.send("C-d")
        #expect(try await tmux.waitForExit() == 0)
        #expect(try String(contentsOfFile: target, encoding: .utf8) == "precious text\n")
        let attributes = try FileManager.default.attributesOfItem(atPath: target)
        #expect((attributes[.posixPermissions] as? Int) == 0o644)
        #expect((try? FileManager.default.destinationOfSymbolicLink(atPath: path)) == target)
    }

    /// Types `line` and Enter, then waits for `output` on a line of its own and the next prompt.
    func enter(_ line: String, in tmux: Tmux, showing output: String) async throws {
        try tmux.type(line)
        try tmux.send("Enter")
        try await tmux.waitFor { $0.contains("\n" + output) && promptShown($0) }
    }

    /// Whether the screen ends with a prompt: libedit draws it once the
    /// terminal is in its raw mode, so a key sent now reaches libedit rather
    /// than the terminal's line discipline (where Ctrl-D would be lost).
    func promptShown(_ screen: String) -> Bool {
        let lines = screen.split(separator: "\n").filter { !$0.allSatisfy(\.isWhitespace) }
        return lines.last.map { $0.trimmingCharacters(in: .whitespaces).hasSuffix("]>") } ?? false
    }

    /// Polls `condition` until it holds, failing after `timeout` seconds.
    func waitUntil(timeout: Double = 30, _ condition: () -> Bool) async throws {
        let deadline = Date().addingTimeInterval(timeout)
        while !condition() {
            guard Date() < deadline else { throw Tmux.Timeout(seconds: timeout, lastScreen: "(condition never held)") }
            try await Task.sleep(for: .milliseconds(20))
        }
    }

    @Test("without a usable libedit the prompt still runs, unedited, and says why",
          .enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/cc"), "needs a C compiler"))
    func withoutLibedit() async throws {
        // An empty library named libedit.so.2, found first through LD_LIBRARY_PATH.
        let folder = WshProcess.temporaryDirectory()
        let source = folder + "/empty.c"
        try "int wsh_test_empty;\n".write(toFile: source, atomically: true, encoding: .utf8)
        let compiler = Process()
        compiler.executableURL = URL(fileURLWithPath: "/usr/bin/cc")
        compiler.arguments = ["-shared", "-fPIC", "-o", folder + "/libedit.so.2", source]
        try compiler.run()
        compiler.waitUntilExit()
        try #require(compiler.terminationStatus == 0)

        let tmux = try Tmux(command: WshProcess.binary,
                            environment: ["HOME": folder, "LD_LIBRARY_PATH": folder, "TERM": "xterm-256color"])
        defer { tmux.kill() }
        var screen = try await tmux.waitFor { $0.contains("[0]>") }
        #expect(screen.contains("wsh: libedit lacks el_init; no line editing or history this session"))
        try tmux.type("detail 9")
        try tmux.send("Enter")
        screen = try await tmux.waitFor { $0.contains("detail: no row 9") }
        #expect(screen.contains("detail: no row 9"))
        // The error did not end the session: the next command runs.
        try tmux.type("echo still-here")
        try tmux.send("Enter")
        screen = try await tmux.waitFor { $0.contains("\nstill-here") }
        #expect(screen.contains("still-here"))
        #expect(screen.components(separatedBy: "still-here").count == 3, "typed once, printed once: \(screen)")
    }
}
