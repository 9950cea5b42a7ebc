import Foundation
import Testing
import WshSandbox

@Suite("Mastodon accounts, relationships, follows and notifications")
struct MastodonAccountTests {
    @Test("lookup, show and verify_credentials give the same Account; unknown ones are 404")
    func accounts() async throws {
        try await withSandbox(SandboxConfiguration(statuses: 50)) { server in
            let me = server.accounts[0]
            let looked = try #require(await server.mastodon("accounts/lookup?acct=" + formEncoded(me.screenName)).json)
            #expect(looked["id"] as? String == String(me.uid))
            #expect(looked["username"] as? String == me.screenName)
            #expect(looked["acct"] as? String == me.screenName)
            #expect((looked["created_at"] as? String)?.hasSuffix("T00:00:00.000Z") == true)
            for key in ["followers_count", "following_count", "statuses_count"] { #expect(looked[key] is Int, "\(key)") }
            #expect(looked["fields"] is [[String: Any]])
            #expect(looked["bot"] as? Bool == false)
            #expect(looked["locked"] as? Bool == false)
            let host = String(server.mastodonBaseURL.dropFirst("http://".count).dropLast())
            #expect(await server.mastodon("accounts/lookup?acct=" + formEncoded("@\(me.screenName)@\(host)")).json?["id"] as? String == String(me.uid))
            #expect(await server.mastodon("accounts/lookup?acct=nobody_here").status == 404)
            #expect(await server.mastodon("accounts/lookup?acct=" + formEncoded("\(me.screenName)@mastodon.social")).status == 404)
            #expect(await server.mastodon("accounts/\(me.uid)").json?["username"] as? String == me.screenName)
            #expect(await server.mastodon("accounts/1799999999").mastodonError == "Record not found")

            let verified = await server.mastodon("accounts/verify_credentials", token: server.second.token)
            #expect(verified.json?["id"] as? String == String(server.second.uid))
            #expect(verified.json?["source"] is [String: Any])
            #expect(await server.mastodon("accounts/verify_credentials").status == 401)
            #expect(await server.mastodon("accounts/verify_credentials", token: "bogus").mastodonError == "The access token is invalid")
            // statuses_count agrees with the Weibo side.
            let weibo = await server.get("users/show.json", "uid=\(me.uid)").json?["statuses_count"] as? Int
            #expect(looked["statuses_count"] as? Int == weibo)
        }
    }

    @Test("follow and unfollow answer a Relationship, change home and both APIs' counts")
    func followChangesHome() async throws {
        try await withSandbox(SandboxConfiguration(statuses: 300)) { server in
            let token = server.token
            let home = Set(await server.mastodon("timelines/home?limit=40", token: token).array
                .compactMap { ($0["account"] as? [String: Any])?["id"] as? String })
            // Someone not followed who has statuses.
            let stranger = try #require(await server.mastodon("timelines/public?limit=40").array
                .compactMap { ($0["account"] as? [String: Any])?["id"] as? String }
                .first { !home.contains($0) && $0 != String(server.accounts[0].uid) })
            let before = await server.mastodon("accounts/relationships?id[]=\(stranger)&id[]=1799999999", token: token).array
            #expect(before.count == 1)
            #expect(before.first?["following"] as? Bool == false)
            let followers = try #require(await server.mastodon("accounts/\(stranger)").json?["followers_count"] as? Int)

            let followed = await server.mastodon("POST", "accounts/\(stranger)/follow", token: token)
            #expect(followed.json?["following"] as? Bool == true)
            #expect(followed.json?["id"] as? String == stranger)
            #expect(await server.mastodon("accounts/\(stranger)").json?["followers_count"] as? Int == followers + 1)
            let after = await server.mastodon("timelines/home?limit=40", token: token).array
            #expect(after.contains { ($0["account"] as? [String: Any])?["id"] as? String == stranger })
            #expect(await server.get("users/show.json", "uid=\(stranger)").json?["following"] as? Bool == true)
            // Following again is no error.
            #expect(await server.mastodon("POST", "accounts/\(stranger)/follow", token: token).status == 200)

            let unfollowed = await server.mastodon("POST", "accounts/\(stranger)/unfollow", token: token)
            #expect(unfollowed.json?["following"] as? Bool == false)
            let gone = await server.mastodon("timelines/home?limit=40", token: token).array
            #expect(!gone.contains { ($0["account"] as? [String: Any])?["id"] as? String == stranger })
            #expect(await server.mastodon("POST", "accounts/\(server.accounts[0].uid)/follow", token: token).status == 403)
            #expect(await server.mastodon("POST", "accounts/1799999999/follow", token: token).status == 404)
        }
    }

    @Test("@-mentions are mention notifications, paged with Link; a new mention through either API arrives first")
    func notifications() async throws {
        try await withSandbox(SandboxConfiguration(statuses: 200)) { server in
            let me = server.accounts[0]
            let first = await server.mastodon("notifications?types[]=mention&limit=2", token: me.token)
            #expect(first.status == 200)
            #expect(first.array.count == 2)
            let one = try #require(first.array.first)
            #expect(one["type"] as? String == "mention")
            let status = try #require(one["status"] as? [String: Any])
            #expect((status["mentions"] as? [[String: Any]])?.contains { $0["id"] as? String == String(me.uid) } == true)
            let next = try #require(first.links["next"])
            let second = await server.follow(next, token: me.token)
            #expect(Set(second.stringIDs).isDisjoint(with: first.stringIDs))

            func newestStatusID() async -> String? {
                (await server.mastodon("notifications", token: me.token).array.first?["status"] as? [String: Any])?["id"] as? String
            }
            let posted = await server.mastodon("POST", "statuses", token: server.second.token,
                                               form: "status=" + formEncoded("hey @\(me.screenName) look"))
            let postedID = try #require(posted.json?["id"] as? String)
            #expect(await newestStatusID() == postedID)
            let weibo = await server.post("statuses/update.json", form: "status=" + formEncoded("@\(me.screenName) 你好"),
                                          as: server.accounts[2].token)
            #expect(await newestStatusID() == weibo.idstr)
            #expect(await server.mastodon("notifications").status == 401)
        }
    }
}
