import Foundation
import Testing
import WshText
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
        #expect(try OAuthRedirect.parse(pasted: "7f3a9c") == OAuthRedirect(code: "7f3a9c", state: nil, isBareCode: true))
        #expect(throws: OAuthRedirect.Failure.denied("access_denied (user said no)")) {
            try OAuthRedirect.parse(pasted: "https://x/cb?error=access_denied&error_description=user%20said%20no")
        }
        #expect(throws: OAuthRedirect.Failure.noCode) { try OAuthRedirect.parse(pasted: "   ") }
        #expect(throws: OAuthRedirect.Failure.noCode) { try OAuthRedirect.parse(pasted: "two words") }
        #expect(throws: OAuthRedirect.Failure.noCode) { try OAuthRedirect.parse(pasted: "https://x/cb?state=s") }
    }

    @Test("a redirect must carry exactly this login's state (none, another, a prefix or empty is refused); a bare code has none to check")
    func state() throws {
        #expect(throws: OAuthRedirect.Failure.stateMismatch) { try OAuthRedirect(code: "c", state: "other").checked(expecting: "mine") }
        #expect(throws: OAuthRedirect.Failure.stateMismatch) { try OAuthRedirect(code: "c", state: "min").checked(expecting: "mine") }
        #expect(throws: OAuthRedirect.Failure.stateMismatch) { try OAuthRedirect(code: "c", state: "mine2").checked(expecting: "mine") }
        #expect(throws: OAuthRedirect.Failure.stateMissing) { try OAuthRedirect(code: "c", state: nil).checked(expecting: "mine") }
        #expect(throws: OAuthRedirect.Failure.stateMissing) { try OAuthRedirect(code: "c", state: "").checked(expecting: "mine") }
        #expect(try OAuthRedirect(code: "c", state: "mine").checked(expecting: "mine").code == "c")
        #expect(try OAuthRedirect(code: "c", state: nil, isBareCode: true).checked(expecting: "mine").code == "c")
        #expect(OAuthRedirect.newState().count == 32)
        #expect(OAuthRedirect.newState() != OAuthRedirect.newState())
        #expect(OAuthRedirect.loopbackPort(of: "http://127.0.0.1:5000/callback") == 5000)
        #expect(OAuthRedirect.loopbackPort(of: "http://localhost:80/") == 80)
        #expect(OAuthRedirect.loopbackPort(of: "https://example.com/cb") == nil)
    }

    @Test("a pasted redirect URL or query (login --code URL) must carry the state; the state is checked before an error or code")
    func pastedState() throws {
        #expect(throws: OAuthRedirect.Failure.stateMissing) {
            try OAuthRedirect.parse(pasted: "http://127.0.0.1:5000/callback?code=ATTACKER", expecting: "mine")
        }
        #expect(throws: OAuthRedirect.Failure.stateMismatch) {
            try OAuthRedirect.parse(pasted: "code=ATTACKER&state=theirs", expecting: "mine")
        }
        // An error redirect without the state cannot end this login either.
        #expect(throws: OAuthRedirect.Failure.stateMissing) {
            try OAuthRedirect.parse(pasted: "https://x/cb?error=access_denied", expecting: "mine")
        }
        #expect(throws: OAuthRedirect.Failure.denied("access_denied")) {
            try OAuthRedirect.parse(pasted: "https://x/cb?error=access_denied&state=mine", expecting: "mine")
        }
        #expect(try OAuthRedirect.parse(pasted: "https://x/cb?code=OK&state=mine", expecting: "mine").code == "OK")
        #expect(try OAuthRedirect.parse(pasted: "7f3a9c", expecting: "mine").isBareCode)
    }

    @Test("SHA-256 gives the FIPS 180-4 digests and agrees with sha256sum across block boundaries; PKCE S256 gives RFC 7636's example")
    func pkce() throws {
        func hex(_ bytes: [UInt8]) -> String { bytes.map { String(format: "%02x", $0) }.joined() }
        #expect(hex(SHA256.digest("abc".utf8)) == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        #expect(hex(SHA256.digest([UInt8]())) == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
        #expect(hex(SHA256.digest("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq".utf8))
            == "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1")
        for length in [55, 56, 63, 64, 65, 119, 120, 200] {
            let text = String(repeating: "wsh-", count: length / 4 + 1).prefix(length)
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
            process.arguments = ["sh", "-c", "printf %s \"$0\" | sha256sum", String(text)]
            let output = Pipe()
            process.standardOutput = output
            try process.run()
            let printed = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            process.waitUntilExit()
            #expect(printed.hasPrefix(hex(SHA256.digest(text.utf8))), "length \(length)")
        }
        #expect(PKCE(verifier: "dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk").challenge == "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM")
        let key = PKCE.random()
        #expect(key.verifier.count == 43)
        #expect(key.verifier.allSatisfy { $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" })
        #expect(key != PKCE.random())
        #expect(ConstantTime.equal("abc", "abc") && !ConstantTime.equal("abc", "abd") && !ConstantTime.equal("abc", "ab"))
    }

    @Test("an app's credentials go only to its own origin: scheme, host and port")
    func sameOrigin() {
        #expect(OAuthApp.sameOrigin("https://api.weibo.com/", "https://api.weibo.com/2/"))
        #expect(OAuthApp.sameOrigin("https://API.weibo.com:443/", "https://api.weibo.com/2/"))
        #expect(!OAuthApp.sameOrigin("https://api.weibo.com/", "https://mastodon.social/"))
        #expect(!OAuthApp.sameOrigin("https://api.weibo.com/", "http://api.weibo.com/2/"))
        #expect(!OAuthApp.sameOrigin("https://api.weibo.com/", "https://api.weibo.com.evil.example/2/"))
        #expect(!OAuthApp.sameOrigin("http://127.0.0.1:8080/2/", "http://127.0.0.1:8081/2/"))
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

    @Test("login CSRF: redirects with no state, a wrong one, or an error without it get an error page, are reported, and the wait goes on to the right one")
    func listenerRefusesForgedRedirects() async throws {
        let box = ListenerBox(try LoopbackListener())
        let uri = box.listener.redirectURI
        let forged = ["?code=ATTACKER", "?code=ATTACKER&state=evil", "?code=ATTACKER&state=", "?error=access_denied",
                      "?code=ATTACKER&state=goo", "?code=ATTACKER&state=good%00"]
        let browser = Task.detached {
            let http = CurlHTTPClient()
            var answers: [(Int, String)] = []
            for query in forged {
                let page = try await http.send(HTTPRequest(url: uri + query))
                answers.append((page.status, String(decoding: page.body, as: UTF8.self)))
            }
            let right = try await http.send(HTTPRequest(url: uri + "?code=MINE&state=good"))
            answers.append((right.status, ""))
            return answers
        }
        let outcome = await Task.detached {
            var refused: [OAuthRedirect.Failure] = []
            let outcome = box.listener.waitForRedirect(timeout: .seconds(30), expectedState: "good", refused: { refused.append($0) })
            return (outcome, refused)
        }.value
        #expect(outcome.0 == .redirect(OAuthRedirect(code: "MINE", state: "good")))
        #expect(outcome.1 == [.stateMissing, .stateMismatch, .stateMissing, .stateMissing, .stateMismatch, .stateMismatch])
        let answers = try await browser.value
        #expect(answers.prefix(forged.count).allSatisfy { $0.0 == 400 && $0.1.contains("not the answer to the login") })
        #expect(answers.last?.0 == 200)
    }

    @Test("a forged redirect never ends the wait: after one, only Ctrl-C (or the timeout) does")
    func listenerKeepsWaiting() async throws {
        let box = ListenerBox(try LoopbackListener())
        let uri = box.listener.redirectURI
        let browser = Task.detached { try await CurlHTTPClient().send(HTTPRequest(url: uri + "?code=C&state=evil")).status }
        let outcome = await Task.detached {
            var refusals = 0
            return box.listener.waitForRedirect(timeout: .seconds(30), expectedState: "good",
                                                shouldStop: { refusals > 0 }, refused: { _ in refusals += 1 })
        }.value
        #expect(outcome == .stopped)
        #expect(try await browser.value == 400)
        #expect(box.listener.waitForRedirect(timeout: .milliseconds(50), expectedState: "good") == .timedOut)
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
