import Foundation
import Testing
import WshSandbox

/// Weibo's cursors: `since_id` strictly newer, `max_id` older **or equal**,
/// newest first, ids increasing with time.
@Suite("Timeline cursors")
struct CursorTests {
    static let timelines = ["statuses/home_timeline.json", "statuses/user_timeline.json", "statuses/mentions.json"]

    @Test("max_id is inclusive and since_id exclusive, on every cursor timeline", arguments: timelines)
    func maxInclusive_sinceExclusive(endpoint: String) async throws {
        try await withSandbox { server in
            let all = await server.get(endpoint, "count=100").ids
            try #require(all.count >= 5, "\(endpoint) has \(all.count)")
            #expect(all == all.sorted(by: >))
            let pivot = all[2]
            let upTo = await server.get(endpoint, "count=100&max_id=\(pivot)").ids
            #expect(upTo.first == pivot)
            // The first page ended at `count`; the window moved two statuses older.
            #expect(Array(upTo.prefix(all.count - 2)) == Array(all.dropFirst(2)))
            let newer = await server.get(endpoint, "count=100&since_id=\(pivot)").ids
            #expect(newer == Array(all.prefix(2)))
            let between = await server.get(endpoint, "since_id=\(all[4])&max_id=\(all[1])").ids
            #expect(between == [all[1], all[2], all[3]])
        }
    }

    @Test("paging with max_id = last id − 1 walks the whole timeline without duplicates or gaps")
    func pagingWithMaxIDMinusOne() async throws {
        try await withSandbox { server in
            let total = try #require(await server.get("statuses/home_timeline.json").json?["total_number"] as? Int)
            var all: [Int64] = []
            for page in 1...5 { all += await server.get("statuses/home_timeline.json", "count=100&page=\(page)").ids }
            #expect(total == all.count)
            #expect(total > 100)
            var seen: [Int64] = []
            var maxID: Int64 = 0
            for _ in 0..<50 {
                let page = await server.get("statuses/home_timeline.json", "count=17" + (maxID > 0 ? "&max_id=\(maxID)" : "")).ids
                guard let last = page.last else { break }
                seen += page
                maxID = last - 1
            }
            #expect(seen == all)
            #expect(Set(seen).count == seen.count)
        }
    }

    @Test("with max_id = the last id seen, each next page repeats it first: a client drops that one (or uses next_cursor)")
    func inclusiveMaxID_repeatsTheBoundary() async throws {
        try await withSandbox { server in
            let first = await server.get("statuses/user_timeline.json", "count=5")
            let last = try #require(first.ids.last)
            let again = await server.get("statuses/user_timeline.json", "count=5&max_id=\(last)").ids
            #expect(again.first == last)
            // next_cursor names the next, older status: as max_id it continues without overlap.
            let cursor = try #require(first.json?["next_cursor"] as? Int64)
            let next = await server.get("statuses/user_timeline.json", "count=5&max_id=\(cursor)").ids
            #expect(Array(next.prefix(4)) == Array(again.dropFirst()))
            #expect(next.first == cursor)
            #expect(!first.ids.contains(cursor))
            #expect(first.json?["previous_cursor"] as? Int == 0)
            // At the end, next_cursor is 0.
            let tail = await server.get("statuses/user_timeline.json", "count=100&since_id=\(first.ids[1])")
            #expect(tail.json?["next_cursor"] as? Int == 0)
        }
    }

    @Test("page slices what the cursors leave; a page past the end is empty")
    func pageAfterCursors() async throws {
        try await withSandbox { server in
            let all = await server.get("statuses/home_timeline.json", "count=100").ids
            let maxID = all[3]
            let page2 = await server.get("statuses/home_timeline.json", "count=5&page=2&max_id=\(maxID)").ids
            #expect(page2 == Array(all[8..<13]))
            #expect(await server.get("statuses/home_timeline.json", "page=999").ids.isEmpty)
        }
    }

    @Test("count is 1–100 on cursor timelines (200 on the public one); bad cursors are 10008", arguments: timelines)
    func limits(endpoint: String) async throws {
        try await withSandbox { server in
            #expect(await server.get(endpoint, "count=101").errorCode == 10017)
            #expect(await server.get(endpoint, "count=0").errorCode == 10017)
            #expect(await server.get(endpoint, "count=100").status == 200)
            #expect(await server.get(endpoint, "max_id=abc").errorCode == 10008)
            #expect(await server.get(endpoint, "since_id=1.5").errorCode == 10008)
            let answer = try #require(await server.get(endpoint).json)
            for key in ["statuses", "total_number", "previous_cursor", "next_cursor"] { #expect(answer[key] != nil, "\(key)") }
        }
    }
}
