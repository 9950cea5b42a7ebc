import Testing
import WshDataController
import WshModel
import WshRequest
import WshTestSupport

@Suite("UserDataController")
struct UserDataControllerTests {
    @Test("given a screen name when the user is asked then users/show.json is asked by screen_name")
    func user_byScreenName() async throws {
        let backend = FakeBackend()
        let controller = UserDataController(client: backend.client, dialect: WeiboDialect())

        let user = try await controller.user(.screenName("bob"))

        #expect(user.identifier == "1002")
        #expect(backend.http.requests.map(\.queryItems) == [["screen_name": "bob"]])
    }

    @Test("given a uid when the user is asked then users/show.json is asked by uid, once")
    func user_byUID_isCached() async throws {
        let backend = FakeBackend()
        let controller = UserDataController(client: backend.client, dialect: WeiboDialect())

        _ = try await controller.user(.uid("1003"))
        let again = try await controller.user(.screenName("CAROL"))

        #expect(again.screenName == "carol")
        #expect(backend.http.requests.map(\.queryItems) == [["uid": "1003"]])
    }

    @Test("given a page's statuses when their authors are asked by uid or by name in any case then the newest copy answers, no request")
    func authorsOfPage_areCached() async throws {
        let backend = FakeBackend()
        let statuses = StatusDataController(client: backend.client, dialect: WeiboDialect())
        let controller = UserDataController(client: backend.client, dialect: WeiboDialect())
        var older = try await statuses.publicTimeline(count: 8).statuses
        older[1].user?.name = "Bob, before"
        controller.remember(authorsOf: older)
        let newer = try await statuses.publicTimeline(count: 8).statuses
        controller.remember(authorsOf: newer)
        let requests = backend.requestedPaths.count

        let bob = try await controller.user(.screenName("BOB"))
        let byUID = try await controller.user(.uid(try #require(newer[1].user?.identifier)))

        #expect(bob.screenName == "bob")
        #expect(bob.name == newer[1].user?.name)
        #expect(bob.name != "Bob, before")
        #expect(byUID == bob)
        #expect(backend.requestedPaths.count == requests)
    }

    @Test("given typed text when read as a user reference then digits are a uid and @ is dropped")
    func userReference_parsing() {
        #expect(UserReference("@alice") == .screenName("alice"))
        #expect(UserReference("alice") == .screenName("alice"))
        #expect(UserReference("1001") == .uid("1001"))
        #expect(UserReference("@") == nil)
        #expect(UserReference("") == nil)
    }

    @Test("given muted users when one is unmuted then only the others stay muted, without case")
    func mutedUsers_insertAndRemove() {
        var muted = MutedUsers()

        let inserted = [muted.insert(.screenName("alice")), muted.insert(.screenName("bob")), muted.insert(.screenName("ALICE"))]
        let removed = [muted.remove(.screenName("Alice")), muted.remove(.screenName("alice"))]

        #expect(inserted == [true, true, false])
        #expect(removed == [true, false])
        #expect(muted.references == [.screenName("bob")])
        #expect(muted.mutes(User(screenName: "Bob")))
        #expect(!muted.mutes(User(screenName: "alice")))
    }
}
