import Foundation
import Testing
import WshRequest
@testable import WshShell
import WshTestSupport
import WshText

/// `login`, `whoami`, `post`, `logout` on the sandbox's Mastodon side: wsh
/// registers its app (`api/v1/apps`), the test plays the browser.
@Suite("Login on Mastodon")
struct MastodonLoginTests {
    /// The token and app secret kept in the accounts file (to check that no output shows them).
    private func secrets(in store: AccountStore) throws -> [String] {
        let file = try store.load()
        return file.accounts.map(\.accessToken) + file.apps.map(\.clientSecret)
    }

    /// After a login as the approving account: whoami names it, a post is by it,
    /// logout revokes the token, and a session sending that token is told to log in.
    private func useAndLogOut(_ harness: ShellHarness, _ store: AccountStore, printed: [Transcript]) async throws {
        let keptSecrets = try secrets(in: store)
        #expect(keptSecrets.count == 2)
        let token = try #require(try store.load().activeAccount(for: "sandbox")?.accessToken)
        #expect(try store.load().activeAccount(for: "sandbox")?.dialect == "mastodon")

        let used = await harness.run("whoami; post hello from mastodon login; list --json; accounts")
        #expect(used.status == 0, "\(used.stderr)")
        #expect(used.stdout.contains("(uid \(SandboxOAuth.approvingUID)) on sandbox"))
        #expect(used.stdout.contains("does not expire"))
        #expect(used.stdout.contains("\"id\" : \"\(SandboxOAuth.approvingUID)\""))   // the account, in Mastodon's names
        #expect(used.stdout.contains("hello from mastodon login"))

        let out = await harness.run("logout; accounts")
        #expect(out.status == 0, "\(out.stderr)")
        #expect(out.stderr.contains("the token is revoked"))
        #expect(out.stderr.contains("no accounts"))

        let dead = ShellHarness(api: harness.sandbox.mastodonBaseURL, token: token)
        let refused = await dead.run("post again")
        #expect(refused.status == 1)
        #expect(refused.stderr.contains("run login"), "\(refused.stderr)")

        for transcript in printed + [used, out, refused] {
            for secret in keptSecrets {
                #expect(!transcript.stdout.contains(secret) && !transcript.stderr.contains(secret))
            }
        }
    }

    @Test("login registers wsh on the server, catches the loopback redirect; whoami, post as that user, logout revokes")
    func loopbackLogin() async throws {
        let store = AccountStore(directory: WshProcess.temporaryDirectory() + "/wsh")
        let harness = try await ShellHarness(dialect: .mastodon, accountStore: store)
        async let login = harness.run("login --no-browser")
        let url = await harness.line(containing: "/oauth/authorize?")
        #expect(url.hasPrefix(harness.sandbox.mastodonBaseURL + "oauth/authorize?client_id="))
        #expect(url.contains("&response_type=code&scope=read+write+follow&state="))
        let landed = try SandboxOAuth.approve(url)
        #expect(landed.contains("/callback?code="))
        _ = try await CurlHTTPClient().send(HTTPRequest(url: landed))
        let done = await login
        #expect(done.status == 0, "\(done.stderr)")
        #expect(done.stderr.contains("registered wsh as an app on sandbox"))
        #expect(done.stderr.contains("logged in as @"))
        let app = try #require(try store.load().app(for: "sandbox"))
        #expect(app.redirectURIs.contains(MastodonOAuthClient.outOfBand))
        #expect(!app.clientSecret.isEmpty)
        try await useAndLogOut(harness, store, printed: [done])
    }

    @Test("login --url-only (out of band), login --code from the page; the kept app is reused by later logins, loopback too")
    func outOfBandLogin() async throws {
        let store = AccountStore(directory: WshProcess.temporaryDirectory() + "/wsh")
        let harness = try await ShellHarness(dialect: .mastodon, accountStore: store)
        let begun = await harness.run("login --url-only")
        #expect(begun.status == 0, "\(begun.stderr)")
        let url = begun.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(url.contains("redirect_uri=urn%3Aietf%3Awg%3Aoauth%3A2.0%3Aoob"))
        let code = try SandboxOAuth.approveOutOfBand(url)
        #expect(!code.isEmpty)
        let done = await harness.run("login --code \(code)")
        #expect(done.status == 0, "\(done.stderr)")
        #expect(done.stderr.contains("logged in as @"))
        #expect(!done.stdout.contains(code) && !done.stderr.contains(code))
        let app = try #require(try store.load().app(for: "sandbox"))
        let loopback = try #require(app.redirectURIs.first { OAuthRedirect.loopbackPort(of: $0) != nil })

        // Later logins find the app still accepted and keep it, the loopback one on the port it was registered with.
        let again = await harness.run("login --url-only --oob")
        #expect(again.status == 0, "\(again.stderr)")
        async let full = harness.run("login --no-browser")
        let second = await harness.line(containing: "redirect_uri=" + PercentEncoding.encoded(loopback))
        _ = try await CurlHTTPClient().send(HTTPRequest(url: try SandboxOAuth.approve(second)))
        let relogged = await full
        #expect(relogged.status == 0, "\(relogged.stderr)")
        for transcript in [again, relogged] { #expect(!transcript.stderr.contains("registered wsh")) }
        #expect(try store.load().app(for: "sandbox") == app)
        try await useAndLogOut(harness, store, printed: [begun, done, again, relogged])
    }

    @Test("a kept app the server no longer knows is registered again")
    func forgottenAppIsReplaced() async throws {
        let store = AccountStore(directory: WshProcess.temporaryDirectory() + "/wsh")
        var file = AccountsFile()
        file.keep(StoredApp(api: "sandbox", clientID: "gone", clientSecret: "gone-secret",
                            redirectURIs: [MastodonOAuthClient.outOfBand]))
        try store.save(file)
        let harness = try await ShellHarness(dialect: .mastodon, accountStore: store)
        let begun = await harness.run("login --url-only; help login")
        #expect(begun.status == 0, "\(begun.stderr)")
        #expect(begun.stderr.contains("registered wsh as an app on sandbox"))
        #expect(try store.load().app(for: "sandbox")?.clientID != "gone")
        #expect(!begun.stdout.contains("gone-secret") && !begun.stderr.contains("gone-secret"))
        #expect(begun.stdout.contains("Mastodon"))
    }

    @Test("--oob on Weibo is a usage error that says why")
    func outOfBandOnWeibo() async throws {
        let store = AccountStore(directory: WshProcess.temporaryDirectory() + "/wsh")
        let harness = try await ShellHarness(accountStore: store)
        let refused = await harness.run("login --oob")
        #expect(refused.status != 0)
        #expect(refused.stderr.contains("no out-of-band redirect"))
    }
}
