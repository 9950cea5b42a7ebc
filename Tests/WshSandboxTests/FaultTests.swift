import Foundation
import Testing
import WshModel
import WshSandbox
import WshTestSupport

@Suite("Fault injection")
struct FaultTests {
    static let probe = ("statuses/show.json", "id=4000000000000500")

    /// Sets faults over HTTP, as a test in another process would.
    func setFaults(_ server: SandboxServer, _ json: String) async throws {
        let result = await server.admin("POST", "faults", body: json)
        try #require(result.status == 200, "\(result.text)")
    }

    /// Resets over HTTP and checks the probe is served normally again.
    func expectResetClears(_ server: SandboxServer) async {
        #expect(await server.admin("POST", "reset").status == 200)
        #expect(server.faults == SandboxFaults())
        let result = await server.get(Self.probe.0, Self.probe.1)
        #expect(result.status == 200)
        #expect(result.failure == nil)
        #expect((try? ModelDecoding.decode(Status.self, from: result.data)) != nil)
    }

    @Test("latency delays API responses but not the admin endpoints")
    func latency_delaysResponses() async throws {
        try await withSandbox { server in
            try await setFaults(server, #"{"latency_ms": 1000}"#)
            let slow = await server.get(Self.probe.0, Self.probe.1)
            #expect(slow.status == 200)
            #expect(slow.seconds >= 1)

            // An API request held in a long latency; once the sandbox has
            // counted it, the admin endpoint must answer while it still waits.
            try await setFaults(server, #"{"latency_ms": 30000}"#)
            let before = server.stats.requests
            let heldDone = RecordingObserver<Int>()
            let held = TestHTTPConnection(port: server.port, timeout: 60)
            let target = "/2/\(Self.probe.0)?\(Self.probe.1)&access_token=\(server.token)"
            Task { heldDone.record(await held.send("GET", target).status) }
            try #require(await waitUntil { server.stats.requests > before }, "the held request never arrived")
            let admin = await server.admin("GET", "faults")
            #expect(admin.status == 200)
            #expect(admin.json?["latency_ms"] as? Int == 30000)
            #expect(heldDone.values.isEmpty, "the API request was answered before its latency passed")
            await expectResetClears(server)
        }
    }

    @Test("fail_rate 1.0 answers every request with fail_status and a Weibo 10001 body")
    func failStatus_atRateOne() async throws {
        try await withSandbox { server in
            try await setFaults(server, #"{"fail_status": 500, "fail_rate": 1.0}"#)
            for _ in 0..<3 {
                let result = await server.get(Self.probe.0, Self.probe.1)
                #expect(result.status == 500)
                #expect(result.errorCode == 10001)
            }
            await expectResetClears(server)
        }
    }

    @Test("fail_status 502/503/504 sends an HTML proxy page, not JSON")
    func gatewayFailure_isHTML() async throws {
        try await withSandbox { server in
            server.setFaults(SandboxFaults(failStatus: 503, failRate: 1))
            let result = await server.get(Self.probe.0, Self.probe.1)
            #expect(result.status == 503)
            #expect(result.headers["content-type"] == "text/html")
            #expect(result.text.contains("503 Service Unavailable"))
            #expect(result.json == nil)
        }
    }

    @Test("a partial fail_rate fails the same requests on every run with the same seed")
    func failRate_isDeterministic() async throws {
        func sequence() async throws -> [Int] {
            let server = try await SandboxServer.start(SandboxConfiguration(
                seed: 9, faults: SandboxFaults(failStatus: 500, failRate: 0.5)))
            var statuses: [Int] = []
            for _ in 0..<20 { statuses.append(await server.get(Self.probe.0, Self.probe.1).status) }
            await server.stop()
            return statuses
        }
        let first = try await sequence()
        #expect(first == (try await sequence()))
        #expect(first.contains(500) && first.contains(200))
    }

    @Test("rate_limit N serves N requests, then 403 with error 10023 until reset")
    func rateLimit_afterN() async throws {
        try await withSandbox { server in
            try await setFaults(server, #"{"rate_limit": 3}"#)
            for _ in 0..<3 { #expect(await server.get(Self.probe.0, Self.probe.1).status == 200) }
            let limited = await server.get(Self.probe.0, Self.probe.1)
            #expect(limited.status == 403)
            #expect(limited.errorCode == 10023)
            await expectResetClears(server)
        }
    }

    @Test("truncate promises the full Content-Length, sends half and closes")
    func truncate_isShortBody() async throws {
        try await withSandbox { server in
            try await setFaults(server, #"{"truncate": true}"#)
            let result = await server.get(Self.probe.0, Self.probe.1)
            #expect(result.status == 200)
            guard case .shortBody(let expected, let received) = result.failure else {
                Issue.record("expected a short body, got \(String(describing: result.failure))")
                return
            }
            #expect(received < expected)
            #expect(received > 0)
            await expectResetClears(server)
        }
    }

    @Test("malformed sends a well-framed HTTP 200 whose JSON does not parse")
    func malformed_isBrokenJSON() async throws {
        try await withSandbox { server in
            try await setFaults(server, #"{"malformed": true}"#)
            let result = await server.get(Self.probe.0, Self.probe.1)
            #expect(result.status == 200)
            #expect(result.failure == nil)
            #expect(Int(result.headers["content-length"] ?? "") == result.body.count)
            #expect(throws: ModelDecodingError.self) { try ModelDecoding.decode(Status.self, from: result.data) }
            await expectResetClears(server)
        }
    }

    @Test("drop closes the connection without any response")
    func drop_closesWithoutResponse() async throws {
        try await withSandbox { server in
            try await setFaults(server, #"{"drop": true}"#)
            let result = await server.get(Self.probe.0, Self.probe.1)
            #expect(result.failure == .closedWithoutResponse)
            #expect(result.status == 0)
            await expectResetClears(server)
        }
    }

    @Test("drip sends the whole body slowly, so a short client timeout fires")
    func drip_isSlowButComplete() async throws {
        try await withSandbox { server in
            try await setFaults(server, #"{"drip_ms": 20, "drip_bytes": 64}"#)
            let slow = await server.get(Self.probe.0, Self.probe.1)
            #expect(slow.failure == nil)
            #expect(slow.seconds >= Double(slow.body.count / 64 - 1) * 0.02)
            #expect((try? ModelDecoding.decode(Status.self, from: slow.data)) != nil)

            try await setFaults(server, #"{"drip_ms": 400}"#)
            let impatient = await TestHTTPConnection(port: server.port, timeout: 0.2)
                .send("GET", "/2/\(Self.probe.0)?\(Self.probe.1)&access_token=\(server.token)")
            #expect(impatient.failure == .timedOut)
            await expectResetClears(server)
        }
    }

    @Test("GET /admin/faults shows what POST set; a bad body is 400 and changes nothing")
    func adminFaults_roundTrip() async throws {
        try await withSandbox { server in
            try await setFaults(server, #"{"latency_ms": 5, "rate_limit": 100, "drip_bytes": 16}"#)
            let shown = try #require(await server.admin("GET", "faults").json)
            #expect(shown["latency_ms"] as? Int == 5)
            #expect(shown["rate_limit"] as? Int == 100)
            #expect(shown["truncate"] as? Bool == false)
            #expect(server.faults == SandboxFaults(latencyMilliseconds: 5, rateLimit: 100, dripChunkBytes: 16))
            let bad = await server.admin("POST", "faults", body: #"{"fail_rate": 2}"#)
            #expect(bad.status == 400)
            #expect(bad.errorCode == 10008)
            #expect(await server.admin("POST", "faults", body: "not json").status == 400)
            #expect(server.faults.latencyMilliseconds == 5)
        }
    }

    @Test("faults set at start apply from the first request; admin and unknown paths never meet them")
    func startFaults_applyOnlyToAPI() async throws {
        try await withSandbox(SandboxConfiguration(faults: SandboxFaults(drop: true))) { server in
            #expect(await server.get(Self.probe.0, Self.probe.1).failure == .closedWithoutResponse)
            #expect(await server.admin("GET", "faults").status == 200)
            #expect(await TestHTTPConnection(port: server.port).send("GET", "/").status == 404)
        }
    }
}
