import Foundation
import Testing
import WshSandbox

/// The timelines are indexes updated by writes (Timeline+Indexes.swift);
/// these tests hold every page to what filtering the whole timeline gives.
@Suite("Mastodon timeline indexes: pages after posts and deletes")
struct MastodonIndexTests {
    /// A page as Mastodon's cursors define it over `all` (ids, newest first):
    /// the reference the sandbox's index must agree with.
    private static func expectedPage(_ all: [Int64], maxID: Int64?, sinceID: Int64?, minID: Int64?, limit: Int)
        -> (ids: [Int64], hasNext: Bool) {
        let lower = max(sinceID ?? 0, minID ?? 0)
        let matching = all.filter { id in id > lower && (maxID.map { id < $0 } ?? true) }
        let page = minID != nil ? Array(matching.suffix(limit)) : Array(matching.prefix(limit))
        return (page, page.last.map { last in all.contains { $0 < last } } ?? false)
    }

    /// The id of a status answer, as a number (snowflake ids are the Weibo ids).
    private static func id(of reply: HTTPResult) -> Int64? {
        (reply.json?["id"] as? String).flatMap { Int64($0) }
    }

    @Test("public and tag pages by max_id, since_id, min_id and limit equal slices of the whole timeline after posts, boosts and deletes, Link headers too")
    func pagesAfterWrites() async throws {
        try await withSandbox(SandboxConfiguration(statuses: 300)) { server in
            // Posts (one unlisted, so not public), a boost, then deletes of a post and a generated status.
            var postedIDs: [Int64?] = []
            for n in 0..<6 {
                let reply = await server.mastodon("POST", "statuses", token: server.token,
                                                  form: "status=" + formEncoded("post \(n) #Indexed"))
                postedIDs.append(Self.id(of: reply))
            }
            let posted = postedIDs.compactMap { $0 }
            try #require(posted.count == 6)
            let unlisted = await server.mastodon("POST", "statuses", token: server.token,
                                                 form: "status=quiet%20%23Indexed&visibility=unlisted")
            let unlistedID = try #require(Self.id(of: unlisted))
            let before = await server.mastodon("timelines/public?limit=40").stringIDs
            let boost = await server.mastodon("POST", "statuses/\(before[12])/reblog", token: server.second.token)
            let boostID = try #require(Self.id(of: boost))
            let own = await server.mastodon("accounts/\(server.accounts[0].uid)/statuses?limit=40&exclude_reblogs=true")
            let firstPosted = posted[0]
            let generated = try #require(own.stringIDs.compactMap { Int64($0) }.first { $0 < firstPosted })
            for id in [posted[2], generated] {
                #expect(await server.mastodon("DELETE", "statuses/\(id)", token: server.token).status == 200)
            }

            // The reference: every status the Weibo side lists, but boosts and the unlisted post.
            var weibo: [[String: Any]] = []
            for page in 1...2 { weibo += (await server.get("statuses/public_timeline.json", "count=200&page=\(page)")).statuses }
            let all = weibo.filter { !($0["retweeted_status"] != nil && $0["text"] as? String == "转发微博") }
                .compactMap { ($0["idstr"] as? String).flatMap { Int64($0) } }
                .filter { $0 != unlistedID }
            #expect(!all.contains(boostID) && !all.contains(posted[2]) && !all.contains(generated))
            #expect(all.count > 200)

            // Cursors on statuses shown, and on ones not shown: deleted, boosted, unlisted, past either end.
            let cursors = [all[0], all[1], all[17], all[all.count / 2], all[all.count - 2], all[all.count - 1],
                           posted[2], generated, boostID, unlistedID, all[0] + 1000, 1]
            for cursor in cursors {
                for limit in [1, 7, 40] {
                    for name in ["max_id", "since_id", "min_id"] {
                        let page = await server.mastodon("timelines/public?limit=\(limit)&\(name)=\(cursor)")
                        let expected = Self.expectedPage(all, maxID: name == "max_id" ? cursor : nil,
                                                         sinceID: name == "since_id" ? cursor : nil,
                                                         minID: name == "min_id" ? cursor : nil, limit: limit)
                        #expect(page.stringIDs.compactMap { Int64($0) } == expected.ids, "\(name)=\(cursor) limit=\(limit)")
                        if let first = expected.ids.first, let last = expected.ids.last {
                            #expect(page.links["prev"]?.hasSuffix("min_id=\(first)") == true)
                            #expect(page.links["next"].map { $0.hasSuffix("max_id=\(last)") } ?? !expected.hasNext,
                                    "\(name)=\(cursor) limit=\(limit)")
                            #expect((page.links["next"] != nil) == expected.hasNext)
                        } else {
                            #expect(page.headers["link"] == nil)
                        }
                    }
                }
            }
            // Both bounds at once: the statuses between them.
            let between = await server.mastodon("timelines/public?limit=40&max_id=\(all[5])&since_id=\(all[30])")
            #expect(between.stringIDs.compactMap { Int64($0) }
                    == Self.expectedPage(all, maxID: all[5], sinceID: all[30], minID: nil, limit: 40).ids)
            let betweenUp = await server.mastodon("timelines/public?limit=4&max_id=\(all[5])&min_id=\(all[30])")
            #expect(betweenUp.stringIDs.compactMap { Int64($0) }
                    == Self.expectedPage(all, maxID: all[5], sinceID: nil, minID: all[30], limit: 4).ids)

            // The tag's index has the posts (any case), not the deleted one nor the unlisted one.
            let tagged = await server.mastodon("timelines/tag/indexed?limit=40").stringIDs.compactMap { Int64($0) }
            #expect(tagged == posted.filter { $0 != posted[2] }.reversed())
            let olderTagged = await server.mastodon("timelines/tag/INDEXED?limit=2&max_id=\(posted[4])")
            #expect(olderTagged.stringIDs.compactMap { Int64($0) } == [posted[3], posted[1]])
        }
    }

    @Test("an edit that adds a tag puts an old status on the tag's timeline; one that drops it takes it off")
    func editsMoveTags() async throws {
        try await withSandbox(SandboxConfiguration(statuses: 60)) { server in
            let own = await server.mastodon("accounts/\(server.accounts[0].uid)/statuses?limit=40&exclude_reblogs=true")
            let old = try #require(own.stringIDs.last)
            #expect(await server.mastodon("timelines/tag/freshtag").array.isEmpty)
            let edited = await server.mastodon("PUT", "statuses/\(old)", token: server.token,
                                               form: "status=" + formEncoded("now #FreshTag"))
            #expect(edited.status == 200)
            #expect(await server.mastodon("timelines/tag/freshtag").stringIDs == [old])
            _ = await server.mastodon("PUT", "statuses/\(old)", token: server.token, form: "status=untagged")
            #expect(await server.mastodon("timelines/tag/freshtag").array.isEmpty)
        }
    }

    /// The ids of a walk from `path` along `rel="next"`, `pages` pages at most.
    private static func walk(_ server: SandboxServer, _ path: String, pages: Int) async -> [Int64] {
        var seen: [Int64] = []
        var page = await server.mastodon(path)
        for _ in 1..<pages {
            seen += page.stringIDs.compactMap { Int64($0) }
            guard let next = page.links["next"] else { return seen }
            page = await server.follow(next)
        }
        return seen + page.stringIDs.compactMap { Int64($0) }
    }

    @Test("30 clients posting 1,200 statuses at once lose none: each is on the public, the tag's and the author's timelines")
    func concurrentPostsAreIndexed() async throws {
        try await withSandbox(SandboxConfiguration(statuses: 200)) { server in
            let ids = await withTaskGroup(of: [Int64?].self) { group in
                for client in 0..<30 {
                    group.addTask {
                        var ids: [Int64?] = []
                        for n in 0..<40 {
                            let reply = await server.mastodon("POST", "statuses", token: server.token,
                                                              form: "status=" + formEncoded("load \(client) \(n) #Load"))
                            ids.append(Self.id(of: reply))
                        }
                        return ids
                    }
                }
                var all: [Int64?] = []
                for await ids in group { all += ids }
                return all
            }
            let newestFirst = ids.compactMap { $0 }.sorted(by: >)
            #expect(ids.count == 1200 && newestFirst.count == 1200 && Set(newestFirst).count == 1200)
            #expect(await Self.walk(server, "timelines/tag/load?limit=40", pages: 40) == newestFirst)
            #expect(Array(await Self.walk(server, "timelines/public?limit=40", pages: 30).prefix(1200)) == newestFirst)
            let uid = server.accounts[0].uid
            #expect(Array(await Self.walk(server, "accounts/\(uid)/statuses?limit=40", pages: 30).prefix(1200))
                    == newestFirst)
        }
    }
}
