import Dispatch
import FoundationEssentials
import Glibc
import WshRequest
import WshText

/// `wsh --test PATH…`: runs every `.wsh` file under the paths as a test
/// case, each in a fresh `wsh` process with its own sandbox (unless the
/// options handed on name an `--api`), and reports in path order.
///
/// A file passes when its `wsh` exits 0. A failure is an `assert` that did
/// not hold (status 1, and the error line names `assert` as its command);
/// anything else is an error (a failed command, a syntax error, `exit N`).
/// The last line on stdout is `N passed, N failed`; on a terminal each file
/// also gets a line on stderr. Exit status: 0 all passed, 1 any failed, 2 usage.
public final class ScriptTestRunner: @unchecked Sendable {
    let paths: [String]
    let jobs: Int
    let junitPath: String?
    let tapPath: String?
    let childArguments: [String]
    /// Token values known here, masked in every report.
    let secrets: [String]
    /// The `wsh` each file runs in: this very binary.
    let binary: String

    public init(paths: [String], jobs: Int, junit: String?, tap: String?, childArguments: [String], tokenFile: String?,
                environment: [String: String] = ProcessInfo.processInfo.environment) {
        self.paths = paths
        self.jobs = max(1, jobs)
        self.junitPath = junit
        self.tapPath = tap
        self.childArguments = childArguments
        var secrets: [String] = []
        if let token = environment["WSH_ACCESS_TOKEN"] { secrets.append(token) }
        if let tokenFile, let text = try? String(contentsOfFile: tokenFile, encoding: .utf8),
           let line = text.split(whereSeparator: \.isNewline).first {
            secrets.append(line.trimmingSpaces)
        }
        // The stored accounts' tokens and apps' secrets too: each child masks what it
        // knows, and the reports are masked again here with all that is known.
        if let directory = ShellPaths.configDirectory(environment: environment),
           let file = try? AccountStore(directory: directory).load() {
            secrets += file.secrets
        }
        self.secrets = secrets.filter { !$0.isEmpty }
        self.binary = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
    }

    /// Runs every test file; returns the exit status.
    public func run() -> Int32 {
        let files: [String]
        do {
            files = try Self.testFiles(paths)
        } catch {
            StandardStreams.writeError("wsh: \(error)\n")
            return 2
        }
        let results = runAll(files)
        var status: Int32 = 0
        do {
            if let junitPath { try TestReport.junit(results, secrets: secrets).write(toFile: junitPath, atomically: true, encoding: .utf8) }
            if let tapPath { try TestReport.tap(results, secrets: secrets).write(toFile: tapPath, atomically: true, encoding: .utf8) }
        } catch {
            StandardStreams.writeError("wsh: cannot write the report: \(SystemError.reason(error))\n")
            status = 2
        }
        let failed = results.filter { !$0.passed }.count
        StandardStreams.writeOutput("\(results.count - failed) passed, \(failed) failed\n")
        if status != 0 { return status }
        return failed == 0 ? 0 : 1
    }

    /// What a missing path is called.
    struct MissingPath: Error, CustomStringConvertible {
        let description: String
    }

    /// The test files under `paths`, in order: a file as given; a folder's
    /// `.wsh` files, searched recursively and sorted.
    static func testFiles(_ paths: [String]) throws -> [String] {
        var files: [String] = []
        for path in paths {
            var isFolder = false
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder) else {
                throw MissingPath(description: "--test: no such file or folder: \(path)")
            }
            guard isFolder else {
                files.append(path)
                continue
            }
            let base = path.hasSuffix("/") ? String(path.dropLast()) : path
            let found = ((try? FileManager.default.subpathsOfDirectory(atPath: path)) ?? []).filter { $0.hasSuffix(".wsh") }.sorted()
            for relative in found {
                var isDirectory = false
                let full = base + "/" + relative
                if FileManager.default.fileExists(atPath: full, isDirectory: &isDirectory), !isDirectory {
                    files.append(full)
                }
            }
        }
        guard !files.isEmpty else { throw MissingPath(description: "--test: no .wsh files in \(paths.joined(separator: " "))") }
        return files
    }

    /// Runs `files`, `jobs` at a time; results in the files' order, each
    /// shown on a terminal as soon as those before it are done.
    private func runAll(_ files: [String]) -> [TestResult] {
        let board = Board(count: files.count, progress: isatty(STDERR_FILENO) != 0)
        let group = DispatchGroup()
        for _ in 0..<min(jobs, files.count) {
            DispatchQueue.global().async(group: group) { [self] in
                while let index = board.take() {
                    board.finish(index, runOne(files[index]))
                }
            }
        }
        group.wait()
        return board.results
    }

    /// The files handed out and the results in, shared by the workers under a lock.
    private final class Board: @unchecked Sendable {
        private let lock = ThreadLock()
        private var slots: [TestResult?]
        private var next = 0
        private var shown = 0
        private let progress: Bool

        init(count: Int, progress: Bool) {
            slots = Array(repeating: nil, count: count)
            self.progress = progress
        }

        /// The next file's index, nil when all are handed out.
        func take() -> Int? {
            lock.lock()
            defer { lock.unlock() }
            guard next < slots.count else { return nil }
            next += 1
            return next - 1
        }

        /// Stores a result and shows, in order, those now complete.
        func finish(_ index: Int, _ result: TestResult) {
            lock.lock()
            defer { lock.unlock() }
            slots[index] = result
            while shown < slots.count, let done = slots[shown] {
                if progress {
                    StandardStreams.writeError("\(done.passed ? "ok" : "FAIL") \(done.path)\n")
                }
                shown += 1
            }
        }

        var results: [TestResult] {
            lock.lock()
            defer { lock.unlock() }
            return slots.map { $0! }
        }
    }

    /// Runs one file in a fresh `wsh`.
    private func runOne(_ path: String) -> TestResult {
        let start = ContinuousClock.now
        let ending: ChildProcess.Ending
        do {
            ending = try ChildProcess.run(binary, childArguments + [path], captureErrors: true)
        } catch {
            return TestResult(path: path, status: -1, stderr: "cannot start \(binary): \(error)", seconds: 0)
        }
        let elapsed = ContinuousClock.now - start
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        let text = Redaction.redact(String(decoding: ending.errors, as: UTF8.self), secrets: secrets)
        return TestResult(path: path, status: ending.status, stderr: text, seconds: seconds)
    }
}

/// How one test file ended.
public struct TestResult: Sendable, Equatable {
    /// The file, as found.
    public var path: String
    /// Its `wsh`'s exit status.
    public var status: Int32
    /// What it printed on stderr, tokens masked.
    public var stderr: String
    /// How long it ran.
    public var seconds: Double

    public var passed: Bool { status == 0 }

    /// For a failed `assert`: `FILE:LINE: message`; nil for a pass or an error.
    public var assertFailure: String? {
        guard status == 1 else { return nil }
        let prefix = path + ":"
        for line in stderr.split(separator: "\n").reversed() where line.hasPrefix(prefix) {
            let rest = line.dropFirst(prefix.count)
            guard let colon = rest.firstIndex(of: ":"), !rest[..<colon].isEmpty,
                  rest[..<colon].allSatisfy(\.isNumber) else { continue }
            let after = rest[rest.index(after: colon)...]
            guard after.hasPrefix(" assert: ") else { return nil }
            return "\(prefix)\(rest[..<colon]): \(after.dropFirst(" assert: ".count))"
        }
        return nil
    }

    /// What went wrong, in one line: the assert's message, else the last error line, else the status.
    public var message: String {
        if let assertFailure { return assertFailure }
        if let last = stderr.split(separator: "\n").last(where: { !$0.trimmingSpaces.isEmpty }) {
            return String(last)
        }
        return "exit status \(status)"
    }
}
