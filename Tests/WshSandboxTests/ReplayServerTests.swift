import Foundation
import Testing
import WshHAR
import WshSandbox

/// `wsh-sandbox --replay FILE.har`: a recording served as a server, in
/// recorded order, with the fault injector on top.
@Suite("Sandbox serving a recording")
struct ReplayServerTests {
    /// A browser-style HAR: absolute https URLs of another host, lower- and
    /// mixed-case header names, one body in base64, the same request twice
    /// with two answers, and a Mastodon page with its `Link` header.
    static let har = #"""
        {"log": {"version": "1.2", "creator": {"name": "Chromium", "version": "131"}, "entries": [
          {"_initiator": {"type": "script"}, "request": {"method": "GET", "httpVersion": "http/2.0",
            "url": "https://mastodon.example/api/v1/timelines/public?limit=2&local=true", "headers": []},
           "response": {"status": 200, "httpVersion": "http/2.0",
            "headers": [{"name": "content-type", "value": "application/json; charset=utf-8"},
                        {"name": "Link", "value": "<https://mastodon.example/api/v1/timelines/public?max_id=9>; rel=\"next\""},
                        {"name": "content-encoding", "value": "br"}],
            "content": {"mimeType": "application/json", "encoding": "base64",
                        "text": "W3siaWQiOiIxMCJ9LHsiaWQiOiI5In1d"}}},
          {"request": {"method": "GET", "url": "https://mastodon.example/api/v1/timelines/public?local=true&limit=2"},
           "response": {"status": 200, "headers": [{"name": "Content-Type", "value": "application/json"}],
            "content": {"text": "[{\"id\":\"11\"},{\"id\":\"10\"}]"}}},
          {"request": {"method": "GET", "url": "https://mastodon.example/api/v1/timelines/home"},
           "response": {"status": 0, "headers": [], "content": {"size": 0}, "_error": "net::ERR_EMPTY_RESPONSE"}},
          {"request": {"method": "POST", "url": "https://mastodon.example/api/v1/statuses"},
           "response": {"status": 422, "headers": [{"name": "content-type", "value": "application/json"}],
            "content": {"text": "{\"error\":\"Validation failed: Text can't be blank\"}"}}}
        ]}}
        """#

    func configuration(_ faults: SandboxFaults = SandboxFaults()) throws -> SandboxConfiguration {
        SandboxConfiguration(faults: faults, replay: try HARRecording.parse(Data(Self.har.utf8), name: "browser.har"))
    }

    @Test("each request gets its recorded answers in order, then the last again; headers and status as recorded")
    func servesInRecordedOrder() async throws {
        try await withSandbox(try configuration()) { server in
            let connection = { TestHTTPConnection(port: server.port) }
            let first = await connection().send("GET", "/api/v1/timelines/public?local=true&limit=2")
            #expect(first.status == 200)
            #expect(first.text == #"[{"id":"10"},{"id":"9"}]"#, "the base64 body is served decoded")
            // The recorded host's link names this server, the rest as recorded: a client follows only its server's links.
            #expect(first.headers["link"] == #"<http://127.0.0.1:\#(server.port)/api/v1/timelines/public?max_id=9>; rel="next""#)
            #expect(first.headers["content-encoding"] == nil, "the body is not br-encoded any more")
            let second = await connection().send("GET", "/api/v1/timelines/public?limit=2&local=true")
            #expect(second.text == #"[{"id":"11"},{"id":"10"}]"#)
            let third = await connection().send("GET", "/api/v1/timelines/public?limit=2&local=true")
            #expect(third.text == second.text, "past the recording, the last answer repeats")
            let refused = await connection().send("POST", "/api/v1/statuses", body: "status=")
            #expect(refused.status == 422)
            #expect(refused.json?["error"] as? String == "Validation failed: Text can't be blank")
        }
    }

    @Test("a request the recording lacks is 404 naming its method and path, secrets masked")
    func unrecordedIs404() async throws {
        try await withSandbox(try configuration()) { server in
            let missing = await TestHTTPConnection(port: server.port)
                .send("GET", "/api/v1/timelines/home?access_token=hunter2secret&limit=5")
            #expect(missing.status == 404)
            let message = try #require(missing.json?["error"] as? String)
            #expect(message.hasPrefix("not in the recording: GET /api/v1/timelines/home?"))
            #expect(!missing.text.contains("hunter2secret"))
        }
    }

    @Test("a request recorded without a response (status 0) is answered by closing the connection")
    func recordedFailureDrops() async throws {
        try await withSandbox(try configuration()) { server in
            let dropped = await TestHTTPConnection(port: server.port).send("GET", "/api/v1/timelines/home")
            #expect(dropped.failure == .closedWithoutResponse)
        }
    }

    @Test("the fault options apply on top of the recorded answers")
    func faultsOnTop() async throws {
        try await withSandbox(try configuration(SandboxFaults(failStatus: 503, failRate: 1))) { server in
            let failed = await TestHTTPConnection(port: server.port).send("GET", "/api/v1/timelines/public?local=true&limit=2")
            #expect(failed.status == 503)
            #expect(!failed.text.contains(#""id":"10""#))
        }
        try await withSandbox(try configuration(SandboxFaults(truncate: true))) { server in
            let cut = await TestHTTPConnection(port: server.port).send("GET", "/api/v1/timelines/public?local=true&limit=2")
            let body = #"[{"id":"10"},{"id":"9"}]"#.utf8.count
            #expect(cut.failure == .shortBody(expected: body, received: body / 2), "half the recorded body, then the end")
        }
        // Faults set at run time through /admin/ reach the replayed answers too.
        try await withSandbox(try configuration()) { server in
            #expect(await server.admin("POST", "faults", body: #"{"fail_status": 502, "fail_rate": 1.0}"#).status == 200)
            let failed = await TestHTTPConnection(port: server.port).send("GET", "/api/v1/timelines/public?local=true&limit=2")
            #expect(failed.status == 502)
        }
    }
}
