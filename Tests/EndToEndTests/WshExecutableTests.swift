import Foundation
import Testing
import WshSandbox
import WshTestSupport

/// The built `wsh`, run as a user runs it: arguments, stdin, exit codes,
/// stdout and stderr kept apart.
@Suite("The wsh executable, end to end")
struct WshExecutableTests {
    @Test("-c runs commands: echo, variables and expressions")
    func dashC() async throws {
        #expect(try await WshProcess.run(["-c", "echo hi"]).stdout == "hi\n")
        let run = try await WshProcess.run(["-c", "set x 3; let y = $x * 2 + 1; echo $y"])
        #expect(run.stdout == "7\n")
        #expect(run.status == 0)
        #expect(try await WshProcess.run(["-c", "for i in a b c { echo $i }"]).stdout == "a\nb\nc\n")
    }

    @Test("the embedded sandbox answers with no --api: fetch 5; list --json pipes to a JSON reader")
    func embeddedSandboxJSON() async throws {
        let run = try await WshProcess.run(["-c", "fetch 5; list --json"])
        #expect(run.status == 0)
        let rows = try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [[String: Any]]
        #expect(rows?.count == 5)
        #expect(rows?.first?["idstr"] is String)
        #expect(run.stderr.contains("fetched 5 statuses"))
    }

    @Test("a script gets $1… and $#, may start with #!, and its third line failing stops it with FILE:3")
    func scriptFailure() async throws {
        let path = try WshProcess.writeScript("#!/usr/bin/env wsh\necho \"$# $1 $2\"\nfetch 2\ndetail 7\necho never\n")
        let run = try await WshProcess.run([path, "one", "two"])
        #expect(run.status == 1)
        #expect(run.stdout == "2 one two\n")
        #expect(run.stderr.contains("\(path):4: detail: no row 7: the list has 2 rows"))
    }

    @Test("exit codes: exit N, syntax error 2, usage error 2, unknown flag 2, missing file 2; --version names the licence")
    func exitCodes() async throws {
        #expect(try await WshProcess.run(["-c", "exit 3"]).status == 3)
        let unclosed = try await WshProcess.run(["-c", "echo \"open"])
        #expect(unclosed.status == 2)
        #expect(unclosed.stderr.contains("-c:1:"))
        #expect(try await WshProcess.run(["-c", "fetch many"]).status == 2)
        let flag = try await WshProcess.run(["--frobnicate"])
        #expect(flag.status == 2)
        #expect(flag.stderr.contains("--frobnicate"))
        #expect(try await WshProcess.run(["/nonexistent/script.wsh"]).status == 2)
        let version = try await WshProcess.run(["--version"])
        #expect(version.status == 0)
        #expect(version.stdout.hasPrefix("wsh "))
        #expect(version.stdout.split(separator: "\n").last == "Licensed under the Apache License 2.0", "\(version.stdout)")
        #expect(try await WshProcess.run(["--help"]).status == 0)
    }

    @Test("batch stdin runs through the same loop, naming <stdin>:LINE")
    func batchStdin() async throws {
        let run = try await WshProcess.run([], stdin: "fetch 2\nlist --json\ndetail 5\necho never\n")
        #expect(run.status == 1)
        let rows = try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [[String: Any]]
        #expect(rows?.count == 2)
        #expect(run.stderr.contains("<stdin>:3: detail:"))
    }

    @Test("a failing fetch against a faulty API keeps the list, exits 1 and names the line")
    func failingFetch() async throws {
        let sandbox = try await SandboxServer.start(SandboxConfiguration(faults: SandboxFaults(rateLimit: 1)))
        defer { Thread.detachNewThread { sandbox.stop() } }
        let env = ["WSH_ACCESS_TOKEN": sandbox.token]
        let keep = try WshProcess.writeScript("fetch 5\ntry { fetch 3 } catch { echo \"caught $?: $error\" }\nlist --json\n")
        let kept = try await WshProcess.run(["--api", sandbox.baseURL, keep], environment: env)
        #expect(kept.status == 0)
        #expect(kept.stdout.contains("caught 1: API error 10023"))
        let json = String(kept.stdout.drop { $0 != "[" })
        #expect((try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [Any])?.count == 5)

        sandbox.reset()
        sandbox.setFaults(SandboxFaults(rateLimit: 1))
        let stop = try WshProcess.writeScript("fetch 5\nfetch 3\nlist\n", name: "stop.wsh")
        let stopped = try await WshProcess.run(["--api", sandbox.baseURL, stop], environment: env)
        #expect(stopped.status == 1)
        #expect(stopped.stderr.contains("stop.wsh:2: fetch: API error 10023"))
        #expect(stopped.stdout.isEmpty)
    }

    @Test("transport failures are one-line errors: refused port, timeout")
    func transportFailures() async throws {
        let refused = try await WshProcess.run(["--api", "http://127.0.0.1:\(unusedLocalPort())/2/", "-c", "fetch"],
                                         environment: ["WSH_ACCESS_TOKEN": "x"])
        #expect(refused.status == 1)
        #expect(refused.stderr.contains("-c:1: fetch: connection refused"))
        #expect(refused.stderr.split(separator: "\n").count == 1)
        let silent = try SilentServer()
        defer { silent.stop() }
        let timeout = try await WshProcess.run(["--api", silent.baseURL, "--timeout", "0.3", "-c", "fetch"])
        #expect(timeout.status == 1)
        #expect(timeout.stderr.contains("timed out"))
    }

    @Test("invalid UTF-8, NUL bytes and escape sequences on stdin do not crash the shell")
    func hostileBytes() async throws {
        let inputs: [[UInt8]] = [
            [0xFF, 0xFE, 0xC3, 0x28, 0x0A],
            Array("echo a".utf8) + [0x00, 0x62, 0x0A, 0x65, 0x63, 0x68, 0x6F, 0x20, 0xE2, 0x82, 0x0A],
            [0x1B, 0x5B, 0x32, 0x4A, 0x7F, 0x0A] + Array("echo \"\u{1B}".utf8),
            Array(repeating: 0x7B, count: 10_000) + [0x0A],
        ]
        for bytes in inputs {
            let run = try await WshProcess.run([], input: Data(bytes))
            #expect([0, 1, 2].contains(run.status), "status \(run.status) for \(bytes.prefix(12))")
        }
        let after = try await WshProcess.run([], input: Data([0xFF, 0x0A] + Array("echo still alive\n".utf8)))
        #expect(after.stdout.isEmpty || after.stdout.contains("still alive") || after.status == 2)
    }

    @Test("every example exits 0 against the embedded sandbox", arguments: ["tour", "calculator", "automation", "lesson", "two-apis", "ci-check",
                      "lessons/1-layers", "lessons/2-datacontroller", "lessons/3-history",
                      "lessons/4-errors", "lessons/5-dialects"])
    func examples(_ name: String) async throws {
        let run = try await WshProcess.run([WshProcess.packageRoot + "/examples/\(name).wsh"])
        #expect(run.status == 0, "\(run.stderr)")
    }
}

