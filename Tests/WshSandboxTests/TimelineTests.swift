import Foundation
import Testing
import WshModel
import WshSandbox

@Suite("statuses/public_timeline.json")
struct TimelineTests {
    @Test("count defaults to 20 and total_number is the whole timeline")
    func defaultCount_is20() async throws {
        try await withSandbox { server in
            let json = try #require(await server.get("statuses/public_timeline.json").json)
            #expect((json["statuses"] as? [Any])?.count == 20)
            #expect(json["total_number"] as? Int == 1000)
            #expect(json["previous_cursor"] as? Int == 0)
        }
    }

    @Test("count=100 gives 100 statuses, newest first")
    func count100_newestFirst() async throws {
        try await withSandbox { server in
            let statuses = await server.timeline(count: 100)
            #expect(statuses.count == 100)
            let ids = statuses.compactMap { $0["id"] as? Int64 }
            #expect(ids == ids.sorted(by: >))
            let times = statuses.compactMap { ($0["created_at"] as? String).flatMap(Timestamp.init(weiboText:)) }
            #expect(times.count == 100)
            #expect(times == times.sorted(by: >))
        }
    }

    @Test("page 2 continues page 1 without overlap, and next_cursor names its first status")
    func page2_continuesPage1() async throws {
        try await withSandbox { server in
            let page1 = try #require(await server.get("statuses/public_timeline.json", "count=30&page=1").json)
            let page2 = await server.timeline(count: 30, page: 2)
            let ids1 = (page1["statuses"] as? [[String: Any]] ?? []).compactMap { $0["id"] as? Int64 }
            let ids2 = page2.compactMap { $0["id"] as? Int64 }
            #expect(Set(ids1).isDisjoint(with: ids2))
            #expect(ids2.first == ids1.last.map { $0 - 1 })
            #expect(page1["next_cursor"] as? Int64 == ids2.first)
            let both = await server.timeline(count: 60)
            #expect(both.compactMap { $0["id"] as? Int64 } == ids1 + ids2)
        }
    }

    @Test("a page past the end is empty, with next_cursor 0")
    func pagePastEnd_isEmpty() async throws {
        try await withSandbox(SandboxConfiguration(statuses: 45)) { server in
            #expect(await server.timeline(count: 20, page: 3).count == 5)
            let past = try #require(await server.get("statuses/public_timeline.json", "count=20&page=4").json)
            #expect((past["statuses"] as? [Any])?.isEmpty == true)
            #expect(past["next_cursor"] as? Int == 0)
        }
    }

    @Test("count 201, 0 or text is a 400 with a Weibo error body")
    func badCount_is400() async throws {
        try await withSandbox { server in
            let over = await server.get("statuses/public_timeline.json", "count=201")
            #expect(over.status == 400)
            #expect(over.errorCode == 10017)
            #expect(await server.get("statuses/public_timeline.json", "count=0").errorCode == 10017)
            #expect(await server.get("statuses/public_timeline.json", "count=lots").errorCode == 10008)
            #expect(await server.get("statuses/public_timeline.json", "page=0").errorCode == 10017)
            #expect(await server.get("statuses/public_timeline.json", "count=200").status == 200)
        }
    }

    @Test("a page decodes with WshModel's TimelinePage")
    func page_decodesWithModel() async throws {
        try await withSandbox { server in
            let result = await server.get("statuses/public_timeline.json", "count=200")
            let page = try ModelDecoding.decode(TimelinePage.self, from: result.data)
            #expect(page.statuses.count == 200)
            #expect(page.totalNumber == 1000)
            for status in page.statuses {
                #expect(status.idstr == status.id.map(String.init))
                #expect(status.mid == status.idstr)
                #expect(status.createdAt != nil)
                #expect(status.user?.screenName != nil)
                #expect(status.inReplyToStatusID == "")
                #expect(status.source?.hasPrefix("<a href=\"") == true)
                #expect(String(status.id ?? 0).count == 16)
                if let retweeted = status.retweetedStatus {
                    #expect(retweeted.user != nil)
                    #expect((retweeted.id ?? 0) < (status.id ?? 0))
                }
            }
            #expect(page.statuses.contains { $0.retweetedStatus != nil })
            #expect(page.statuses.contains { !$0.picURLs.isEmpty && $0.bmiddlePic != nil && $0.originalPic != nil })
        }
    }
}
