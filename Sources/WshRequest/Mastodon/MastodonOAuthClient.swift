import FoundationEssentials
import WshText

/// Mastodon's OAuth (Doorkeeper at the server root: `oauth/authorize`,
/// `oauth/token`, `oauth/revoke`), the app registration of `api/v1/apps`, and
/// `api/v1/accounts/verify_credentials` to name a token's user.
///
/// The base is the server root, which is also the API base
/// (`https://mastodon.social/`). Secrets travel in POST form bodies or the
/// `Authorization` header, never in a URL.
public struct MastodonOAuthClient: OAuthAppRegistering {
    /// The redirect URI that has the server show the code on a page.
    public static let outOfBand = "urn:ietf:wg:oauth:2.0:oob"
    /// What wsh asks for: reading, posting, following.
    public static let scopes = "read write follow"
    /// The name wsh registers under (shown on the authorize page and on posts).
    public static let clientName = "wsh"
    /// The app's website, shown with its name.
    public static let website = "https://github.com/wsh"

    /// The server root, ending in `/`.
    public let apiBase: String
    public let http: any HTTPClient

    public init(apiBase: String, http: any HTTPClient) {
        self.apiBase = apiBase.hasSuffix("/") ? apiBase : apiBase + "/"
        self.http = http
    }

    public var outOfBandRedirectURI: String? { Self.outOfBand }
    /// Mastodon's tokens live until revoked (unless a server says `expires_in`).
    public var tokensExpire: Bool { false }

    /// Whether `/.well-known/oauth-authorization-server` (RFC 8414; Mastodon
    /// 4.3 and later) lists `S256` in `code_challenge_methods_supported`.
    /// Older servers have no such document: no PKCE for them.
    public func supportsPKCE() async -> Bool {
        let request = HTTPRequest(url: apiBase + ".well-known/oauth-authorization-server",
                                  headers: [HTTPHeader("Accept", "application/json")])
        guard let response = try? await http.send(request), response.status == 200,
              let fields = try? OAuthClient.object(response.body, what: "the authorization server metadata"),
              let methods = fields["code_challenge_methods_supported"]?.array else { return false }
        return methods.contains { $0.string == PKCE.method }
    }

    /// `oauth/authorize?client_id=…&redirect_uri=…&response_type=code&scope=read+write+follow&state=…`,
    /// and with `pkce`, `&code_challenge=…&code_challenge_method=S256`.
    public func authorizeURL(app: OAuthApp, redirectURI: String, state: String, pkce: PKCE?) -> String {
        var url = apiBase + "oauth/authorize?"
            + FormEncoding.encode([("client_id", app.key), ("redirect_uri", redirectURI), ("response_type", "code")])
            + "&scope=" + Self.scopes.split(separator: " ").map { PercentEncoding.encoded(String($0)) }.joined(separator: "+")
            + "&" + FormEncoding.encode([("state", state)])
        if let pkce {
            url += "&" + FormEncoding.encode([("code_challenge", pkce.challenge), ("code_challenge_method", PKCE.method)])
        }
        return url
    }

    /// POST `oauth/token` with the code (and the PKCE verifier), then `verify_credentials` for the account's id and `acct`.
    public func exchange(code: String, app: OAuthApp, redirectURI: String, pkce: PKCE?) async throws(RequestError) -> OAuthGrant {
        var form = [
            ("grant_type", "authorization_code"), ("code", code), ("client_id", app.key),
            ("client_secret", app.secret.revealed), ("redirect_uri", redirectURI), ("scope", Self.scopes),
        ]
        if let pkce { form.append(("code_verifier", pkce.verifier)) }
        let body = try await OAuthClient.post(apiBase + "oauth/token", form, http: http,
                                              secrets: [app.secret.revealed, code] + (pkce.map { [$0.verifier] } ?? []))
        let fields = try OAuthClient.object(body, what: "the oauth/token answer")
        guard let raw = fields["access_token"]?.string, !raw.isEmpty else {
            throw .decoding(what: "the oauth/token answer", where: "access_token", detail: "missing")
        }
        let token = try OAuthClient.usableToken(raw, what: "the oauth/token answer")
        let account = try await verifyCredentials(token)
        return OAuthGrant(accessToken: token, expiresIn: OAuthClient.integer(fields["expires_in"]),
                          uid: account.id, screenName: account.acct)
    }

    /// `verify_credentials`: the account's id and `acct`; Mastodon says nothing of expiry.
    public func tokenInfo(_ token: Secret) async throws(RequestError) -> OAuthTokenInfo {
        let account = try await verifyCredentials(token)
        return OAuthTokenInfo(uid: account.id, appKey: nil, expiresIn: nil, screenName: account.acct)
    }

    /// POST `oauth/revoke` with the token and the app it was issued to (Doorkeeper wants the client).
    public func revoke(_ token: Secret, app: OAuthApp?) async throws(RequestError) {
        guard let app else {
            throw .configuration("revoking a Mastodon token needs the app it was issued to, and none is kept for \(apiBase)")
        }
        _ = try await OAuthClient.post(apiBase + "oauth/revoke", [
            ("token", token.revealed), ("client_id", app.key), ("client_secret", app.secret.revealed),
        ], http: http, secrets: [token.revealed, app.secret.revealed])
    }

    /// POST `api/v1/apps`: `client_name=wsh`, the redirect URIs (one a line), `scopes`, `website`.
    public func register(redirectURIs: [String]) async throws(RequestError) -> OAuthApp {
        let body = try await OAuthClient.post(apiBase + "api/v1/apps", [
            ("client_name", Self.clientName), ("redirect_uris", redirectURIs.joined(separator: "\n")),
            ("scopes", Self.scopes), ("website", Self.website),
        ], http: http, secrets: [])
        let fields = try OAuthClient.object(body, what: "the api/v1/apps answer")
        guard let key = OAuthClient.text(fields["client_id"]) else {
            throw .decoding(what: "the api/v1/apps answer", where: "client_id", detail: "missing")
        }
        guard let secret = fields["client_secret"]?.string,
              let checked = try? TokenSource.value(Secret(secret)).resolve() else {
            throw .decoding(what: "the api/v1/apps answer", where: "client_secret", detail: "missing")
        }
        return OAuthApp(key: key, secret: checked, redirectURIs: redirectURIs)
    }

    /// Asks for an app-only token (`client_credentials`, scope `read`): the
    /// server grants it to an app it knows, and answers `invalid_client` to
    /// one it forgot. The app token is revoked again at once.
    public func accepts(_ app: OAuthApp) async throws(RequestError) -> Bool {
        let body: Data
        do {
            body = try await OAuthClient.post(apiBase + "oauth/token", [
                ("grant_type", "client_credentials"), ("client_id", app.key),
                ("client_secret", app.secret.revealed), ("scope", "read"),
            ], http: http, secrets: [app.secret.revealed])
        } catch {
            if case .api(let failure) = error, failure.message == "invalid_client" || failure.httpStatus == 401 {
                return false
            }
            throw error
        }
        if let token = (try? OAuthClient.object(body, what: "the oauth/token answer"))?["access_token"]?.string,
           !token.isEmpty {
            try? await revoke(Secret(token), app: app)
        }
        return true
    }

    /// The token's account: `id` and `acct` of `GET api/v1/accounts/verify_credentials`.
    private func verifyCredentials(_ token: Secret) async throws(RequestError) -> (id: String, acct: String?) {
        let url = apiBase + "api/v1/accounts/verify_credentials"
        let request = HTTPRequest(url: url, headers: [HTTPHeader("Accept", "application/json"),
                                                      HTTPHeader("Authorization", "Bearer " + token.revealed)])
        let response = try await http.send(request)
        try APIClient.check(response, url: url, secrets: [token.revealed], errors: MastodonErrors())
        let fields = try OAuthClient.object(response.body, what: "the verify_credentials answer")
        guard let id = OAuthClient.text(fields["id"]) else {
            throw .decoding(what: "the verify_credentials answer", where: "id", detail: "missing")
        }
        return (id, OAuthClient.text(fields["acct"]) ?? OAuthClient.text(fields["username"]))
    }
}
