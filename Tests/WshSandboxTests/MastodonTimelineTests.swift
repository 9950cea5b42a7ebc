import Foundation
import Testing
import WshSandbox

@Suite("Mastodon timelines: Link paging, cursors, tags, home, public preview")
struct MastodonTimelineTests {
    @Test("following rel=next walks the whole public timeline: no repeats, no gaps, max_id exclusive")
    func linkPaging_walksEverything() async throws {
        try await withSandbox(SandboxConfiguration(statuses: 150)) { server in
            var seen: [String] = []
            var page = await server.mastodon("timelines/public?limit=40")
            var pages = 0
            while true {
                #expect(page.status == 200)
                seen += page.stringIDs
                pages += 1
                guard let next = page.links["next"] else { break }
                #expect(next.hasPrefix(server.mastodonBaseURL + "api/v1/timelines/public?"))
                #expect(next.contains("limit=40"))
                #expect(next.hasSuffix("max_id=" + (page.stringIDs.last ?? "")))
                page = await server.follow(next)
                try #require(pages < 20)
            }
            #expect(Set(seen).count == seen.count)
            // Every status but the boosts (public timelines leave them out), newest first.
            let all = (await server.get("statuses/public_timeline.json", "count=200")).statuses
            let expected = all.filter { !($0["retweeted_status"] != nil && $0["text"] as? String == "转发微博") }
                .compactMap { $0["idstr"] as? String }
            #expect(seen == expected)
            #expect(seen == seen.sorted(by: >))
        }
    }

    @Test("since_id gives the newest above it, min_id the page just above it; both newest first; rel=prev uses min_id")
    func sinceAndMinID() async throws {
        try await withSandbox(SandboxConfiguration(statuses: 120)) { server in
            let all = await server.mastodon("timelines/public?limit=40").stringIDs
            let anchor = all[30]
            let since = await server.mastodon("timelines/public?limit=5&since_id=\(anchor)").stringIDs
            #expect(since == Array(all[0..<5]))
            let min = await server.mastodon("timelines/public?limit=5&min_id=\(anchor)")
            #expect(min.stringIDs == Array(all[25..<30]))
            #expect(min.links["prev"]?.hasSuffix("min_id=\(all[25])") == true)
            // max_id is exclusive: the page starts just below it.
            #expect(await server.mastodon("timelines/public?limit=3&max_id=\(anchor)").stringIDs == Array(all[31..<34]))
            // Walking back up with prev reaches the newest.
            let up = await server.follow(min.links["prev"]!)
            #expect(up.stringIDs == Array(all[20..<25]))
            // An empty page has no Link header; limit is capped at 40.
            let empty = await server.mastodon("timelines/public?since_id=\(all[0])")
            #expect(empty.array.isEmpty)
            #expect(empty.headers["link"] == nil)
            #expect(await server.mastodon("timelines/public?limit=100").array.count == 40)
            #expect(await server.mastodon("timelines/public").array.count == 20)
            #expect(await server.mastodon("timelines/public?max_id=abc").status == 400)
        }
    }

    @Test("tag timeline finds #tag# and #tag, case-insensitive; remote is empty, only_media has pictures")
    func tagAndFilters() async throws {
        try await withSandbox(SandboxConfiguration(statuses: 300)) { server in
            let swift = await server.mastodon("timelines/tag/swift?limit=40")
            #expect(swift.status == 200)
            #expect(!swift.array.isEmpty)
            for status in swift.array {
                let tags = (status["tags"] as? [[String: Any]] ?? []).compactMap { $0["name"] as? String }
                #expect(tags.contains("swift"))
                #expect((status["content"] as? String)?.contains("class=\"mention hashtag\" rel=\"tag\">#<span>Swift</span></a>") == true)
            }
            let posted = await server.mastodon("POST", "statuses", token: server.token, form: "status=" + formEncoded("hello #Swift world"))
            #expect(await server.mastodon("timelines/tag/Swift").stringIDs.first == posted.json?["id"] as? String)
            #expect(await server.mastodon("timelines/public?remote=true").array.isEmpty)
            let media = await server.mastodon("timelines/public?only_media=true&limit=10").array
            #expect(!media.isEmpty)
            #expect(media.allSatisfy { !($0["media_attachments"] as? [Any] ?? []).isEmpty })
            #expect(await server.mastodon("timelines/public?local=true&limit=5").array.count == 5)
        }
    }

    @Test("public preview off: public and tag timelines are 401 without a token, 200 with; home always needs one")
    func publicPreview() async throws {
        try await withSandbox(SandboxConfiguration(statuses: 50, publicPreview: false)) { server in
            let refused = await server.mastodon("timelines/public")
            #expect(refused.status == 401)
            #expect(refused.mastodonError == "This method requires an authenticated user")
            #expect(await server.mastodon("timelines/tag/swift").status == 401)
            #expect(await server.mastodon("timelines/public", token: server.token).status == 200)
            #expect(await server.mastodon("timelines/home").mastodonError == "The access token is invalid")
            // The admin switch turns it back on; a reset restores the configured value.
            let on = await server.admin("POST", "mastodon", body: "{\"public_preview\":true}")
            #expect(on.json?["public_preview"] as? Bool == true)
            #expect(await server.mastodon("timelines/public").status == 200)
            server.reset()
            #expect(server.publicPreview == false)
            #expect(await server.mastodon("timelines/public").status == 401)
            server.setPublicPreview(true)
            #expect(await server.mastodon("timelines/public").status == 200)
        }
    }

    @Test("account statuses page with Link and exclude_reblogs; an unknown account is 404 Record not found")
    func accountStatuses() async throws {
        try await withSandbox(SandboxConfiguration(statuses: 400)) { server in
            let uid = server.accounts[0].uid
            let first = await server.mastodon("accounts/\(uid)/statuses?limit=2")
            #expect(first.status == 200)
            #expect(first.array.allSatisfy { ($0["account"] as? [String: Any])?["id"] as? String == String(uid) })
            if let next = first.links["next"] {
                let second = await server.follow(next)
                #expect(Set(second.stringIDs).isDisjoint(with: first.stringIDs))
            }
            let noBoosts = await server.mastodon("accounts/\(uid)/statuses?limit=40&exclude_reblogs=true").array
            #expect(noBoosts.allSatisfy { $0["reblog"] is NSNull })
            let missing = await server.mastodon("accounts/1799999999/statuses")
            #expect(missing.status == 404)
            #expect(missing.mastodonError == "Record not found")
        }
    }
}
