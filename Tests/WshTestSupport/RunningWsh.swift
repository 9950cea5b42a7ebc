import Foundation
import Synchronization

/// The built `wsh` running in the background, its output read as it comes:
/// for end-to-end tests that act while wsh waits (a browser's redirect
/// during `login`, a second terminal during the first's).
public final class RunningWsh: @unchecked Sendable {
    private let process = Process()
    private let output = Mutex((stdout: Data(), stderr: Data()))
    private let drained = DispatchGroup()
    /// Its stdin, when it reads a pipe the test writes to (`send`).
    private let input: Pipe?

    /// Starts `wsh ARGUMENTS` with the environment `WshProcess.run` gives, plus
    /// `environment`; with `pipedInput`, its stdin is a pipe kept open until `closeInput()`.
    public init(_ arguments: [String], environment: [String: String] = [:], pipedInput: Bool = false) throws {
        process.executableURL = URL(fileURLWithPath: WshProcess.binary)
        process.arguments = arguments
        process.environment = WshProcess.childEnvironment(environment)
        let stdout = Pipe(), stderr = Pipe()
        input = pipedInput ? Pipe() : nil
        process.standardInput = input ?? FileHandle.nullDevice
        process.standardOutput = stdout
        process.standardError = stderr
        try process.run()
        for (pipe, isStdout) in [(stdout, true), (stderr, false)] {
            drained.enter()
            let handle = pipe.fileHandleForReading
            Thread.detachNewThread { [self] in
                while true {
                    let chunk = handle.availableData
                    if chunk.isEmpty { break }
                    output.withLock { if isStdout { $0.stdout += chunk } else { $0.stderr += chunk } }
                }
                drained.leave()
            }
        }
    }

    /// Writes `line` and a newline to its stdin (started with `pipedInput`).
    public func send(_ line: String) {
        input?.fileHandleForWriting.write(Data((line + "\n").utf8))
    }

    /// Ends its stdin.
    public func closeInput() {
        try? input?.fileHandleForWriting.close()
    }

    /// What it printed so far.
    public var stdout: String { output.withLock { String(decoding: $0.stdout, as: UTF8.self) } }
    public var stderr: String { output.withLock { String(decoding: $0.stderr, as: UTF8.self) } }

    /// Waits until a stdout line contains `text` (or wsh ends, or `timeout`); returns that line, or nil.
    public func line(containing text: String, onStderr: Bool = false, timeout: Duration = .seconds(30)) async -> String? {
        var found: String?
        await waitUntil(timeout: timeout) {
            let printed = onStderr ? stderr : stdout
            found = printed.split(separator: "\n").first { $0.contains(text) }.map(String.init)
            return found != nil || !process.isRunning
        }
        if found == nil {
            let printed = onStderr ? stderr : stdout
            found = printed.split(separator: "\n").first { $0.contains(text) }.map(String.init)
        }
        return found
    }

    /// Waits for wsh to end (killing it after `timeout`) and returns its run.
    public func finish(timeout: Duration = .seconds(60)) async -> WshRun {
        let ended = await waitUntil(timeout: timeout) { !process.isRunning }
        if !ended { process.terminate() }
        _ = try? await onOwnThread { [self] in
            process.waitUntilExit()
            drained.wait()
        }
        return WshRun(status: process.terminationStatus, stdout: stdout, stderr: stderr)
    }

    /// Sends SIGINT, as Ctrl-C at a terminal does.
    public func interrupt() {
        Foundation.kill(process.processIdentifier, SIGINT)
    }

    /// Sends SIGKILL (a process killed mid-write leaves what it left).
    public func kill() {
        Foundation.kill(process.processIdentifier, SIGKILL)
    }
}
