import Foundation
import Testing
import WshTestSupport

/// The rc file: an interactive start runs it before the first prompt;
/// `-c`, scripts and batch stdin never do.
@Suite("The rc file of the built wsh", .serialized)
struct StartupFileTests {
    /// A HOME with `~/.wshrc`, and an XDG config folder with `wsh/wshrc`; returns (home, config, state).
    private func folders(homeRC: String, xdgRC: String?) throws -> (home: String, config: String, state: String) {
        let home = WshProcess.temporaryDirectory()
        let config = WshProcess.temporaryDirectory()
        let state = WshProcess.temporaryDirectory()
        try homeRC.write(toFile: home + "/.wshrc", atomically: true, encoding: .utf8)
        if let xdgRC {
            try FileManager.default.createDirectory(atPath: config + "/wsh", withIntermediateDirectories: true)
            try xdgRC.write(toFile: config + "/wsh/wshrc", atomically: true, encoding: .utf8)
        }
        return (home, config, state)
    }

    @Test("an interactive start runs $XDG_CONFIG_HOME/wsh/wshrc before the first prompt, and keeps history in $XDG_STATE_HOME",
          .enabled(if: Tmux.isAvailable, "needs tmux"))
    func interactiveStart_runsRCFile() async throws {
        let (home, config, state) = try folders(homeRC: "set from_rc home-rc\n",
                                                xdgRC: "set from_rc xdg-rc\nfetch 2\n")
        let tmux = try Tmux(command: WshProcess.binary, environment: [
            "HOME": home, "XDG_CONFIG_HOME": config, "XDG_STATE_HOME": state, "TERM": "xterm-256color",
        ])
        defer { tmux.kill() }
        // The rc's fetch 2 shows in the very first prompt.
        var screen = try await tmux.waitFor { $0.contains("]>") }
        #expect(screen.contains("wsh sandbox [2]>"), "\(screen)")

        try tmux.type("echo rc=$from_rc")
        try tmux.send("Enter")
        screen = try await tmux.waitFor { $0.contains("\nrc=") }
        #expect(screen.contains("\nrc=xdg-rc"), "\(screen)")

        try tmux.send("C-d")
        let history = state + "/wsh/history"
        // libedit's file encodes spaces as \040: look for the part without one.
        let stored = await waitUntil {
            (try? String(contentsOfFile: history, encoding: .utf8))?.contains("rc=$from_rc") == true
        }
        #expect(stored, "no history at \(history)")
        #expect(!FileManager.default.fileExists(atPath: home + "/.local/state/wsh"))
    }

    @Test("an interactive start without XDG_CONFIG_HOME runs ~/.wshrc", .enabled(if: Tmux.isAvailable, "needs tmux"))
    func interactiveStart_runsHomeRC() async throws {
        let (home, _, _) = try folders(homeRC: "set from_rc home-rc\nfetch 1\n", xdgRC: nil)
        let tmux = try Tmux(command: "env -u XDG_CONFIG_HOME -u XDG_STATE_HOME \(WshProcess.binary)",
                            environment: ["HOME": home, "TERM": "xterm-256color"])
        defer { tmux.kill() }
        var screen = try await tmux.waitFor { $0.contains("]>") }
        #expect(screen.contains("wsh sandbox [1]>"), "\(screen)")
        try tmux.type("echo rc=$from_rc")
        try tmux.send("Enter")
        screen = try await tmux.waitFor { $0.contains("\nrc=") }
        #expect(screen.contains("\nrc=home-rc"), "\(screen)")
    }

    @Test("-c and batch stdin do not run the rc file")
    func nonInteractive_skipsRCFile() async throws {
        let (home, config, _) = try folders(homeRC: "set from_rc home-rc\n", xdgRC: "set from_rc xdg-rc\n")
        for environment in [["HOME": home], ["HOME": home, "XDG_CONFIG_HOME": config]] {
            let command = try await WshProcess.run(["-c", "echo $from_rc"], environment: environment)
            #expect(command.status == 1, "\(command.stdout)")
            #expect(command.stdout.isEmpty)
            #expect(command.stderr.contains("from_rc"), "\(command.stderr)")
            let batch = try await WshProcess.run([], stdin: "echo $from_rc\n", environment: environment)
            #expect(batch.status == 1, "\(batch.stdout)")
            #expect(batch.stdout.isEmpty)
        }
    }
}
