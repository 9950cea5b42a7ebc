import FoundationEssentials
import WshText

/// The access tokens the API accepts and the OAuth2 authorization codes
/// waiting to be exchanged for tokens.
///
/// The accounts' own tokens (`sandbox-token`, `sandbox-token-2`, …) never
/// expire by the clock; tokens issued through `oauth2/access_token` live
/// `tokenLifetime` seconds. Any token can be revoked (`oauth2/revokeoauth2`)
/// or expired (the admin API). A reset forgets everything issued.
final class TokenStore: Sendable {
    /// What a token grants: acting as `user` (an index) for the app.
    struct Grant: Sendable {
        var user: Int
        var appKey: String
        var created: Date
        /// When it expires; nil for an account's own token.
        var expires: Date?
        var revoked = false
        /// The scopes granted through Mastodon's `/oauth/token` (nil: Weibo's, unscoped).
        var scope: String? = nil
    }

    /// An authorization code: single use, valid for `SandboxConfiguration.codeLifetime`.
    struct Code: Sendable {
        var clientID: String
        var redirectURI: String
        var user: Int
        var issued: Date
        /// The PKCE challenge (S256) the authorize request carried, if any.
        var challenge: String?
        var used = false
    }

    private struct State {
        var tokens: [String: Grant] = [:]
        var codes: [String: Code] = [:]
        var rng: SplitMix64
    }

    let appKey: String
    let appSecret: String
    let tokenLifetime: Int
    let clock: SandboxClock
    /// The accounts' tokens, in account order.
    let accountTokens: [String]
    private let seed: UInt64
    private let state: Locked<State>

    // Keeps issued tokens and codes apart from the data generated from the same seed.
    private static let streamKey: UInt64 = 0x0A17_0A17_0A17_0A17

    init(configuration: SandboxConfiguration) {
        appKey = configuration.appKey
        appSecret = configuration.appSecret
        tokenLifetime = configuration.tokenLifetime
        clock = configuration.clock
        seed = configuration.seed
        accountTokens = (1...configuration.accountCount).map {
            SandboxAccount.token(number: $0, base: configuration.token)
        }
        state = Locked(State(rng: SplitMix64(seed: configuration.seed ^ Self.streamKey)))
        reset()
    }

    /// Forgets issued tokens and codes; the accounts' tokens are valid again.
    func reset() {
        let now = clock.now
        var fresh = State(rng: SplitMix64(seed: seed ^ Self.streamKey))
        for (index, token) in accountTokens.enumerated() {
            fresh.tokens[token] = Grant(user: index, appKey: appKey, created: now, expires: nil)
        }
        state.withLock { $0 = fresh }
    }

    /// The token an `Authorization` header carries under one of `schemes`
    /// (lower case: `bearer`, Weibo's `oauth2`), or nil.
    static func token(in header: String?, schemes: Set<String>) -> String? {
        guard let parts = header?.split(separator: " ", maxSplits: 1), parts.count == 2,
              schemes.contains(parts[0].lowercased()) else { return nil }
        return parts[1].trimmingSpaces
    }

    /// The user a token acts as, or why the token is refused.
    func user(for token: String) throws(TokenRefusal) -> Int {
        try grant(for: token).user
    }

    /// The grant behind a valid token, or why the token is refused.
    func grant(for token: String) throws(TokenRefusal) -> Grant {
        let now = clock.now
        guard let grant = state.withLock({ $0.tokens[token] }) else { throw .unknownOrExpired }
        if grant.revoked { throw .revoked }
        if let expires = grant.expires, expires <= now { throw .unknownOrExpired }
        return grant
    }

    /// Seconds until the token expires (an account's own token: as long as a new one would live).
    func secondsLeft(_ grant: Grant) -> Int {
        guard let expires = grant.expires else {
            return max(1, SandboxConfiguration.defaultTokenLifetime - Int(clock.now.timeIntervalSince(grant.created)))
        }
        return max(0, Int(expires.timeIntervalSince(clock.now).rounded(.down)))
    }

    /// A new authorization code for `user`, to be exchanged once, soon.
    func issueCode(clientID: String, redirectURI: String, user: Int, challenge: String? = nil) -> String {
        let now = clock.now
        return state.withLock { state in
            let code = Self.randomString(&state.rng, length: 32, alphabet: "0123456789abcdef")
            state.codes[code] = Code(clientID: clientID, redirectURI: redirectURI, user: user, issued: now,
                                     challenge: challenge)
            return code
        }
    }

    /// Exchanges a code for a new token, checking it as Weibo does: the app's
    /// credentials (21324), the code (21325: unknown, used, expired or another
    /// app's) and the redirect URI it was issued for (21322).
    func exchange(code: String, clientID: String, clientSecret: String, redirectURI: String)
        throws(WeiboError) -> (token: String, grant: Grant) {
        guard clientID == appKey, clientSecret == appSecret else {
            throw WeiboError.oauth(21324, "invalid_client", "invalid client_id or client_secret")
        }
        switch redeem(code: code, clientID: clientID, redirectURI: redirectURI, style: .weibo) {
        case .success(let issued): return issued
        case .failure(.unknownCode): throw WeiboError.oauth(21325, "invalid_grant", "invalid authorization code:\(code)")
        case .failure(.expiredCode): throw WeiboError.oauth(21325, "invalid_grant", "authorization code expired:\(code)")
        case .failure(.redirectMismatch):
            throw WeiboError.oauth(21322, "redirect_uri_mismatch", "redirect_uri does not match the authorization request")
        case .failure(.verifierMismatch):
            throw WeiboError.oauth(21325, "invalid_grant", "code_verifier does not match the code_challenge")
        }
    }

    /// Why a code could not be redeemed.
    enum CodeRefusal: Error {
        /// Unknown, used already, or issued to another client.
        case unknownCode
        case expiredCode
        /// Not the redirect URI the code was issued for.
        case redirectMismatch
        /// The code was issued with a PKCE challenge and the verifier is missing or does not match it.
        case verifierMismatch
    }

    /// How a new token looks: Weibo's `2.00…` or Mastodon's 43 URL-safe characters.
    enum TokenStyle {
        case weibo
        case mastodon
    }

    /// Redeems a code issued to `clientID` for `redirectURI` (once, within
    /// `codeLifetime`) for a new token that acts as its user. The caller has
    /// checked the client's credentials, in its API's own way.
    func redeem(code: String, clientID: String, redirectURI: String, style: TokenStyle, scope: String? = nil,
                verifier: String? = nil) -> Result<(token: String, grant: Grant), CodeRefusal> {
        let now = clock.now
        let lifetime = tokenLifetime
        return state.withLock { state in
            guard var issued = state.codes[code], !issued.used, issued.clientID == clientID else {
                return .failure(.unknownCode)
            }
            guard now.timeIntervalSince(issued.issued) < TimeInterval(SandboxConfiguration.codeLifetime) else {
                return .failure(.expiredCode)
            }
            guard issued.redirectURI == redirectURI else { return .failure(.redirectMismatch) }
            if let challenge = issued.challenge {
                // RFC 7636 §4.6: BASE64URL(SHA256(verifier)) must equal the challenge.
                guard let verifier, ConstantTime.equal(Base64URL.encode(SHA256.digest(verifier.utf8)), challenge) else {
                    return .failure(.verifierMismatch)
                }
            }
            issued.used = true
            state.codes[code] = issued
            let alphanumerics = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"
            let token = style == .weibo
                ? "2.00" + Self.randomString(&state.rng, length: 28, alphabet: alphanumerics)
                : Self.randomString(&state.rng, length: 43, alphabet: alphanumerics + "-_")
            let grant = Grant(user: issued.user, appKey: clientID, created: now,
                              expires: now.addingTimeInterval(TimeInterval(lifetime)), scope: scope)
            state.tokens[token] = grant
            return .success((token, grant))
        }
    }

    /// A random secret from the store's stream (Mastodon's client ids and secrets, app tokens).
    func randomSecret(length: Int = 43) -> String {
        state.withLock {
            Self.randomString(&$0.rng, length: length,
                              alphabet: "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_")
        }
    }

    /// Revokes a valid token (`oauth2/revokeoauth2`); it then fails with 21332.
    func revoke(_ token: String) throws(TokenRefusal) {
        _ = try grant(for: token)
        state.withLock { $0.tokens[token]?.revoked = true }
    }

    /// How many tokens issued through OAuth (not the accounts' own) still work:
    /// a token a client failed to keep must have been revoked.
    var liveIssuedTokens: Int {
        let now = clock.now
        let own = Set(accountTokens)
        return state.withLock { state in
            state.tokens.filter { token, grant in
                !own.contains(token) && !grant.revoked && (grant.expires.map { $0 > now } ?? true)
            }.count
        }
    }

    /// Makes a token expire now (admin); false when there is no such token.
    func expire(_ token: String) -> Bool {
        let now = clock.now
        return state.withLock { state in
            guard state.tokens[token] != nil else { return false }
            state.tokens[token]?.expires = now
            return true
        }
    }

    private static func randomString(_ rng: inout SplitMix64, length: Int, alphabet: String) -> String {
        let characters = Array(alphabet)
        return String((0..<length).map { _ in rng.pick(characters) })
    }
}
