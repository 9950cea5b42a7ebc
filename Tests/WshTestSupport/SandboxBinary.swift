import Foundation

/// The built `wsh-sandbox` executable, beside the `wsh` the tests run.
public enum SandboxBinary {
    public static var path: String {
        (WshProcess.binary as NSString).deletingLastPathComponent + "/wsh-sandbox"
    }

    /// What a started-and-stopped sandbox printed, and how it ended.
    public struct Run: Sendable {
        public var status: Int32
        public var stdout: String
        public var stderr: String
    }

    /// Starts `wsh-sandbox ARGUMENTS`, waits for its first line on stdout (it
    /// is listening; or it ended without), stops it with SIGTERM and returns
    /// all it printed. Blocks: call it on its own thread (`onOwnThread`).
    public static func startAndStop(_ arguments: [String]) throws -> Run {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: path)
        process.arguments = arguments
        let output = Pipe(), errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        var stdout = Data()
        while !stdout.contains(UInt8(ascii: "\n")) {
            let chunk = output.fileHandleForReading.availableData
            if chunk.isEmpty { break }  // it ended without listening
            stdout.append(chunk)
        }
        if process.isRunning { process.terminate() }
        stdout.append(output.fileHandleForReading.readDataToEndOfFile())
        let stderr = errors.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Run(status: process.terminationStatus, stdout: String(decoding: stdout, as: UTF8.self),
                   stderr: String(decoding: stderr, as: UTF8.self))
    }
}
