import Foundation
import Testing
import WshSandbox
import WshTestSupport
@testable import WshRequest

/// Mastodon's OAuth in the Request layer: the URLs and forms it sends (to a
/// fake), and a registration, approval, exchange and revocation on the sandbox.
@Suite("Mastodon OAuth")
struct MastodonOAuthTests {
    private static let app = OAuthApp(key: "cid", secret: Secret("csecret-123"))

    /// The form fields of a POST body.
    private func form(_ request: HTTPRequest) -> [String: String] {
        HTTPRequest(url: "x?" + String(decoding: request.body ?? Data(), as: UTF8.self)).queryItems
    }

    @Test("the authorize URL is at the server root with response_type=code, scope=read+write+follow and the state")
    func authorizeURL() {
        let client = MastodonOAuthClient(apiBase: "https://mastodon.example", http: FakeHTTPClient { _ in .json("{}") })
        #expect(client.authorizeURL(app: Self.app, redirectURI: MastodonOAuthClient.outOfBand, state: "s1")
            == "https://mastodon.example/oauth/authorize?client_id=cid&redirect_uri=urn%3Aietf%3Awg%3Aoauth%3A2.0%3Aoob&response_type=code&scope=read+write+follow&state=s1")
        #expect(client.outOfBandRedirectURI == "urn:ietf:wg:oauth:2.0:oob")
        #expect(!client.tokensExpire)
        #expect(OAuthClient(apiBase: "https://api.weibo.com/2/", http: FakeHTTPClient { _ in .json("{}") }).outOfBandRedirectURI == nil)
    }

    @Test("the exchange POSTs oauth/token with the code and app, then names the user by verify_credentials with Bearer")
    func exchange() async throws {
        let fake = FakeHTTPClient { request in
            request.path == "/oauth/token"
                ? .json(#"{"access_token":"TOKEN-abc_123","token_type":"Bearer","scope":"read write follow","created_at":1731331800}"#)
                : .json(#"{"id":"109","username":"alice","acct":"alice"}"#)
        }
        let grant = try await MastodonOAuthClient(apiBase: "https://m.example/", http: fake)
            .exchange(code: "CODE1", app: Self.app, redirectURI: "http://127.0.0.1:5000/callback")
        #expect(grant == OAuthGrant(accessToken: Secret("TOKEN-abc_123"), expiresIn: nil, uid: "109", screenName: "alice"))
        let (token, verify) = (fake.requests[0], fake.requests[1])
        #expect(token.method == .post && token.url == "https://m.example/oauth/token")
        #expect(form(token) == ["grant_type": "authorization_code", "code": "CODE1", "client_id": "cid",
                                "client_secret": "csecret-123", "redirect_uri": "http://127.0.0.1:5000/callback",
                                "scope": "read write follow"])
        #expect(verify.url == "https://m.example/api/v1/accounts/verify_credentials")
        #expect(verify.headers.contains(HTTPHeader("Authorization", "Bearer TOKEN-abc_123")))
        #expect(!verify.url.contains("TOKEN"))
    }

    @Test("registration POSTs api/v1/apps as wsh with the redirect URIs one a line; revoke sends token and app")
    func registerAndRevoke() async throws {
        let fake = FakeHTTPClient { request in
            request.path == "/api/v1/apps" ? .json(#"{"id":"7","name":"wsh","client_id":"new-id","client_secret":"new-secret"}"#) : .json("{}")
        }
        let client = MastodonOAuthClient(apiBase: "https://m.example/", http: fake)
        let uris = ["http://127.0.0.1:5000/callback", MastodonOAuthClient.outOfBand]
        #expect(try await client.register(redirectURIs: uris) == OAuthApp(key: "new-id", secret: Secret("new-secret"), redirectURIs: uris))
        #expect(form(fake.requests[0]) == ["client_name": "wsh", "redirect_uris": uris.joined(separator: "\n"),
                                           "scopes": "read write follow", "website": MastodonOAuthClient.website])
        try await client.revoke(Secret("tok"), app: Self.app)
        #expect(fake.requests[1].url == "https://m.example/oauth/revoke")
        #expect(form(fake.requests[1]) == ["token": "tok", "client_id": "cid", "client_secret": "csecret-123"])
        await #expect(throws: RequestError.self) { try await client.revoke(Secret("tok"), app: nil) }
    }

    @Test("on the sandbox: register, approve out of band, exchange, who, the app accepted; revoke kills the token; a forgotten app is refused")
    func sandboxRoundTrip() async throws {
        let sandbox = try await SandboxServer.start(SandboxConfiguration())
        let client = MastodonOAuthClient(apiBase: sandbox.mastodonBaseURL, http: CurlHTTPClient())
        let app = try await client.register(redirectURIs: [MastodonOAuthClient.outOfBand])
        #expect(try await client.accepts(app))
        let page = try await CurlHTTPClient().send(HTTPRequest(
            method: .post, url: sandbox.mastodonBaseURL + "oauth/authorize",
            headers: [HTTPHeader("Content-Type", "application/x-www-form-urlencoded")],
            body: Data(FormEncoding.encode([("client_id", app.key), ("redirect_uri", MastodonOAuthClient.outOfBand),
                                             ("state", "s"), ("user", SandboxOAuth.approvingUID), ("approve", "1")]).utf8)))
        let html = String(decoding: page.body, as: UTF8.self)
        let code = try #require(html.components(separatedBy: "<code id=\"code\">").dropFirst().first?.split(separator: "<").first)
        let grant = try await client.exchange(code: String(code), app: app, redirectURI: MastodonOAuthClient.outOfBand)
        #expect(grant.uid == SandboxOAuth.approvingUID)
        let info = try await client.tokenInfo(grant.accessToken)
        #expect(info.uid == SandboxOAuth.approvingUID && info.screenName == grant.screenName && info.expiresIn == nil)
        try await client.revoke(grant.accessToken, app: app)
        await #expect(throws: RequestError.self) { try await client.tokenInfo(grant.accessToken) }
        #expect(try await !client.accepts(OAuthApp(key: app.key, secret: Secret("wrong"))))
        await sandbox.stop()
    }

    @Test("PKCE: used when the server's metadata lists S256 (the challenge in the URL, the verifier in the exchange), not otherwise")
    func pkceFromMetadata() async throws {
        let modern = FakeHTTPClient { request in
            request.path == "/.well-known/oauth-authorization-server"
                ? .json(#"{"issuer":"https://m.example/","code_challenge_methods_supported":["S256"]}"#)
                : .json(#"{"access_token":"T-1","id":"1","acct":"a"}"#)
        }
        let client = MastodonOAuthClient(apiBase: "https://m.example/", http: modern)
        #expect(await client.supportsPKCE())
        #expect(modern.requests.first?.url == "https://m.example/.well-known/oauth-authorization-server")
        let key = PKCE(verifier: "dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk")
        let url = client.authorizeURL(app: Self.app, redirectURI: MastodonOAuthClient.outOfBand, state: "s1", pkce: key)
        #expect(url.hasSuffix("&state=s1&code_challenge=E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM&code_challenge_method=S256"))
        _ = try await client.exchange(code: "C", app: Self.app, redirectURI: MastodonOAuthClient.outOfBand, pkce: key)
        #expect(form(modern.requests[1])["code_verifier"] == key.verifier)

        for answer in [HTTPResponse.json(#"{"error":"Not found"}"#, status: 404), .json(#"{"code_challenge_methods_supported":["plain"]}"#),
                       .json(#"{"issuer":"x"}"#), .json("not json")] {
            let old = MastodonOAuthClient(apiBase: "https://old.example/", http: FakeHTTPClient { _ in answer })
            #expect(await !old.supportsPKCE())
        }
        #expect(await !OAuthClient(apiBase: "https://api.weibo.com/2/", http: modern).supportsPKCE())
    }

    @Test("the sandbox checks PKCE: a code issued with a challenge needs its verifier; a wrong or missing one is invalid_grant")
    func sandboxChecksPKCE() async throws {
        let sandbox = try await SandboxServer.start(SandboxConfiguration())
        let client = MastodonOAuthClient(apiBase: sandbox.mastodonBaseURL, http: CurlHTTPClient())
        #expect(await client.supportsPKCE())
        let app = try await client.register(redirectURIs: [MastodonOAuthClient.outOfBand])
        func code(_ key: PKCE) async throws -> String {
            let url = client.authorizeURL(app: app, redirectURI: MastodonOAuthClient.outOfBand, state: "s", pkce: key)
            let page = try await CurlHTTPClient().send(HTTPRequest(url: url))
            #expect(String(decoding: page.body, as: UTF8.self).contains("name=\"code_challenge\" value=\"\(key.challenge)\""))
            return try SandboxOAuth.approveOutOfBand(url)
        }
        let key = PKCE.random()
        for wrong in [nil, PKCE.random()] {
            do {
                _ = try await client.exchange(code: try await code(key), app: app, redirectURI: MastodonOAuthClient.outOfBand, pkce: wrong)
                Issue.record("a code was exchanged without its verifier")
            } catch {
                #expect("\(error)".contains("invalid_grant"))
            }
        }
        let grant = try await client.exchange(code: try await code(key), app: app, redirectURI: MastodonOAuthClient.outOfBand, pkce: key)
        #expect(grant.uid == SandboxOAuth.approvingUID)
        await sandbox.stop()
    }
}
