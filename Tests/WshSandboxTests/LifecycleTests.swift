import Foundation
import Testing
@testable import WshSandbox
import WshTestSupport

@Suite("Starting and stopping")
struct LifecycleTests {
    @Test("20 sandboxes start and stop in one process, each serving until stopped")
    func twentyCycles() async throws {
        for _ in 0..<20 {
            let server = try await SandboxServer.start(SandboxConfiguration(statuses: 100))
            #expect(server.port > 0)
            #expect(server.baseURL == "http://127.0.0.1:\(server.port)/2/")
            #expect(await server.get("statuses/public_timeline.json").status == 200)
            await server.stop()
            #expect(await server.get("statuses/public_timeline.json").failure == .connectFailed)
        }
    }

    @Test("the synchronous start and stop work from a plain thread, and stop is idempotent")
    func synchronousStartStop_fromThread() async throws {
        let port: Int = try await withCheckedThrowingContinuation { continuation in
            Thread {
                do {
                    let server = try SandboxServer.start(SandboxConfiguration())
                    let port = server.port
                    server.stop()
                    server.stop()
                    continuation.resume(returning: port)
                } catch {
                    continuation.resume(throwing: error)
                }
            }.start()
        }
        #expect(port > 0)
        #expect(await TestHTTPConnection(port: port).send("GET", "/admin/faults").failure == .connectFailed)
    }

    @Test("a taken port is a SandboxStartError, not a crash")
    func takenPort_throws() async throws {
        try await withSandbox { server in
            await #expect(throws: SandboxStartError.self) {
                _ = try await SandboxServer.start(SandboxConfiguration(port: server.port))
            }
        }
    }

    @Test("an impossible configuration is rejected before binding")
    func invalidConfiguration_throws() async throws {
        await #expect(throws: SandboxStartError.self) {
            _ = try await SandboxServer.start(SandboxConfiguration(users: 0))
        }
        await #expect(throws: SandboxStartError.self) {
            _ = try await SandboxServer.start(SandboxConfiguration(faults: SandboxFaults(failRate: 1.5)))
        }
    }

    @Test("stop returns promptly while a client holds a keep-alive connection or a dripping body")
    func stop_isPromptWithOpenConnections() async throws {
        let server = try await SandboxServer.start(SandboxConfiguration())
        let idle = TestHTTPConnection(port: server.port)
        #expect(await idle.send("GET", "/admin/stats").status == 200)
        server.setFaults(SandboxFaults(dripMilliseconds: 500))
        let dripping = Task { await server.get("statuses/public_timeline.json", "count=200") }
        // Stop only once the sandbox is serving the dripping request (admin requests are not counted).
        try #require(await waitUntil { server.stats.requests == 1 }, "the dripping request never arrived")
        let started = Date()
        await server.stop()
        #expect(Date().timeIntervalSince(started) < 5)
        #expect(await dripping.value.failure != nil)
    }

    @Test("keep-alive requests share one connection, as stats show")
    func keepAlive_oneConnection() async throws {
        try await withSandbox { server in
            let connection = TestHTTPConnection(port: server.port)
            for page in 1...10 {
                let result = await connection.send(
                    "GET", "/2/statuses/public_timeline.json?page=\(page)&access_token=\(server.token)")
                #expect(result.status == 200)
            }
            #expect(server.stats == SandboxStats(requests: 10, connections: 1, posts: 0, deletions: 0, writes: 0))
            server.reset()
            #expect(server.stats == SandboxStats())
        }
    }

    @Test("the request log redacts access_token and keeps the rest of the query")
    func requestLog_redactsToken() {
        let line = RequestLog.line(method: "GET", path: "/2/statuses/show.json",
                                   query: "id=4&access_token=secret&count=2", status: "200", bytes: 10,
                                   milliseconds: 1.25)
        #expect(line == "GET /2/statuses/show.json?id=4&access_token=***&count=2 200 10 B 1.2 ms")
        #expect(!line.contains("secret"))
    }
}
