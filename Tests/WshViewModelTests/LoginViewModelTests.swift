import Foundation
import Synchronization
import Testing
import WshDataController
import WshRequest
import WshTestSupport
@testable import WshViewModel

/// The login flow's ViewModel: its outputs at each step, with a fake OAuth
/// flow that records what it was asked.
@Suite("LoginViewModel")
struct LoginViewModelTests {
    /// An OAuth flow that answers from memory and records each call.
    final class FakeFlow: OAuthFlow, @unchecked Sendable {
        let apiBase = "https://api.example/"
        let outOfBandRedirectURI: String? = nil
        let tokensExpire = true
        let pkce: Bool
        let screenName: String?
        let exchanges = Mutex<[(code: String, verifier: String?)]>([])

        init(pkce: Bool, screenName: String?) {
            self.pkce = pkce
            self.screenName = screenName
        }

        func supportsPKCE() async -> Bool { pkce }
        func authorizeURL(app: OAuthApp, redirectURI: String, state: String, pkce: PKCE?) -> String {
            "https://api.example/authorize?state=\(state)" + (pkce.map { "&code_challenge=\($0.challenge)" } ?? "")
        }
        func exchange(code: String, app: OAuthApp, redirectURI: String, pkce: PKCE?) async throws(RequestError) -> OAuthGrant {
            exchanges.withLock { $0.append((code, pkce?.verifier)) }
            return OAuthGrant(accessToken: Secret("new-token-123456"), expiresIn: 3600, uid: "42", screenName: screenName)
        }
        func tokenInfo(_ token: Secret) async throws(RequestError) -> OAuthTokenInfo {
            OAuthTokenInfo(uid: "42", appKey: "k", expiresIn: 60)
        }
        func revoke(_ token: Secret, app: OAuthApp?) async throws(RequestError) {}
    }

    private let app = OAuthApp(key: "k", secret: Secret("s"))
    private let now = Date(timeIntervalSince1970: 1_800_000_000)

    private func viewModel(_ flow: FakeFlow, users: FakeHTTPClient = FakeHTTPClient { _ in .json(#"{"id":42,"idstr":"42","screen_name":"answer"}"#) })
        -> LoginViewModel {
        let now = self.now
        return LoginViewModel(oauth: flow, makeUsers: { token in
            UserDataController(client: APIClient(configuration: APIConfiguration(baseURL: "https://api.example/2/", token: .value(token)),
                                                   http: users), dialect: WeiboDialect())
        }, now: { now })
    }

    @Test("begin: a pending login with a fresh state and, where the server takes it, a PKCE key whose challenge is in the URL")
    func begin() async throws {
        let flow = FakeFlow(pkce: true, screenName: "ann")
        let login = viewModel(flow)
        let key = try #require(await login.proofKey())
        let url = login.begin(app: app, redirectURI: "http://127.0.0.1:5000/callback", pkce: key)
        let pending = try #require(login.pending)
        #expect(url == login.authorizeURL)
        #expect(url.contains("state=\(pending.state)") && url.contains("code_challenge=\(key.challenge)"))
        #expect(pending.codeVerifier == key.verifier && pending.createdAt == now && pending.appKey == "k")
        #expect(await viewModel(FakeFlow(pkce: false, screenName: nil)).proofKey() == nil)
    }

    @Test("complete: a redirect with another or no state is refused before any exchange; the right one exchanges with the verifier")
    func complete() async throws {
        let flow = FakeFlow(pkce: true, screenName: "ann")
        let login = viewModel(flow)
        let key = PKCE.random()
        login.begin(app: app, redirectURI: "http://127.0.0.1:5000/callback", state: "good", pkce: key)
        await #expect(throws: OAuthRedirect.Failure.stateMismatch) { try await login.complete(OAuthRedirect(code: "c", state: "evil"), app: app) }
        await #expect(throws: OAuthRedirect.Failure.stateMissing) { try await login.complete(OAuthRedirect(code: "c", state: nil), app: app) }
        #expect(flow.exchanges.withLock { $0.isEmpty })
        let account = try await login.complete(OAuthRedirect(code: "c", state: "good"), app: app)
        #expect(flow.exchanges.withLock { $0.map(\.verifier) } == [key.verifier])
        #expect(account.screenName == "ann" && account.uid == "42" && account.expiresAt == now.addingTimeInterval(3600))
        #expect(login.signedIn == account && login.pending == nil)
    }

    @Test("a grant without a name asks the API's users' DataController with the new token")
    func namesTheUser() async throws {
        let users = FakeHTTPClient { _ in .json(#"{"id":42,"idstr":"42","screen_name":"answer"}"#) }
        let login = viewModel(FakeFlow(pkce: false, screenName: nil), users: users)
        login.begin(app: app, redirectURI: "http://127.0.0.1:5000/callback", state: "s")
        let account = try await login.complete(OAuthRedirect(code: "c", state: "s"), app: app)
        #expect(account.screenName == "answer")
        #expect(users.requests.first?.headers.contains(HTTPHeader("Authorization", "OAuth2 new-token-123456")) == true)
    }
}
