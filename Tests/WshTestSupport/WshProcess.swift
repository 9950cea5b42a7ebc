import Foundation

/// The outcome of running the built `wsh`.
public struct WshRun: Sendable {
    public var status: Int32
    public var stdout: String
    public var stderr: String
}

/// Runs the built `wsh` executable, as a user would.
public enum WshProcess {
    /// The `wsh` binary: `$WSH_BIN`, else the debug build beside the package.
    public static var binary: String {
        if let path = ProcessInfo.processInfo.environment["WSH_BIN"], FileManager.default.isExecutableFile(atPath: path) {
            return path
        }
        return packageRoot + "/.build/debug/wsh"
    }

    /// The package's root folder.
    public static var packageRoot: String {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().path
    }

    /// Runs `wsh ARGUMENTS` with `stdin` as input and waits for it.
    ///
    /// The environment is the test's own minus anything that would change
    /// wsh's behaviour (a CA bundle included), plus `environment`; HOME points
    /// at a fresh folder so no user's history or rc file is touched.
    public static func run(_ arguments: [String], stdin: String = "", environment: [String: String] = [:],
                           workingDirectory: String? = nil, timeout: TimeInterval = 60) async throws -> WshRun {
        try await run(arguments, input: Data(stdin.utf8), environment: environment, workingDirectory: workingDirectory,
                      timeout: timeout)
    }

    /// Runs `wsh ARGUMENTS` with the bytes of `input` on stdin, on a thread of its own.
    public static func run(_ arguments: [String], input: Data, environment: [String: String] = [:],
                           workingDirectory: String? = nil, timeout: TimeInterval = 60) async throws -> WshRun {
        try await onOwnThread {
            try runBlocking(arguments, input: input, environment: environment, workingDirectory: workingDirectory, timeout: timeout)
        }
    }

    static func runBlocking(_ arguments: [String], input: Data, environment: [String: String],
                            workingDirectory: String? = nil, timeout: TimeInterval) throws -> WshRun {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: binary)
        if let workingDirectory { process.currentDirectoryURL = URL(fileURLWithPath: workingDirectory) }
        process.arguments = arguments
        let env = childEnvironment(environment)
        process.environment = env
        let stdinPipe = Pipe(), output = Pipe(), error = Pipe()
        process.standardInput = stdinPipe
        process.standardOutput = output
        process.standardError = error
        try process.run()
        // Read both pipes while the process runs, so a full pipe cannot block it.
        let group = DispatchGroup()
        nonisolated(unsafe) var outData = Data()
        nonisolated(unsafe) var errData = Data()
        DispatchQueue.global().async(group: group) { outData = output.fileHandleForReading.readDataToEndOfFile() }
        DispatchQueue.global().async(group: group) { errData = error.fileHandleForReading.readDataToEndOfFile() }
        stdinPipe.fileHandleForWriting.write(input)
        try? stdinPipe.fileHandleForWriting.close()
        if group.wait(timeout: .now() + timeout) == .timedOut {
            process.terminate()
            group.wait()
        }
        process.waitUntilExit()
        return WshRun(status: process.terminationStatus,
                      stdout: String(decoding: outData, as: UTF8.self),
                      stderr: String(decoding: errData, as: UTF8.self))
    }

    /// The environment a test's wsh runs with: the test's own minus what
    /// would change wsh's behaviour (tokens, app credentials, config and state
    /// folders, CA bundles, colour, width), HOME a fresh folder, plus `extra`.
    public static func childEnvironment(_ extra: [String: String]) -> [String: String] {
        var env = ProcessInfo.processInfo.environment
        for key in ["WSH_ACCESS_TOKEN", "WSH_APP_KEY", "WSH_APP_SECRET", "WSH_APP_API", "NO_COLOR", "XDG_STATE_HOME",
                    "XDG_CONFIG_HOME", "COLUMNS", "CURL_CA_BUNDLE", "SSL_CERT_FILE"] { env[key] = nil }
        env["HOME"] = temporaryDirectory()
        env.merge(extra) { $1 }
        return env
    }

    /// A new empty folder under the temporary directory.
    public static func temporaryDirectory() -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("wsh-test-\(UUID().uuidString)").path
        try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    /// Writes `text` to a new file and returns its path.
    public static func writeScript(_ text: String, name: String = "script.wsh") throws -> String {
        let path = temporaryDirectory() + "/" + name
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }
}
