import Foundation
import Testing
import WshSandbox

@Suite("Mastodon tags, bookmarks, favourites and lists")
struct MastodonListsTests {
    @Test("every tag a status lists in tags finds it on timelines/tag, CJK names percent-encoded, any case")
    func tagsAgreeWithThemselves() async throws {
        try await withSandbox(SandboxConfiguration(statuses: 200)) { server in
            let all = await server.mastodon("timelines/public?limit=40").array
            var checked = 0
            for (index, status) in all.enumerated() {
                let names = (status["tags"] as? [[String: Any]] ?? []).compactMap { $0["name"] as? String }
                for name in names {
                    // Start just above the status: it is the first of the tag's page below.
                    let above = index == 0 ? "" : "&max_id=\(all[index - 1]["id"] as? String ?? "")"
                    let encoded = name.uppercased().addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? name
                    let page = await server.mastodon("timelines/tag/\(encoded)?limit=40\(above)")
                    #expect(page.stringIDs.contains(status["id"] as? String ?? "-"), "#\(name) misses \(status["id"] ?? "")")
                    checked += 1
                }
            }
            #expect(checked > 0)
            #expect(all.contains { ($0["tags"] as? [[String: Any]] ?? []).contains { ($0["name"] as? String)?.unicodeScalars.contains { !$0.isASCII } == true } })
        }
    }

    @Test("bookmarks: bookmarked in statuses, newest bookmark first, Link pages by the bookmark's own id; reset forgets")
    func bookmarks() async throws {
        try await withSandbox(SandboxConfiguration(statuses: 100)) { server in
            let ids = Array(await server.mastodon("timelines/public?limit=5").stringIDs.prefix(3))
            for id in ids {
                let marked = await server.mastodon("POST", "statuses/\(id)/bookmark", token: server.token)
                #expect(marked.json?["bookmarked"] as? Bool == true)
            }
            // Bookmarking twice changes nothing, as on Mastodon.
            #expect(await server.mastodon("POST", "statuses/\(ids[0])/bookmark", token: server.token).status == 200)
            let first = await server.mastodon("bookmarks?limit=2", token: server.token)
            #expect(first.stringIDs == [ids[2], ids[1]])
            let next = try #require(first.links["next"])
            // The cursor is the bookmark's id, not a status id.
            let cursor = try #require(next.components(separatedBy: "max_id=").last)
            #expect(!ids.contains(cursor))
            #expect(await server.follow(next, token: server.token).stringIDs == [ids[0]])
            #expect(await server.mastodon("statuses/\(ids[1])", token: server.token).json?["bookmarked"] as? Bool == true)
            let unmarked = await server.mastodon("POST", "statuses/\(ids[1])/unbookmark", token: server.token)
            #expect(unmarked.json?["bookmarked"] as? Bool == false)
            #expect(await server.mastodon("bookmarks", token: server.token).stringIDs == [ids[2], ids[0]])
            #expect(await server.mastodon("bookmarks").status == 401)
            #expect(await server.admin("POST", "reset").status == 200)
            #expect(await server.mastodon("bookmarks", token: server.token).stringIDs.isEmpty)
        }
    }

    @Test("favourites: newest favourite first, paged by the favourite's own id")
    func favourites() async throws {
        try await withSandbox(SandboxConfiguration(statuses: 100)) { server in
            let ids = Array(await server.mastodon("timelines/public?limit=5").stringIDs.prefix(3))
            for id in ids { _ = await server.mastodon("POST", "statuses/\(id)/favourite", token: server.token) }
            let first = await server.mastodon("favourites?limit=2", token: server.token)
            #expect(first.stringIDs == [ids[2], ids[1]])
            let next = try #require(first.links["next"])
            #expect(!ids.contains(next.components(separatedBy: "max_id=").last ?? ""))
            #expect(await server.follow(next, token: server.token).stringIDs == [ids[0]])
        }
    }

    @Test("lists: create, show, rename, members only if followed, the list's timeline, accounts/:id/lists, delete")
    func lists() async throws {
        try await withSandbox(SandboxConfiguration(statuses: 200)) { server in
            let token = server.token
            let made = await server.mastodon("POST", "lists", token: token, form: "title=" + formEncoded("朋友 friends"))
            #expect(made.status == 200)
            let id = try #require(made.json?["id"] as? String)
            #expect(made.json?["title"] as? String == "朋友 friends")
            #expect(made.json?["replies_policy"] as? String == "list")
            #expect(made.json?["exclusive"] as? Bool == false)
            #expect(await server.mastodon("POST", "lists", token: token, form: "title=").status == 422)
            #expect(await server.mastodon("lists", token: token).stringIDs == [id])
            let renamed = await server.mastodon("PUT", "lists/\(id)", token: token, form: "title=close&replies_policy=none")
            #expect(renamed.json?["title"] as? String == "close")
            #expect(renamed.json?["replies_policy"] as? String == "none")

            let me = try #require(await server.mastodon("accounts/verify_credentials", token: token).json?["id"] as? String)
            let author = try #require(await server.mastodon("timelines/public?limit=40").array
                .compactMap { ($0["account"] as? [String: Any])?["id"] as? String }.first { $0 != me })
            let relation = await server.mastodon("accounts/relationships?id[]=\(author)", token: token).array.first
            if relation?["following"] as? Bool == true {
                _ = await server.mastodon("POST", "accounts/\(author)/unfollow", token: token)
            }
            // Mastodon keeps only followed accounts on a list.
            let refused = await server.mastodon("POST", "lists/\(id)/accounts", token: token, form: "account_ids[]=\(author)")
            #expect(refused.status == 404)
            _ = await server.mastodon("POST", "accounts/\(author)/follow", token: token)
            #expect(await server.mastodon("POST", "lists/\(id)/accounts", token: token, form: "account_ids[]=\(author)").status == 200)
            #expect(await server.mastodon("lists/\(id)/accounts", token: token).stringIDs == [author])
            #expect(await server.mastodon("accounts/\(author)/lists", token: token).stringIDs == [id])
            let timeline = await server.mastodon("timelines/list/\(id)?limit=5", token: token)
            #expect(!timeline.array.isEmpty)
            #expect(timeline.array.allSatisfy { ($0["account"] as? [String: Any])?["id"] as? String == author })
            #expect(await server.mastodon("DELETE", "lists/\(id)/accounts", token: token, form: "account_ids[]=\(author)").status == 200)
            #expect(await server.mastodon("lists/\(id)/accounts", token: token).array.isEmpty)
            #expect(await server.mastodon("DELETE", "lists/\(id)", token: token).status == 200)
            #expect(await server.mastodon("lists/\(id)", token: token).status == 404)
            #expect(await server.mastodon("timelines/list/\(id)", token: token).status == 404)
        }
    }
}
