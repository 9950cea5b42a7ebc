import Foundation
import Testing
import WshSandbox
import WshTestSupport

/// Tokens and colour at the edge of the process, through the built `wsh`.
@Suite("Secrets and colour at the process boundary", .serialized)
struct TrustBoundaryTests {
    /// Runs every line of `lines` in one `-c`, each failing one caught, so all
    /// of them run; the script must exit 0.
    private func script(_ lines: [String]) -> String {
        lines.map { "try { \($0) } catch { echo \"caught: $error\" }" }.joined(separator: "; ")
    }

    @Test("the token never shows: not in traces, notes, history, errors, status or base_url, wherever it is typed")
    func tokenHygiene() async throws {
        let token = "tok-E2E-\(UUID().uuidString.prefix(8))"
        let sandbox = try await SandboxServer.start(SandboxConfiguration(token: token))
        defer { Thread.detachNewThread { sandbox.stop() } }
        let lines = [
            "trace on", "fetch 2", "detail 1", "api get statuses/show.json id=1",
            "api get statuses/public_timeline.json access_token=\(token)",
            "post \"hello \(token)\"", "mute x\(token)", "history", "history --json", "echo \(token)",
            "status", "status --json", "connect \(sandbox.baseURL)", "ping", "fetch 9999", "user \(token)",
        ]
        let run = try await WshProcess.run(["--api", sandbox.baseURL, "-c", script(lines)],
                                           environment: ["WSH_ACCESS_TOKEN": token])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stderr.contains("┌─ trace: post hello ***"))
        #expect(run.stdout.contains("mute @x***"))
        #expect(run.stdout.contains("caught: "))
        #expect(!(run.stdout + run.stderr).contains(token))

        let fileRun = try await WshProcess.run(["--api", sandbox.baseURL, "--token-file",
                                                try WshProcess.writeScript("\n  " + token + "  \n", name: "token"),
                                                "-c", "trace on; fetch 1; status; echo \(token)"])
        #expect(fileRun.status == 0, "\(fileRun.stderr)")
        #expect(!(fileRun.stdout + fileRun.stderr).contains(token))
    }

    @Test("a token in the API URL's query is masked in status and errors")
    func tokenInURL() async throws {
        let run = try await WshProcess.run(["--api", "http://127.0.0.1:\(unusedLocalPort())/2/?access_token=SECRETVALUE42", "-c",
                                            script(["status", "status --json", "fetch 1"])])
        #expect(run.status == 0)
        #expect(run.stdout.contains("access_token=***"))
        #expect(!(run.stdout + run.stderr).contains("SECRETVALUE42"))
    }

    @Test("a one-letter token masks only itself, never the letters of other words")
    func shortToken() async throws {
        let run = try await WshProcess.run(["--api", "http://127.0.0.1:\(unusedLocalPort())/2/", "-c",
                                            "try { detail 9 } catch { echo $error }"],
                                           environment: ["WSH_ACCESS_TOKEN": "t"])
        #expect(run.status == 0)
        #expect(run.stdout.contains("detail: no row 9: the list is empty") || run.stdout.contains("no row 9: the list is empty"),
                "\(run.stdout)")
        #expect(!run.stdout.contains("***"))
    }

    @Test("surrounding whitespace is trimmed; a token with a line break or space inside is refused before any request")
    func tokenChecks() async throws {
        let sandbox = try await SandboxServer.start(SandboxConfiguration(token: "good-token-123"))
        defer { Thread.detachNewThread { sandbox.stop() } }
        let trimmed = try await WshProcess.run(["--api", sandbox.baseURL, "-c", "fetch 1"],
                                               environment: ["WSH_ACCESS_TOKEN": "  good-token-123\n"])
        #expect(trimmed.status == 0, "\(trimmed.stderr)")
        let before = sandbox.stats.requests
        for bad in ["good-token-123\r\nX-Injected: 1", "two words", "tab\tinside"] {
            let run = try await WshProcess.run(["--api", sandbox.baseURL, "-c", "fetch 1"],
                                               environment: ["WSH_ACCESS_TOKEN": bad])
            #expect(run.status == 1)
            #expect(run.stderr.contains("refusing to send it"), "\(run.stderr)")
            #expect(run.stderr.split(separator: "\n").count == 1)
            #expect(!run.stderr.contains("X-Injected"))
        }
        #expect(sandbox.stats.requests == before)
    }

    @Test("a missing or empty token file is a one-line error that names the file")
    func tokenFileErrors() async throws {
        let missing = try await WshProcess.run(["--api", "http://127.0.0.1:\(unusedLocalPort())/2/", "--token-file", "/nonexistent/token", "-c", "fetch 1"])
        #expect(missing.status == 1)
        #expect(missing.stderr.contains("cannot read token file /nonexistent/token"))
        let empty = try WshProcess.writeScript(" \n\n", name: "empty-token")
        let emptyRun = try await WshProcess.run(["--api", "http://127.0.0.1:\(unusedLocalPort())/2/", "--token-file", empty, "-c", "fetch 1"])
        #expect(emptyRun.status == 1)
        #expect(emptyRun.stderr.contains("token file \(empty) is empty"))
    }

    @Test("colour only on a terminal: none in a pipe, none on a terminal with NO_COLOR, some on a terminal without")
    func colourOnlyOnTerminals() async throws {
        let piped = try await WshProcess.run(["-c", "fetch 3; list; detail 1"])
        #expect(piped.status == 0)
        #expect(!(piped.stdout + piped.stderr).contains("\u{1B}["))
        let coloured = try await onTerminal("fetch 3; list", environment: [:])
        #expect(coloured.contains("\u{1B}[36m"), "\(coloured.debugDescription)")
        let noColor = try await onTerminal("fetch 3; list", environment: ["NO_COLOR": "1"])
        #expect(noColor.contains("fetched 3 statuses"))
        #expect(!noColor.contains("\u{1B}["))
    }

    /// What `wsh -c COMMANDS` writes to a pseudo-terminal (util-linux `script`).
    private func onTerminal(_ commands: String, environment: [String: String]) async throws -> String {
        let run = try await onOwnThread { () throws -> String in
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/usr/bin/script")
            let quoted = "'" + commands.replacingOccurrences(of: "'", with: "'\\''") + "'"
            process.arguments = ["-qec", "\(WshProcess.binary) -c \(quoted)", "/dev/null"]
            var env = ProcessInfo.processInfo.environment
            env["NO_COLOR"] = nil
            env["HOME"] = WshProcess.temporaryDirectory()
            env.merge(environment) { $1 }
            process.environment = env
            let output = Pipe()
            process.standardOutput = output
            process.standardInput = FileHandle.nullDevice
            try process.run()
            let data = output.fileHandleForReading.readDataToEndOfFile()
            process.waitUntilExit()
            return String(decoding: data, as: UTF8.self)
        }
        return run
    }
}
