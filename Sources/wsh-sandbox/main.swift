import ArgumentParser
import FoundationEssentials
import WshHAR
import WshSandbox
import WshText

/// `wsh-sandbox`: the sandbox API server on its own, for curl, jq and a
/// wsh started with `--api`.
@main
struct WshSandboxCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "wsh-sandbox",
        abstract: "A Weibo API v2 and Mastodon API compatible server with generated data, accounts, OAuth2 and fault injection.",
        discussion: """
            Serves Weibo API v2 under /2/ (timelines with since_id/max_id cursors, statuses, \
            comments, reposts, favourites, friendships, rate limits) over data generated from \
            --seed, and OAuth2 under /oauth2/ (authorize, access_token, get_token_info, \
            revokeoauth2). Over the same data it serves the Mastodon API under /api/v1/ (timelines \
            with Link paging, statuses, context, accounts, notifications, apps) and its OAuth under \
            /oauth/ (authorize, token, revoke). The first --accounts users are accounts: account 1's token is --token, \
            account N's is TOKEN-N. Data lives in memory: a restart starts afresh. \
            At run time: GET/POST /admin/faults, POST /admin/reset, GET /admin/accounts, \
            POST /admin/tokens/expire, GET/POST /admin/mastodon: open to clients on this \
            machine (loopback), to others only with the admin token (--admin-token). Listening \
            beyond loopback is warned about on stderr. With --replay FILE.har it serves that \
            recording instead (what wsh --record or a browser saved), in recorded order, with the \
            fault options applied on top. See docs/SANDBOX.md.
            """)

    @Option(help: "The address to listen on. Anything but loopback (127.0.0.0/8, ::1, localhost) lets other machines in: a warning is printed.")
    var host = "127.0.0.1"

    @Option(name: .customLong("admin-token"),
            help: ArgumentHelp(
                "The token a client on another machine must send as 'Authorization: Bearer TOKEN' to use /admin/ (loopback clients need none).",
                discussion: "Beyond loopback without this option, a random one is made and printed on stderr.",
                valueName: "token"))
    var adminToken: String?

    @Option(help: "The port to listen on (0 picks a free one).")
    var port = 8080

    @Option(help: "The seed all generated data comes from.")
    var seed: UInt64 = 1

    @Option(help: "How many users to generate.")
    var users = 50

    @Option(help: "How many statuses to generate.")
    var statuses = 1000

    @Option(help: "The access token of account 1 (account N's is TOKEN-N).")
    var token = SandboxConfiguration.defaultToken

    @Option(help: "How many of the first users are accounts with a token.")
    var accounts = 3

    @Option(name: .customLong("app-key"), help: "The OAuth2 app key (client_id).")
    var appKey = SandboxConfiguration.defaultAppKey

    @Option(name: .customLong("app-secret"), help: "The OAuth2 app secret (client_secret).")
    var appSecret = SandboxConfiguration.defaultAppSecret

    @Option(name: .customLong("token-lifetime"), help: "Seconds a token issued by oauth2/access_token lives.")
    var tokenLifetime = SandboxConfiguration.defaultTokenLifetime

    @Option(name: .customLong("rate-limit"), help: "Refuse a token's calls past this many in the window: Weibo's clock hour (403, error 10023), Mastodon's 5 minutes (429).")
    var rateLimit: Int?

    @Option(name: .customLong("latency-ms"), help: "Delay every API response by this many milliseconds.")
    var latencyMilliseconds = 0

    @Option(name: .customLong("fail-status"), help: "The HTTP status sent for injected failures.")
    var failStatus = 500

    @Option(name: .customLong("fail-rate"), help: "The share of API requests that fail, 0.0 to 1.0.")
    var failRate = 0.0

    @Option(name: .customLong("fault-rate-limit"), help: "The rate_limit fault: 403 with error 10023 after this many API requests, whatever the token.")
    var faultRateLimit: Int?

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

    @Flag(name: .customLong("no-public-preview"),
          help: "Make the Mastodon public and tag timelines require a token (401 without one).")
    var noPublicPreview = false

    @Option(help: ArgumentHelp(
        "The server the Mastodon side imitates: mastodon, gotosocial, pleroma, akkoma or sharkey.",
        discussion: "Its nodeinfo and instance version, ids, paging header, error wording and extra fields. "
            + "Default: mastodon. --id-style overrides its ids.",
        valueName: "name"))
    var flavour: SandboxFlavour?

    @Option(name: .customLong("id-style"),
            help: "Mastodon-side ids as a real server writes them, over the flavour's: snowflake (Mastodon's numbers), ulid (GoToSocial), flake (Pleroma), aid (Sharkey).")
    var idStyle: MastodonIDStyle?

    @Option(help: "How the Mastodon streaming API is served: sse (server-sent events only), websocket (a WebSocket only, as GoToSocial), both (as Mastodon); default: the flavour's.")
    var streaming: StreamingTransports?

    @Option(help: ArgumentHelp(
        "Serve this HAR recording instead of generated data: each request gets its recorded answer, in order.",
        discussion: "Matched by method, path and query (any order; a recorded *** matches any value); "
            + "a request the recording lacks is 404 naming it. The fault options apply on top.",
        valueName: "file.har"))
    var replay: String?

    @Flag(help: "Do not log requests to stderr.")
    var quiet = false

    func validate() throws {
        let faults = self.faults
        if let problem = faults.validationProblem { throw ValidationError(problem) }
        if accounts < 1 { throw ValidationError("--accounts must be 1 or more") }
        if tokenLifetime < 1 { throw ValidationError("--token-lifetime must be 1 or more") }
        if let rateLimit, rateLimit < 0 { throw ValidationError("--rate-limit must be 0 or more") }
        if let adminToken, let problem = SandboxConfiguration.adminTokenProblem(adminToken) {
            throw ValidationError("--admin-token: \(problem)")
        }
        if let replay {
            do { _ = try HARRecording.load(path: replay) } catch { throw ValidationError("--replay: \(error)") }
        }
    }

    private var faults: SandboxFaults {
        SandboxFaults(
            latencyMilliseconds: latencyMilliseconds, failStatus: failStatus, failRate: failRate,
            rateLimit: faultRateLimit, truncate: truncate, malformed: malformed, drop: drop,
            dripMilliseconds: dripMilliseconds, dripChunkBytes: dripChunkBytes, dropAfter: dropAfter, path: faultPath)
    }

    func run() async throws {
        let recording: HARRecording?
        do {
            recording = try replay.map { (path) throws(HARError) in try HARRecording.load(path: path) }
        } catch {
            StandardStreams.writeError("wsh-sandbox: --replay: \(error)\n")
            throw ExitCode.failure
        }
        let configuration = SandboxConfiguration(
            host: host, port: port, seed: seed, users: users, statuses: statuses, token: token,
            accounts: accounts, appKey: appKey, appSecret: appSecret, tokenLifetime: tokenLifetime,
            rateLimit: rateLimit, faults: faults, logRequests: !quiet, publicPreview: !noPublicPreview,
            adminToken: adminToken,
            flavour: flavour ?? .mastodon, idStyle: idStyle, streamingTransports: streaming, replay: recording)
        do {
            try await SandboxServer.serve(configuration) { server in
                // Before the first line on stdout, which scripts wait for: by then the warning is out.
                if configuration.listensBeyondLoopback { warnBeyondLoopback(server) }
                var line = "wsh-sandbox listening on \(server.baseURL) (token: \(server.token), "
                    + "\(configuration.statuses) statuses, seed \(configuration.seed))"
                if let recording {
                    line = "wsh-sandbox listening on \(server.baseURL) (replaying \(recording.name): "
                        + "\(recording.size))"
                }
                if server.faults.isActive { line += " faults: \(describe(server.faults))" }
                if let limit = configuration.rateLimit { line += " rate limit: \(limit) calls per token per hour (Weibo), per 5 minutes (Mastodon)" }
                // Written at once, unbuffered: a script waits for this line to know the port.
                StandardStreams.writeOutput(line + "\n")
                guard recording == nil else { return }
                var more = server.accounts.enumerated().map { number, account in
                    "  account \(number + 1): @\(account.screenName) uid \(account.uid) token \(account.token)"
                }
                more.append("  oauth2: \(server.oauthURL) (app key \(configuration.appKey), secret \(configuration.appSecret))")
                more.append("  mastodon: \(server.mastodonBaseURL)api/v1/ (oauth: \(server.mastodonBaseURL)oauth/, "
                    + "same app and tokens; public preview \(configuration.publicPreview ? "on" : "off"); "
                    + "flavour \(configuration.flavour.name), ids \(configuration.idStyle.rawValue); "
                    + "streaming: \(Self.describe(configuration.streamingTransports)))")
                StandardStreams.writeOutput(more.joined(separator: "\n") + "\n")
            }
        } catch let error as SandboxStartError {
            StandardStreams.writeError("wsh-sandbox: \(error.description)\n")
            throw ExitCode.failure
        }
    }

    /// `server-sent events and WebSocket`, as the start-up lines say it.
    private static func describe(_ transports: StreamingTransports) -> String {
        switch transports {
        case .serverSentEvents: "server-sent events only"
        case .webSocket: "WebSocket only"
        case .both: "server-sent events and WebSocket"
        }
    }

    /// Says on stderr that other machines can reach this sandbox, and how
    /// they reach `/admin/`: the operator's own token, printed when generated.
    private func warnBeyondLoopback(_ server: SandboxServer) {
        var lines = ["wsh-sandbox: warning: listening on \(host), beyond loopback: other machines can reach "
            + "the API, where the accounts' tokens (on stdout) are valid; /admin/ answers them only with the admin token"]
        if adminToken != nil {
            lines.append("wsh-sandbox: admin token: the one given with --admin-token "
                + "(send it as Authorization: Bearer TOKEN; clients on this machine need none)")
        } else if let token = server.adminToken {
            lines.append("wsh-sandbox: admin token: \(token) "
                + "(send it as Authorization: Bearer TOKEN; clients on this machine need none)")
        }
        StandardStreams.writeError(lines.joined(separator: "\n") + "\n")
    }

    private func describe(_ faults: SandboxFaults) -> String {
        var parts: [String] = []
        if faults.latencyMilliseconds > 0 { parts.append("latency \(faults.latencyMilliseconds) ms") }
        if faults.failRate > 0 { parts.append("\(faults.failStatus) at rate \(faults.failRate)") }
        if let limit = faults.rateLimit { parts.append("rate limit fault after \(limit)") }
        if faults.truncate { parts.append("truncate") }
        if faults.malformed { parts.append("malformed") }
        if faults.drop { parts.append("drop") }
        if faults.dropAfter { parts.append("drop after serving") }
        if faults.dripMilliseconds > 0 { parts.append("drip \(faults.dripChunkBytes) B / \(faults.dripMilliseconds) ms") }
        if let path = faults.path { parts.append("only \(path)") }
        return parts.joined(separator: ", ")
    }
}

/// `--id-style snowflake|ulid|flake|aid`.
extension MastodonIDStyle: ExpressibleByArgument {}
extension StreamingTransports: ExpressibleByArgument {}

/// `--flavour mastodon|gotosocial|pleroma|akkoma|sharkey`.
extension SandboxFlavour: ExpressibleByArgument {
    public init?(argument: String) {
        guard let flavour = SandboxFlavour.named(argument) else { return nil }
        self = flavour
    }

    public static var allValueStrings: [String] { all.map(\.name) }
}
