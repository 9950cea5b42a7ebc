import FoundationEssentials
import WshDataController
import WshRequest
import WshText

/// The OAuth2 authorization-code flow and the questions asked of a token
/// (`login`, `whoami`, `logout`), with no I/O of its own: the API's OAuth
/// flow (Weibo's or Mastodon's), and a factory for API clients holding a
/// given token, are injected.
///
/// The whole `login` flow is `LoginViewModel+Flow.swift`: inputs `start`,
/// `waitForCode`, `codeReceived`, `finish`, `cancel`; output `step`, each
/// step told to `onStep`. Its I/O (the loopback listener, the accounts file)
/// is a `LoginHost` the shell passes in. The steps' parts are inputs too:
/// `prepareApp`, `begin`, `complete`, `identify`, `revoke`; outputs
/// `registeredApp`, `authorizeURL`, `pending`, `signedIn`.
public final class LoginViewModel {
    /// Builds the users' DataController of the API, sending `token` (to name the new user).
    public typealias UsersFactory = @Sendable (Secret) -> UserDataController

    let oauth: any OAuthFlow
    private let makeUsers: UsersFactory
    private let now: @Sendable () -> Date

    /// The page to open, once `begin` ran.
    public private(set) var authorizeURL: String?
    /// What completing the login needs; kept across processes by `login --url-only`.
    public private(set) var pending: PendingLogin?
    /// Who signed in, once `complete` succeeded.
    public private(set) var signedIn: SignedInAccount?
    /// The app `prepareApp` registered (not one it was given), to keep for the next login.
    public private(set) var registeredApp: OAuthApp?

    /// Where the flow is (see `LoginStep`); each new value is also told to `onStep`.
    public internal(set) var step: LoginStep = .idle {
        didSet { onStep?(step) }
    }
    /// Told each step as it happens, for the view to show.
    public var onStep: ((LoginStep) -> Void)?
    /// The flow's state between inputs: its I/O, the app, the listener, a cancel.
    var flow = FlowState()

    /// The redirect URI that has the server show the code, when the API has one.
    public var outOfBandRedirectURI: String? { oauth.outOfBandRedirectURI }
    /// Whether the API lets wsh register its own app (Mastodon), so no app need be configured.
    public var registersApps: Bool { oauth is any OAuthAppRegistering }

    public init(oauth: any OAuthFlow, makeUsers: @escaping UsersFactory, now: @escaping @Sendable () -> Date = Date.init) {
        self.oauth = oauth
        self.makeUsers = makeUsers
        self.now = now
    }

    /// The login of the API `signIn` was built for (its OAuth flow and users).
    public convenience init(signIn: SignInDataController, now: @escaping @Sendable () -> Date = Date.init) {
        self.init(oauth: signIn.oauth, makeUsers: signIn.users, now: now)
    }

    /// The app to log in with on an API where wsh registers its own: `cached`
    /// when it was registered for `redirectURI` and the server still accepts
    /// it, else a new registration (for `redirectURI`, `alsoFor` — the
    /// redirects of later logins — and the out-of-band URI), which
    /// `registeredApp` then holds.
    public func prepareApp(cached: OAuthApp?, redirectURI: String,
                           alsoFor otherURIs: [String] = []) async throws(ViewModelError) -> OAuthApp {
        guard let registrar = oauth as? any OAuthAppRegistering else { throw .requestFailed(.configuration(
            "this API does not register apps: give its app (--app-key, --app-secret-file)")) }
        do {
            if let cached, cached.redirectURIs.contains(redirectURI), try await registrar.accepts(cached) {
                return cached
            }
            var uris: [String] = []
            for uri in [redirectURI] + otherURIs + [oauth.outOfBandRedirectURI].compactMap({ $0 }) where !uris.contains(uri) {
                uris.append(uri)
            }
            let app = try await registrar.register(redirectURIs: uris)
            registeredApp = app
            return app
        } catch {
            throw .requestFailed(error)
        }
    }

    /// A fresh PKCE proof key when the server takes one (its metadata says
    /// S256), else nil; pass it to `begin`.
    public func proofKey() async -> PKCE? {
        await oauth.supportsPKCE() ? PKCE.random() : nil
    }

    /// Starts a login: a fresh state, the authorize URL for `app` and
    /// `redirectURI`, with `pkce`'s challenge when given (see `proofKey`).
    @discardableResult
    public func begin(app: OAuthApp, redirectURI: String, state: String = OAuthRedirect.newState(),
                      pkce: PKCE? = nil) -> String {
        let pending = PendingLogin(apiBase: oauth.apiBase, redirectURI: redirectURI, state: state, appKey: app.key,
                                   createdAt: now(), codeVerifier: pkce?.verifier)
        return resume(pending)
    }

    /// Resumes a login begun elsewhere (`login --url-only` in another process).
    @discardableResult
    public func resume(_ pending: PendingLogin) -> String {
        self.pending = pending
        signedIn = nil
        let url = oauth.authorizeURL(app: OAuthApp(key: pending.appKey, secret: Secret("")),
                                     redirectURI: pending.redirectURI, state: pending.state, pkce: pending.proofKey)
        authorizeURL = url
        return url
    }

    /// Finishes the login with what came back: checks the state, exchanges
    /// the code, and names the account by reading the user.
    public func complete(_ redirect: OAuthRedirect, app: OAuthApp) async throws -> SignedInAccount {
        guard let pending else { throw LoginError.notStarted }
        guard app.key == pending.appKey else { throw LoginError.appChanged(started: pending.appKey, now: app.key) }
        let checked = try redirect.checked(expecting: pending.state)
        let grant: OAuthGrant
        do {
            grant = try await oauth.exchange(code: checked.code, app: app, redirectURI: pending.redirectURI,
                                             pkce: pending.proofKey)
        } catch {
            throw ViewModelError.requestFailed(error)
        }
        var screenName = grant.screenName
        if screenName == nil {
            do {
                screenName = try await makeUsers(grant.accessToken).user(.uid(grant.uid)).screenName
            } catch {
                throw ViewModelError.requestFailed(error)
            }
        }
        let account = SignedInAccount(
            apiBase: pending.apiBase, uid: grant.uid,
            screenName: TerminalText.sanitize(screenName ?? "uid \(grant.uid)"), token: grant.accessToken,
            expiresAt: grant.expiresIn.map { now().addingTimeInterval(TimeInterval($0)) })
        signedIn = account
        self.pending = nil
        return account
    }

    /// Who `token` belongs to and when it expires (the API's token info, and the profile when that lacks the name).
    public func identify(_ token: Secret) async throws(ViewModelError) -> TokenIdentity {
        do {
            let info = try await oauth.tokenInfo(token)
            var screenName = info.screenName
            if screenName == nil {
                screenName = try await makeUsers(token).user(.uid(info.uid)).screenName
            }
            let expiresAt = info.expiresIn.map { now().addingTimeInterval(TimeInterval($0)) }
            return TokenIdentity(uid: info.uid, screenName: TerminalText.sanitize(screenName ?? ""),
                                 appKey: info.appKey, expiresAt: expiresAt,
                                 neverExpires: expiresAt == nil && !oauth.tokensExpire)
        } catch {
            throw .requestFailed(error)
        }
    }

    /// Revokes `token` on the server (`app`: the client it was issued to, which
    /// Mastodon wants). `.alreadyInvalid` when the server says the token no
    /// longer works (it is as good as revoked).
    public func revoke(_ token: Secret, app: OAuthApp? = nil) async throws(ViewModelError) -> Revocation {
        do {
            try await oauth.revoke(token, app: app)
            return .revoked
        } catch {
            if case .api(let failure) = error, failure.tokenProblem != nil { return .alreadyInvalid(failure.description) }
            throw .requestFailed(error)
        }
    }

    /// How `revoke` went.
    public enum Revocation: Sendable, Equatable {
        case revoked
        /// The server refused the token as expired or invalid: nothing left to revoke.
        case alreadyInvalid(String)
    }
}

/// A login begun and not yet finished: what the code exchange needs besides
/// the code and the app secret (never stored here). The PKCE verifier is a
/// secret until the exchange: the file holding a pending login is 0600, and
/// the session masks the verifier like a token.
public struct PendingLogin: Codable, Sendable, Equatable {
    public var apiBase: String
    public var redirectURI: String
    public var state: String
    public var appKey: String
    public var createdAt: Date
    /// The PKCE verifier, when the login began with a proof key.
    public var codeVerifier: String?

    /// The proof key the login began with, if any.
    public var proofKey: PKCE? { codeVerifier.map(PKCE.init(verifier:)) }

    enum CodingKeys: String, CodingKey {
        case apiBase = "api", redirectURI = "redirect_uri", state, appKey = "app_key", createdAt = "created_at"
        case codeVerifier = "code_verifier"
    }
}

/// The account a login produced.
public struct SignedInAccount: Sendable, Equatable {
    public var apiBase: String
    public var uid: String
    public var screenName: String
    public var token: Secret
    public var expiresAt: Date?
}

/// What `whoami` shows.
public struct TokenIdentity: Sendable, Equatable {
    public var uid: String
    public var screenName: String
    public var appKey: String?
    public var expiresAt: Date?
    /// True when the API's tokens live until revoked and the server gave no expiry (Mastodon).
    public var neverExpires: Bool = false
}

/// Why a login cannot finish.
public enum LoginError: Error, Sendable, Equatable, CustomStringConvertible {
    case notStarted
    case appChanged(started: String, now: String)

    public var description: String {
        switch self {
        case .notStarted: "no login is under way: run login (or login --url-only) first"
        case .appChanged(let started, let now):
            "the login was started for app \(started), not \(now); start again with login"
        }
    }
}
