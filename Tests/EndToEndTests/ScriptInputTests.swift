import Foundation
import Testing
import WshTestSupport
#if canImport(Glibc)
import Glibc
#endif

/// What wsh accepts as a script, and what it does when its output or its run
/// cannot go on: the trust boundary of its input and output bytes.
@Suite("Script input and output, end to end")
struct ScriptInputTests {
    /// Runs `command` with /bin/sh, `$0` being the built wsh: for arguments and
    /// paths a `Process` cannot give (invalid UTF-8, `<(…)`, FIFOs).
    func shell(_ command: String, input: String = "") async throws -> ShellRun {
        try await onOwnThread { try runShell(command, input: input) }
    }

    @Test("invalid UTF-8 in a script file is refused before anything runs, naming FILE:LINE, status 2")
    func invalidScriptFile() async throws {
        let path = WshProcess.temporaryDirectory() + "/latin1.wsh"
        try Data("echo first\necho caf".utf8 + [0xE9] + Data("\necho last\n".utf8)).write(to: URL(fileURLWithPath: path))
        let run = try await WshProcess.run([path])
        #expect(run.status == 2)
        #expect(run.stdout == "", "nothing of a refused script runs")
        #expect(run.stderr.contains("\(path):2: syntax error: invalid UTF-8 in input"), "\(run.stderr)")
    }

    @Test("invalid UTF-8 in -c text is refused as -c:LINE, status 2; a real U+FFFD is text")
    func invalidCommandText() async throws {
        let run = try await shell(#"exec "$0" -c "$(printf 'echo fine\necho caf\351')""#)
        #expect(run.status == 2)
        #expect(run.stdout == "")
        #expect(run.stderr.contains("-c:2: syntax error: invalid UTF-8 in input"), "\(run.stderr)")
        let replacement = try await WshProcess.run(["-c", "echo \u{FFFD}"])
        #expect(replacement.status == 0)
        #expect(replacement.stdout == "\u{FFFD}\n")
    }

    @Test("invalid UTF-8 on batch stdin stops there as <stdin>:LINE, status 2")
    func invalidStandardInput() async throws {
        let input = Data("echo first\necho caf".utf8) + Data([0xE9]) + Data("\necho never\n".utf8)
        let run = try await WshProcess.run([], input: input)
        #expect(run.status == 2)
        #expect(run.stdout == "first\n")
        #expect(run.stderr.contains("<stdin>:2: syntax error: invalid UTF-8 in input"), "\(run.stderr)")
    }

    @Test("a UTF-8 byte-order mark at the start of a script, of stdin or of a sourced file is skipped")
    func byteOrderMark() async throws {
        let bom = Data([0xEF, 0xBB, 0xBF])
        let folder = WshProcess.temporaryDirectory()
        let path = folder + "/bom.wsh"
        try (bom + Data("echo café\n".utf8)).write(to: URL(fileURLWithPath: path))
        let script = try await WshProcess.run([path])
        #expect(script.status == 0)
        #expect(script.stdout == "café\n", "\(script.stderr)")
        let batch = try await WshProcess.run([], input: bom + Data("echo piped\n".utf8))
        #expect(batch.stdout == "piped\n", "\(batch.stderr)")
        let sourced = try await WshProcess.run(["-c", "source \(path)"])
        #expect(sourced.stdout == "café\n", "\(sourced.stderr)")
    }

    @Test("a process substitution, a FIFO and - (stdin) are script paths, with arguments")
    func pipesAsScripts() async throws {
        let substituted = try await onOwnThread {
            try runShell(#"exec /bin/bash -c '"$0" <(printf "echo hi \$1\n") there' "$0""#, input: "")
        }
        #expect(substituted.status == 0, "\(substituted.stderr)")
        #expect(substituted.stdout == "hi there\n")

        let fifo = WshProcess.temporaryDirectory() + "/script.fifo"
        #expect(mkfifo(fifo, 0o600) == 0)
        let fromFIFO = try await shell(#"printf 'echo from-fifo\n' > '\#(fifo)' & exec "$0" '\#(fifo)'"#)
        #expect(fromFIFO.status == 0, "\(fromFIFO.stderr)")
        #expect(fromFIFO.stdout == "from-fifo\n")

        let dash = try await WshProcess.run(["-", "one", "two"], stdin: "echo \"$# $1 $2\"\ndetail 4\n")
        #expect(dash.status == 1)
        #expect(dash.stdout == "2 one two\n")
        #expect(dash.stderr.contains("<stdin>:2: detail:"), "\(dash.stderr)")
    }

    @Test("output that cannot be written fails the command: one message, status 1, the script stops")
    func unwritableOutput() async throws {
        let full = try await shell(#"exec "$0" -c 'fetch 3; list --json' > /dev/full"#)
        #expect(full.status == 1)
        let messages = full.stderr.components(separatedBy: "wsh: cannot write output: No space left on device")
        #expect(messages.count == 2, "once: \(full.stderr)")

        let path = try WshProcess.writeScript("echo one\necho two >&2\n")
        let script = try await shell(#"exec "$0" '\#(path)' > /dev/full"#)
        #expect(script.status == 1)
        #expect(!script.stderr.contains("two"), "the script stopped at its first line: \(script.stderr)")
    }

    @Test("a reader that goes away (| head -1) still ends wsh quietly")
    func brokenPipeIsQuiet() async throws {
        let run = try await shell(#""$0" -c 'repeat 100000 { echo x }' | head -1"#)
        #expect(run.stdout == "x\n")
        #expect(run.stderr == "")
    }

    @Test("Ctrl-\\ (SIGQUIT) stops a script quietly with status 131, no crash report")
    func quitStopsScript() async throws {
        let run = try await onOwnThread { () throws -> ShellRun in
            let process = Process()
            process.executableURL = URL(fileURLWithPath: WshProcess.binary)
            process.arguments = ["-c", "echo started; repeat 100000000 { set x 1 }"]
            let output = Pipe(), error = Pipe()
            process.standardOutput = output
            process.standardError = error
            try process.run()
            // The event to act on: the script has started.
            let started = output.fileHandleForReading.readData(ofLength: 8)
            kill(process.processIdentifier, SIGQUIT)
            let errors = error.fileHandleForReading.readDataToEndOfFile()
            process.waitUntilExit()
            return ShellRun(status: process.terminationReason == .exit ? process.terminationStatus : -process.terminationStatus,
                          stdout: String(decoding: started, as: UTF8.self),
                          stderr: String(decoding: errors, as: UTF8.self))
        }
        #expect(run.stdout == "started\n")
        #expect(run.status == 131)
        #expect(run.stderr == "", "\(run.stderr)")
    }
}

/// How a process run by these tests ended (`WshRun` has no public initializer).
struct ShellRun: Sendable {
    var status: Int32
    var stdout: String
    var stderr: String
}

/// `/bin/sh -c COMMAND` with the built wsh as `$0`, stdout and stderr apart.
private func runShell(_ command: String, input: String) throws -> ShellRun {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/bin/sh")
    process.arguments = ["-c", command, WshProcess.binary]
    var environment = ProcessInfo.processInfo.environment
    for key in ["WSH_ACCESS_TOKEN", "NO_COLOR", "XDG_STATE_HOME", "XDG_CONFIG_HOME", "COLUMNS"] { environment[key] = nil }
    environment["HOME"] = WshProcess.temporaryDirectory()
    process.environment = environment
    let stdin = Pipe(), output = Pipe(), error = Pipe()
    process.standardInput = stdin
    process.standardOutput = output
    process.standardError = error
    try process.run()
    nonisolated(unsafe) var errData = Data()
    let group = DispatchGroup()
    DispatchQueue.global().async(group: group) { errData = error.fileHandleForReading.readDataToEndOfFile() }
    stdin.fileHandleForWriting.write(Data(input.utf8))
    try? stdin.fileHandleForWriting.close()
    let outData = output.fileHandleForReading.readDataToEndOfFile()
    group.wait()
    process.waitUntilExit()
    return ShellRun(status: process.terminationStatus, stdout: String(decoding: outData, as: UTF8.self),
                  stderr: String(decoding: errData, as: UTF8.self))
}
