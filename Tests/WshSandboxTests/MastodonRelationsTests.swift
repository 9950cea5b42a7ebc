import Foundation
import Testing
import WshSandbox

@Suite("Mastodon search, followers/following, blocks and mutes; Weibo friendships and topic search")
struct MastodonRelationsTests {
    /// The authors of the public timeline's first page, who are not `me`.
    private func strangers(_ server: SandboxServer, but me: Int64) async -> [(id: String, acct: String)] {
        var seen: [(id: String, acct: String)] = []
        for status in await server.mastodon("timelines/public?limit=40").array {
            guard let account = status["account"] as? [String: Any], let id = account["id"] as? String,
                  let acct = account["acct"] as? String, id != String(me), !seen.contains(where: { $0.id == id }) else { continue }
            seen.append((id, acct))
        }
        return seen
    }

    @Test("v2 search finds accounts by name prefix (exact first), this host's name@host, statuses by text for a viewer, and tags the statuses carry")
    func search() async throws {
        try await withSandbox(SandboxConfiguration(statuses: 300)) { server in
            let someone = try #require(await strangers(server, but: server.accounts[0].uid).first)
            let prefix = String(someone.acct.prefix(3))
            let found = await server.mastodon("v2/search?type=accounts&q=" + formEncoded(prefix), token: server.token).json
            let accts = (found?["accounts"] as? [[String: Any]] ?? []).compactMap { $0["acct"] as? String }
            #expect(accts.contains(someone.acct))
            #expect(accts.allSatisfy { $0.lowercased().hasPrefix(prefix.lowercased()) })
            #expect((found?["statuses"] as? [Any])?.isEmpty == true)       // type=accounts: nothing else
            let exact = await server.mastodon("accounts/search?q=" + formEncoded(someone.acct), token: server.token).array
            #expect(exact.first?["acct"] as? String == someone.acct)

            let host = String(server.mastodonBaseURL.dropFirst("http://".count).dropLast())
            let resolved = await server.mastodon("v2/search?resolve=true&q=" + formEncoded("@\(someone.acct)@\(host)"), token: server.token)
            #expect((resolved.json?["accounts"] as? [[String: Any]])?.map { $0["id"] as? String } == [someone.id])
            let remote = await server.mastodon("v2/search?resolve=true&q=" + formEncoded("@\(someone.acct)@mastodon.social"), token: server.token)
            #expect(remote.status == 200)
            #expect((remote.json?["accounts"] as? [Any])?.isEmpty == true)

            // A word of a public status finds it for a viewer; a visitor's search finds no statuses.
            let status = try #require(await server.mastodon("timelines/public?limit=1").array.first)
            let profile = await server.mastodon("v2/search?q=" + formEncoded(status["url"] as? String ?? ""), token: server.token)
            #expect((profile.json?["statuses"] as? [[String: Any]])?.first?["id"] as? String == status["id"] as? String)
            let text = await server.mastodon("v2/search?type=statuses&q=" + formEncoded(someone.acct), token: server.token)
            let statuses = text.json?["statuses"] as? [[String: Any]] ?? []
            #expect(!statuses.isEmpty)
            #expect(statuses.allSatisfy { ($0["content"] as? String ?? "").localizedCaseInsensitiveContains(someone.acct) })
            let anonymous = await server.mastodon("v2/search?type=statuses&q=" + formEncoded(someone.acct))
            #expect((anonymous.json?["statuses"] as? [Any])?.isEmpty == true)
            #expect(await server.mastodon("v2/search?q=x&resolve=true").status == 401)
            #expect(await server.mastodon("v2/search?q=x&type=people", token: server.token).status == 400)

            // A tag a status lists is found by search, with its uses.
            let tagged = await server.mastodon("timelines/public?limit=40").array.flatMap { $0["tags"] as? [[String: Any]] ?? [] }
            let tag = try #require(tagged.first?["name"] as? String)
            let tags = await server.mastodon("v2/search?type=hashtags&q=" + formEncoded("#" + tag), token: server.token)
            let hit = try #require((tags.json?["hashtags"] as? [[String: Any]])?.first { $0["name"] as? String == tag })
            let uses = try #require(((hit["history"] as? [[String: Any]])?.first?["uses"] as? String).flatMap { Int($0) })
            #expect(uses >= 1)
            #expect(hit["url"] as? String == server.mastodonBaseURL + "tags/" + formEncoded(tag))
        }
    }

    @Test("followers and following follow the follow graph and follow writes, paged by Link")
    func followersAndFollowing() async throws {
        try await withSandbox(SandboxConfiguration(statuses: 100)) { server in
            let me = String(server.accounts[0].uid)
            let others = await strangers(server, but: server.accounts[0].uid).prefix(2)
            #expect(others.count == 2)
            for other in others {
                _ = await server.mastodon("POST", "accounts/\(other.id)/follow", token: server.token)
                let followers = await server.mastodon("accounts/\(other.id)/followers").stringIDs
                #expect(followers.contains(me))
            }
            let following = await server.mastodon("accounts/\(me)/following?limit=80").stringIDs
            #expect(others.allSatisfy { following.contains($0.id) })
            // Page by one: each next link gives the next account, no repeats, to the end.
            var page = await server.mastodon("accounts/\(me)/following?limit=1")
            var walked = page.stringIDs
            while let next = page.links["next"] {
                page = await server.follow(next)
                walked += page.stringIDs
            }
            #expect(walked == following)
            _ = await server.mastodon("POST", "accounts/\(others.first!.id)/unfollow", token: server.token)
            #expect(!(await server.mastodon("accounts/\(others.first!.id)/followers").stringIDs.contains(me)))
            #expect(await server.mastodon("accounts/1799999999/followers").status == 404)
        }
    }

    @Test("block ends follows, hides their statuses, lists them and shows in relationships; unblock takes it back")
    func block() async throws {
        try await withSandbox(SandboxConfiguration(statuses: 300)) { server in
            let token = server.token
            let other = try #require(await strangers(server, but: server.accounts[0].uid).first)
            _ = await server.mastodon("POST", "accounts/\(other.id)/follow", token: token)
            #expect(await homeAuthors(server).contains(other.id))
            let blocked = await server.mastodon("POST", "accounts/\(other.id)/block", token: token).json
            #expect(blocked?["blocking"] as? Bool == true)
            #expect(blocked?["following"] as? Bool == false)
            #expect(!(await homeAuthors(server).contains(other.id)))
            #expect(!(await server.mastodon("timelines/public?limit=40", token: token).array
                .contains { ($0["account"] as? [String: Any])?["id"] as? String == other.id }))
            #expect(await server.mastodon("blocks", token: token).stringIDs == [other.id])
            #expect(await server.mastodon("accounts/relationships?id[]=\(other.id)", token: token).array.first?["blocking"] as? Bool == true)
            #expect(await server.mastodon("POST", "accounts/\(other.id)/block", token: token).status == 200)   // idempotent
            #expect(await server.mastodon("POST", "accounts/\(other.id)/unblock", token: token).json?["blocking"] as? Bool == false)
            #expect(await server.mastodon("blocks", token: token).stringIDs.isEmpty)
            #expect(await server.mastodon("POST", "accounts/\(server.accounts[0].uid)/block", token: token).status == 403)
            #expect(await server.mastodon("blocks").status == 401)
        }
    }

    @Test("a server mute hides a followed account's statuses until unmuted, keeps its options, and reset forgets it")
    func mute() async throws {
        try await withSandbox(SandboxConfiguration(statuses: 300)) { server in
            let token = server.token
            let other = try #require(await strangers(server, but: server.accounts[0].uid).first)
            _ = await server.mastodon("POST", "accounts/\(other.id)/follow", token: token)
            let muted = await server.mastodon("POST", "accounts/\(other.id)/mute", token: token,
                                              form: "notifications=false&duration=3600").json
            #expect(muted?["muting"] as? Bool == true)
            #expect(muted?["muting_notifications"] as? Bool == false)
            #expect(muted?["following"] as? Bool == true)                 // a mute leaves the follow
            #expect(!(await homeAuthors(server).contains(other.id)))
            let listed = await server.mastodon("mutes", token: token).array
            #expect(listed.map { $0["id"] as? String } == [other.id])
            #expect(listed.first?["mute_expires_at"] is String)
            #expect(await server.mastodon("POST", "accounts/\(other.id)/mute", token: token, form: "duration=soon").status == 422)
            #expect(await server.mastodon("POST", "accounts/\(other.id)/unmute", token: token).json?["muting"] as? Bool == false)
            #expect(await homeAuthors(server).contains(other.id))
            _ = await server.mastodon("POST", "accounts/\(other.id)/mute", token: token)
            #expect(await server.admin("POST", "reset").status == 200)
            #expect(await server.mastodon("mutes", token: token).array.isEmpty)
        }
    }

    @Test("Weibo: friendships/friends and followers page by cursor with users and next_cursor; search/topics finds statuses")
    func weibo() async throws {
        try await withSandbox(SandboxConfiguration(statuses: 300)) { server in
            let me = server.accounts[0].uid
            let friends = await server.get("friendships/friends.json", "uid=\(me)&count=200").json
            let all = (friends?["users"] as? [[String: Any]] ?? []).compactMap { $0["idstr"] as? String }
            #expect(!all.isEmpty)
            #expect(friends?["total_number"] as? Int == all.count)
            #expect((friends?["users"] as? [[String: Any]])?.allSatisfy { $0["following"] as? Bool == true } == true)
            var cursor = 0
            var walked: [String] = []
            repeat {
                let page = await server.get("friendships/friends.json", "uid=\(me)&count=2&cursor=\(cursor)").json
                walked += (page?["users"] as? [[String: Any]] ?? []).compactMap { $0["idstr"] as? String }
                cursor = page?["next_cursor"] as? Int ?? 0
            } while cursor != 0
            #expect(walked == all)
            let followed = try #require(all.first)
            let followers = await server.get("friendships/followers.json", "uid=\(followed)").json
            #expect((followers?["users"] as? [[String: Any]])?.contains { $0["idstr"] as? String == String(me) } == true)

            let topics = await server.get("search/topics.json", "q=" + formEncoded("Swift") + "&count=5").json
            let statuses = topics?["statuses"] as? [[String: Any]] ?? []
            #expect(!statuses.isEmpty)
            #expect(statuses.allSatisfy { ($0["text"] as? String ?? "").localizedCaseInsensitiveContains("swift") })
            #expect(await server.get("search/topics.json").errorCode == 10008)
        }
    }

    /// The authors of the viewer's home timeline's first 40.
    private func homeAuthors(_ server: SandboxServer) async -> Set<String> {
        Set(await server.mastodon("timelines/home?limit=40", token: server.token).array
            .compactMap { ($0["account"] as? [String: Any])?["id"] as? String })
    }
}
