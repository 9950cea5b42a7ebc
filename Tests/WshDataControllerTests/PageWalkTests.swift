import Foundation
import Testing
@testable import WshDataController
import WshRequest
import WshTestSupport

/// `PageWalk`, the one check every walk makes of each page: a cursor that
/// carries an id must go down, and where the server orders the items by id,
/// what a page brings new must be older than what the walk had. Ids that do
/// not compare never stop a walk (`StatusID.order`).
@Suite("PageWalk: a walk's pages must go older")
struct PageWalkTests {
    private static func controller(_ dialect: any Dialect) -> TimelineDataController {
        let http = FakeHTTPClient { _ in .json("{}", status: 404) }
        return TimelineDataController(client: APIClient(configuration: APIConfiguration(baseURL: "https://m.example/"), http: http),
                                      dialect: dialect)
    }

    private static let mastodon = controller(MastodonDialect())
    private static let weibo = controller(WeiboDialect())

    /// A Mastodon link cursor below `id`, as the `Link` header's `next` gives it.
    private static func link(_ id: String) -> String { "limit=40&max_id=\(id)&exclude_replies=true" }

    @Test("ids compare as numbers when both are decimal, as text when of one width, and not at all otherwise",
          arguments: [
              ("99", "100", StatusID.Order.older), ("4000000000000000001", "4000000000000000000", .newer), ("0042", "42", .same),
              ("01JD3Y000000000000000000ZZ", "01JD3Z0000000000000000000A", .older),   // GoToSocial's ULIDs
              ("AbCdEfGhIjKlMnOpQr", "AbCdEfGhIjKlMnOpQs", .older),                   // Pleroma's flake ids
              ("9xk2m1ab0c", "9xk2m1ab0b", .newer),                                   // Misskey's aid
          ])
    func comparableIDs(id: String, other: String, order: StatusID.Order) {
        #expect(StatusID.order(id, other) == order)
    }

    @Test("ids that cannot be told apart for sure do not compare",
          arguments: [("12345", "AbCdEfGhIjKlMnOpQr"), ("9xk2m1ab0c", "9xk2m1ab0c0d1e2f"), ("", "1"),
                      ("0e8f3c1a-1b2c-4d5e-8f90-123456789abc", "0e8f3c1a-1b2c-4d5e-8f90-123456789abd")])
    func incomparableIDs(id: String, other: String) {
        #expect(StatusID.order(id, other) == nil)
    }

    @Test("a Link max_id that rises, or stays, stops the walk; one that falls does not")
    func linkCursor() {
        var walk = Self.mastodon.notificationsWalk()
        #expect(walk.stop(afterPageWith: ["50", "41"], from: nil, next: Self.link("41")) == nil)
        #expect(walk.stop(afterPageWith: ["40", "31"], from: Self.link("41"), next: Self.link("31")) == nil)
        #expect(walk.stop(afterPageWith: ["30", "21"], from: Self.link("31"), next: Self.link("31"))
                == .wrongWay(WrongWay(sign: .cursor(from: "31", next: "31"))))
        var rising = Self.mastodon.users.accountsWalk()
        #expect(rising.stop(afterPageWith: ["a", "b"], from: Self.link("1040"), next: Self.link("1090"))
                == .wrongWay(WrongWay(sign: .cursor(from: "1040", next: "1090"))))
        #expect(WrongWay(sign: .cursor(from: "1040", next: "1090")).description
                == "the server's next page is newer than the one before (max_id went from 1040 up to 1090): "
                + "its cursor goes the wrong way, so the walk stopped")
        #expect(WrongWay(sign: .cursor(from: "31", next: "31")).reason
                == "the server's next page is the one before again (max_id stayed at 31): its cursor does not move")
    }

    @Test("a page number, Weibo's next_cursor and a link without max_id carry no id: only the ids of an ordered source can stop those")
    func cursorsWithoutIDs() {
        var weibo = Self.weibo.users.accountsWalk()
        #expect(weibo.stop(afterPageWith: ["1"], from: "20", next: "40") == nil)
        #expect(weibo.stop(afterPageWith: ["2"], from: "40", next: "20") == nil)
        var offsets = Self.mastodon.users.accountsWalk()
        #expect(offsets.stop(afterPageWith: ["1"], from: "offset=40", next: "offset=0") == nil)
        var pages = Self.weibo.walk(.public)
        #expect(pages.stop(afterPageWith: ["100", "81"], from: nil, next: .page(2)) == nil)
        #expect(pages.stop(afterPageWith: ["80", "61"], from: .page(2), next: .page(3)) == nil)
        #expect(pages.stop(afterPageWith: ["140", "121"], from: .page(3), next: .page(4))
                == .wrongWay(WrongWay(sign: .item(id: "140", after: "61"))))
    }

    @Test("statuses a moving timeline repeats are not new: only unseen ones newer than the walk's oldest stop it")
    func unseenOnly() {
        var walk = Self.weibo.walk(.public)
        #expect(walk.stop(afterPageWith: ["100", "81"], from: nil, next: .page(2)) == nil)
        // Page 2 after three posts: 83, 82 and 81 again (the walk passes only the ones it had not had), then older.
        #expect(walk.stop(afterPageWith: ["80", "64"], from: .page(2), next: .page(3)) == nil)
    }

    @Test("a pinned status on top of a first page, older than the rest, is not where the page ends")
    func pinnedOnTop() {
        var walk = Self.mastodon.walk(.user(.uid("7")))
        #expect(walk.stop(afterPageWith: ["5", "900", "881"], from: nil, next: .link(PageLink(query: Self.link("881")))) == nil)
        #expect(walk.stop(afterPageWith: ["880", "861"], from: .link(PageLink(query: Self.link("881"))),
                          next: .link(PageLink(query: Self.link("861")))) == nil)
    }

    @Test("sources not ordered by status id (favourites, bookmarks, Mastodon's mentions, accounts) never stop on ids",
          arguments: [TimelineSource.favourites, .bookmarks, .mentions])
    func unorderedSources(source: TimelineSource) {
        var walk = Self.mastodon.walk(source)
        #expect(walk.stop(afterPageWith: ["10", "5"], from: nil, next: .link(PageLink(query: Self.link("900")))) == nil)
        #expect(walk.stop(afterPageWith: ["99", "50"], from: .link(PageLink(query: Self.link("900"))),
                          next: .link(PageLink(query: Self.link("880")))) == nil)
        // Weibo's mentions are statuses, paged by status id.
        var weibo = Self.weibo.walk(.mentions)
        #expect(weibo.stop(afterPageWith: ["10", "5"], from: nil, next: .olderThan(id: "5")) == nil)
        #expect(weibo.stop(afterPageWith: ["99"], from: .olderThan(id: "5"), next: .olderThan(id: "4"))
                == .wrongWay(WrongWay(sign: .item(id: "99", after: "5"))))
    }

    @Test("ids of two kinds (a Pleroma walk from flake ids down to its older numeric ones) never stop a walk")
    func mixedIDs() {
        var walk = Self.mastodon.walk(.home)
        let flake = "AbCdEfGhIjKlMnOpQr"
        #expect(walk.stop(afterPageWith: ["AbCdEfGhIjKlMnOpQz", flake], from: nil, next: .link(PageLink(query: Self.link(flake)))) == nil)
        #expect(walk.stop(afterPageWith: ["9000", "8000"], from: .link(PageLink(query: Self.link(flake))),
                          next: .link(PageLink(query: Self.link("8000")))) == nil)
    }

    @Test("three pages in a row with nothing new still stop a walk as a server that repeats itself")
    func repeats() {
        var walk = Self.weibo.walk(.favourites)
        #expect(walk.stop(afterPageWith: ["1", "2"], from: nil, next: .page(2)) == nil)
        #expect(walk.stop(afterPageWith: [], from: .page(2), next: .page(3)) == nil)
        #expect(walk.stop(afterPageWith: [], from: .page(3), next: .page(4)) == nil)
        #expect(walk.stop(afterPageWith: [], from: .page(4), next: .page(5)) == .repeating(pages: 3))
    }
}
