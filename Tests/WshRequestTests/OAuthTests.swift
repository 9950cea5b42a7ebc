import Foundation
import Testing
@testable import WshRequest

/// OAuth URL building and parsing, app credentials, `--token-command`, and the loopback listener.
@Suite("OAuth and tokens")
struct OAuthTests {
    @Test("the OAuth base is the API base without its trailing 2/")
    func oauthBase() {
        #expect(OAuthClient.oauthBase(forAPI: "https://api.weibo.com/2/") == "https://api.weibo.com/")
        #expect(OAuthClient.oauthBase(forAPI: "http://127.0.0.1:8080/2") == "http://127.0.0.1:8080/")
        #expect(OAuthClient.oauthBase(forAPI: "https://example.com/api/") == "https://example.com/api/")
    }

    @Test("the authorize URL carries client_id, redirect_uri, response_type=code and state, percent-encoded")
    func authorizeURL() {
        let client = OAuthClient(apiBase: "https://api.weibo.com/2/", http: CurlHTTPClient())
        let url = client.authorizeURL(app: .sandbox, redirectURI: "http://127.0.0.1:5000/callback", state: "abc123")
        #expect(url == "https://api.weibo.com/oauth2/authorize?client_id=sandbox-app&redirect_uri=http%3A%2F%2F127.0.0.1%3A5000%2Fcallback&response_type=code&state=abc123")
    }

    @Test("a pasted redirect URL, query or bare code gives the code and state; an error or nothing does not")
    func pasted() throws {
        #expect(try OAuthRedirect.parse(pasted: " http://127.0.0.1:5000/callback?code=AbC_1&state=s1 \n") == OAuthRedirect(code: "AbC_1", state: "s1"))
        #expect(try OAuthRedirect.parse(pasted: "code=xyz&state=s%202") == OAuthRedirect(code: "xyz", state: "s 2"))
        #expect(try OAuthRedirect.parse(pasted: "7f3a9c") == OAuthRedirect(code: "7f3a9c", state: nil))
        #expect(throws: OAuthRedirect.Failure.denied("access_denied (user said no)")) {
            try OAuthRedirect.parse(pasted: "https://x/cb?error=access_denied&error_description=user%20said%20no")
        }
        #expect(throws: OAuthRedirect.Failure.noCode) { try OAuthRedirect.parse(pasted: "   ") }
        #expect(throws: OAuthRedirect.Failure.noCode) { try OAuthRedirect.parse(pasted: "two words") }
        #expect(throws: OAuthRedirect.Failure.noCode) { try OAuthRedirect.parse(pasted: "https://x/cb?state=s") }
    }

    @Test("the state must match; a bare code has none to check")
    func state() throws {
        #expect(throws: OAuthRedirect.Failure.stateMismatch) { try OAuthRedirect(code: "c", state: "other").checked(expecting: "mine") }
        #expect(try OAuthRedirect(code: "c", state: "mine").checked(expecting: "mine").code == "c")
        #expect(try OAuthRedirect(code: "c", state: nil).checked(expecting: "mine").code == "c")
        #expect(OAuthRedirect.newState().count == 32)
        #expect(OAuthRedirect.newState() != OAuthRedirect.newState())
        #expect(OAuthRedirect.loopbackPort(of: "http://127.0.0.1:5000/callback") == 5000)
        #expect(OAuthRedirect.loopbackPort(of: "http://localhost:80/") == 80)
        #expect(OAuthRedirect.loopbackPort(of: "https://example.com/cb") == nil)
    }

    @Test("app credentials: flags, else WSH_APP_KEY/WSH_APP_SECRET; a key without a secret is an error")
    func appCredentials() throws {
        #expect(try OAuthApp.configured(key: nil, secretFile: nil, environment: [:]) == nil)
        let app = try OAuthApp.configured(key: nil, secretFile: nil, environment: ["WSH_APP_KEY": "k", "WSH_APP_SECRET": " s3cret\n"])
        #expect(app == OAuthApp(key: "k", secret: Secret("s3cret")))
        #expect(throws: RequestError.self) { try OAuthApp.configured(key: "k", secretFile: nil, environment: [:]) }
        #expect(throws: RequestError.self) { try OAuthApp.configured(key: nil, secretFile: nil, environment: ["WSH_APP_SECRET": "s"]) }
    }

    @Test("--token-command: the first line, trimmed; failure names the exit status, never the output; empty and inner spaces refused")
    func tokenCommand() throws {
        #expect(try TokenSource.command("printf '  tok-123\\t\\nsecond\\n'").resolve() == Secret("tok-123"))
        #expect(try TokenSource.command("echo tok-456").resolve()?.revealed == "tok-456")
        do {
            _ = try TokenSource.command("echo leaked-secret; exit 3").resolve()
            Issue.record("a failing command gave a token")
        } catch {
            #expect(error.description == "--token-command failed with exit status 3")
        }
        #expect(throws: RequestError.configuration("--token-command printed no token")) { try TokenSource.command("true").resolve() }
        #expect(throws: RequestError.configuration("--token-command printed no token")) { try TokenSource.command("echo '   '").resolve() }
        do {
            _ = try TokenSource.command("echo 'two words'").resolve()
            Issue.record("a token with a space was accepted")
        } catch {
            #expect(error.description.contains("from --token-command has spaces"))
            #expect(!error.description.contains("two words"))
        }
    }

    @Test("the loopback listener answers the browser, hands back code and state, and 404s other paths")
    func listener() async throws {
        let box = ListenerBox(try LoopbackListener())
        let uri = box.listener.redirectURI
        let port = box.listener.port
        #expect(uri == "http://127.0.0.1:\(port)/callback")
        let browser = Task.detached {
            let http = CurlHTTPClient()
            let other = try await http.send(HTTPRequest(url: "http://127.0.0.1:\(port)/favicon.ico"))
            let page = try await http.send(HTTPRequest(url: uri + "?code=C0DE&state=st"))
            return (other.status, page.status, String(decoding: page.body, as: UTF8.self))
        }
        let outcome = await Task.detached { box.listener.waitForRedirect(timeout: .seconds(30), expectedState: "st") }.value
        #expect(outcome == .redirect(OAuthRedirect(code: "C0DE", state: "st")))
        let (other, status, body) = try await browser.value
        #expect(other == 404)
        #expect(status == 200)
        #expect(body.contains("You can close this tab"))
    }

    @Test("the listener refuses a redirect with the wrong state, and stops when asked")
    func listenerRefuses() async throws {
        let box = ListenerBox(try LoopbackListener())
        let uri = box.listener.redirectURI
        let browser = Task.detached { try await CurlHTTPClient().send(HTTPRequest(url: uri + "?code=C&state=evil")).status }
        let outcome = await Task.detached { box.listener.waitForRedirect(timeout: .seconds(30), expectedState: "good") }.value
        #expect(outcome == .failed(.stateMismatch))
        #expect(try await browser.value == 400)
        #expect(box.listener.waitForRedirect(timeout: .seconds(30), shouldStop: { true }) == .stopped)
    }

    @Test("token error codes are recognised as the token's")
    func tokenProblems() {
        #expect(APIFailure(code: 21327, message: "", request: nil, httpStatus: 403).tokenProblem == .expired)
        #expect(APIFailure(code: 21332, message: "", request: nil, httpStatus: 403).tokenProblem == .invalid)
        #expect(APIFailure(code: 10023, message: "", request: nil, httpStatus: 403).tokenProblem == nil)
    }
}

/// Hands the listener to the task that alone waits on it.
private struct ListenerBox: @unchecked Sendable {
    let listener: LoopbackListener
    init(_ listener: LoopbackListener) { self.listener = listener }
}
