import Testing
import WshDataController
import WshModel
import WshRequest
import WshSandbox
import WshTestSupport

/// The DataControllers against the embedded sandbox: real HTTP through libcurl.
@Suite("DataControllers against the sandbox")
struct SandboxDataControllerTests {
    @Test("given the sandbox when pages 1 and 2 are asked then they hold different statuses with authors")
    func pages() async throws {
        try await withSandboxClient { _, client in
            let controller = TimelineDataController(client: client, dialect: WeiboDialect())

            let first = try await controller.load(.public, count: 10, from: .page(1)).statuses
            let second = try await controller.load(.public, count: 10, from: .page(2)).statuses

            #expect(first.count == 10 && second.count == 10)
            #expect(Set(first.compactMap(\.identifier)).isDisjoint(with: second.compactMap(\.identifier)))
            #expect(first.allSatisfy { $0.user?.screenName != nil && $0.createdAt != nil })
        }
    }

    @Test("given an id no page brought when the status is asked then statuses/show.json answers, then the cache")
    func statusByID() async throws {
        try await withSandboxClient { _, client in
            let traces = RecordingObserver<TraceEvent>()
            let pages = StatusDataController(client: client, dialect: WeiboDialect())
            let id = try #require(try await pages.publicTimeline(count: 1, page: 7).statuses.first?.identifier)
            let controller = StatusDataController(client: client, dialect: WeiboDialect(), trace: { traces.record($0) })

            let status = try await controller.status(id: id)
            _ = try await controller.status(id: id)

            #expect(status.identifier == id)
            #expect(traces.values.map(\.source) == [.network, .cache])
            #expect(traces.values[0].url?.hasSuffix("statuses/show.json?id=\(id)") == true)
        }
    }

    @Test("given a status when its comments are asked then each comment has an author and text")
    func comments() async throws {
        try await withSandboxClient { _, client in
            let controller = StatusDataController(client: client, dialect: WeiboDialect())
            let statuses = try await controller.publicTimeline(count: 20).statuses
            let commented = try #require(statuses.first { ($0.commentsCount ?? 0) > 0 })

            let page = try await controller.comments(statusID: commented.identifier ?? "", count: 5)

            #expect(!page.comments.isEmpty)
            #expect(page.comments.allSatisfy { $0.user != nil && !($0.text ?? "").isEmpty })
        }
    }

    @Test("given an unknown status id when asked then the error is the API's 20101")
    func unknownStatus() async throws {
        try await withSandboxClient { _, client in
            await #expect {
                try await StatusDataController(client: client, dialect: WeiboDialect()).status(id: "1")
            } throws: { error in
                guard case .api(let failure) = error as? RequestError else { return false }
                return failure.code == 20101
            }
        }
    }

    @Test("given a malformed body when a page is asked then the error is .decoding of TimelinePage")
    func malformed() async throws {
        try await withSandboxClient { server, client in
            server.setFaults(SandboxFaults(malformed: true))

            await #expect {
                try await StatusDataController(client: client, dialect: WeiboDialect()).publicTimeline(count: 5)
            } throws: { error in
                guard case .decoding(let what, _, _) = error as? RequestError else { return false }
                return what == "TimelinePage"
            }
        }
    }

    @Test("given a screen name and a uid when users are asked then both name the same user, fetched once")
    func users() async throws {
        try await withSandboxClient { _, client in
            let traces = RecordingObserver<TraceEvent>()
            let controller = UserDataController(client: client, dialect: WeiboDialect(), trace: { traces.record($0) })
            let author = try #require(try await StatusDataController(client: client, dialect: WeiboDialect()).publicTimeline(count: 1).statuses.first?.user)

            let byName = try await controller.user(.screenName(author.screenName ?? ""))
            let byUID = try await controller.user(.uid(author.identifier ?? ""))

            #expect(byName.identifier == author.identifier)
            #expect(byUID.screenName == author.screenName)
            #expect(traces.values.map(\.source) == [.network, .cache])
        }
    }
}
