import Foundation
import Testing
import WshDataController
import WshModel
import WshRequest
import WshTestSupport

/// Paging on Mastodon follows the server's `Link` header exactly: the next
/// page's cursor is whatever `max_id` the server wrote (a ULID, a flake id,
/// a notification id), never rebuilt from the last row.
@Suite("Mastodon paging by the Link header")
struct MastodonPagingTests {
    private static func status(_ id: String) -> String {
        #"{"id":"\#(id)","created_at":"2026-11-01T00:00:00.000Z","content":"<p>\#(id)</p>","account":{"id":"7","username":"a","acct":"a"}}"#
    }

    private static func page(_ ids: [String], next: String?) -> HTTPResponse {
        let body = "[" + ids.map(status).joined(separator: ",") + "]"
        var headers = ["content-type": "application/json"]
        if let next {
            headers["link"] = #"<https://elsewhere.example/api/v1/timelines/home?limit=2&max_id=\#(next)>; rel="next", <https://m.example/api/v1/timelines/home?min_id=\#(ids.first ?? "")>; rel="prev""#
        }
        return HTTPResponse(status: 200, headers: headers, body: Data(body.utf8),
                            metrics: TransferMetrics(totalSeconds: 0.001, bytesReceived: body.utf8.count))
    }

    @Test("the next page starts at the Link's opaque max_id, asked for exactly count, to the end; the Link's host is never used")
    func followsTheServersCursor() async throws {
        let fake = FakeHTTPClient { request in
            switch request.queryItems["max_id"] {
            case nil: Self.page(["01JD3Z0000000000000000000B", "01JD3Z0000000000000000000A"], next: "cursor-after-A")
            case "cursor-after-A": Self.page(["01JD3Y000000000000000000ZZ"], next: nil)
            default: .json(#"{"error":"Record not found"}"#, status: 404)
            }
        }
        let client = WeiboClient(configuration: APIConfiguration(baseURL: "https://m.example/", token: .value(Secret("t0ken"))), http: fake)
        let statuses = StatusDataController(client: client, dialect: MastodonDialect())
        let first = try await statuses.timeline(.home, count: 2)
        #expect(first.statuses.compactMap(\.identifier) == ["01JD3Z0000000000000000000B", "01JD3Z0000000000000000000A"])
        #expect(first.next == .olderThan(id: "cursor-after-A"))
        let second = try await statuses.timeline(.home, count: 2, from: first.next)
        #expect(second.statuses.compactMap(\.identifier) == ["01JD3Y000000000000000000ZZ"])
        #expect(second.next == nil)
        let asked = fake.requests.map(\.url)
        #expect(asked == ["https://m.example/api/v1/timelines/home?limit=2",
                          "https://m.example/api/v1/timelines/home?limit=2&max_id=cursor-after-A"])
    }

    @Test("mentions page by the notification id the Link names, not by a status id")
    func mentionsByNotificationCursor() async throws {
        let fake = FakeHTTPClient { request in
            let body = #"[{"id":"9001","type":"mention","status":\#(Self.status("555"))}]"#
            return HTTPResponse(status: 200, headers: ["link": #"<https://m.example/api/v1/notifications?max_id=9001&types[]=mention>; rel="next""#],
                                body: Data(body.utf8), metrics: TransferMetrics(totalSeconds: 0.001, bytesReceived: body.utf8.count))
        }
        let client = WeiboClient(configuration: APIConfiguration(baseURL: "https://m.example/", token: .value(Secret("t0ken"))), http: fake)
        let slice = try await StatusDataController(client: client, dialect: MastodonDialect()).timeline(.mentions, count: 1)
        #expect(slice.statuses.compactMap(\.identifier) == ["555"])
        #expect(slice.next == .olderThan(id: "9001"))
    }

    @Test("Weibo still pages by its inclusive max_id: one more asked, the boundary dropped")
    func weiboUnchanged() async throws {
        let backend = FakeBackend()
        let statuses = StatusDataController(client: backend.client)
        let first = try await statuses.timeline(.home, count: 3)
        guard case .olderThan(let id)? = first.next else { Issue.record("no cursor: \(String(describing: first.next))"); return }
        #expect(id == first.statuses.last?.identifier)
        _ = try await statuses.timeline(.home, count: 3, from: first.next)
        #expect(backend.http.requests.last?.queryItems["count"] == "4")
    }
}
