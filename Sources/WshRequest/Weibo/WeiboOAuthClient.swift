import FoundationEssentials
import WshText

/// Weibo's OAuth2 endpoints (`oauth2/authorize`, `access_token`,
/// `get_token_info`, `revokeoauth2`), which live beside the API under the
/// same host: the OAuth base is the API base without its trailing `2/`
/// (`https://api.weibo.com/2/` → `https://api.weibo.com/`).
///
/// Tokens travel in POST form bodies, never in a URL.
public struct OAuthClient: OAuthFlow {
    /// The API base the tokens are for, e.g. `https://api.weibo.com/2/`.
    public let apiBase: String
    public let http: any HTTPClient

    public init(apiBase: String, http: any HTTPClient) {
        self.apiBase = apiBase.hasSuffix("/") ? apiBase : apiBase + "/"
        self.http = http
    }

    /// `https://api.weibo.com/` for `https://api.weibo.com/2/`: the base
    /// without its last path segment when that is the version `2`.
    public static func oauthBase(forAPI apiBase: String) -> String {
        var base = apiBase.hasSuffix("/") ? apiBase : apiBase + "/"
        if base.hasSuffix("/2/") { base.removeLast(2) }
        return base
    }

    public var oauthBase: String { Self.oauthBase(forAPI: apiBase) }

    /// Weibo's out-of-band page (`oauth2/default.html`) is for its own apps: none here.
    public var outOfBandRedirectURI: String? { nil }
    /// Weibo's tokens expire (`expires_in`, `expire_in`).
    public var tokensExpire: Bool { true }

    /// Weibo publishes no authorization-server metadata and documents no PKCE.
    public func supportsPKCE() async -> Bool { false }

    /// The page the user opens to approve `app`: `oauth2/authorize?client_id=…&redirect_uri=…&response_type=code&state=…`
    /// (Weibo takes no PKCE: `pkce` is not sent).
    public func authorizeURL(app: OAuthApp, redirectURI: String, state: String, pkce: PKCE?) -> String {
        oauthBase + "oauth2/authorize?" + FormEncoding.encode([
            ("client_id", app.key), ("redirect_uri", redirectURI), ("response_type", "code"), ("state", state),
        ])
    }

    /// Exchanges an authorization `code` for a token (POST `oauth2/access_token`).
    public func exchange(code: String, app: OAuthApp, redirectURI: String, pkce: PKCE?) async throws(RequestError) -> OAuthGrant {
        let body = try await post("oauth2/access_token", [
            ("client_id", app.key), ("client_secret", app.secret.revealed), ("grant_type", "authorization_code"),
            ("code", code), ("redirect_uri", redirectURI),
        ], secrets: [app.secret.revealed, code])
        let fields = try Self.object(body, what: "the access_token answer")
        guard let token = fields["access_token"]?.string, !token.isEmpty else {
            throw .decoding(what: "the access_token answer", where: "access_token", detail: "missing")
        }
        let checked = try Self.usableToken(token, what: "the access_token answer")
        guard let uid = Self.text(fields["uid"]) else {
            throw .decoding(what: "the access_token answer", where: "uid", detail: "missing")
        }
        return OAuthGrant(accessToken: checked, expiresIn: Self.integer(fields["expires_in"]), uid: uid)
    }

    /// What the server knows of `token` (POST `oauth2/get_token_info`): its uid and seconds left.
    public func tokenInfo(_ token: Secret) async throws(RequestError) -> OAuthTokenInfo {
        let body = try await post("oauth2/get_token_info", [("access_token", token.revealed)], secrets: [token.revealed])
        let fields = try Self.object(body, what: "the get_token_info answer")
        guard let uid = Self.text(fields["uid"]) else {
            throw .decoding(what: "the get_token_info answer", where: "uid", detail: "missing")
        }
        return OAuthTokenInfo(uid: uid, appKey: Self.text(fields["appkey"]),
                              expiresIn: Self.integer(fields["expire_in"] ?? fields["expires_in"]))
    }

    /// Revokes `token` (POST `oauth2/revokeoauth2`); Weibo needs no app for it.
    public func revoke(_ token: Secret, app: OAuthApp? = nil) async throws(RequestError) {
        _ = try await post("oauth2/revokeoauth2", [("access_token", token.revealed)], secrets: [token.revealed])
    }

    private func post(_ path: String, _ fields: [(String, String)], secrets: [String]) async throws(RequestError) -> Data {
        try await Self.post(oauthBase + path, fields, http: http, secrets: secrets)
    }

    /// POSTs `fields` as a form to `url` and checks the answer (an API error body, a non-2xx status).
    static func post(_ url: String, _ fields: [(String, String)], http: any HTTPClient,
                     secrets: [String]) async throws(RequestError) -> Data {
        let request = HTTPRequest(
            method: .post, url: url,
            headers: [HTTPHeader("Accept", "application/json"),
                      HTTPHeader("Content-Type", "application/x-www-form-urlencoded; charset=utf-8")],
            body: Data(FormEncoding.encode(fields).utf8))
        let response = try await http.send(request)
        try APIClient.check(response, url: url, secrets: secrets, errors: WeiboErrors())
        return response.body
    }

    /// `token` as a secret a request may carry (no spaces or control characters).
    static func usableToken(_ token: String, what: String) throws(RequestError) -> Secret {
        do {
            guard let secret = try TokenSource.value(Secret(token)).resolve() else { throw RequestError.configuration("") }
            return secret
        } catch {
            throw .decoding(what: what, where: "access_token", detail: "not a usable token")
        }
    }

    static func object(_ body: Data, what: String) throws(RequestError) -> [String: JSONValue] {
        guard let object = JSONValue.parse(body)?.object else {
            throw .decoding(what: what, where: "", detail: "not a JSON object")
        }
        return object
    }

    /// A string or number field as text (Weibo sends uids either way).
    static func text(_ value: JSONValue?) -> String? {
        switch value {
        case .string(let text)?: return text.isEmpty ? nil : TerminalText.sanitize(text)
        default: return value?.scalarText
        }
    }

    static func integer(_ value: JSONValue?) -> Int? {
        switch value {
        case .string(let text)?: return Int(text)
        case .number(let number)?: return number.isFinite && abs(number) < 9e18 ? Int(number) : nil
        default: return value?.int
        }
    }
}

/// What a code exchange grants.
public struct OAuthGrant: Sendable, Hashable {
    public var accessToken: Secret
    /// Seconds until the token expires, when the server says.
    public var expiresIn: Int?
    /// The user who approved (Weibo's uid, Mastodon's account id).
    public var uid: String
    /// Their name, when the flow learnt it (Mastodon's `acct`); else the profile is asked.
    public var screenName: String?

    public init(accessToken: Secret, expiresIn: Int?, uid: String, screenName: String? = nil) {
        self.accessToken = accessToken
        self.expiresIn = expiresIn
        self.uid = uid
        self.screenName = screenName
    }
}

/// What the server says of a token (`oauth2/get_token_info`, `accounts/verify_credentials`).
public struct OAuthTokenInfo: Sendable, Hashable {
    public var uid: String
    public var appKey: String?
    /// Seconds left before the token expires.
    public var expiresIn: Int?
    /// The user's name, when the answer had it (Mastodon's `acct`).
    public var screenName: String?

    public init(uid: String, appKey: String?, expiresIn: Int?, screenName: String? = nil) {
        self.uid = uid
        self.appKey = appKey
        self.expiresIn = expiresIn
        self.screenName = screenName
    }
}
