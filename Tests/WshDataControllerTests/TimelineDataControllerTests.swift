import Testing
import WshDataController
import WshModel
import WshRequest
import WshTestSupport

@Suite("TimelineDataController (view-related)")
struct TimelineDataControllerTests {
    @Test("given a muted author when the open statuses are asked then that author's statuses are left out")
    func openStatuses_leaveOutMutedAuthors() async throws {
        let backend = FakeBackend()
        let controller = TimelineDataController(client: backend.client, dialect: WeiboDialect())
        let loaded = try await controller.load(.public, count: 8).statuses

        let open = controller.openStatuses(in: loaded, muting: MutedUsers([.screenName("bob")]))
        #expect(loaded.count == 8)
        #expect(open.count == 6)
        #expect(!open.contains { $0.user?.screenName == "bob" })
    }

    @Test("given a uid is muted when the open statuses are asked then that author is left out too")
    func openStatuses_muteByUID() async throws {
        let backend = FakeBackend()
        let controller = TimelineDataController(client: backend.client, dialect: WeiboDialect())
        let loaded = try await controller.load(.public, count: 8).statuses

        let open = controller.openStatuses(in: loaded, muting: MutedUsers([.uid("1001")]))

        #expect(open.count == 6)
        #expect(open.allSatisfy { $0.user?.screenName != "alice" })
    }

    @Test("given a page was loaded when one of its authors is asked then no request is sent")
    func page_cachesAuthors() async throws {
        let backend = FakeBackend()
        let controller = TimelineDataController(client: backend.client, dialect: WeiboDialect())
        _ = try await controller.load(.public, count: 4)

        let user = try await controller.users.user(.screenName("dave"))

        #expect(user.identifier == "1004")
        #expect(backend.requestedPaths == ["/2/statuses/public_timeline.json"])
    }
}

@Suite("The rate-limit budget of request loops")
struct RequestBudgetTests {
    @Test("a loop without end spreads the hits left over the time to the reset, and waits it all out when none is left")
    func steadySpacing() {
        #expect(RequestBudget(remaining: 150, secondsToReset: 3600).steadySpacing == .seconds(24))
        #expect(RequestBudget(remaining: 0, secondsToReset: 90).steadySpacing == .seconds(90))
        #expect(RequestBudget.unknown.steadySpacing == .zero)
    }

    @Test("a bounded walk runs at full speed while the budget is healthy, then slows to the steady spacing")
    func walkSlowsDown() {
        var budget = RequestBudget(remaining: 13, secondsToReset: 100)
        let pauses = (0..<6).map { _ in budget.pauseBeforeNextRequest(reserve: 10) }
        #expect(pauses == [.zero, .zero, .zero, .seconds(10), .milliseconds(11_111), .milliseconds(12_500)])
        var unknown = RequestBudget.unknown
        #expect(unknown.pauseBeforeNextRequest() == .zero)
    }
}
