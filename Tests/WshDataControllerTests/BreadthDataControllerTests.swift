import Foundation
import Testing
import WshDataController
import WshModel
import WshRequest
import WshTestSupport

/// What the last breadth work added below the ViewModels: the server's
/// filters (v2, else v1; a status's `filtered` read and applied), who
/// favourited or boosted a status, and Weibo's picture sent with its post.
@Suite("Filters, status accounts and Weibo's picture in the DataControllers")
struct BreadthDataControllerTests {
    private static func client(_ fake: FakeHTTPClient, base: String = "https://m.example/") -> APIClient {
        APIClient(configuration: APIConfiguration(baseURL: base, token: .value(Secret("t0ken"))), http: fake)
    }

    private static func timeline(_ fake: FakeHTTPClient, dialect: any Dialect = MastodonDialect(),
                                 base: String = "https://m.example/") -> TimelineDataController {
        let client = client(fake, base: base)
        return TimelineDataController(statuses: StatusDataController(client: client, dialect: dialect),
                                      users: UserDataController(client: client, dialect: dialect))
    }

    @Test("filters reads /api/v2/filters: title, contexts, action, expiry, keywords")
    func filtersV2() async throws {
        let fake = FakeHTTPClient { request in
            switch request.url {
            case "https://m.example/api/v2/filters":
                .json(#"[{"id":"3","title":"Spoilers","context":["home","notifications"],"expires_at":null,"filter_action":"hide","keywords":[{"id":"1","keyword":"finale","whole_word":true}],"statuses":[]},{"id":"4","title":"Old","context":["public"],"expires_at":"2026-12-01T00:00:00.000Z","keywords":[]}]"#)
            default: .json(#"{"error":"Record not found"}"#, status: 404)
            }
        }
        let filters = try await Self.timeline(fake).users.filters()
        #expect(filters.map(\.title) == ["Spoilers", "Old"])
        #expect(filters[0].action == "hide")
        #expect(filters[0].context == ["home", "notifications"])
        #expect(filters[0].keywords == ["finale"])
        #expect(filters[1].action == "warn", "a filter with no action is Mastodon 4.0's default, warn")
        #expect(filters[1].expiresAt != nil)
        #expect(fake.requests.map(\.url) == ["https://m.example/api/v2/filters"])
    }

    @Test("a server without /api/v2/filters (404) is asked /api/v1/filters; irreversible reads as hide")
    func filtersFallBackToV1() async throws {
        let fake = FakeHTTPClient { request in
            switch request.url {
            case "https://m.example/api/v1/filters":
                .json(#"[{"id":"9","phrase":"spoiler","context":["home"],"whole_word":true,"expires_at":null,"irreversible":true},{"id":"10","phrase":"meh","context":["public"],"irreversible":false}]"#)
            default: .json(#"{"error":"Record not found"}"#, status: 404)
            }
        }
        let filters = try await Self.timeline(fake).users.filters()
        #expect(filters.map(\.title) == ["spoiler", "meh"])
        #expect(filters.map(\.action) == ["hide", "warn"])
        #expect(filters[0].keywords == ["spoiler"])
        #expect(fake.requests.map(\.url) == ["https://m.example/api/v2/filters", "https://m.example/api/v1/filters"])
    }

    @Test("a refusal of /api/v2/filters that is not its absence (401) is the answer, not a fall back")
    func filtersV2RefusedIsNotAFallBack() async throws {
        let fake = FakeHTTPClient { _ in .json(#"{"error":"The access token is invalid"}"#, status: 401) }
        await #expect(throws: RequestError.self) { try await Self.timeline(fake).users.filters() }
        #expect(fake.requests.count == 1)
    }

    @Test("a status's filtered is read: hide leaves it out of the open statuses, warn keeps it with the filter's title; a boost's counts too")
    func filteredStatuses() async throws {
        let account = #""account":{"id":"7","username":"a","acct":"a"}"#
        let page = """
            [{"id":"3","created_at":"2026-11-01T00:00:03.000Z","content":"<p>plain</p>",\(account),"filtered":[]},
             {"id":"2","created_at":"2026-11-01T00:00:02.000Z","content":"<p>the finale</p>",\(account),
              "filtered":[{"filter":{"id":"1","title":"Spoilers","context":["home"],"expires_at":null,"filter_action":"warn"},"keyword_matches":["finale"],"status_matches":null}]},
             {"id":"1","created_at":"2026-11-01T00:00:01.000Z","content":"<p>WWDC</p>",\(account),
              "filtered":[{"filter":{"id":"2","title":"Conference","context":["home"],"filter_action":"hide"},"keyword_matches":["WWDC"]}]},
             {"id":"0","created_at":"2026-11-01T00:00:00.000Z","content":"",\(account),
              "reblog":{"id":"-1","created_at":"2026-11-01T00:00:00.000Z","content":"<p>WWDC again</p>",\(account),
                        "filtered":[{"filter":{"title":"Conference","filter_action":"hide"}}]}}]
            """
        let fake = FakeHTTPClient { _ in .json(page) }
        let timeline = Self.timeline(fake)
        let loaded = try await timeline.load(.home, count: 4)
        #expect(loaded.statuses.count == 4)
        let open = timeline.openStatuses(in: loaded.statuses, muting: MutedUsers())
        #expect(open.compactMap(\.identifier) == ["3", "2"])
        #expect(open[0].filterWarning == nil)
        #expect(open[1].filterWarning == "Spoilers")
        #expect(open[1].text == "the finale", "the text is kept for detail to open")
    }

    @Test("who favourited and who boosted: GET statuses/:id/favourited_by and reblogged_by, paged by the Link header as sent")
    func statusAccountsOnMastodon() async throws {
        let base = "https://m.example/api/v1/statuses/5/"
        let fake = FakeHTTPClient { request in
            switch request.url {
            case base + "favourited_by?limit=2":
                HTTPResponse(status: 200, headers: ["content-type": "application/json",
                                                    "link": "<\(base)favourited_by?limit=2&max_id=77>; rel=\"next\""],
                             body: Data(#"[{"id":"1","username":"a","acct":"a"},{"id":"2","username":"b","acct":"b"}]"#.utf8),
                             metrics: TransferMetrics(totalSeconds: 0.001, bytesReceived: 10))
            case base + "favourited_by?limit=2&max_id=77": .json(#"[{"id":"3","username":"c","acct":"c"}]"#)
            case base + "reblogged_by?limit=40": .json(#"[{"id":"4","username":"d","acct":"d"}]"#)
            case let url where url.hasPrefix("https://m.example/api/v1/accounts/relationships"): .json("[]")
            default: .json(#"{"error":"Record not found"}"#, status: 404)
            }
        }
        let timeline = Self.timeline(fake)
        let first = try await timeline.users.statusAccounts(.favouritedBy, statusID: "5", count: 2)
        #expect(first.users.compactMap(\.screenName) == ["a", "b"])
        let second = try await timeline.users.statusAccounts(.favouritedBy, statusID: "5", count: 2, cursor: first.next)
        #expect(second.users.compactMap(\.screenName) == ["c"])
        #expect(second.next == nil)
        let boosters = try await timeline.users.statusAccounts(.rebloggedBy, statusID: "5", count: 40)
        #expect(boosters.users.compactMap(\.screenName) == ["d"])
    }

    @Test("Weibo: who reposted are the authors of its reposts, each once; who liked is refused in one line")
    func statusAccountsOnWeibo() async throws {
        let user = { (id: Int) in #"{"id":\#(id),"idstr":"\#(id)","screen_name":"u\#(id)","name":"u\#(id)"}"# }
        let reposts = #"{"reposts":[{"id":11,"idstr":"11","text":"转发","user":\#(user(1))},{"id":12,"idstr":"12","text":"again","user":\#(user(1))},{"id":13,"idstr":"13","text":"!","user":\#(user(2))}],"total_number":3}"#
        let fake = FakeHTTPClient { request in
            request.url.hasPrefix("http://weibo.test/2/statuses/repost_timeline.json") ? .json(reposts)
                : .json(#"{"error":"Request Api not found!","error_code":10020}"#, status: 404)
        }
        let timeline = Self.timeline(fake, dialect: WeiboDialect(), base: "http://weibo.test/2/")
        let page = try await timeline.users.statusAccounts(.rebloggedBy, statusID: "5", count: 40)
        #expect(page.users.compactMap(\.screenName) == ["u1", "u2"])
        #expect(page.next == nil)
        #expect(fake.requests.first?.url.contains("id=5") == true)
        #expect(WeiboDialect().capabilities.listsRebloggedBy)
        #expect(!WeiboDialect().capabilities.listsFavouritedBy)
        await #expect(throws: RequestError.configuration("Weibo does not say who liked a status")) {
            try await timeline.users.statusAccounts(.favouritedBy, statusID: "5", count: 40)
        }
    }

    @Test("Weibo posts a picture with its text in one multipart statuses/upload.json (status, pic); text alone still goes to update.json")
    func weiboPictureGoesWithThePost() async throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("wsh-weibo-\(UUID().uuidString).png")
        try Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 1, 2, 3]).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let posted = #"{"id":9,"idstr":"9","text":"pic","pic_urls":[{"thumbnail_pic":"http://wx1.sinaimg.cn/thumbnail/k.jpg"}]}"#
        let fake = FakeHTTPClient { _ in .json(posted) }
        let client = Self.client(fake, base: "http://weibo.test/2/")
        let statuses = StatusDataController(client: client, dialect: WeiboDialect())
        let draft = StatusDraft(text: "pic", media: [MediaFile(path: file.path)])
        let sent = try await statuses.upload(draft)
        #expect(sent == draft, "nothing is uploaded before the post on Weibo")
        #expect(fake.requests.isEmpty)
        let status = try await statuses.post(sent).value
        #expect(status.picURLs.count == 1)
        let request = try #require(fake.requests.last)
        #expect(request.url == "http://weibo.test/2/statuses/upload.json")
        #expect(request.multipart?.map(\.name) == ["status", "pic"])
        #expect(request.multipart?.first?.content == .text("pic"))
        _ = try await statuses.post(StatusDraft(text: "words")).value
        #expect(fake.requests.last?.url == "http://weibo.test/2/statuses/update.json")

        let capabilities = WeiboDialect().capabilities
        #expect(capabilities.refusal(of: StatusDraft(text: "x", media: [MediaFile(path: "a.png"), MediaFile(path: "b.png")]), api: "weibo")
            == "--media: weibo takes one picture a post")
        #expect(capabilities.refusal(of: StatusDraft(text: "x", media: [MediaFile(path: "a.png", description: "alt")]), api: "weibo")
            == "--alt: weibo has no alt text")
        #expect(capabilities.refusal(of: StatusDraft(text: "x", media: [MediaFile(path: "a.mp4")]), api: "weibo")
            == "--media a.mp4: weibo takes a JPG, GIF or PNG picture")
        #expect(MastodonDialect().capabilities.refusal(of: StatusDraft(text: "x", media: [MediaFile(path: "a.png"), MediaFile(path: "b.mp4")]),
                                                       api: "mastodon") == nil)
    }
}
