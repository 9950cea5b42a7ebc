import ArgumentParser
import Foundation
import WshSandbox

/// `wsh-sandbox`: the sandbox API server on its own, for curl, jq and a
/// wsh started with `--api`.
@main
struct WshSandboxCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "wsh-sandbox",
        abstract: "A Weibo API v2 compatible server with generated data and fault injection.",
        discussion: """
            Serves /2/statuses/public_timeline.json, statuses/show.json, comments/show.json, \
            users/show.json and statuses/update.json with data generated from --seed. \
            Faults can also be changed at run time: GET/POST /admin/faults, POST /admin/reset \
            (no token; keep the sandbox on loopback). See docs/SANDBOX.md.
            """)

    @Option(help: "The address to listen on.")
    var host = "127.0.0.1"

    @Option(help: "The port to listen on (0 picks a free one).")
    var port = 8080

    @Option(help: "The seed all generated data comes from.")
    var seed: UInt64 = 1

    @Option(help: "How many users to generate.")
    var users = 50

    @Option(help: "How many statuses to generate.")
    var statuses = 1000

    @Option(help: "The access token the API accepts.")
    var token = SandboxConfiguration.defaultToken

    @Option(name: .customLong("latency-ms"), help: "Delay every API response by this many milliseconds.")
    var latencyMilliseconds = 0

    @Option(name: .customLong("fail-status"), help: "The HTTP status sent for injected failures.")
    var failStatus = 500

    @Option(name: .customLong("fail-rate"), help: "The share of API requests that fail, 0.0 to 1.0.")
    var failRate = 0.0

    @Option(name: .customLong("rate-limit"), help: "Answer 403 with error 10023 after this many API requests.")
    var rateLimit: Int?

    @Flag(help: "Send half of each body, then close the connection.")
    var truncate = false

    @Flag(help: "Send HTTP 200 with JSON cut in half.")
    var malformed = false

    @Flag(help: "Close each API connection without a response.")
    var drop = false

    @Flag(name: .customLong("drop-after"), help: "Serve each API request (posts land), then close without the answer.")
    var dropAfter = false

    @Option(name: .customLong("fault-path"), help: "Apply the faults only to this endpoint, e.g. statuses/update.json.")
    var faultPath: String?

    @Option(name: .customLong("drip-ms"), help: "Write bodies in small chunks with this many milliseconds between.")
    var dripMilliseconds = 0

    @Option(name: .customLong("drip-bytes"), help: "The size of each dripped chunk.")
    var dripChunkBytes = 64

    @Flag(help: "Do not log requests to stderr.")
    var quiet = false

    func validate() throws {
        let faults = self.faults
        if let problem = faults.validationProblem { throw ValidationError(problem) }
    }

    private var faults: SandboxFaults {
        SandboxFaults(
            latencyMilliseconds: latencyMilliseconds, failStatus: failStatus, failRate: failRate,
            rateLimit: rateLimit, truncate: truncate, malformed: malformed, drop: drop,
            dripMilliseconds: dripMilliseconds, dripChunkBytes: dripChunkBytes, dropAfter: dropAfter, path: faultPath)
    }

    func run() async throws {
        let configuration = SandboxConfiguration(
            host: host, port: port, seed: seed, users: users, statuses: statuses, token: token,
            faults: faults, logRequests: !quiet)
        do {
            try await SandboxServer.serve(configuration) { server in
                var line = "wsh-sandbox listening on \(server.baseURL) (token: \(server.token), "
                    + "\(configuration.statuses) statuses, seed \(configuration.seed))"
                if server.faults.isActive { line += " faults: \(describe(server.faults))" }
                // Written at once, unbuffered: a script waits for this line to know the port.
                FileHandle.standardOutput.write(Data((line + "\n").utf8))
            }
        } catch let error as SandboxStartError {
            FileHandle.standardError.write(Data("wsh-sandbox: \(error.description)\n".utf8))
            throw ExitCode.failure
        }
    }

    private func describe(_ faults: SandboxFaults) -> String {
        var parts: [String] = []
        if faults.latencyMilliseconds > 0 { parts.append("latency \(faults.latencyMilliseconds) ms") }
        if faults.failRate > 0 { parts.append("\(faults.failStatus) at rate \(faults.failRate)") }
        if let limit = faults.rateLimit { parts.append("rate limit after \(limit)") }
        if faults.truncate { parts.append("truncate") }
        if faults.malformed { parts.append("malformed") }
        if faults.drop { parts.append("drop") }
        if faults.dropAfter { parts.append("drop after serving") }
        if faults.dripMilliseconds > 0 { parts.append("drip \(faults.dripChunkBytes) B / \(faults.dripMilliseconds) ms") }
        if let path = faults.path { parts.append("only \(path)") }
        return parts.joined(separator: ", ")
    }
}
