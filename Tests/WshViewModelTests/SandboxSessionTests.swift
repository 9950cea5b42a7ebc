import Testing
import WshDataController
import WshRequest
import WshSandbox
import WshTestSupport
import WshViewModel

/// The session against the embedded sandbox: real HTTP through libcurl.
@Suite("SessionViewModel against the sandbox")
struct SandboxSessionTests {
    /// A session on `client`, whose DataController calls are traced into `traces`.
    func makeSession(_ client: APIClient, traces: RecordingObserver<TraceEvent>) -> SessionViewModel {
        SessionViewModel(dataController: TimelineDataController(client: client, dialect: WeiboDialect(), trace: { traces.record($0) }))
    }

    @Test("given the sandbox when fetch 5 then more then 10 distinct rows, in two requests on one connection")
    func fetchAndMore() async throws {
        try await withSandboxClient { _, client in
            let traces = RecordingObserver<TraceEvent>()
            let session = makeSession(client, traces: traces)

            try await session.fetch(count: 5)
            try await session.more()

            #expect(session.rows.count == 10)
            #expect(Set(session.rows.map(\.id)).count == 10)
            #expect(session.rows.allSatisfy { !$0.author.isEmpty && !$0.time.isEmpty })
            #expect(traces.values.map(\.status) == [200, 200])
            #expect(traces.values.map(\.newConnections) == [1, 0])
            #expect(traces.values.allSatisfy { $0.bytes > 0 && $0.itemCount == 5 })
        }
    }

    @Test("given fetched rows when detail 2, comments and back then the detail came from the cache and comments from the API")
    func detailCommentsBack() async throws {
        try await withSandboxClient { _, client in
            let traces = RecordingObserver<TraceEvent>()
            let session = makeSession(client, traces: traces)
            try await session.fetch(count: 5)
            let row = session.rows[1]

            try await session.detail(index: 2)
            #expect(session.detail?.id == row.id)
            #expect(session.detail?.source.contains("<") == false)
            try await session.comments()
            #expect(session.comments?.statusID == row.id)
            try session.back()
            try session.back()

            #expect(session.screen == .list)
            #expect(traces.values.map(\.source) == [.network, .cache, .network])
            #expect(session.operations.count == 5)
        }
    }

    @Test("given a row's author when user is shown then the profile matches; an unknown name gives the API's error")
    func userByName() async throws {
        try await withSandboxClient { _, client in
            let session = makeSession(client, traces: RecordingObserver())
            try await session.fetch(count: 3)
            let author = session.rows[0].author

            try await session.user(name: author)
            #expect(session.user?.screenName == author)

            await #expect(throws: ViewModelError.self) { try await session.user(name: "nobody-at-all") }
            #expect(session.errorMessage?.contains("20003") == true)
            #expect(session.user?.screenName == author)
        }
    }

    @Test("given the sandbox's timeline when an author is muted then their rows hide, and undo brings them back")
    func muteAndUndo() async throws {
        try await withSandboxClient { _, client in
            let session = makeSession(client, traces: RecordingObserver())
            try await session.fetch(count: 50)
            let author = session.rows[0].author
            let theirs = session.rows.filter { $0.author == author }.count

            try session.mute(author)
            #expect(session.rows.count == 50 - theirs)
            #expect(!session.rows.contains { $0.author == author })

            try await session.undo()
            #expect(session.rows.count == 50)
        }
    }

    @Test("given rows when the sandbox fails every request then fetch fails, rows and history stay; when it recovers fetch works")
    func failureKeepsState() async throws {
        try await withSandboxClient { server, client in
            let session = makeSession(client, traces: RecordingObserver())
            try await session.fetch(count: 5)
            let rows = session.rows

            server.setFaults(SandboxFaults(failStatus: 500, failRate: 1))
            await #expect(throws: ViewModelError.self) { try await session.fetch(count: 7) }
            #expect(session.rows == rows)
            #expect(session.operationCount == 1)
            #expect(session.errorMessage?.contains("10001") == true)

            server.setFaults(SandboxFaults(malformed: true))
            await #expect(throws: ViewModelError.self) { try await session.more() }
            #expect(session.errorMessage?.hasPrefix("cannot decode TimelinePage") == true)
            #expect(session.rows == rows)

            server.setFaults(SandboxFaults())
            try await session.fetch(count: 7)
            #expect(session.rows.count == 7)
            #expect(session.errorMessage == nil)
        }
    }

    @Test("given a token when a status is posted then it is the first row")
    func post() async throws {
        try await withSandboxClient { _, client in
            let session = makeSession(client, traces: RecordingObserver())
            try await session.fetch(count: 3)

            try await session.post("hello from the wsh tests 你好")

            #expect(session.rows.count == 4)
            #expect(session.rows[0].text == "hello from the wsh tests 你好")
        }
    }

    @Test("given a trace when requests are made then no event holds the token")
    func traceIsRedacted() async throws {
        try await withSandboxClient { server, client in
            let traces = RecordingObserver<TraceEvent>()
            let session = makeSession(client, traces: traces)
            try await session.fetch(count: 2)
            _ = try? await session.user(name: "nobody-at-all")
            _ = try? await session.detail(index: 1)

            #expect(!traces.values.isEmpty)
            #expect(!traces.values.contains { "\($0)".contains(server.token) })
        }
    }
}
