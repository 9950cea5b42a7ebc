import Foundation

/// Drives a program in a detached tmux session: type keys, read the screen.
public final class Tmux: @unchecked Sendable {
    private let socket = "wsh-test-\(UUID().uuidString.prefix(8))"
    private let target = "t"

    /// Whether tmux is installed.
    public static var isAvailable: Bool {
        FileManager.default.isExecutableFile(atPath: "/usr/bin/tmux") || FileManager.default.isExecutableFile(atPath: "/usr/local/bin/tmux")
    }

    /// Starts `command` (a shell command line) in a new 120×40 session.
    public init(command: String, environment: [String: String]) throws {
        let exports = environment.map { "\($0.key)='\($0.value)'" }.joined(separator: " ")
        try tmux(["new-session", "-d", "-s", target, "-x", "120", "-y", "40", "env \(exports) \(command); sleep 30"])
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

    /// Waits until the screen satisfies `condition`, up to `timeout` seconds; returns the screen.
    @discardableResult
    public func waitFor(timeout: Double = 10, _ condition: (String) -> Bool) async throws -> String {
        let deadline = Date().addingTimeInterval(timeout)
        var last = ""
        while Date() < deadline {
            last = try screen()
            if condition(last) { return last }
            try await Task.sleep(for: .milliseconds(50))
        }
        return last
    }

    /// Ends the session and its server.
    public func kill() {
        _ = try? tmux(["kill-server"])
    }

    deinit { kill() }

    @discardableResult
    private func tmux(_ arguments: [String]) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["tmux", "-L", socket, "-f", "/dev/null"] + arguments
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return String(decoding: data, as: UTF8.self)
    }
}
