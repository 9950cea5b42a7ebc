import Foundation
import Testing
import WshTestSupport
#if canImport(Glibc)
import Glibc
#endif

/// The built `wsh-sandbox` off loopback: a warning on stderr, and `/admin/`
/// closed to other machines without the admin token.
@Suite("wsh-sandbox beyond loopback", .serialized)
struct SandboxExposureTests {
    /// The built `wsh-sandbox`, beside the `wsh` the tests run.
    static var binary: String { SandboxBinary.path }

    /// Whether this process may make a network namespace of its own, with
    /// `ip` to give it an address and `curl` to call from it.
    static let canMakeNetworkNamespace: Bool = {
        guard geteuid() == 0, FileManager.default.isExecutableFile(atPath: "/usr/bin/curl"),
              ["/usr/sbin/ip", "/sbin/ip", "/usr/bin/ip", "/bin/ip"].contains(where: FileManager.default.isExecutableFile)
        else { return false }
        return (try? run(["/usr/bin/unshare", "-n", "true"]).status) == 0
    }()

    /// What a process printed and how it ended.
    struct Run {
        var status: Int32
        var stdout: String
        var stderr: String
    }

    /// Runs `arguments` to the end.
    static func run(_ arguments: [String]) throws -> Run {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: arguments[0])
        process.arguments = Array(arguments.dropFirst())
        let output = Pipe(), errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        process.standardInput = FileHandle.nullDevice
        try process.run()
        // Both pipes are read while it runs, so a full one cannot block it.
        nonisolated(unsafe) var errorData = Data()
        let readErrors = DispatchSemaphore(value: 0)
        Thread {
            errorData = errors.fileHandleForReading.readDataToEndOfFile()
            readErrors.signal()
        }.start()
        let outData = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        readErrors.wait()
        return Run(status: process.terminationStatus, stdout: String(decoding: outData, as: UTF8.self),
                   stderr: String(decoding: errorData, as: UTF8.self))
    }

    static func startAndStop(_ arguments: [String]) throws -> Run {
        let run = try SandboxBinary.startAndStop(arguments)
        return Run(status: run.status, stdout: run.stdout, stderr: run.stderr)
    }

    @Test("on a loopback host it starts as before: no warning, no admin token")
    func loopback_noWarning() async throws {
        for host in ["127.0.0.1", "127.0.0.2", "localhost"] {
            let run = try await onOwnThread { try Self.startAndStop(["--host", host, "--port", "0", "--quiet"]) }
            #expect(run.stdout.hasPrefix("wsh-sandbox listening on http://\(host):"), "\(host): \(run.stdout) \(run.stderr)")
            #expect(run.stderr.isEmpty, "\(host): \(run.stderr)")
        }
    }

    @Test("a bad --admin-token is a usage error naming the option")
    func badAdminToken_usageError() async throws {
        let run = try await onOwnThread { try Self.run([Self.binary, "--admin-token", "two words", "--port", "0"]) }
        #expect(run.status == 64)
        #expect(run.stderr.contains("--admin-token: the admin token must be visible ASCII characters, without spaces"),
                "\(run.stderr)")
    }

    /// Runs in a network namespace of its own, where 192.0.2.1 (a documentation
    /// address) is this machine's too: a sandbox on 0.0.0.0 with a generated
    /// token, then one on 192.0.2.1 with a given token, each called from
    /// 192.0.2.1 (a peer that is not loopback) and from 127.0.0.1. Prints
    /// `NAME BODY STATUS` per call; the sandboxes' stderr goes to files.
    static let namespaceScript = #"""
        set -eu
        sandbox=$1 folder=$2
        ip link set lo up
        ip addr add 192.0.2.1/32 dev lo
        ask() { name=$1; shift; printf '%s %s\n' "$name" "$(curl -s --max-time 10 -w ' %{http_code}' "$@")"; }
        port_of() { printf '%s' "$1" | sed -n 's|.*http://[0-9.]*:\([0-9]*\)/2/.*|\1|p'; }

        coproc GENERATED { exec "$sandbox" --host 0.0.0.0 --port 0 2>"$folder/generated.err"; }
        read -r line <&"${GENERATED[0]}"
        port=$(port_of "$line")
        # The warning is written before the first line on stdout.
        token=$(sed -n 's/^wsh-sandbox: admin token: \([^ ]*\) .*/\1/p' "$folder/generated.err")
        ask remote-none "http://192.0.2.1:$port/admin/accounts"
        ask remote-wrong -H 'Authorization: Bearer wrong' "http://192.0.2.1:$port/admin/accounts"
        ask remote-reset -X POST "http://192.0.2.1:$port/admin/reset"
        ask remote-token -H "Authorization: Bearer $token" "http://192.0.2.1:$port/admin/accounts"
        ask local-none "http://127.0.0.1:$port/admin/accounts"
        ask remote-api -o /dev/null "http://192.0.2.1:$port/2/statuses/public_timeline.json?count=1&access_token=sandbox-token"
        kill "$GENERATED_PID"; wait "$GENERATED_PID" || true

        coproc GIVEN { exec "$sandbox" --host 192.0.2.1 --port 0 --admin-token given-Admin-1 --quiet 2>"$folder/given.err"; }
        read -r line <&"${GIVEN[0]}"
        port=$(port_of "$line")
        ask given-none "http://192.0.2.1:$port/admin/stats"
        ask given-token -H 'Authorization: Bearer given-Admin-1' "http://192.0.2.1:$port/admin/stats"
        kill "$GIVEN_PID"; wait "$GIVEN_PID" || true
        """#

    @Test("off loopback: a warning and the admin token on stderr; /admin/ is 403 for another host without it, 200 with it",
          .enabled(if: canMakeNetworkNamespace, "needs root, unshare, ip and curl to make a network namespace with a second address"))
    func beyondLoopback_warnsAndGuardsAdmin() async throws {
        let folder = WshProcess.temporaryDirectory()
        let script = folder + "/exposure.sh"
        try Self.namespaceScript.write(toFile: script, atomically: true, encoding: .utf8)
        let run = try await onOwnThread { try Self.run(["/usr/bin/unshare", "-n", "/bin/bash", script, Self.binary, folder]) }
        #expect(run.status == 0, "\(run.stderr)")
        var answers: [String: (body: String, status: String)] = [:]
        for line in run.stdout.split(separator: "\n") {
            guard let space = line.firstIndex(of: " "), let last = line.lastIndex(of: " ") else { continue }
            answers[String(line[..<space])] = (String(line[line.index(after: space)..<last]).trimmingCharacters(in: .whitespaces),
                                               String(line[line.index(after: last)...]))
        }

        let generated = try String(contentsOfFile: folder + "/generated.err", encoding: .utf8)
        #expect(generated.hasPrefix("wsh-sandbox: warning: listening on 0.0.0.0, beyond loopback: "), "\(generated)")
        let token = try #require(generated.firstMatch(of: #/wsh-sandbox: admin token: ([A-Za-z0-9_-]{32}) /#)?.1)
        // The token is printed once; the request log never shows it.
        #expect(generated.components(separatedBy: token).count == 2, "\(generated)")

        for name in ["remote-none", "remote-wrong", "remote-reset"] {
            let answer = try #require(answers[name], "\(run.stdout)")
            #expect(answer.status == "403", "\(name): \(answer)")
            let error = try JSONSerialization.jsonObject(with: Data(answer.body.utf8)) as? [String: Any]
            #expect(error?["error_code"] as? Int == 21301, "\(name): \(answer.body)")
            #expect(!answer.body.contains("sandbox-token"), "\(name) leaks the accounts: \(answer.body)")
        }
        let granted = try #require(answers["remote-token"])
        #expect(granted.status == "200")
        #expect(granted.body.contains("\"token\":\"sandbox-token\""), "\(granted.body)")
        let local = try #require(answers["local-none"])
        #expect(local.status == "200", "a loopback client needs no token")
        #expect(local.body == granted.body)
        #expect(answers["remote-api"]?.status == "200", "the API itself is unchanged")

        let given = try String(contentsOfFile: folder + "/given.err", encoding: .utf8)
        #expect(given.hasPrefix("wsh-sandbox: warning: listening on 192.0.2.1, beyond loopback: "), "\(given)")
        #expect(given.contains("the one given with --admin-token"), "\(given)")
        #expect(!given.contains("given-Admin-1"), "a given token is not echoed: \(given)")
        #expect(answers["given-none"]?.status == "403")
        #expect(answers["given-token"]?.status == "200")
    }
}
