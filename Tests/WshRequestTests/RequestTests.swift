import Foundation
import Testing
import WshText
import WshTestSupport
@testable import WshRequest

@Suite("Endpoints and the Config layer")
struct EndpointTests {
    @Test("a GET endpoint's URL joins base and path and percent-encodes UTF-8 parameters")
    func getURL() {
        let endpoint = Endpoint(.get, "users/show.json", parameters: [("screen_name", "小明 & co"), ("count", "20")])
        #expect(endpoint.url(base: "http://127.0.0.1:9/2") ==
            "http://127.0.0.1:9/2/users/show.json?screen_name=%E5%B0%8F%E6%98%8E%20%26%20co&count=20")
        #expect(endpoint.url(base: "http://h/2/") == endpoint.url(base: "http://h/2"))
    }

    @Test("a POST endpoint puts its parameters in a form body, not the URL")
    func postBody() throws {
        let endpoint = Endpoint(.post, "statuses/update.json", parameters: [("status", "hi 😀=")])
        #expect(endpoint.url(base: "http://h/2/") == "http://h/2/statuses/update.json")
        #expect(String(decoding: endpoint.formBody, as: UTF8.self) == "status=hi%20%F0%9F%98%80%3D")
    }

    @Test("the token travels as an OAuth2 header and never in the URL")
    func tokenHeader() throws {
        let client = APIClient(
            configuration: APIConfiguration(baseURL: "http://h/2/", token: .value(Secret("s3cr3t"))),
            http: FakeHTTPClient { _ in .json("{}") })
        let request = try client.request(for: Endpoint(.get, "statuses/public_timeline.json"))
        #expect(request.headers.contains(HTTPHeader("Authorization", "OAuth2 s3cr3t")))
        #expect(!request.url.contains("s3cr3t"))
        #expect("\(Secret("s3cr3t"))" == "***")
    }

    @Test("a token file's first line is the token; a missing file is a configuration error")
    func tokenFile() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("wsh-token-\(UUID())").path
        try "  abc123  \nignored\n".write(toFile: path, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: path) }
        #expect(try TokenSource.file(path).resolve()?.revealed == "abc123")
        #expect(throws: RequestError.configuration("cannot read token file /nonexistent/token")) {
            try TokenSource.file("/nonexistent/token").resolve()
        }
    }

    @Test("a base URL that is not http(s) is refused before any request")
    func badBase() async {
        let fake = FakeHTTPClient { _ in .json("{}") }
        let client = APIClient(configuration: APIConfiguration(baseURL: "ftp://x/"), http: fake)
        await #expect(throws: RequestError.self) { try await client.send(Endpoint(.get, "a.json")) }
        #expect(fake.requests.isEmpty)
    }
}

@Suite("Outcomes: API error, HTTP error, transport failure, decoding failure")
struct OutcomeTests {
    func client(_ response: HTTPResponse) -> APIClient {
        APIClient(configuration: APIConfiguration(baseURL: "http://h/2/", token: .value(Secret("tok-XYZ"))),
                    http: FakeHTTPClient { _ in response })
    }

    @Test("a Weibo error body is an API error with code, message and request path, whether the code is a number or a string")
    func apiError() async {
        for body in [#"{"error":"expired_token","error_code":21327,"request":"/2/statuses/public_timeline.json"}"#,
                     #"{"error":"expired_token","error_code":"21327","request":"/2/statuses/public_timeline.json"}"#] {
            await #expect(throws: RequestError.api(APIFailure(code: 21327, message: "expired_token",
                request: "/2/statuses/public_timeline.json", httpStatus: 401, kind: .unauthorized))) {
                try await client(.json(body, status: 401)).send(Endpoint(.get, "statuses/public_timeline.json"))
            }
        }
    }

    @Test("an error status without a Weibo body is an HTTP error quoting the page's text, not its markup")
    func httpError() async {
        await #expect(throws: RequestError.http(status: 502, url: "http://h/2/x.json", excerpt: "bad gateway")) {
            try await client(.json("<html>bad gateway\n</html>", status: 502)).send(Endpoint(.get, "x.json"))
        }
        let page = "<html><head><title>502 Bad Gateway</title><style>body{}</style></head>\n<body><h1>502 Bad Gateway</h1>"
            + "<hr><center>nginx</center></body></html>"
        await #expect(throws: RequestError.http(status: 502, url: "http://h/2/x.json", excerpt: "502 Bad Gateway 502 Bad Gateway nginx")) {
            try await client(.json(page, status: 502)).send(Endpoint(.get, "x.json"))
        }
    }

    @Test("escape sequences in an error body or an error page never reach the message, whole or in part")
    func hostileErrorBodies() async {
        let hostile = #"{"error":"\u001b]0;PWNED\u0007\u001b[2Jexpired\u009b31m\u202Egnp.exe","error_code":10023,"request":"/2/\u001b[31mx"}"#
        do {
            _ = try await client(.json(hostile, status: 403)).send(Endpoint(.get, "x.json"))
            Issue.record("no error")
        } catch {
            #expect(error.description == "API error 10023: expiredgnp.exe (/2/x, HTTP 403); rate limited: try again later (`limits` shows the remaining hits)")
        }
        let page = "<html><title>\u{1B}]52;c;ZXZpbA==\u{07}oops\u{1B}[2J</title></html>"
        do {
            _ = try await client(.json(page, status: 500)).send(Endpoint(.get, "x.json"))
            Issue.record("no error")
        } catch {
            #expect(error.description == "HTTP 500 Internal Server Error from http://h/2/x.json: oops")
        }
    }

    @Test("a 200 with an error body is still an API error")
    func okWithErrorBody() async {
        await #expect(throws: RequestError.self) {
            try await client(.json(#"{"error":"system error","error_code":10001}"#)).send(Endpoint(.get, "x.json"))
        }
    }

    @Test("only top-level error fields make an API error: a page whose statuses hold an \"error\" key is data")
    func nestedErrorKeysAreData() async throws {
        let page = #"{"statuses":[{"id":1,"error":"not mine","error_code":1}],"total_number":1}"#
        let response = try await client(.json(page)).send(Endpoint(.get, "statuses/public_timeline.json"))
        #expect(response.status == 200)
        await #expect(throws: RequestError.api(APIFailure(code: 21327, message: "expired_token", request: nil, httpStatus: 400,
                                                          kind: .unauthorized))) {
            try await client(.json(#"{"statuses":[],"error_code":21327.0,"error":"expired_token"}"#, status: 400))
                .send(Endpoint(.get, "statuses/public_timeline.json"))
        }
    }

    @Test("the quick error check: a page without top-level error fields is passed over; anything else goes to JSONDecoder")
    func quickErrorCheck() {
        func may(_ body: String) -> Bool { APIClient.mayHoldErrorFields(Data(body.utf8), WeiboErrors().errorFields) }
        // Strict JSON without the fields: no error, and JSONDecoder agrees.
        for body in [#"{"statuses":[{"id":1,"error":"not mine","error_code":1}],"total_number":1}"#,
                     #"{"errors": 1, "error_codes": [], "x": {"error": 2}, "键": "\u00e9"}"#, "{}",
                     // Invalid inside a nested value: JSONDecoder fails, so finds no error either.
                     #"{"statuses": [01, {"error": }], "x": 1}"#] {
            #expect(!may(body), "\(body)")
            #expect(WeiboErrors().failure(in: HTTPResponse(status: 200, body: Data(body.utf8))) == nil)
        }
        // The fields, an escaped key, invalid or odd JSON: JSONDecoder decides, as before.
        for body in [#"{"error":"x"}"#, #"{"a":1,"error_code":2}"#, #"{"\u0065rror":"x"}"#, #"{"a":1"#,
                     #"{"a":1} x"#, #"{"a":01}"#, "\u{FEFF}{}"] {
            #expect(may(body), "\(body)")
        }
        #expect(WeiboErrors().failure(in: HTTPResponse(status: 400, body: Data(#"{"\u0065rror":"x"}"#.utf8)))?.message == "x")
    }

    @Test("no description of any error contains the token")
    func redaction() {
        let token = "tok-XYZ"
        let errors: [RequestError] = [
            .api(APIFailure(code: 1, message: Redaction.redact("bad token \(token)", secrets: [token]), request: nil, httpStatus: 401)),
            .http(status: 500, url: Redaction.redact("http://h/2/a.json?access_token=\(token)&x=1"), excerpt: ""),
            .transport(TransportFailure(curlCode: 7, message: "Failed", url: Redaction.redact("http://h/?access_token=\(token)"))),
            .decoding(what: "TimelinePage", where: ".statuses", detail: "x"),
        ]
        for error in errors {
            #expect(!error.description.contains(token), "\(error)")
        }
        #expect(Redaction.redact("u?access_token=abc&b=2 and access_token=def") == "u?access_token=***&b=2 and access_token=***")
    }
}

@Suite("CurlHTTPClient over real sockets", .serialized)
struct CurlClientTests {
    @Test("a refused port is a transport failure of kind refused, with curl's code")
    func refused() async {
        let port = unusedLocalPort()
        let client = CurlHTTPClient()
        do {
            _ = try await client.send(HTTPRequest(url: "http://127.0.0.1:\(port)/2/x.json"))
            Issue.record("expected a failure")
        } catch {
            guard case .transport(let failure) = error else { Issue.record("\(error)"); return }
            #expect(failure.kind == .refused)
            #expect(failure.curlCode == 7)
            #expect(error.description.contains("connection refused"))
        }
    }

    @Test("a server that never answers times out after the total timeout")
    func timeout() async throws {
        let server = try SilentServer()
        defer { server.stop() }
        let client = CurlHTTPClient(options: .init(connectTimeout: .seconds(2), timeout: .milliseconds(300)))
        let start = ContinuousClock.now
        do {
            _ = try await client.send(HTTPRequest(url: server.baseURL + "x.json"))
            Issue.record("expected a timeout")
        } catch {
            guard case .transport(let failure) = error else { Issue.record("\(error)"); return }
            #expect(failure.kind == .timeout)
        }
        #expect(ContinuousClock.now - start < .seconds(3))
    }

    @Test("cancelling from another thread stops a hanging request in under a second")
    func cancelFromAnotherThread() async throws {
        let server = try SilentServer()
        defer { server.stop() }
        let client = CurlHTTPClient(options: .init(timeout: .seconds(30)))
        let cancelledAt = RecordingObserver<ContinuousClock.Instant>()
        let canceller = Thread {
            // The request is under way once the server has accepted its connection.
            guard waitUntilBlocking({ server.acceptedCount >= 1 }) else { return }
            cancelledAt.record(.now)
            client.cancelCurrentRequest()
        }
        canceller.start()
        await #expect(throws: RequestError.cancelled) {
            _ = try await client.send(HTTPRequest(url: server.baseURL + "x.json"))
        }
        let ended = ContinuousClock.now
        let cancelled = try #require(cancelledAt.last, "the request never reached the server")
        // The transfer polls every 20 ms; the bound is loose for loaded machines.
        #expect(ended - cancelled < .seconds(1), "cancel took \(ended - cancelled)")
    }

    @Test("cancelling the task stops the request in under a second")
    func cancelTask() async throws {
        let server = try SilentServer()
        defer { server.stop() }
        let client = CurlHTTPClient(options: .init(timeout: .seconds(30)))
        let task = Task { try await client.send(HTTPRequest(url: server.baseURL + "x.json")) }
        try #require(await waitUntil { server.acceptedCount >= 1 }, "the request never reached the server")
        let start = ContinuousClock.now
        task.cancel()
        let result = await task.result
        // The transfer polls every 20 ms; the bound is loose for loaded machines.
        #expect(ContinuousClock.now - start < .seconds(1))
        #expect(throws: RequestError.cancelled) { try result.get() }
    }

    @Test("a cancel that arrives before the request starts still cancels it")
    func cancelBeforeStart() async throws {
        let server = try SilentServer()
        defer { server.stop() }
        let client = CurlHTTPClient(options: .init(timeout: .seconds(5)))
        let task = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            return try await client.send(HTTPRequest(url: server.baseURL + "x.json"))
        }
        let start = ContinuousClock.now
        await #expect(throws: RequestError.cancelled) { try await task.value }
        #expect(ContinuousClock.now - start < .seconds(1))
    }

    @Test("reachability reports an unreachable base with the reason")
    func unreachable() async {
        let result = await Reachability.check("http://127.0.0.1:\(unusedLocalPort())/2/", using: CurlHTTPClient())
        #expect(!result.isReachable)
        #expect(result.description.hasPrefix("no answer after "))
        #expect(result.description.contains("connection refused"))
    }
}
