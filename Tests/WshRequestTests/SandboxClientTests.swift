import Foundation
import Testing
import WshText
import WshModel
import WshSandbox
import WshTestSupport
@testable import WshRequest

/// The Request layer against the embedded sandbox over real HTTP: every
/// fault the sandbox can inject arrives as the right `RequestError`.
@Suite("APIClient on libcurl against the sandbox")
struct SandboxClientTests {
    static let token = "tok-REQUEST-7"

    /// A client and a sandbox whose faults a test sets.
    func withSandbox(_ faults: SandboxFaults = SandboxFaults(), timeout: Duration = .seconds(10),
                     _ body: (SandboxServer, APIClient) async throws -> Void) async throws {
        let sandbox = try await SandboxServer.start(SandboxConfiguration(token: Self.token, faults: faults))
        let client = APIClient(
            configuration: APIConfiguration(baseURL: sandbox.baseURL, token: .value(Secret(Self.token)), timeout: timeout),
            http: CurlHTTPClient(options: .init(timeout: timeout), secrets: [Self.token]))
        do {
            try await body(sandbox, client)
        } catch {
            await sandbox.stop()
            throw error
        }
        await sandbox.stop()
    }

    func timeline(_ client: APIClient, count: Int = 5, page: Int = 1) async throws(RequestError) -> (TimelinePage, HTTPResponse) {
        try await client.fetch(Endpoint(.get, "statuses/public_timeline.json",
                                        parameters: [("count", String(count)), ("page", String(page))])) { data throws(RequestError) in
            do throws(ModelDecodingError) { return try ModelDecoding.decode(TimelinePage.self, from: data) } catch {
                throw .decoding(what: error.what, where: error.where, detail: error.detail)
            }
        }
    }

    /// Every description a failure can print, checked for the token.
    func expectRedacted(_ error: RequestError) {
        #expect(!error.description.contains(Self.token), "\(error)")
        #expect(!String(reflecting: error).contains(Self.token), "\(error)")
    }

    @Test("a page arrives, gzip accepted, status headers and body intact")
    func success() async throws {
        try await withSandbox { _, client in
            let (page, response) = try await timeline(client)
            #expect(page.statuses.count == 5)
            #expect(response.status == 200)
            #expect(response.headers["content-type"]?.contains("json") == true)
            #expect(response.metrics.bytesReceived == response.body.count)
        }
    }

    @Test("consecutive requests reuse one kept-alive connection")
    func keepAlive() async throws {
        try await withSandbox { sandbox, client in
            var opened: [Int] = []
            for page in 1...4 { opened.append(try await timeline(client, page: page).1.metrics.newConnections) }
            #expect(opened == [1, 0, 0, 0])
            #expect(sandbox.stats.connections == 1)
        }
    }

    @Test("a POST form with UTF-8 text creates a status")
    func post() async throws {
        try await withSandbox { _, client in
            let response = try await client.send(Endpoint(.post, "statuses/update.json", parameters: [("status", "你好 wsh 😀 & =")]))
            let status = try ModelDecoding.decode(Status.self, from: response.body)
            #expect(status.text == "你好 wsh 😀 & =")
        }
    }

    @Test("no token or a wrong one is an API error with Weibo's auth codes")
    func authErrors() async throws {
        try await withSandbox { sandbox, _ in
            for (token, code) in [(TokenSource.none, APIErrorCode.authFailed), (.value(Secret("wrong")), APIErrorCode.tokenExpired)] {
                let client = APIClient(configuration: APIConfiguration(baseURL: sandbox.baseURL, token: token), http: CurlHTTPClient())
                do throws(RequestError) {
                    _ = try await timeline(client)
                    Issue.record("expected \(code)")
                } catch {
                    guard case .api(let failure) = error else { Issue.record("\(error)"); continue }
                    #expect(failure.code == code)
                    #expect(failure.httpStatus == 401)
                    #expect(failure.request == "/2/statuses/public_timeline.json")
                }
            }
        }
    }

    @Test("injected faults map to the right outcome", arguments: [
        ("500 with a Weibo body", SandboxFaults(failStatus: 500, failRate: 1), "api 10001"),
        ("502 without one", SandboxFaults(failStatus: 502, failRate: 1), "http 502"),
        ("rate limit", SandboxFaults(rateLimit: 0), "api 10023"),
        ("truncated body", SandboxFaults(truncate: true), "transport dropped"),
        ("dropped connection", SandboxFaults(drop: true), "transport dropped"),
        ("malformed JSON", SandboxFaults(malformed: true), "decoding"),
        ("slow drip past the timeout", SandboxFaults(dripMilliseconds: 200), "transport timeout"),
        ("latency past the timeout", SandboxFaults(latencyMilliseconds: 3000), "transport timeout"),
    ])
    func faults(_ name: String, _ faults: SandboxFaults, _ expected: String) async throws {
        try await withSandbox(faults, timeout: .milliseconds(800)) { _, client in
            do throws(RequestError) {
                _ = try await timeline(client, count: 100)
                Issue.record("\(name): expected \(expected)")
            } catch {
                let outcome: String = switch error {
                case .api(let failure): "api \(failure.code ?? 0)"
                case .http(let status, _, _): "http \(status)"
                case .transport(let failure): "transport \(failure.kind == .dropped ? "dropped" : failure.kind == .timeout ? "timeout" : failure.kind.rawValue)"
                case .decoding: "decoding"
                default: "\(error)"
                }
                #expect(outcome == expected, "\(name): \(error)")
                expectRedacted(error)
            }
        }
    }

    @Test("the token appears in no error description, even when the URL carries it")
    func redactionEverywhere() async throws {
        try await withSandbox(SandboxFaults(failStatus: 502, failRate: 1)) { sandbox, client in
            let http = CurlHTTPClient(secrets: [Self.token])
            let url = sandbox.baseURL + "statuses/public_timeline.json?access_token=\(Self.token)"
            let response = try await http.send(HTTPRequest(url: url))
            do throws(RequestError) {
                try APIClient.check(response, url: Redaction.redact(url, secrets: [Self.token]), errors: WeiboErrors())
            } catch {
                expectRedacted(error)
                #expect(error.description.contains("access_token=***"))
            }
            do throws(RequestError) {
                _ = try await http.send(HTTPRequest(url: "http://127.0.0.1:\(unusedLocalPort())/x?access_token=\(Self.token)"))
            } catch {
                expectRedacted(error)
            }
        }
    }

    @Test("reachability says how fast the sandbox answers")
    func reachable() async throws {
        try await withSandbox { sandbox, client in
            let result = await Reachability.check(sandbox.baseURL, using: client.http)
            #expect(result.isReachable)
            #expect(result.seconds < 5)
        }
    }
}
