import WshHAR

/// How to start a sandbox: where it listens, what data it generates, which
/// accounts and tokens it accepts, and which faults it injects.
public struct SandboxConfiguration: Sendable {
    /// The address to bind. Beyond loopback (see `listensBeyondLoopback`),
    /// other machines reach the API with the accounts' well-known tokens, and
    /// `/admin/` only with `adminToken`.
    public var host: String
    /// The port; 0 picks a free one (read it back from `SandboxServer.port`).
    public var port: Int
    /// The seed every generated user, status and comment comes from.
    public var seed: UInt64
    /// How many users to generate (at least 1).
    public var users: Int
    /// How many statuses to generate for the public timeline.
    public var statuses: Int
    /// The access token of the first account (uid 1700000000). Account N's
    /// token is `TOKEN-N` (see `SandboxAccount.token(number:base:)`).
    public var token: String
    /// How many of the first generated users are accounts with a token
    /// (at least 1; capped at `users`).
    public var accounts: Int
    /// The app key (`client_id`) of the one OAuth app the sandbox knows.
    public var appKey: String
    /// The app secret (`client_secret`) of that app.
    public var appSecret: String
    /// Seconds a token issued by `oauth2/access_token` lives.
    public var tokenLifetime: Int
    /// Calls each token may make per hour before 403 with error 10023; nil: no limit.
    public var rateLimit: Int?
    /// The clock for token and code expiry and the rate-limit window.
    public var clock: SandboxClock
    /// Faults injected from the start.
    public var faults: SandboxFaults
    /// Writes one line per request to stderr (the standalone server does).
    public var logRequests: Bool
    /// Whether the Mastodon public and tag timelines answer without a token,
    /// as a server with public preview on does (the default); off, they are
    /// 401 without one.
    public var publicPreview: Bool
    /// The token a client that is not on this machine (not a loopback peer)
    /// must send as `Authorization: Bearer TOKEN` to use `/admin/`; loopback
    /// peers need none. Nil: one is generated when the server listens beyond
    /// loopback (read it from `SandboxServer.adminToken`).
    public var adminToken: String?
    /// Which server the Mastodon side imitates (`--flavour`): nodeinfo and
    /// `instance`, ids, the paging header, error wording, extra members.
    public var flavour: SandboxFlavour
    /// How the Mastodon side writes its ids: the flavour's, unless set
    /// (`--id-style`): Mastodon's numbers, GoToSocial's ULIDs, Pleroma's flake
    /// ids or Sharkey's aid-style ids.
    public var idStyle: MastodonIDStyle {
        get { idStyleOverride ?? flavour.idStyle }
        set { idStyleOverride = newValue }
    }
    /// `--id-style`, when given: it wins over the flavour's.
    private var idStyleOverride: MastodonIDStyle?
    /// How the Mastodon streaming API is served: the flavour's, unless set
    /// (`--streaming`): server-sent events, a WebSocket (as GoToSocial serves
    /// it, alone), or both (as Mastodon does).
    public var streamingTransports: StreamingTransports {
        get { streamingOverride ?? flavour.streamingTransports }
        set { streamingOverride = newValue }
    }
    /// `--streaming`, when given: it wins over the flavour's.
    private var streamingOverride: StreamingTransports?
    /// A HAR recording to serve instead of the generated data (`--replay`):
    /// every API request is answered from it, in recorded order, through the
    /// faults as the generated answers are; nil: serve the generated data.
    public var replay: HARRecording?

    /// The token a sandbox accepts for its first account unless told otherwise.
    public static let defaultToken = "sandbox-token"
    /// The app key of the sandbox's OAuth app unless told otherwise.
    public static let defaultAppKey = "sandbox-app"
    /// The app secret of the sandbox's OAuth app unless told otherwise.
    public static let defaultAppSecret = "sandbox-secret"
    /// Five years less a second, as Weibo gives a test app's tokens.
    public static let defaultTokenLifetime = 157_679_999
    /// Seconds an authorization code stays valid (single use).
    public static let codeLifetime = 600

    public init(
        host: String = "127.0.0.1", port: Int = 0, seed: UInt64 = 1, users: Int = 50,
        statuses: Int = 1000, token: String = SandboxConfiguration.defaultToken,
        accounts: Int = 3, appKey: String = SandboxConfiguration.defaultAppKey,
        appSecret: String = SandboxConfiguration.defaultAppSecret,
        tokenLifetime: Int = SandboxConfiguration.defaultTokenLifetime, rateLimit: Int? = nil,
        clock: SandboxClock = .system,
        faults: SandboxFaults = SandboxFaults(), logRequests: Bool = false, publicPreview: Bool = true,
        adminToken: String? = nil,
        flavour: SandboxFlavour = .mastodon, idStyle: MastodonIDStyle? = nil, streamingTransports: StreamingTransports? = nil,
        replay: HARRecording? = nil
    ) {
        self.host = host
        self.port = port
        self.seed = seed
        self.users = users
        self.statuses = statuses
        self.token = token
        self.accounts = accounts
        self.appKey = appKey
        self.appSecret = appSecret
        self.tokenLifetime = tokenLifetime
        self.rateLimit = rateLimit
        self.clock = clock
        self.faults = faults
        self.logRequests = logRequests
        self.publicPreview = publicPreview
        self.adminToken = adminToken
        self.flavour = flavour
        self.idStyleOverride = idStyle
        self.streamingOverride = streamingTransports
        self.replay = replay
    }

    /// Why `token` cannot be an admin token (it travels in a header: visible
    /// ASCII, no spaces), or nil.
    public static func adminTokenProblem(_ token: String) -> String? {
        AdminAccess.problem(with: token)
    }

    /// Whether `host` is anything but loopback (127.0.0.0/8, ::1, `localhost`):
    /// `0.0.0.0`, `::`, a LAN address or a name, which other machines may reach.
    public var listensBeyondLoopback: Bool { !LoopbackAddress.contains(host) }

    /// How many accounts there are: `accounts`, capped at `users`.
    var accountCount: Int { max(1, min(accounts, users)) }
}

/// Which transports the sandbox's Mastodon streaming API speaks (`wsh-sandbox --streaming`).
public enum StreamingTransports: String, CaseIterable, Sendable {
    /// Server-sent events only, on `/api/v1/streaming/NAME` and `/api/v1/streaming?stream=NAME`.
    case serverSentEvents = "sse"
    /// A WebSocket only, on `/api/v1/streaming` upgraded (GoToSocial's way); the event-stream paths are 404.
    case webSocket = "websocket"
    /// Both, as Mastodon serves them.
    case both

    /// Whether `/api/v1/streaming/NAME` serves server-sent events.
    public var servesServerSentEvents: Bool { self != .webSocket }
    /// Whether `/api/v1/streaming` accepts a WebSocket upgrade.
    public var servesWebSocket: Bool { self != .serverSentEvents }
}
