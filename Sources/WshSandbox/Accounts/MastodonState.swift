import FoundationEssentials
import NIOCore

/// What only the Mastodon side keeps: the apps registered through
/// `POST /api/v1/apps`, the app-only tokens of `client_credentials`, the
/// answers kept for `Idempotency-Key`, the public-preview switch, and the
/// origin (`http://127.0.0.1:PORT`) that links and `Link` headers name.
///
/// User tokens are not here: they live in the shared `TokenStore`, so a
/// token works on both APIs. A reset forgets every app but the sandbox's own.
final class MastodonState: Sendable {
    /// An OAuth client.
    struct App: Sendable {
        var id: String
        var name: String
        var website: String?
        /// The redirect URIs it registered; empty for the sandbox's own app,
        /// which accepts any absolute URI and `urn:ietf:wg:oauth:2.0:oob`.
        var redirectURIs: [String]
        var scopes: String
        var clientID: String
        var clientSecret: String

        func accepts(redirectURI: String) -> Bool {
            if redirectURIs.isEmpty {
                return redirectURI == MastodonState.outOfBand
                    || URLComponents(string: redirectURI)?.scheme.map { !$0.isEmpty } == true
            }
            return redirectURIs.contains(redirectURI)
        }
    }

    /// The redirect URI that shows the code in the page instead of redirecting.
    static let outOfBand = "urn:ietf:wg:oauth:2.0:oob"
    /// The VAPID key every app is told (the sandbox has no Web Push).
    static let vapidKey = "BCk-QqERU0q-CfYZjcuB6lnyyOYfJ2AifKqfeGIm7Z-HiTU5T9eTG5GxVA0_OH5mMlI4UkkDTpaZwozy0TzdZ2M="

    private struct State {
        var apps: [String: App] = [:]
        var appTokens: [String: String] = [:]
        var idempotent: [String: ByteBuffer] = [:]
        var publicPreview: Bool
        var nextAppID = 2
    }

    /// The server the Mastodon side imitates.
    let flavour: SandboxFlavour
    /// How ids are written and read on the Mastodon side: the flavour's, or `--id-style`'s.
    let ids: MastodonIDStyle
    /// How the streaming API is served.
    let streamingTransports: StreamingTransports
    /// Counts tokens' calls in Mastodon's 5-minute windows (Weibo's hours are the shared limiter's).
    let rateLimiter: RateLimiter
    private let ownApp: App
    private let configuredPublicPreview: Bool
    private let state: Locked<State>
    private let originBox = Locked("http://127.0.0.1")

    init(configuration: SandboxConfiguration) {
        ownApp = App(id: "1", name: "wsh-sandbox", website: "https://github.com/wsh", redirectURIs: [],
                     scopes: "read write follow push", clientID: configuration.appKey,
                     clientSecret: configuration.appSecret)
        configuredPublicPreview = configuration.publicPreview
        flavour = configuration.flavour
        ids = configuration.idStyle
        streamingTransports = configuration.streamingTransports
        rateLimiter = .mastodon(limit: configuration.rateLimit, clock: configuration.clock)
        state = Locked(State(publicPreview: configuration.publicPreview))
        reset()
    }

    /// `http://127.0.0.1:PORT`, set once the port is bound.
    var origin: String { originBox.withLock { $0 } }

    func setOrigin(_ origin: String) {
        originBox.withLock { $0 = origin }
    }

    /// Whether the public and tag timelines answer without a token.
    var publicPreview: Bool { state.withLock { $0.publicPreview } }

    func setPublicPreview(_ on: Bool) {
        state.withLock { $0.publicPreview = on }
    }

    var appCount: Int { state.withLock { $0.apps.count } }

    /// Forgets registered apps, app tokens, kept answers and rate-limit counts; public preview as configured.
    func reset() {
        rateLimiter.reset()
        let own = ownApp
        let preview = configuredPublicPreview
        state.withLock { state in
            state = State(publicPreview: preview)
            state.apps[own.clientID] = own
        }
    }

    func app(clientID: String) -> App? {
        state.withLock { $0.apps[clientID] }
    }

    /// Registers an app with fresh credentials.
    func register(name: String, website: String?, redirectURIs: [String], scopes: String,
                  credentials: () -> (id: String, secret: String)) -> App {
        let (clientID, secret) = credentials()
        return state.withLock { state in
            let app = App(id: String(state.nextAppID), name: name, website: website, redirectURIs: redirectURIs,
                          scopes: scopes, clientID: clientID, clientSecret: secret)
            state.nextAppID += 1
            state.apps[clientID] = app
            return app
        }
    }

    /// Keeps an app-only token (`client_credentials`).
    func addAppToken(_ token: String, clientID: String) {
        state.withLock { $0.appTokens[token] = clientID }
    }

    /// The app an app-only token belongs to.
    func appForToken(_ token: String) -> App? {
        state.withLock { state in state.appTokens[token].flatMap { state.apps[$0] } }
    }

    /// Forgets an app-only token; false when it was not one.
    @discardableResult
    func revokeAppToken(_ token: String) -> Bool {
        state.withLock { $0.appTokens.removeValue(forKey: token) != nil }
    }

    /// The answer kept for an `Idempotency-Key` (per user).
    func idempotentAnswer(_ key: String) -> ByteBuffer? {
        state.withLock { $0.idempotent[key] }
    }

    func keepIdempotentAnswer(_ key: String, _ body: ByteBuffer) {
        state.withLock { $0.idempotent[key] = body }
    }
}
