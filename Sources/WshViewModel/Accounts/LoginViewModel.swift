import Foundation
import WshDataController
import WshRequest
import WshText

/// The OAuth2 authorization-code flow and the questions asked of a token
/// (`login`, `whoami`, `logout`), with no I/O of its own: the OAuth client,
/// and a factory for API clients holding a given token, are injected.
///
/// Inputs: `begin`, `complete`, `identify`, `revoke`. Outputs: `authorizeURL`,
/// `pending` (what the exchange needs, for `login --url-only` to keep),
/// `signedIn` (the result). The store of accounts is the shell's business.
public final class LoginViewModel {
    /// Builds an API client that sends `token` (for `users/show.json` as the new user).
    public typealias ClientFactory = @Sendable (Secret) -> WeiboClient

    private let oauth: OAuthClient
    private let makeClient: ClientFactory
    private let now: @Sendable () -> Date

    /// The page to open, once `begin` ran.
    public private(set) var authorizeURL: String?
    /// What completing the login needs; kept across processes by `login --url-only`.
    public private(set) var pending: PendingLogin?
    /// Who signed in, once `complete` succeeded.
    public private(set) var signedIn: SignedInAccount?

    public init(oauth: OAuthClient, makeClient: @escaping ClientFactory, now: @escaping @Sendable () -> Date = Date.init) {
        self.oauth = oauth
        self.makeClient = makeClient
        self.now = now
    }

    /// Starts a login: a fresh state, the authorize URL for `app` and `redirectURI`.
    @discardableResult
    public func begin(app: OAuthApp, redirectURI: String, state: String = OAuthRedirect.newState()) -> String {
        let pending = PendingLogin(apiBase: oauth.apiBase, redirectURI: redirectURI, state: state, appKey: app.key,
                                   createdAt: now())
        return resume(pending)
    }

    /// Resumes a login begun elsewhere (`login --url-only` in another process).
    @discardableResult
    public func resume(_ pending: PendingLogin) -> String {
        self.pending = pending
        signedIn = nil
        let url = oauth.authorizeURL(app: OAuthApp(key: pending.appKey, secret: Secret("")),
                                     redirectURI: pending.redirectURI, state: pending.state)
        authorizeURL = url
        return url
    }

    /// Finishes the login with what came back: checks the state, exchanges
    /// the code, and names the account by `users/show.json?uid=`.
    public func complete(_ redirect: OAuthRedirect, app: OAuthApp) async throws -> SignedInAccount {
        guard let pending else { throw LoginError.notStarted }
        guard app.key == pending.appKey else { throw LoginError.appChanged(started: pending.appKey, now: app.key) }
        let checked = try redirect.checked(expecting: pending.state)
        let grant: OAuthGrant
        do {
            grant = try await oauth.exchange(code: checked.code, app: app, redirectURI: pending.redirectURI)
        } catch {
            throw ViewModelError.requestFailed(error)
        }
        let users = UserDataController(client: makeClient(grant.accessToken))
        let screenName: String?
        do {
            screenName = try await users.user(.uid(grant.uid)).screenName
        } catch {
            throw ViewModelError.requestFailed(error)
        }
        let account = SignedInAccount(
            apiBase: pending.apiBase, uid: grant.uid,
            screenName: TerminalText.sanitize(screenName ?? "uid \(grant.uid)"), token: grant.accessToken,
            expiresAt: grant.expiresIn.map { now().addingTimeInterval(TimeInterval($0)) })
        signedIn = account
        self.pending = nil
        return account
    }

    /// Who `token` belongs to and when it expires (`oauth2/get_token_info` and the profile).
    public func identify(_ token: Secret) async throws(ViewModelError) -> TokenIdentity {
        do {
            let info = try await oauth.tokenInfo(token)
            let user = try await UserDataController(client: makeClient(token)).user(.uid(info.uid))
            return TokenIdentity(uid: info.uid, screenName: TerminalText.sanitize(user.screenName ?? ""),
                                 appKey: info.appKey,
                                 expiresAt: info.expiresIn.map { now().addingTimeInterval(TimeInterval($0)) })
        } catch {
            throw .requestFailed(error)
        }
    }

    /// Revokes `token` on the server. `.alreadyInvalid` when the server
    /// says the token no longer works (it is as good as revoked).
    public func revoke(_ token: Secret) async throws(ViewModelError) -> Revocation {
        do {
            try await oauth.revoke(token)
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
/// the code and the app secret (never stored here).
public struct PendingLogin: Codable, Sendable, Equatable {
    public var apiBase: String
    public var redirectURI: String
    public var state: String
    public var appKey: String
    public var createdAt: Date

    public init(apiBase: String, redirectURI: String, state: String, appKey: String, createdAt: Date) {
        self.apiBase = apiBase
        self.redirectURI = redirectURI
        self.state = state
        self.appKey = appKey
        self.createdAt = createdAt
    }

    enum CodingKeys: String, CodingKey {
        case apiBase = "api", redirectURI = "redirect_uri", state, appKey = "app_key", createdAt = "created_at"
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
