import Foundation
import Testing
import WshTestSupport
#if canImport(Glibc)
import Glibc
#endif

/// `sql` under a query that would take the machine: a value too large, a
/// result too long, a statement that never ends, one that writes a file, a
/// function that hands out pointers. Each is refused or stopped with one line
/// naming the limit, and the archive is left as it was.
@Suite("sql, bounded", .serialized)
struct SQLBoundsTests {
    /// An endless recursive CTE, counted: no row comes until it ends, which it never does.
    static let endless = "SELECT count(*) FROM (WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c) SELECT x FROM c)"

    /// A small archive made by wsh from its embedded sandbox.
    static func archive() async throws -> String {
        let file = WshProcess.temporaryDirectory() + "/archive.sqlite"
        let made = try await WshProcess.run(["-c", "archive sync public --limit 20 --archive \(file)"])
        try #require(made.status == 0, "\(made.stderr)")
        return file
    }

    @Test("a value above the limit is refused in one line naming the limit, memory untouched; --max-value raises it")
    func valueLimit() async throws {
        let file = try await Self.archive()
        let refused = try await WshProcess.run(["-c", "sql \"SELECT length(randomblob(20000000))\" --archive \(file)"])
        #expect(refused.status == 1, "\(refused.stdout)")
        #expect(refused.stdout.isEmpty, "\(refused.stdout)")
        #expect(refused.stderr.split(separator: "\n").count == 1, "\(refused.stderr)")
        #expect(refused.stderr.contains("16 MB") && refused.stderr.contains("--max-value"), "\(refused.stderr)")
        let raised = try await WshProcess.run(["-c", "sql \"SELECT length(randomblob(20000000))\" --max-value 32M --archive \(file)"])
        #expect(raised.status == 0, "\(raised.stderr)")
        #expect(raised.stdout.contains("20000000"), "\(raised.stdout)")
        // A billion bytes: refused before they are made (it took 6.8 GB).
        let (status, peak) = try Self.peakMemory(["-c", "sql \"SELECT randomblob(1000000000)\" --archive \(file)"])
        #expect(status == 1)
        #expect(peak < 150 << 20, "peak RSS \(peak >> 20) MB")
    }

    @Test("printf past the limit makes no huge value: SQLite cuts it to NULL (a billion took 1 GB)")
    func printfLimit() async throws {
        let file = try await Self.archive()
        let query = "SELECT printf('%.*c', 200000000, 'x') IS NULL AS cut"
        let run = try await WshProcess.run(["-c", "sql \"\(query)\" --json --archive \(file)"])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout.contains("\"cut\" : 1"), "\(run.stdout)")
        let (status, peak) = try Self.peakMemory(["-c", "sql \"\(query)\" --archive \(file)"])
        #expect(status == 0)
        #expect(peak < 150 << 20, "peak RSS \(peak >> 20) MB")
    }

    @Test("a result past the row budget stops there: the rows before it are printed, one line names --max-rows")
    func rowBudget() async throws {
        let file = try await Self.archive()
        let query = "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c LIMIT 5000) SELECT x FROM c"
        let run = try await WshProcess.run(["-c", "sql \"\(query)\" --max-rows 1000 --archive \(file)"])
        #expect(run.status == 1, "\(run.stderr)")
        let rows = run.stdout.split(separator: "\n").dropFirst()
        #expect(rows.count == 1000 && rows.last == "1000", "\(rows.count) rows, last \(rows.last ?? "none")")
        #expect(run.stderr.split(separator: "\n").count == 1, "\(run.stderr)")
        #expect(run.stderr.contains("1000 rows") && run.stderr.contains("--max-rows"), "\(run.stderr)")
        // As JSON the rows printed are still one whole array.
        let json = try await WshProcess.run(["-c", "sql \"\(query)\" --max-rows 10 --json --archive \(file)"])
        let objects = try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [[String: Any]]
        #expect(objects?.count == 10, "\(json.stdout)")
    }

    @Test("three million rows stream to the output: the peak memory stays small")
    func rowsStream() async throws {
        let file = try await Self.archive()
        let query = "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c LIMIT 3000000) SELECT x, 'row ' || x AS label FROM c"
        let (status, peak) = try Self.peakMemory(["-c", "sql \"\(query)\" --max-rows 5000000 --archive \(file)"])
        #expect(status == 0)
        // Held whole, the rows took 574 MB; streamed, wsh stays near its size at start.
        #expect(peak < 150 << 20, "peak RSS \(peak >> 20) MB")
    }

    @Test("SIGINT stops a running query in a script: exit 130, one line, the archive untouched")
    func interruptInScript() async throws {
        let file = try await Self.archive()
        let before = try Data(contentsOf: URL(fileURLWithPath: file))
        let process = Process()
        process.executableURL = URL(fileURLWithPath: WshProcess.binary)
        process.arguments = ["-c", "echo started; sql \"\(Self.endless)\" --archive \(file); echo never"]
        process.environment = WshProcess.childEnvironment([:])
        let output = Pipe(), errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        let started = output.fileHandleForReading.availableData
        #expect(String(decoding: started, as: UTF8.self) == "started\n")
        // Inside the query once wsh has spent half a second of CPU after its echo (start-up takes far less).
        let running = await waitUntil(timeout: .seconds(30)) { Self.cpuSeconds(process.processIdentifier) > 0.5 }
        #expect(running)
        kill(process.processIdentifier, SIGINT)
        let ended = await waitUntil(timeout: .seconds(10)) { !process.isRunning }
        if !ended { kill(process.processIdentifier, SIGKILL) }
        process.waitUntilExit()
        #expect(ended, "the query went on after SIGINT")
        #expect(process.terminationStatus == 130)
        let said = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        #expect(said.contains("interrupted") && said.split(separator: "\n").count == 1, "\(said)")
        #expect(!String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self).contains("never"))
        #expect(try Data(contentsOf: URL(fileURLWithPath: file)) == before)
    }

    @Test("Ctrl-C at the prompt stops a running query and the prompt comes back",
          .enabled(if: Tmux.isAvailable, "needs tmux"))
    func controlCAtPrompt() async throws {
        let file = try await Self.archive()
        let tmux = try Tmux(command: WshProcess.binary, environment: ["HOME": WshProcess.temporaryDirectory(), "TERM": "xterm-256color"])
        defer { tmux.kill() }
        try await tmux.waitFor { $0.contains("[0]>") }
        try tmux.type("sql \"\(Self.endless)\" --archive \(file)")
        try tmux.send("Enter")
        // The line is read and running once the prompt is no longer the last line.
        try await tmux.waitFor { !($0.split(separator: "\n").last ?? "").contains("]>") }
        try tmux.send("C-c")
        let screen = try await tmux.waitFor(timeout: 10) { screen in
            screen.contains("interrupted") && (screen.split(separator: "\n").last ?? "").contains("[0]>")
        }
        #expect(screen.contains("interrupted"))
        try tmux.type("echo still here")
        try tmux.send("Enter")
        #expect(try await tmux.waitFor { $0.contains("\nstill here") }.contains("still here"))
    }

    @Test("VACUUM INTO is refused before it touches the file system: no file is made")
    func vacuumInto() async throws {
        let file = try await Self.archive()
        let target = WshProcess.temporaryDirectory() + "/copy.sqlite"
        for query in ["VACUUM INTO '\(target)'", "vacuum   into '\(target)'"] {
            let run = try await WshProcess.run(["-c", "sql \"\(query)\" --archive \(file)"])
            #expect(run.status == 1)
            #expect(run.stderr.split(separator: "\n").count == 1 && run.stderr.contains("read-only"), "\(run.stderr)")
            #expect(!FileManager.default.fileExists(atPath: target), "\(query) made \(target)")
        }
    }

    @Test("fts3_tokenizer is off, in both its forms, and so is load_extension")
    func unsafeFunctions() async throws {
        let file = try await Self.archive()
        for query in ["SELECT hex(fts3_tokenizer('simple'))", "SELECT fts3_tokenizer('simple', x'4141414141414141')",
                      "SELECT load_extension('/usr/lib/x86_64-linux-gnu/libsqlite3.so.0')"] {
            let run = try await WshProcess.run(["-c", "sql \"\(query)\" --archive \(file)"])
            #expect(run.status == 1, "\(query) ran: \(run.stdout)")
            #expect(run.stderr.split(separator: "\n").count == 1, "\(run.stderr)")
            #expect(!run.stdout.contains("0000"), "\(run.stdout)")
        }
    }

    /// The user and system CPU seconds process `pid` has used (/proc/PID/stat), 0 when it cannot be read.
    static func cpuSeconds(_ pid: pid_t) -> Double {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
              let close = stat.lastIndex(of: ")") else { return 0 }
        // After the command's name in parentheses: fields 3 on; utime and stime are fields 14 and 15.
        let fields = stat[stat.index(after: close)...].split(separator: " ")
        guard fields.count > 13, let user = Double(fields[11]), let system = Double(fields[12]) else { return 0 }
        return (user + system) / Double(sysconf(Int32(_SC_CLK_TCK)))
    }

    /// Runs `wsh ARGUMENTS` with its output to /dev/null; its exit status and peak resident memory in bytes.
    ///
    /// wsh is started by a small Python process that forks and waits for it: a process spawned
    /// straight from this one (posix_spawn shares the test's memory until exec) inherits the test
    /// process's own high-water mark in its `ru_maxrss`, so it measured the tests that ran before.
    static func peakMemory(_ arguments: [String]) throws -> (status: Int32, peak: Int) {
        let measure = """
            import os, sys
            pid = os.fork()
            if pid == 0:
                null = os.open(os.devnull, os.O_WRONLY)
                os.dup2(null, 1)
                os.dup2(null, 2)
                os.execv(sys.argv[1], sys.argv[1:])
            _, status, usage = os.wait4(pid, 0)
            print(os.waitstatus_to_exitcode(status), usage.ru_maxrss * 1024)
            """
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        process.arguments = ["-c", measure, WshProcess.binary] + arguments
        process.environment = WshProcess.childEnvironment([:])
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        let output = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        let fields = output.split(whereSeparator: \.isWhitespace).compactMap { Int($0) }
        guard fields.count == 2 else { throw POSIXError(.EIO) }
        return (Int32(fields[0]), fields[1])
    }
}
