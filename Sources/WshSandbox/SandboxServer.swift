import FoundationEssentials
import Hummingbird
import HummingbirdCore
import Logging
import NIOCore
import ServiceLifecycle
import UnixSignals
import WshHAR

/// A running Weibo-compatible API server with generated data and fault
/// injection, for wsh's tests, demos and offline use.
///
/// ```swift
/// let server = try SandboxServer.start(SandboxConfiguration(seed: 7))
/// defer { server.stop() }
/// // GET \(server.baseURL)statuses/public_timeline.json?access_token=\(server.token)
/// ```
///
/// The server runs Hummingbird in its own `ServiceGroup` with no signal
/// handlers, so SIGINT stays with the host program. Stop it with `stop()`.
public final class SandboxServer: Sendable {
    /// The configuration it was started with (`port` as asked, maybe 0).
    public let configuration: SandboxConfiguration
    /// The bound port: the one configured, or the free one picked for 0.
    public let port: Int

    private let parts: Parts

    /// Everything a running server holds.
    private struct Parts: Sendable {
        let group: ServiceGroup
        let task: Task<Void, Never>
        /// The bound port, or why the server could not start.
        let listening: OneShot<Result<Int, SandboxStartError>>
        let finished: OneShot<Bool>
        let stopRequested: Locked<Bool>
        /// The routes of `/admin/`, which hold the state every route reads.
        let admin: AdminAPI
        let adminToken: String?
    }

    private init(configuration: SandboxConfiguration, port: Int, parts: Parts) {
        self.configuration = configuration
        self.port = port
        self.parts = parts
    }

    // MARK: Starting and stopping

    /// Starts a sandbox and returns once its port is bound.
    ///
    /// Synchronous, for a plain thread such as a command-line `main`: it
    /// blocks the calling thread while the server binds. Do not call it from
    /// async code (the blocked thread may be one the server needs); there,
    /// `try await SandboxServer.start(_:)` picks the async overload.
    /// `whileBinding` runs on the calling thread once the server's thread is
    /// up, while it binds: work the caller would do next anyway.
    @available(*, noasync, message: "use the async overload: try await SandboxServer.start(_:)")
    public static func start(_ configuration: SandboxConfiguration,
                             whileBinding: () -> Void = {}) throws -> SandboxServer {
        let parts = try launch(configuration, signals: [])
        whileBinding()
        guard let outcome = parts.listening.wait(timeout: 60) else {
            parts.task.cancel()
            throw SandboxStartError.serverFailed(
                host: configuration.host, port: configuration.port, underlying: "timed out binding")
        }
        return SandboxServer(configuration: configuration, port: try outcome.get(), parts: parts)
    }

    /// Starts a sandbox and returns once its port is bound, without blocking a thread.
    public static func start(_ configuration: SandboxConfiguration) async throws -> SandboxServer {
        let parts = try launch(configuration, signals: [])
        let port = try await parts.listening.value.get()
        return SandboxServer(configuration: configuration, port: port, parts: parts)
    }

    /// Runs a sandbox until SIGINT or SIGTERM, calling `onListening` once the
    /// port is bound; for the standalone `wsh-sandbox`.
    public static func serve(
        _ configuration: SandboxConfiguration, onListening: @Sendable (SandboxServer) -> Void
    ) async throws {
        let parts = try launch(configuration, signals: [.sigint, .sigterm])
        let port = try await parts.listening.value.get()
        onListening(SandboxServer(configuration: configuration, port: port, parts: parts))
        _ = await parts.finished.value
    }

    /// Stops the server and waits until it has: connections are closed after
    /// the response in flight (or cut after 2 s). Safe to call more than once.
    ///
    /// Blocks the calling thread; from async code the async overload is used.
    @available(*, noasync, message: "use the async overload: await server.stop()")
    public func stop() {
        _ = requestStop()
        _ = parts.finished.wait(timeout: 30)
    }

    /// Stops the server and waits until it has, without blocking a thread.
    public func stop() async {
        _ = requestStop()
        _ = await parts.finished.value
    }

    /// Starts a graceful shutdown (once); the group cancels what lingers past 2 s.
    private func requestStop() -> Bool {
        let first = parts.stopRequested.withLock { requested in
            defer { requested = true }
            return !requested
        }
        guard first else { return false }
        let group = parts.group
        Task { await group.triggerGracefulShutdown() }
        return true
    }

    // MARK: Addresses

    /// The API base, e.g. `http://127.0.0.1:49152/2/`.
    public var baseURL: String { "http://\(hostInURL):\(port)/2/" }
    /// The admin base, e.g. `http://127.0.0.1:49152/admin/`.
    public var adminURL: String { "http://\(hostInURL):\(port)/admin/" }
    /// The first account's access token (`sandbox-token` by default).
    public var token: String { configuration.token }
    /// The base of the OAuth2 endpoints, e.g. `http://127.0.0.1:49152/oauth2/`.
    public var oauthURL: String { "http://\(hostInURL):\(port)/oauth2/" }

    /// The accounts, in order: uid, screen name and token of the first
    /// `configuration.accounts` generated users.
    public var accounts: [SandboxAccount] { parts.admin.accounts }

    /// The token a client on another machine sends as `Authorization: Bearer
    /// TOKEN` to use `/admin/`: the configured one, else one generated because
    /// the server listens beyond loopback, else nil (loopback peers need none).
    public var adminToken: String? { parts.adminToken }

    /// The clock that token expiry and the rate-limit window read.
    public var clock: SandboxClock { configuration.clock }

    /// Makes `token` expire now (an account's, or one issued by OAuth): every
    /// call with it then fails with 21327. False when there is no such token.
    @discardableResult
    public func expireToken(_ token: String) -> Bool {
        parts.admin.tokens.expire(token)
    }

    /// How many user tokens issued through OAuth (either API) are still live:
    /// neither revoked nor expired.
    public var liveIssuedTokenCount: Int { parts.admin.tokens.liveIssuedTokens }

    /// The Mastodon API's base, e.g. `http://127.0.0.1:49152/`: a client
    /// appends `api/v1/…` and `oauth/…` (Mastodon's paths start at the root).
    public var mastodonBaseURL: String { "http://\(hostInURL):\(port)/" }

    /// Whether the Mastodon public and tag timelines answer without a token now.
    public var publicPreview: Bool { parts.admin.mastodon.publicPreview }

    /// Turns public preview on or off, as `POST /admin/mastodon` does (a reset restores the configured value).
    public func setPublicPreview(_ on: Bool) {
        parts.admin.mastodon.setPublicPreview(on)
    }

    private var hostInURL: String { urlHost(configuration.host) }

    // MARK: Faults and state

    /// The faults in force.
    public var faults: SandboxFaults { parts.admin.faults.faults }

    /// Replaces the faults, restarting the rate-limit count and the failure sequence.
    public func setFaults(_ faults: SandboxFaults) {
        parts.admin.faults.set(faults)
    }

    /// What `POST /admin/reset` does: no faults, the generated data as it was
    /// (every write forgotten), no OAuth tokens, statistics and rate-limit counts cleared.
    public func reset() {
        parts.admin.reset()
    }

    /// Requests, connections and posts since the start or the last reset.
    public var stats: SandboxStats { parts.admin.stats.stats }

    // MARK: Launching

    private static func launch(_ configuration: SandboxConfiguration, signals: [UnixSignal]) throws -> Parts {
        if let problem = validationProblem(configuration) { throw SandboxStartError.invalidConfiguration(problem) }
        let data = DataSet(seed: configuration.seed, users: configuration.users, statuses: configuration.statuses,
                           accounts: configuration.accountCount)
        let store = SandboxStore(data: data)
        let faults = FaultInjector(faults: configuration.faults, seed: configuration.seed)
        let stats = StatsRecorder()
        let tokens = TokenStore(configuration: configuration)
        let rateLimiter = RateLimiter(limit: configuration.rateLimit, clock: configuration.clock)
        let mastodon = MastodonState(configuration: configuration)
        let admin = AdminAPI(faults: faults, store: store, stats: stats, tokens: tokens, rateLimiter: rateLimiter,
                             mastodon: mastodon)
        // Beyond loopback the admin routes are never open to other machines:
        // without a token given, one nobody has been told keeps them shut.
        let adminToken = configuration.adminToken
            ?? (configuration.listensBeyondLoopback ? AdminAccess.generatedToken() : nil)
        let responder = SandboxResponder(
            admin: admin, adminAccess: AdminAccess(token: adminToken),
            log: configuration.logRequests ? RequestLog() : nil,
            replay: configuration.replay.map(HARReplayer.init(recording:)))

        // The streaming API's WebSocket reads the same state as the routes (none while replaying a recording).
        let webSocketAPI = MastodonAPI(store: store, tokens: tokens, state: mastodon)

        // Hummingbird's own messages would interleave with a shell's output.
        var logger = Logger(label: "wsh-sandbox")
        logger.logLevel = .critical
        let listening = OneShot<Result<Int, SandboxStartError>>()
        let finished = OneShot<Bool>()
        let app = SandboxHTTPService(
            responder: responder,
            configuration: ServerConfiguration(address: .hostname(configuration.host, port: configuration.port)),
            eventLoopGroup: EventLoopExecutor.shared.loop,
            logger: logger,
            onServerRunning: { channel in
                let port = channel.localAddress?.port ?? configuration.port
                // Links and Link headers name the server as a client reaches it.
                mastodon.setOrigin("http://\(urlHost(configuration.host)):\(port)")
                store.setMediaOrigin("http://\(urlHost(configuration.host)):\(port)")
                listening.fulfil(.success(port))
            },
            webSocket: configuration.streamingTransports.servesWebSocket && configuration.replay == nil ? webSocketAPI : nil)
        // Named, so the group does not describe the whole application by reflection as it starts.
        var groupConfiguration = ServiceGroupConfiguration(
            services: [.init(service: app, serviceName: "wsh-sandbox")], gracefulShutdownSignals: signals,
            cancellationSignals: [], logger: logger)
        // A client dripping a body or holding a request open must not hold up a stop.
        groupConfiguration.maximumGracefulShutdownDuration = .seconds(2)
        let group = ServiceGroup(configuration: groupConfiguration)
        // Handlers run on the loop that owns their connections (see EventLoopExecutor).
        let task = Task(executorPreference: EventLoopExecutor.shared) {
            let failure: String
            do {
                try await group.run()
                failure = "stopped before listening"
            } catch {
                failure = "\(error)"
            }
            listening.fulfil(.failure(.serverFailed(
                host: configuration.host, port: configuration.port, underlying: failure)))
            finished.fulfil(true)
        }
        return Parts(group: group, task: task, listening: listening, finished: finished,
                     stopRequested: Locked(false), admin: admin, adminToken: adminToken)
    }

    private static func validationProblem(_ configuration: SandboxConfiguration) -> String? {
        if configuration.users < 1 { return "users must be 1 or more (got \(configuration.users))" }
        if configuration.statuses < 0 { return "statuses must be 0 or more (got \(configuration.statuses))" }
        if !(0...65_535).contains(configuration.port) { return "port must be 0...65535 (got \(configuration.port))" }
        if configuration.token.isEmpty { return "the token must not be empty" }
        if configuration.accounts < 1 { return "accounts must be 1 or more (got \(configuration.accounts))" }
        if configuration.appKey.isEmpty || configuration.appSecret.isEmpty { return "the app key and secret must not be empty" }
        if configuration.tokenLifetime < 1 { return "tokenLifetime must be 1 second or more (got \(configuration.tokenLifetime))" }
        if let limit = configuration.rateLimit, limit < 0 { return "rateLimit must be 0 or more (got \(limit))" }
        if let token = configuration.adminToken, let problem = AdminAccess.problem(with: token) { return problem }
        return configuration.faults.validationProblem
    }
}

/// A host as a URL writes it: an IPv6 address in brackets.
func urlHost(_ host: String) -> String {
    host.contains(":") ? "[\(host)]" : host
}
