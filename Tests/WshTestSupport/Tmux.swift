import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Drives a program in a detached tmux session: type keys, read the screen.
public final class Tmux: @unchecked Sendable {
    private let socket = "wsh-test-\(UUID().uuidString.prefix(8))"
    private let target = "t"

    /// Whether tmux is installed.
    public static var isAvailable: Bool {
        FileManager.default.isExecutableFile(atPath: "/usr/bin/tmux") || FileManager.default.isExecutableFile(atPath: "/usr/local/bin/tmux")
    }

    /// The screen when a wait gave up, and what it waited for.
    public struct Timeout: Error, CustomStringConvertible {
        public let seconds: Double
        public let lastScreen: String
        public init(seconds: Double, lastScreen: String) {
            self.seconds = seconds
            self.lastScreen = lastScreen
        }
        public var description: String {
            "the screen did not show what was awaited within \(seconds) s; last screen:\n\(lastScreen)"
        }
    }

    /// Starts `command` (a shell command line) in a new 120×40 session.
    ///
    /// When the command ends, `[exited N]` appears on the screen (see
    /// `waitForExit`). The shell around it traps SIGQUIT, so Ctrl-\ reaches
    /// only the command, as it would under a shell with job control.
    public init(command: String, environment: [String: String]) throws {
        let exports = environment.map { "\($0.key)='\($0.value)'" }.joined(separator: " ")
        // The first command starts the tmux server, which keeps whatever
        // output pipe it inherits open: its output is not read.
        try tmux(["new-session", "-d", "-s", target, "-x", "120", "-y", "40",
                  "trap : QUIT; env \(exports) \(command); echo \"[exited $?]\"; sleep 30"],
                 capture: false)
    }

    /// Sends keys as tmux names them: literal text, or `Enter`, `Tab`, `C-c`, `C-d`, `Up`.
    public func send(_ keys: String..., literal: Bool = false) throws {
        try tmux(["send-keys", "-t", target] + (literal ? ["-l"] : []) + keys)
    }

    /// Types `text` literally.
    public func type(_ text: String) throws {
        try tmux(["send-keys", "-t", target, "-l", text])
    }

    /// The visible screen.
    public func screen() throws -> String {
        try tmux(["capture-pane", "-p", "-t", target])
    }

    /// Waits until the screen satisfies `condition`, up to `timeout` seconds;
    /// returns the screen, or throws `Timeout` holding the last screen.
    @discardableResult
    public func waitFor(timeout: Double = 30, _ condition: (String) -> Bool) async throws -> String {
        let deadline = Date().addingTimeInterval(timeout)
        var last = ""
        while true {
            last = try screen()
            if condition(last) { return last }
            guard Date() < deadline else { throw Timeout(seconds: timeout, lastScreen: last) }
            try await Task.sleep(for: .milliseconds(50))
        }
    }

    /// Waits until the command has ended; returns its exit status.
    @discardableResult
    public func waitForExit(timeout: Double = 30) async throws -> Int32 {
        let screen = try await waitFor(timeout: timeout) { $0.contains("[exited ") }
        let tail = screen.components(separatedBy: "[exited ").last ?? ""
        return Int32(tail.prefix { $0.isNumber }) ?? -1
    }

    /// Ends the session and its server.
    public func kill() {
        _ = try? tmux(["kill-server"], capture: false)
    }

    deinit { kill() }

    /// Runs one tmux command through /bin/sh with popen, which reaps its
    /// child itself: Foundation's Process can miss the exit of a client whose
    /// server daemonized beside it.
    @discardableResult
    private func tmux(_ arguments: [String], capture: Bool = true) throws -> String {
        let words = ["tmux", "-L", socket, "-f", "/dev/null"] + arguments
        let command = words.map(Self.quote).joined(separator: " ") + (capture ? " 2>/dev/null" : " >/dev/null 2>&1")
        guard let stream = popen(command, "r") else { throw POSIXError(.EIO) }
        var output = [UInt8]()
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = fread(&buffer, 1, buffer.count, stream)
            if count <= 0 { break }
            output.append(contentsOf: buffer[..<count])
        }
        pclose(stream)
        return String(decoding: output, as: UTF8.self)
    }

    private static func quote(_ word: String) -> String {
        "'" + word.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }
}
