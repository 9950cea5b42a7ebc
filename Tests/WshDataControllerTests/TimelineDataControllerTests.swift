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
        let controller = TimelineDataController(client: backend.client)
        let loaded = try await controller.page(count: 8)

        controller.mute(.screenName("bob"))

        let open = controller.openStatuses(in: loaded)
        #expect(loaded.count == 8)
        #expect(open.count == 6)
        #expect(!open.contains { $0.user?.screenName == "bob" })
    }

    @Test("given a uid is muted when the open statuses are asked then that author is left out too")
    func openStatuses_muteByUID() async throws {
        let backend = FakeBackend()
        let controller = TimelineDataController(client: backend.client)
        let loaded = try await controller.page(count: 8)

        controller.mute(.uid("1001"))

        #expect(controller.openStatuses(in: loaded).allSatisfy { $0.user?.screenName != "alice" })
    }

    @Test("given a page was loaded when one of its authors is asked then no request is sent")
    func page_cachesAuthors() async throws {
        let backend = FakeBackend()
        let controller = TimelineDataController(client: backend.client)
        _ = try await controller.page(count: 4)

        let user = try await controller.user(.screenName("dave"))

        #expect(user.identifier == "1004")
        #expect(backend.requestedPaths == ["/2/statuses/public_timeline.json"])
    }

    @Test("given a shared UserDataController when muting through the timeline then the model-related controller holds it")
    func muting_isHeldByUserDataController() {
        let backend = FakeBackend()
        let users = UserDataController(client: backend.client)
        let controller = TimelineDataController(statuses: StatusDataController(client: backend.client), users: users)

        controller.mute(.screenName("erin"))

        #expect(users.mutedUsers == MutedUsers([.screenName("erin")]))
    }
}
