import Foundation
import Testing
import WshDataController
import WshModel
import WshRequest
import WshTestSupport

/// Paging on Mastodon follows the server's `Link` header exactly as sent:
/// the next request is the `next` (or `prev`) link's query byte for byte
/// (every parameter, in its order, percent-encoding kept), sent to the path
/// wsh asked for; a link to another origin or path is ignored.
@Suite("Mastodon paging by the Link header")
struct MastodonPagingTests {
    private static func status(_ id: String) -> String {
        #"{"id":"\#(id)","created_at":"2026-11-01T00:00:00.000Z","content":"<p>\#(id)</p>","account":{"id":"7","username":"a","acct":"a"}}"#
    }

    private static func page(_ ids: [String], link: String?) -> HTTPResponse {
        let body = "[" + ids.map(status).joined(separator: ",") + "]"
        var headers = ["content-type": "application/json"]
        if let link { headers["link"] = link }
        return HTTPResponse(status: 200, headers: headers, body: Data(body.utf8),
                            metrics: TransferMetrics(totalSeconds: 0.001, bytesReceived: body.utf8.count))
    }

    private static func statuses(_ fake: FakeHTTPClient) -> StatusDataController {
        let client = APIClient(configuration: APIConfiguration(baseURL: "https://m.example/", token: .value(Secret("t0ken"))), http: fake)
        return StatusDataController(client: client, dialect: MastodonDialect())
    }

    private static let home = "https://m.example/api/v1/timelines/home"

    @Test("more sends the next link's query byte for byte: opaque cursor, a parameter wsh never sends, order and encoding kept")
    func followsTheNextLinkAsSent() async throws {
        let next = "max_id=01JD3Z0000000000000000000A&limit=2&exclude_replies=true&foo=bar%2Bbaz"
        let fake = FakeHTTPClient { request in
            switch request.url {
            case Self.home + "?limit=2":
                Self.page(["01JD3Z0000000000000000000B", "01JD3Z0000000000000000000A"],
                          link: #"<\#(Self.home)?\#(next)>; rel="next", <\#(Self.home)?min_id=01JD3Z0000000000000000000B>; rel="prev""#)
            case Self.home + "?" + next: Self.page(["01JD3Y000000000000000000ZZ"], link: nil)
            default: .json(#"{"error":"Record not found"}"#, status: 404)
            }
        }
        let statuses = Self.statuses(fake)
        let first = try await statuses.timeline(.home, count: 2)
        #expect(first.statuses.compactMap(\.identifier) == ["01JD3Z0000000000000000000B", "01JD3Z0000000000000000000A"])
        #expect(first.next != nil)
        let second = try await statuses.timeline(.home, count: 2, from: first.next)
        #expect(second.statuses.compactMap(\.identifier) == ["01JD3Y000000000000000000ZZ"])
        #expect(second.next == nil)
        #expect(fake.requests.map(\.url) == [Self.home + "?limit=2", Self.home + "?" + next])
    }

    @Test("newer follows the first page's prev link as sent, then the prev link of what arrived")
    func newerFollowsPrev() async throws {
        let fake = FakeHTTPClient { request in
            switch request.url {
            case Self.home + "?limit=2":
                Self.page(["f2", "f1"], link: #"<\#(Self.home)?limit=2&max_id=f1>; rel="next", <\#(Self.home)?limit=2&min_id=f2&x=1>; rel="prev""#)
            case Self.home + "?limit=2&min_id=f2&x=1":
                Self.page(["f4", "f3"], link: #"<\#(Self.home)?limit=2&max_id=f3>; rel="next", <\#(Self.home)?limit=2&min_id=f4>; rel="prev""#)
            case Self.home + "?limit=2&min_id=f4": Self.page([], link: nil)
            default: .json(#"{"error":"Record not found"}"#, status: 404)
            }
        }
        let statuses = Self.statuses(fake)
        let first = try await statuses.timeline(.home, count: 2)
        let newer = try await statuses.newer(.home, count: 2, than: "f2", from: first.newer)
        #expect(newer.statuses.compactMap(\.identifier) == ["f4", "f3"])
        let none = try await statuses.newer(.home, count: 2, than: "f4", from: newer.newer)
        #expect(none.statuses.isEmpty)
        #expect(none.newer == nil)
        #expect(fake.requests.map(\.url) == [Self.home + "?limit=2", Self.home + "?limit=2&min_id=f2&x=1", Self.home + "?limit=2&min_id=f4"])
    }

    @Test("without a prev link newer asks since_id of the top row, as before")
    func newerWithoutPrev() async throws {
        let fake = FakeHTTPClient { _ in Self.page(["f2", "f1"], link: nil) }
        let statuses = Self.statuses(fake)
        let first = try await statuses.timeline(.home, count: 2)
        #expect(first.newer == nil)
        _ = try await statuses.newer(.home, count: 2, than: "f2", from: first.newer)
        #expect(fake.requests.last?.url == Self.home + "?limit=2&since_id=f2")
    }

    @Test("a link to another host, port, scheme or path is ignored: no next page, nothing sent there",
          arguments: ["https://elsewhere.example/api/v1/timelines/home", "https://m.example:8443/api/v1/timelines/home",
                      "http://m.example/api/v1/timelines/home", "https://m.example/api/v1/timelines/public",
                      "https://t0ken@m.example/api/v1/timelines/home"])
    func foreignLinkIgnored(target: String) async throws {
        let fake = FakeHTTPClient { _ in
            Self.page(["f2", "f1"], link: #"<\#(target)?limit=2&max_id=f1>; rel="next", <\#(target)?min_id=f2>; rel="prev""#)
        }
        let first = try await Self.statuses(fake).timeline(.home, count: 2)
        #expect(first.next == nil)
        #expect(first.newer == nil)
        #expect(fake.requests.count == 1)
    }

    @Test("a link given by path or by query alone is the API's own, and followed")
    func relativeLinks() async throws {
        let fake = FakeHTTPClient { request in
            request.url == Self.home + "?limit=2"
                ? Self.page(["f2", "f1"], link: #"</api/v1/timelines/home?max_id=f1&limit=2>; rel="next", <?min_id=f2>; rel="prev""#)
                : Self.page([], link: nil)
        }
        let statuses = Self.statuses(fake)
        let first = try await statuses.timeline(.home, count: 2)
        _ = try await statuses.timeline(.home, count: 2, from: first.next)
        _ = try await statuses.newer(.home, count: 2, than: "f2", from: first.newer)
        #expect(fake.requests.map(\.url) == [Self.home + "?limit=2", Self.home + "?max_id=f1&limit=2", Self.home + "?min_id=f2"])
    }

    @Test("mentions page by the notification link, brackets and all, not by a status id")
    func mentionsByNotificationCursor() async throws {
        let fake = FakeHTTPClient { request in
            let body = #"[{"id":"9001","type":"mention","status":\#(Self.status("555"))}]"#
            return HTTPResponse(status: 200, headers: ["link": #"<https://m.example/api/v1/notifications?max_id=9001&types[]=mention>; rel="next""#],
                                body: Data(body.utf8), metrics: TransferMetrics(totalSeconds: 0.001, bytesReceived: body.utf8.count))
        }
        let statuses = Self.statuses(fake)
        let slice = try await statuses.timeline(.mentions, count: 1)
        #expect(slice.statuses.compactMap(\.identifier) == ["555"])
        _ = try await statuses.timeline(.mentions, count: 1, from: slice.next)
        #expect(fake.requests.map(\.url) == ["https://m.example/api/v1/notifications?types%5B%5D=mention&limit=1",
                                              "https://m.example/api/v1/notifications?max_id=9001&types[]=mention"])
    }

    @Test("notifications and followers page by their next links as sent, extra parameters and all")
    func notificationsAndFollowersFollowLinks() async throws {
        let notifications = "https://m.example/api/v1/notifications"
        let followers = "https://m.example/api/v1/accounts/7/followers"
        let fake = FakeHTTPClient { request in
            let (body, link): (String, String?) = switch request.url {
            case notifications + "?limit=1&types%5B%5D=mention":
                (#"[{"id":"n2","type":"mention","status":\#(Self.status("s2"))}]"#,
                 #"<\#(notifications)?types%5B%5D=mention&max_id=n2&limit=1&grouped=false>; rel="next""#)
            case followers + "?limit=1":
                (#"[{"id":"8","username":"b","acct":"b"}]"#, #"<\#(followers)?limit=1&max_id=f-99&v=2>; rel="next""#)
            default: ("[]", nil)     // relationships, and the end of each list
            }
            return HTTPResponse(status: 200, headers: link.map { ["link": $0] } ?? [:], body: Data(body.utf8),
                                metrics: TransferMetrics(totalSeconds: 0.001, bytesReceived: body.utf8.count))
        }
        let client = APIClient(configuration: APIConfiguration(baseURL: "https://m.example/", token: .value(Secret("t0ken"))), http: fake)
        let timeline = TimelineDataController(client: client, dialect: MastodonDialect())
        let first = try await timeline.notifications(NotificationQuery(count: 1, types: ["mention"]))
        let older = try await timeline.notifications(NotificationQuery(count: 1, types: ["mention"], from: first.next))
        #expect(older.next == nil)
        let page = try await timeline.users.accounts(.followers, of: .uid("7"), count: 1)
        _ = try await timeline.users.accounts(.followers, of: .uid("7"), count: 1, cursor: page.next)
        let asked = fake.requests.map(\.url).filter { !$0.contains("relationships") }
        #expect(asked == [notifications + "?limit=1&types%5B%5D=mention", notifications + "?types%5B%5D=mention&max_id=n2&limit=1&grouped=false",
                          followers + "?limit=1", followers + "?limit=1&max_id=f-99&v=2"])
    }

    @Test("Weibo still pages by its inclusive max_id: one more asked, the boundary dropped")
    func weiboUnchanged() async throws {
        let backend = FakeBackend()
        let statuses = StatusDataController(client: backend.client, dialect: WeiboDialect())
        let first = try await statuses.timeline(.home, count: 3)
        guard case .olderThan(let id)? = first.next else { Issue.record("no cursor: \(String(describing: first.next))"); return }
        #expect(id == first.statuses.last?.identifier)
        _ = try await statuses.timeline(.home, count: 3, from: first.next)
        #expect(backend.http.requests.last?.queryItems["count"] == "4")
    }
}
