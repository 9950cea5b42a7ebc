import Foundation
import Testing
import WshSandbox

@Suite("Mastodon OAuth: apps, authorize (redirect and oob), token, revoke")
struct MastodonOAuthTests {
    static let redirect = "http://127.0.0.1:9/mastodon-callback"

    /// Registers an app and returns (client_id, client_secret).
    func register(_ server: SandboxServer, redirect: String = MastodonOAuthTests.redirect) async throws -> (String, String) {
        let app = await server.mastodon("POST", "apps", form: "client_name=wsh&redirect_uris=" + formEncoded(redirect)
            + "&scopes=" + formEncoded("read write follow") + "&website=" + formEncoded("https://wsh.example"))
        #expect(app.status == 200, "\(app.text)")
        let json = try #require(app.json)
        #expect(json["name"] as? String == "wsh")
        #expect(json["redirect_uri"] as? String == redirect)
        #expect(json["vapid_key"] is String)
        #expect(json["id"] is String)
        return (try #require(json["client_id"] as? String), try #require(json["client_secret"] as? String))
    }

    func token(_ server: SandboxServer, code: String, id: String, secret: String, redirect: String) async -> HTTPResult {
        await server.mastodonOAuth("POST", "token", form: "grant_type=authorization_code&code=\(code)&client_id=\(id)"
            + "&client_secret=\(secret)&redirect_uri=" + formEncoded(redirect) + "&scope=" + formEncoded("read write"))
    }

    @Test("redirect round trip: app → authorize page → approve → 302 with code and state → token → verify_credentials → revoke → 401")
    func redirectRoundTrip() async throws {
        try await withSandbox(SandboxConfiguration(statuses: 20, clock: .manual())) { server in
            let (id, secret) = try await register(server)
            let page = await server.mastodonOAuth("GET", "authorize", query: "client_id=\(id)&redirect_uri="
                + formEncoded(Self.redirect) + "&response_type=code&scope=read")
            #expect(page.status == 200)
            #expect(page.text.contains("<form method=\"post\" action=\"/oauth/authorize\">"))
            #expect(page.text.contains(server.second.screenName))

            let approved = await server.mastodonOAuth("POST", "authorize", form: "client_id=\(id)&redirect_uri="
                + formEncoded(Self.redirect) + "&state=s%201&user=" + formEncoded(server.second.screenName) + "&approve=1")
            #expect(approved.status == 302)
            let query = queryItems(ofLocation: approved.headers["location"])
            #expect(query["state"] == "s 1")
            let code = try #require(query["code"])

            let issued = await token(server, code: code, id: id, secret: secret, redirect: Self.redirect)
            #expect(issued.status == 200, "\(issued.text)")
            let json = try #require(issued.json)
            let access = try #require(json["access_token"] as? String)
            #expect(json["token_type"] as? String == "Bearer")
            #expect(json["scope"] as? String == "read write")
            #expect(json["created_at"] as? Int == 1_731_331_800)
            // The code is single use.
            #expect(await token(server, code: code, id: id, secret: secret, redirect: Self.redirect).json?["error"] as? String == "invalid_grant")

            let me = await server.mastodon("accounts/verify_credentials", token: access)
            #expect(me.json?["id"] as? String == String(server.second.uid))
            // The same token works on the Weibo API, and a post shows the app's name.
            #expect(await server.get("account/get_uid.json", token: access).json?["uid"] as? Int64 == server.second.uid)
            let posted = await server.mastodon("POST", "statuses", token: access, form: "status=via+app")
            #expect((posted.json?["application"] as? [String: Any])?["name"] as? String == "wsh")

            let revoked = await server.mastodonOAuth("POST", "revoke", form: "token=\(access)&client_id=\(id)&client_secret=\(secret)")
            #expect(revoked.status == 200)
            #expect(revoked.text == "{}")
            let refused = await server.mastodon("accounts/verify_credentials", token: access)
            #expect(refused.status == 401)
            #expect(refused.mastodonError == "The access token was revoked")
            #expect(await server.get("account/get_uid.json", token: access).errorCode == 21332)
        }
    }

    @Test("out of band: the code is shown in <code id=\"code\">; the sandbox's own app needs no registration")
    func outOfBand() async throws {
        try await withSandbox(SandboxConfiguration(statuses: 20)) { server in
            let oob = "urn:ietf:wg:oauth:2.0:oob"
            let (id, secret) = try await register(server, redirect: oob)
            let shown = await server.mastodonOAuth("POST", "authorize", form: "client_id=\(id)&redirect_uri="
                + formEncoded(oob) + "&user=\(server.accounts[2].uid)&approve=1")
            #expect(shown.status == 200)
            let text = shown.text
            let start = try #require(text.range(of: "<code id=\"code\">"))
            let code = String(text[start.upperBound...].prefix { $0 != "<" })
            #expect(code.count == 32)
            let access = try #require(await token(server, code: code, id: id, secret: secret, redirect: oob).json?["access_token"] as? String)
            #expect(await server.mastodon("accounts/verify_credentials", token: access).json?["id"] as? String == String(server.accounts[2].uid))

            // The sandbox's own app (the Weibo app key and secret) takes any redirect URI.
            let own = await server.mastodonOAuth("POST", "authorize", form: "client_id=\(SandboxConfiguration.defaultAppKey)"
                + "&redirect_uri=" + formEncoded(oob) + "&user=\(server.accounts[0].uid)&approve=1")
            #expect(own.status == 200)
            #expect(own.text.contains("<code id=\"code\">"))
        }
    }

    @Test("errors: bad client 401 invalid_client, bad redirect, denial, bad grant type; client_credentials app tokens")
    func errors() async throws {
        try await withSandbox(SandboxConfiguration(statuses: 20)) { server in
            let (id, secret) = try await register(server)
            let unknown = await server.mastodonOAuth("GET", "authorize", query: "client_id=nope&redirect_uri=" + formEncoded(Self.redirect))
            #expect(unknown.status == 400)
            #expect(unknown.text.contains("invalid_client"))
            let wrongRedirect = await server.mastodonOAuth("GET", "authorize", query: "client_id=\(id)&redirect_uri=" + formEncoded("http://evil.example/cb"))
            #expect(wrongRedirect.text.contains("invalid_redirect_uri"))
            let denied = await server.mastodonOAuth("POST", "authorize", form: "client_id=\(id)&redirect_uri="
                + formEncoded(Self.redirect) + "&state=z&user=\(server.accounts[0].uid)&approve=0")
            #expect(denied.status == 302)
            #expect(queryItems(ofLocation: denied.headers["location"])["error"] == "access_denied")
            #expect(queryItems(ofLocation: denied.headers["location"])["state"] == "z")

            let badSecret = await server.mastodonOAuth("POST", "token", form: "grant_type=client_credentials&client_id=\(id)&client_secret=wrong")
            #expect(badSecret.status == 401)
            #expect(badSecret.json?["error"] as? String == "invalid_client")
            #expect(badSecret.json?["error_description"] is String)
            #expect(await server.mastodonOAuth("POST", "token", form: "grant_type=password&client_id=\(id)&client_secret=\(secret)").json?["error"] as? String == "unsupported_grant_type")
            #expect(await token(server, code: "nonsense", id: id, secret: secret, redirect: Self.redirect).status == 400)
            #expect(await server.mastodon("POST", "apps", form: "client_name=x").mastodonError == "Validation failed: Redirect URI can't be blank")
            #expect(await server.mastodon("POST", "apps", form: "redirect_uris=" + formEncoded(Self.redirect)).status == 422)

            // An app token reads public data, but is no user.
            let app = try #require(await server.mastodonOAuth("POST", "token", form: "grant_type=client_credentials&client_id=\(id)&client_secret=\(secret)").json?["access_token"] as? String)
            #expect(await server.mastodon("timelines/public?limit=1", token: app).status == 200)
            #expect(await server.mastodon("apps/verify_credentials", token: app).json?["name"] as? String == "wsh")
            let refused = await server.mastodon("accounts/verify_credentials", token: app)
            #expect(refused.status == 422)
            #expect(refused.mastodonError == "This method requires an authenticated user")
            #expect(await server.mastodonOAuth("POST", "revoke", form: "token=\(app)&client_id=\(id)&client_secret=bad").status == 403)

            // A reset forgets registered apps.
            #expect(await server.admin("GET", "mastodon").json?["apps"] as? Int == 2)
            server.reset()
            #expect(await server.mastodonOAuth("POST", "token", form: "grant_type=client_credentials&client_id=\(id)&client_secret=\(secret)").status == 401)
            #expect(await server.mastodon("timelines/public?limit=1", token: app).status == 401)
        }
    }
}
