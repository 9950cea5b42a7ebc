import FoundationEssentials

/// One API's OAuth2 authorization-code flow: where the user approves, how a
/// code becomes a token, who a token is, and how it is revoked.
///
/// `OAuthClient` is Weibo's (`Weibo/WeiboOAuthClient.swift`: beside the API's
/// base, a pre-registered app); `MastodonOAuthClient` is Mastodon's
/// (`Mastodon/MastodonOAuthClient.swift`: at the server root, an app wsh
/// registers itself). The connection's dialect gives one
/// (`Dialect.oauthFlow`, through `SignInDataController`); the LoginViewModel
/// only sees this protocol.
public protocol OAuthFlow: Sendable {
    /// The API base the tokens are for.
    var apiBase: String { get }
    /// The redirect URI that has the server show the code on its own page
    /// (`urn:ietf:wg:oauth:2.0:oob`), when the API has one.
    var outOfBandRedirectURI: String? { get }
    /// Whether the API's tokens expire; when false a token without an expiry does not expire.
    var tokensExpire: Bool { get }
    /// Whether the server takes a PKCE proof key (S256), as its metadata
    /// says; asked before a login begins. False when it cannot tell.
    func supportsPKCE() async -> Bool
    /// The page the user opens to approve `app`; with `pkce`, it carries the key's challenge.
    func authorizeURL(app: OAuthApp, redirectURI: String, state: String, pkce: PKCE?) -> String
    /// Exchanges an authorization `code` for a token (with the PKCE verifier
    /// when the login began with one), and names its user.
    func exchange(code: String, app: OAuthApp, redirectURI: String, pkce: PKCE?) async throws(RequestError) -> OAuthGrant
    /// Who `token` belongs to and how long it lives.
    func tokenInfo(_ token: Secret) async throws(RequestError) -> OAuthTokenInfo
    /// Revokes `token`; `app` is the client it was issued to, when the API wants it.
    func revoke(_ token: Secret, app: OAuthApp?) async throws(RequestError)
}

extension OAuthFlow {
    /// The authorize URL of a login without PKCE.
    public func authorizeURL(app: OAuthApp, redirectURI: String, state: String) -> String {
        authorizeURL(app: app, redirectURI: redirectURI, state: state, pkce: nil)
    }

    /// The exchange of a login without PKCE.
    public func exchange(code: String, app: OAuthApp, redirectURI: String) async throws(RequestError) -> OAuthGrant {
        try await exchange(code: code, app: app, redirectURI: redirectURI, pkce: nil)
    }
}

/// A flow whose server lets a client register itself (Mastodon's `POST
/// api/v1/apps`), so `login` needs no app of the user's.
public protocol OAuthAppRegistering: OAuthFlow {
    /// Registers wsh as an app that may redirect to `redirectURIs`.
    func register(redirectURIs: [String]) async throws(RequestError) -> OAuthApp
    /// Whether the server still knows `app` (false when it refuses its
    /// credentials: the server forgot it, or it was deleted).
    func accepts(_ app: OAuthApp) async throws(RequestError) -> Bool
}
