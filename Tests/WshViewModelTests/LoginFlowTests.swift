import Foundation
import Testing
import WshDataController
import WshRequest
import WshTestSupport
import WshText
@testable import WshViewModel

/// `login`'s whole flow in `LoginViewModel`: the steps it shows, against a
/// fake OAuth server over real HTTP, with a fake host whose listener plays
/// the browser's redirect (or a forged one, a timeout, a Ctrl-C).
@Suite("Login flow")
struct LoginFlowTests {
    /// A listener that answers its wait with what the test scripted.
    final class FakeListener: RedirectListening {
        let redirectURI: String
        /// Called with the wait's `refused` and `shouldStop`; gives its outcome.
        var answer: (_ refused: (OAuthRedirect.Failure) -> Void, _ shouldStop: () -> Bool) -> LoopbackListener.Outcome
        private(set) var closed = false
        private(set) var expectedState: String?

        init(redirectURI: String, answer: @escaping ((OAuthRedirect.Failure) -> Void, () -> Bool) -> LoopbackListener.Outcome) {
            self.redirectURI = redirectURI
            self.answer = answer
        }

        func waitForRedirect(timeout: Duration, expectedState: String, shouldStop: () -> Bool,
                             refused: (OAuthRedirect.Failure) -> Void) -> LoopbackListener.Outcome {
            self.expectedState = expectedState
            return answer(refused, shouldStop)
        }

        func close() { closed = true }
    }

    /// A host that records what it is asked to keep and mask.
    final class FakeHost: LoginHost {
        var listeners: [FakeListener] = []
        var answer: ((OAuthRedirect.Failure) -> Void, () -> Bool) -> LoopbackListener.Outcome = { _, _ in .timedOut }
        var apps: [OAuthApp] = []
        var pendings: [PendingLogin] = []
        var accounts: [SignedInAccount] = []
        var masked: [String] = []
        var forgotPending = false
        var refuseAccounts = false

        func listen(port: Int, path: String) throws(RequestError) -> any RedirectListening {
            let listener = FakeListener(redirectURI: "http://127.0.0.1:\(port == 0 ? 40000 + listeners.count : port)\(path)",
                                        answer: answer)
            listeners.append(listener)
            return listener
        }
        func keep(app: OAuthApp) throws(LoginFailure) { apps.append(app) }
        func keep(pending: PendingLogin) throws(LoginFailure) { pendings.append(pending) }
        func keep(account: SignedInAccount) throws(LoginFailure) {
            if refuseAccounts { throw .message("accounts.json is a folder") }
            accounts.append(account)
        }
        func forgetPending() { forgotPending = true }
        func mask(_ secret: String) { masked.append(secret) }
    }

    private let app = OAuthApp(key: FakeOAuthServer.appKey, secret: Secret(FakeOAuthServer.appSecret))

    /// A fake OAuth server, a host, and a login ViewModel on the server's
    /// Weibo-style OAuth that records every step it shows.
    final class Fixture {
        let server: FakeOAuthServer
        let host = FakeHost()
        private(set) var viewModel: LoginViewModel! = nil
        private(set) var steps: [LoginStep] = []

        init() throws {
            server = try FakeOAuthServer()
            viewModel = newViewModel()
        }

        deinit { server.stop() }

        /// Another login ViewModel on the same server (as another process's would be); its steps are not recorded.
        func newViewModel() -> LoginViewModel {
            let viewModel = LoginViewModel(signIn: SignInDataController(
                dialect: WeiboDialect(), apiBase: server.baseURL, http: CurlHTTPClient()))
            if self.viewModel == nil { viewModel.onStep = { [unowned self] in steps.append($0) } }
            return viewModel
        }
    }

    /// The redirect the fake server sends the browser to once `user` approves the login whose URL is `url`.
    private func approved(_ fixture: Fixture, as user: String) throws -> OAuthRedirect {
        let (server, pending) = (fixture.server, try #require(fixture.viewModel.pending))
        let landed = server.approve(clientID: pending.appKey, redirectURI: pending.redirectURI, state: pending.state, user: user)
        return try OAuthRedirect.parse(pasted: landed, expecting: pending.state)
    }

    @Test("the loopback login shows the URL, waits at the listener, exchanges the caught code, and the host keeps the account")
    func loopbackSteps() async throws {
        let fixture = try Fixture()
        let (server, viewModel, host) = (fixture.server, fixture.viewModel!, fixture.host)
        let started = await viewModel.start(LoginOptions(app: app), host: host)
        let listening = try #require(host.listeners.first?.redirectURI)
        let url = try #require(viewModel.authorizeURL)
        #expect(started == .waitingForCode(listeningAt: listening, pasteAccepted: false))
        #expect(url.contains("redirect_uri=" + PercentEncoding.encoded(listening)))

        let redirect = try approved(fixture, as: "2001")
        host.listeners[0].answer = { _, _ in .redirect(redirect) }
        #expect(viewModel.waitForCode() == .redirect(redirect))
        #expect(host.listeners[0].expectedState == viewModel.pending?.state)
        let done = await viewModel.redirectReceived(redirect)

        let account = try #require(host.accounts.first)
        #expect(account.uid == "2001" && account.screenName == "alice_oauth")
        #expect(done == .loggedIn(account))
        #expect(fixture.steps == [.authorize(url: url, listeningAt: listening),
                            .waitingForCode(listeningAt: listening, pasteAccepted: false),
                            .exchanging, .loggedIn(account)])
        #expect(server.isLive(account.token.revealed))
        #expect(host.masked.contains(redirect.code) && host.masked.contains(account.token.revealed)
                && host.masked.contains(FakeOAuthServer.appSecret))
        #expect(host.listeners[0].closed)
        #expect(!host.forgotPending)
    }

    @Test("a forged redirect at the listener is shown as refused and the wait goes on; a pasted URL with another state is refused before any exchange")
    func forgedStateRefused() async throws {
        let fixture = try Fixture()
        let (server, viewModel, host) = (fixture.server, fixture.viewModel!, fixture.host)
        var options = LoginOptions(app: app)
        options.pasteAccepted = true
        await viewModel.start(options, host: host)
        let listening = try #require(host.listeners.first?.redirectURI)
        let redirect = try approved(fixture, as: "2002")
        host.listeners[0].answer = { refused, _ in
            refused(.stateMismatch)
            return .inputReady
        }
        #expect(viewModel.waitForCode() == .paste)
        #expect(fixture.steps.last == .refusedRedirect(listeningAt: listening, reason: OAuthRedirect.Failure.stateMismatch.description))

        let forged = await viewModel.codeReceived("http://127.0.0.1/callback?code=\(redirect.code)&state=forged")
        #expect(forged == .failed(.message(OAuthRedirect.Failure.stateMismatch.description)))
        #expect(server.liveTokens.isEmpty && host.accounts.isEmpty)
        #expect(host.listeners[0].closed)
    }

    @Test("a wait stopped by cancel (Ctrl-C) ends as cancelled, keeps nothing and closes the listener")
    func cancelledWait() async throws {
        let fixture = try Fixture()
        let (server, viewModel, host) = (fixture.server, fixture.viewModel!, fixture.host)
        await viewModel.start(LoginOptions(app: app), host: host)
        host.listeners[0].answer = { _, shouldStop in
            #expect(!shouldStop())
            viewModel.cancel()
            return shouldStop() ? .stopped : .timedOut
        }
        #expect(viewModel.waitForCode() == .over(.cancelled))
        #expect(viewModel.step == .cancelled && fixture.steps.last == .cancelled)
        #expect(host.listeners[0].closed && host.accounts.isEmpty && server.liveTokens.isEmpty)
    }

    @Test("a wait that times out fails with one line that says to run login again")
    func timedOut() async throws {
        let fixture = try Fixture()
        let (viewModel, host) = (fixture.viewModel!, fixture.host)
        await viewModel.start(LoginOptions(app: app), host: host)
        #expect(viewModel.waitForCode() == .over(.failed(.message("no redirect came within 5 minutes; run login again"))))
    }

    @Test("url-only keeps the pending login; finish in a new ViewModel with the landed URL logs in and forgets it")
    func splitLogin() async throws {
        let fixture = try Fixture()
        let (server, first, host) = (fixture.server, fixture.viewModel!, fixture.host)
        let begun = await first.start(LoginOptions(urlOnly: true, app: app), host: host)
        let pending = try #require(host.pendings.first)
        let url = try #require(first.authorizeURL)
        #expect(begun == .pending(url: url) && fixture.steps == [.pending(url: url)])
        #expect(url.hasSuffix("state=\(pending.state)"))
        #expect(host.listeners.count == 1 && host.listeners[0].closed)   // only to find a free port

        let landed = server.approve(clientID: pending.appKey, redirectURI: pending.redirectURI, state: pending.state, user: "2002")
        let second = fixture.newViewModel()
        let refused = await second.finish(pending, code: landed.replacingOccurrences(of: pending.state, with: "forged"),
                                          options: LoginOptions(app: app), host: host)
        #expect(refused == .failed(.message(OAuthRedirect.Failure.stateMismatch.description)))
        #expect(!host.forgotPending && server.liveTokens.isEmpty)
        let done = await second.finish(pending, code: landed, options: LoginOptions(app: app), host: host)
        #expect(done == .loggedIn(try #require(host.accounts.first)))
        #expect(host.accounts.first?.screenName == "bob_oauth" && host.forgotPending)
        #expect(await fixture.newViewModel().finish(nil, code: "x", options: LoginOptions(app: app), host: host)
                == .failed(.message("no pending login: run login --url-only first (or login without --code)")))
    }

    @Test("an account the host cannot keep has its new token revoked, and the login says so")
    func unkeptAccountRevoked() async throws {
        let fixture = try Fixture()
        let (server, viewModel, host) = (fixture.server, fixture.viewModel!, fixture.host)
        host.refuseAccounts = true
        await viewModel.start(LoginOptions(app: app), host: host)
        let done = await viewModel.redirectReceived(try approved(fixture, as: "2001"))
        #expect(done == .failed(.message("cannot keep the account: accounts.json is a folder; the new token was revoked")))
        #expect(server.liveTokens.isEmpty)
    }

    @Test("options that make no login are usage errors before any request; no app, no terminal are one line each")
    func refusedOptions() async throws {
        let fixture = try Fixture()
        let (viewModel, host) = (fixture.viewModel!, fixture.host)
        #expect(await fixture.newViewModel().start(LoginOptions(outOfBand: true, app: app), host: host)
                == .failed(.usage("--oob: this API has no out-of-band redirect; use --redirect-uri URI")))
        #expect(await fixture.newViewModel().start(LoginOptions(redirectURI: "ftp://x", app: app), host: host)
                == .failed(.usage("--redirect-uri must be an http:// or https:// URL, not 'ftp://x'")))
        guard case .failed(.message(let noApp)) = await fixture.newViewModel().start(LoginOptions(), host: host) else {
            Issue.record("a login without an app must fail")
            return
        }
        #expect(noApp.contains("--app-key KEY --app-secret-file PATH"))
        let noTerminal = await viewModel.start(LoginOptions(redirectURI: "https://example.com/cb", app: app), host: host)
        #expect(noTerminal == .failed(.message(
            "the redirect URI is not loopback and this is not a terminal: use login --url-only, then login --code CODE")))
        #expect(fixture.steps.first == .authorize(url: try #require(viewModel.authorizeURL), listeningAt: nil))
        #expect(host.listeners.allSatisfy(\.closed) && host.pendings.isEmpty && host.accounts.isEmpty)
    }
}
