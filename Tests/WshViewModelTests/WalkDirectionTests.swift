import Foundation
import Testing
import WshDataController
import WshRequest
import WshTestSupport
import WshViewModel

/// Issue 45, item 4: a server whose older pages carry higher ids, or whose
/// `max_id` rises, kept every `--all` walk going (1 362 requests in 60 s on
/// Mastodon). Each walk of the ViewModel now stops at the first page that
/// is not older than the one before, with one line saying so, keeping what
/// arrived; a walk whose pages do go older, a moving timeline included,
/// still goes to its end. `WalkingAPI` answers empty pages after 200
/// requests, so a walk that never notices ends there and the test fails
/// rather than hangs.
@Suite("Every --all walk stops when the server's pages go the wrong way")
struct WalkDirectionTests {
    /// A session over `api` on Weibo (`/2/`) or on Mastodon.
    private static func session(_ api: WalkingAPI, mastodon: Bool) -> (SessionViewModel, FakeHTTPClient) {
        let http = FakeHTTPClient { request in api.respond(to: request) }
        let dialect: any Dialect = mastodon ? MastodonDialect() : WeiboDialect()
        var configuration = APIConfiguration(baseURL: mastodon ? "https://m.example/" : "http://weibo.test/2/", token: .value(Secret("t")))
        configuration.authScheme = dialect.authScheme
        let client = APIClient(configuration: configuration, http: http)
        return (SessionViewModel(dataController: TimelineDataController(client: client, dialect: dialect)), http)
    }

    /// What `fetch SOURCE --all` did: the rows kept, the paged requests, and why it stopped (nil: at the end).
    private static func fetchAll(_ source: TimelineSource, _ api: WalkingAPI, mastodon: Bool) async throws
        -> (loaded: Int, requests: Int, stopped: String?) {
        let (session, _) = session(api, mastodon: mastodon)
        let result = try await session.fetchAll(source: source, count: api.pageSize, limit: nil)
        #expect(session.rows.count == result.loaded)
        let stopped: String? = switch result.end {
        case .failed(let error): error.description
        case .end: nil
        case .limit, .interrupted: "\(result.end)"
        }
        return (result.loaded, api.pagedRequests.count, stopped)
    }

    // MARK: fetch --all (and more --all: the same walk)

    @Test("Weibo's public timeline, paged by number, whose page 2 carries higher ids than page 1: stops there, keeping both")
    func weiboPagesWithRisingIDs() async throws {
        let walk = try await Self.fetchAll(.public, WalkingAPI(.backwards), mastodon: false)
        #expect(walk.requests == 2, "walked \(walk.requests) pages, kept \(walk.loaded)")
        #expect(walk.loaded == 40)
        #expect(walk.stopped == "the server's next page is newer than the one before (it brought id 9000039 after id 9000000): "
                + "its cursor goes the wrong way, so the walk stopped")
    }

    @Test("Weibo's home timeline, paged by an inclusive max_id, whose next page is all newer: stops with one line, not as an end")
    func weiboCursorPageAllNewer() async throws {
        let walk = try await Self.fetchAll(.home, WalkingAPI(.backwards), mastodon: false)
        #expect(walk.requests == 2, "walked \(walk.requests) pages, kept \(walk.loaded)")
        #expect(walk.loaded == 20)
        #expect(walk.stopped == "the server's next page is newer than the one before (it brought id 9000039 after id 9000000): "
                + "its cursor goes the wrong way, so the walk stopped", "\(walk.stopped ?? "ended as at the end")")
    }

    @Test("Mastodon's home timeline whose Link max_id rises page after page: stops at the second page, keeping both")
    func mastodonLinkMaxIDRising() async throws {
        let walk = try await Self.fetchAll(.home, WalkingAPI(.backwards), mastodon: true)
        #expect(walk.requests == 2, "walked \(walk.requests) pages, kept \(walk.loaded)")
        #expect(walk.loaded == 40)
        #expect(walk.stopped == "the server's next page is newer than the one before (max_id went from 9000000 up to 9000020): "
                + "its cursor goes the wrong way, so the walk stopped")
    }

    @Test("Mastodon's home timeline whose ids rise while its Link max_id falls as it should: the ids stop it")
    func mastodonIDsRisingUnderASaneCursor() async throws {
        let walk = try await Self.fetchAll(.home, WalkingAPI(.risingIDs), mastodon: true)
        #expect(walk.requests == 2, "walked \(walk.requests) pages, kept \(walk.loaded)")
        #expect(walk.loaded == 40)
        #expect(walk.stopped?.contains("(it brought id 9000039 after id 9000000): its cursor goes the wrong way") == true,
                "\(walk.stopped ?? "went to the end")")
    }

    @Test("Mastodon's favourites, ordered by when each was favourited: a rising max_id (the favourite's id) stops the walk")
    func mastodonFavouritesCursorRising() async throws {
        let walk = try await Self.fetchAll(.favourites, WalkingAPI(.backwards), mastodon: true)
        #expect(walk.requests == 2, "walked \(walk.requests) pages, kept \(walk.loaded)")
        #expect(walk.stopped?.contains("max_id went from 9000000 up to 9000020") == true, "\(walk.stopped ?? "went to the end")")
    }

    @Test("A walk whose pages go older goes to its end: Weibo's numbered pages, Mastodon's home and favourites",
          arguments: [(TimelineSource.public, false), (.home, true), (.favourites, true)])
    func saneWalksEnd(source: TimelineSource, mastodon: Bool) async throws {
        let walk = try await Self.fetchAll(source, WalkingAPI(.older(pages: 5)), mastodon: mastodon)
        #expect(walk.loaded == 100)
        #expect(walk.stopped == nil)
    }

    @Test("A moving timeline paged by number (three posts before each page, repeated on the next) is not going the wrong way")
    func movingTimelineEnds() async throws {
        let walk = try await Self.fetchAll(.public, WalkingAPI(.moving(pages: 5, posted: 3)), mastodon: false)
        #expect(walk.stopped == nil)
        #expect(walk.loaded == 100 - 4 * 3)
        #expect(walk.requests == 6)
    }

    // MARK: notifications --all

    @Test("notifications --all whose Link max_id rises: the screen shows the two pages, and a note says why it stopped")
    func notificationsLinkRising() async throws {
        let api = WalkingAPI(.backwards)
        let (session, _) = Self.session(api, mastodon: true)
        let loaded = try await session.notifications(count: 20, all: true)
        #expect(api.pagedRequests.count == 2, "walked \(api.pagedRequests.count) pages, kept \(loaded)")
        #expect(loaded == 40)
        #expect(session.notifications?.rows.count == 40)
        #expect(session.notes == ["stopped after 40 notifications, kept: the server's next page is newer than the one before "
                                  + "(max_id went from 9000000 up to 9000020): its cursor goes the wrong way, so the walk stopped"])
    }

    @Test("notifications --all whose notification ids rise under a falling max_id: the ids stop it")
    func notificationsIDsRising() async throws {
        let api = WalkingAPI(.risingIDs)
        let (session, _) = Self.session(api, mastodon: true)
        let loaded = try await session.notifications(count: 20, all: true)
        #expect(api.pagedRequests.count == 2, "walked \(api.pagedRequests.count) pages, kept \(loaded)")
        #expect(session.notes.first?.contains("(it brought id 9000039 after id 9000000)") == true, "\(session.notes)")
    }

    @Test("notifications --all over pages that go older reads them all, with no note")
    func notificationsSane() async throws {
        let (session, _) = Self.session(WalkingAPI(.older(pages: 5)), mastodon: true)
        #expect(try await session.notifications(count: 20, all: true) == 100)
        #expect(session.notes.isEmpty)
    }

    // MARK: followers --all (and following, favourited-by, reblogged-by: the same walk)

    @Test("followers --all whose Link max_id (the follow's id) rises: the screen shows the two pages, and a note says why")
    func followersLinkRising() async throws {
        let api = WalkingAPI(.backwards)
        let (session, _) = Self.session(api, mastodon: true)
        try await session.accounts(.followers, name: "7", count: 20, all: true)
        #expect(api.pagedRequests.count == 2, "walked \(api.pagedRequests.count) pages")
        #expect(session.accounts?.rows.count == 40)
        #expect(session.notes == ["stopped after 40 accounts, kept: the server's next page is newer than the one before "
                                  + "(max_id went from 9000000 up to 9000020): its cursor goes the wrong way, so the walk stopped"])
    }

    @Test("followers --all over pages that go older, on Mastodon and on Weibo (whose next_cursor rises as it should), reads them all",
          arguments: [true, false])
    func followersSane(mastodon: Bool) async throws {
        let (session, _) = Self.session(WalkingAPI(.older(pages: 5)), mastodon: mastodon)
        try await session.accounts(.followers, name: "7", count: 20, all: true)
        #expect(session.accounts?.rows.count == 100)
        #expect(session.notes.isEmpty)
    }
}
