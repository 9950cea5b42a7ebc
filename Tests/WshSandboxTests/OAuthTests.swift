import Foundation
import Testing
import WshSandbox

@Suite("OAuth2: authorize, access_token, get_token_info, revokeoauth2")
struct OAuthTests {
    /// POSTs the approval as `user` and returns the 302's query.
    func approve(_ server: SandboxServer, user: String, state: String = "xyz",
                 redirect: String = App.redirect) async throws -> [String: String] {
        let result = await server.oauth("POST", "authorize", form: "client_id=\(App.key)&redirect_uri="
            + formEncoded(redirect) + "&state=" + formEncoded(state) + "&user=" + formEncoded(user) + "&approve=1")
        try #require(result.status == 302, "\(result.status) \(result.text)")
        return queryItems(ofLocation: result.headers["location"])
    }

    func exchange(_ server: SandboxServer, code: String, secret: String = App.secret,
                  redirect: String = App.redirect) async -> HTTPResult {
        await server.oauth("POST", "access_token", form: "client_id=\(App.key)&client_secret=\(secret)"
            + "&grant_type=authorization_code&code=\(code)&redirect_uri=" + formEncoded(redirect))
    }

    @Test("round trip: approve → 302 with code and state → access_token → calls as the user → get_token_info → revoke → 21332")
    func roundTrip() async throws {
        try await withSandbox { server in
            let second = server.second
            let query = try await approve(server, user: second.screenName, state: "a b&c=d/é")
            #expect(query["state"] == "a b&c=d/é")
            let code = try #require(query["code"])

            let exchanged = await exchange(server, code: code)
            #expect(exchanged.status == 200)
            let json = try #require(exchanged.json)
            let token = try #require(json["access_token"] as? String)
            #expect(token.hasPrefix("2.00"))
            #expect(json["uid"] as? String == String(second.uid))
            #expect(json["expires_in"] as? Int == SandboxConfiguration.defaultTokenLifetime)
            #expect(json["remind_in"] as? String == String(SandboxConfiguration.defaultTokenLifetime))

            // The token acts as the approved user: its post is theirs.
            let posted = await server.post("statuses/update.json", form: "status=via+oauth", as: token)
            #expect((posted.json?["user"] as? [String: Any])?["idstr"] as? String == String(second.uid))
            #expect(await server.get("account/get_uid.json", token: token).json?["uid"] as? Int64 == second.uid)

            let info = await server.oauth("POST", "get_token_info", form: "access_token=\(token)")
            #expect(info.status == 200)
            #expect(info.json?["uid"] as? Int64 == second.uid)
            #expect(info.json?["appkey"] as? String == App.key)
            #expect(info.json?["create_at"] as? Int != nil)
            #expect((info.json?["expire_in"] as? Int ?? 0) > 0)
            #expect(info.json?.keys.contains("scope") == true)

            let revoked = await server.oauth("POST", "revokeoauth2", form: "access_token=\(token)")
            #expect(revoked.json?["result"] as? String == "true")
            let refused = await server.get("statuses/home_timeline.json", token: token)
            #expect(refused.status == 401)
            #expect(refused.errorCode == 21332)
            #expect(await server.oauth("POST", "get_token_info", form: "access_token=\(token)").errorCode == 21332)
            // The account's own token is untouched.
            #expect(await server.get("statuses/home_timeline.json", token: second.token).status == 200)
        }
    }

    @Test("a code works once: reused it is 21325 invalid_grant, with Weibo's OAuth body")
    func codeReuse_isRejected() async throws {
        try await withSandbox { server in
            let code = try #require(try await approve(server, user: "1700000000")["code"])
            #expect(await exchange(server, code: code).status == 200)
            let again = await exchange(server, code: code)
            #expect(again.status == 400)
            #expect(again.errorCode == 21325)
            #expect(again.json?["error"] as? String == "invalid_grant")
            #expect(again.json?["request"] as? String == "/oauth2/access_token")
            #expect(again.json?["error_description"] is String)
            #expect(await exchange(server, code: "nonsense").errorCode == 21325)
        }
    }

    @Test("a wrong secret is 21324 invalid_client; a redirect_uri other than the authorized one 21322")
    func wrongSecretAndRedirect() async throws {
        try await withSandbox { server in
            let code = try #require(try await approve(server, user: "1700000000")["code"])
            let wrongSecret = await exchange(server, code: code, secret: "guess")
            #expect(wrongSecret.status == 400)
            #expect(wrongSecret.errorCode == 21324)
            let wrongRedirect = await exchange(server, code: code, redirect: "http://127.0.0.1:9/elsewhere")
            #expect(wrongRedirect.status == 400)
            #expect(wrongRedirect.errorCode == 21322)
            #expect(wrongRedirect.json?["error"] as? String == "redirect_uri_mismatch")
            // Neither used the code up.
            #expect(await exchange(server, code: code).status == 200)
            let badGrant = await server.oauth("POST", "access_token",
                                              form: "client_id=\(App.key)&client_secret=\(App.secret)&grant_type=password&redirect_uri=x")
            #expect(badGrant.errorCode == 21328)
            #expect(await server.oauth("POST", "access_token", form: "client_id=\(App.key)").errorCode == 21323)
            #expect(await server.oauth("GET", "access_token").status == 405)
        }
    }

    @Test("the authorize page lists the accounts in a form that posts back; an unknown client_id is 21324")
    func authorizePage() async throws {
        try await withSandbox { server in
            let page = await server.oauth("GET", "authorize", query: "client_id=\(App.key)&redirect_uri="
                + formEncoded(App.redirect) + "&response_type=code&state=s1")
            #expect(page.status == 200)
            #expect(page.headers["content-type"]?.hasPrefix("text/html") == true)
            #expect(page.text.contains("<form method=\"post\" action=\"/oauth2/authorize\">"))
            for account in server.accounts { #expect(page.text.contains("@\(account.screenName)")) }
            #expect(page.text.contains("value=\"s1\""))

            let unknown = await server.oauth("GET", "authorize", query: "client_id=nope&redirect_uri=" + formEncoded(App.redirect))
            #expect(unknown.status == 400)
            #expect(unknown.text.contains("21324"))
            let posted = await server.oauth("POST", "authorize", form: "client_id=nope&redirect_uri=x:y&user=1700000000&approve=1")
            #expect(posted.errorCode == 21324)
            let noRedirect = await server.oauth("POST", "authorize", form: "client_id=\(App.key)&user=1700000000&approve=1")
            #expect(noRedirect.errorCode == 21323)
            let notAbsolute = await server.oauth("POST", "authorize",
                                                 form: "client_id=\(App.key)&redirect_uri=callback&user=1700000000&approve=1")
            #expect(notAbsolute.errorCode == 21322)
            let wrongType = await server.oauth("GET", "authorize", query: "client_id=\(App.key)&redirect_uri=http://x/&response_type=token")
            #expect(wrongType.text.contains("21329"))
            let noUser = await server.oauth("POST", "authorize", form: "client_id=\(App.key)&redirect_uri=http://x/&user=nobody&approve=1")
            #expect(noUser.errorCode == 21323)
        }
    }

    @Test("the redirect keeps the redirect_uri's own query and fragment; a denial redirects with access_denied (21330)")
    func redirectShapes() async throws {
        try await withSandbox { server in
            let redirect = "https://app.example/cb?from=wsh#top"
            let result = await server.oauth("POST", "authorize", form: "client_id=\(App.key)&redirect_uri="
                + formEncoded(redirect) + "&state=s&user=1700000001&approve=1")
            let location = try #require(result.headers["location"])
            #expect(location.hasPrefix("https://app.example/cb?from=wsh&code="))
            #expect(location.hasSuffix("&state=s#top"))
            let denied = await server.oauth("POST", "authorize", form: "client_id=\(App.key)&redirect_uri="
                + formEncoded(App.redirect) + "&state=s&user=1700000001&approve=0")
            #expect(denied.status == 302)
            let query = queryItems(ofLocation: denied.headers["location"])
            #expect(query["error"] == "access_denied")
            #expect(query["error_code"] == "21330")
            #expect(query["state"] == "s")
            #expect(query["code"] == nil)
        }
    }

    @Test("codes expire after 10 minutes and tokens after tokenLifetime, by the injected clock")
    func expiry_byClock() async throws {
        let clock = SandboxClock.manual()
        try await withSandbox(SandboxConfiguration(tokenLifetime: 3600, clock: clock)) { server in
            let stale = try #require(try await approve(server, user: "1700000000")["code"])
            clock.advance(by: 601)
            #expect(await exchange(server, code: stale).errorCode == 21325)

            let code = try #require(try await approve(server, user: "1700000002")["code"])
            let token = try #require(await exchange(server, code: code).json?["access_token"] as? String)
            #expect(await server.oauth("POST", "get_token_info", form: "access_token=\(token)").json?["expire_in"] as? Int == 3600)
            clock.advance(by: 3599)
            #expect(await server.get("statuses/home_timeline.json", token: token).status == 200)
            clock.advance(by: 1)
            let expired = await server.get("statuses/home_timeline.json", token: token)
            #expect(expired.status == 401)
            #expect(expired.errorCode == 21327)
            #expect(expired.json?["error"] as? String == "expired_token")
            // The accounts' own tokens do not expire by the clock.
            #expect(await server.get("statuses/home_timeline.json").status == 200)
        }
    }

    @Test("the admin API (and expireToken) expire any token at once: 21327 on every call")
    func adminExpiry() async throws {
        try await withSandbox { server in
            let token = server.second.token
            let result = await server.admin("POST", "tokens/expire", body: #"{"token":"\#(token)"}"#)
            #expect(result.status == 200)
            #expect(await server.get("statuses/home_timeline.json", token: token).errorCode == 21327)
            #expect(await server.post("statuses/update.json", form: "status=x", as: token).errorCode == 21327)
            #expect(await server.admin("POST", "tokens/expire", body: #"{"token":"unknown"}"#).errorCode == 10008)
            #expect(server.expireToken(server.token))
            #expect(await server.get("statuses/home_timeline.json").errorCode == 21327)
            // A reset makes the accounts' tokens valid again.
            server.reset()
            #expect(await server.get("statuses/home_timeline.json", token: token).status == 200)
        }
    }
}
