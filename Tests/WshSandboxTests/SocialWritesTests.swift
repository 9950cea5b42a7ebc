import Foundation
import Testing
import WshModel
import WshSandbox

@Suite("Reposts, comments, favourites and follows")
struct SocialWritesTests {
    /// A generated status by someone other than the accounts.
    func othersStatus(_ server: SandboxServer) async throws -> [String: Any] {
        let uids = Set(server.accounts.map { String($0.uid) })
        return try #require(await server.timeline(count: 50).first {
            $0["retweeted_status"] == nil && !uids.contains(($0["user"] as? [String: Any])?["idstr"] as? String ?? "")
        })
    }

    @Test("repost returns the new status with retweeted_status; the original's reposts_count grows; the repost is the actor's")
    func repost_happyPath() async throws {
        try await withSandbox { server in
            let original = try await othersStatus(server)
            let id = try #require(original["idstr"] as? String)
            let before = try #require(original["reposts_count"] as? Int)
            let result = await server.post("statuses/repost.json", form: "id=\(id)&status=" + formEncoded("好东西 👍"),
                                           as: server.second.token)
            #expect(result.status == 200)
            let repost = try ModelDecoding.decode(Status.self, from: result.data)
            #expect(repost.text == "好东西 👍")
            #expect(repost.retweetedStatus?.idstr == id)
            #expect(repost.user?.idstr == String(server.second.uid))
            #expect(await server.get("statuses/show.json", "id=\(id)").json?["reposts_count"] as? Int == before + 1)
            let reposts = await server.get("statuses/repost_timeline.json", "id=\(id)")
            #expect(reposts.statuses.first?["idstr"] as? String == repost.idstr)
            // Without text: Weibo's default remark. Reposting the repost nests the original and quotes the chain.
            let again = await server.post("statuses/repost.json", form: "id=\(repost.idstr ?? "")")
            let chained = try ModelDecoding.decode(Status.self, from: again.data)
            #expect(chained.retweetedStatus?.idstr == id)
            #expect(chained.text == "转发微博//@\(server.second.screenName):好东西 👍")
            #expect(await server.get("statuses/show.json", "id=\(id)").json?["reposts_count"] as? Int == before + 2)
            #expect(await server.get("statuses/repost_timeline.json", "id=\(repost.idstr ?? "")").ids.count == 1)
        }
    }

    @Test("repost errors: unknown id 20101, missing id 10008, text over 140 20012, GET 405")
    func repost_errors() async throws {
        try await withSandbox { server in
            #expect(await server.post("statuses/repost.json", form: "id=4000000000999999").errorCode == 20101)
            #expect(await server.post("statuses/repost.json", form: "").errorCode == 10008)
            let long = "status=" + formEncoded(String(repeating: "字", count: 141))
            #expect(await server.post("statuses/repost.json", form: "id=4000000000000500&" + long).errorCode == 20012)
            #expect(await server.get("statuses/repost.json", "id=4000000000000500").status == 405)
        }
    }

    @Test("comments/create answers the comment with its status; comments/show lists it first; comments_count grows")
    func comment_create() async throws {
        try await withSandbox { server in
            let status = try await othersStatus(server)
            let id = try #require(status["idstr"] as? String)
            let count = try #require(status["comments_count"] as? Int)
            let result = await server.post("comments/create.json", form: "id=\(id)&comment=" + formEncoded("沙发 😀"))
            #expect(result.status == 200)
            let comment = try ModelDecoding.decode(WshModel.Comment.self, from: result.data)
            #expect(comment.text == "沙发 😀")
            #expect(comment.user?.idstr == String(server.accounts[0].uid))
            #expect((result.json?["status"] as? [String: Any])?["idstr"] as? String == id)
            #expect(String(comment.id ?? 0).count == 16)
            let shown = await server.get("comments/show.json", "id=\(id)&count=5")
            #expect((shown.json?["comments"] as? [[String: Any]])?.first?["idstr"] as? String == result.idstr)
            #expect(shown.json?["total_number"] as? Int == count + 1)
            #expect(await server.get("statuses/show.json", "id=\(id)").json?["comments_count"] as? Int == count + 1)
            // Errors.
            #expect(await server.post("comments/create.json", form: "id=\(id)&comment=").errorCode == 10008)
            #expect(await server.post("comments/create.json", form: "comment=hi").errorCode == 10008)
            #expect(await server.post("comments/create.json", form: "id=4000000000999999&comment=hi").errorCode == 20101)
            let long = formEncoded(String(repeating: "字", count: 141))
            #expect(await server.post("comments/create.json", form: "id=\(id)&comment=\(long)").errorCode == 20012)
        }
    }

    @Test("comments/reply answers with reply_comment and the 回复@ prefix; an unknown cid is 20201")
    func comment_reply() async throws {
        try await withSandbox { server in
            let status = try await othersStatus(server)
            let id = try #require(status["idstr"] as? String)
            let first = await server.post("comments/create.json", form: "id=\(id)&comment=first", as: server.second.token)
            let cid = try #require(first.idstr)
            let reply = await server.post("comments/reply.json", form: "id=\(id)&cid=\(cid)&comment=second")
            #expect(reply.status == 200)
            #expect(reply.json?["text"] as? String == "回复@\(server.second.screenName):second")
            #expect((reply.json?["reply_comment"] as? [String: Any])?["idstr"] as? String == cid)
            let plain = await server.post("comments/reply.json", form: "id=\(id)&cid=\(cid)&comment=third&without_mention=1")
            #expect(plain.json?["text"] as? String == "third")
            #expect(await server.post("comments/reply.json", form: "id=\(id)&cid=4600000000999999&comment=x").errorCode == 20201)
            // A generated comment can be replied to as well.
            let generated = await server.get("comments/show.json", "id=\(id)&count=50")
            if let old = (generated.json?["comments"] as? [[String: Any]])?.last?["idstr"] as? String {
                #expect(await server.post("comments/reply.json", form: "id=\(id)&cid=\(old)&comment=ok").status == 200)
            }
        }
    }

    @Test("comments/destroy removes one's own comment from show and the counts; again is 20201")
    func comment_destroy() async throws {
        try await withSandbox { server in
            let status = try await othersStatus(server)
            let id = try #require(status["idstr"] as? String)
            let count = try #require(status["comments_count"] as? Int)
            let made = await server.post("comments/create.json", form: "id=\(id)&comment=oops")
            let cid = try #require(made.idstr)
            let destroyed = await server.post("comments/destroy.json", form: "cid=\(cid)")
            #expect(destroyed.status == 200)
            #expect(destroyed.json?["text"] as? String == "oops")
            let shown = await server.get("comments/show.json", "id=\(id)&count=200")
            #expect(!((shown.json?["comments"] as? [[String: Any]]) ?? []).contains { $0["idstr"] as? String == cid })
            #expect(shown.json?["total_number"] as? Int == count)
            let again = await server.post("comments/destroy.json", form: "cid=\(cid)")
            #expect(again.status == 404)
            #expect(again.errorCode == 20201)
            #expect(await server.post("comments/destroy.json", form: "").errorCode == 10008)
        }
    }

    @Test("favorites/create and destroy answer {status, tags, favorited_time}; twice is 20704, not favourited 20705")
    func favourites() async throws {
        try await withSandbox { server in
            let status = try await othersStatus(server)
            let id = try #require(status["idstr"] as? String)
            let me = await server.get("users/show.json", "uid=\(server.accounts[0].uid)").json
            let favouritesBefore = try #require(me?["favourites_count"] as? Int)

            let made = await server.post("favorites/create.json", form: "id=\(id)")
            #expect(made.status == 200)
            #expect((made.json?["status"] as? [String: Any])?["idstr"] as? String == id)
            #expect((made.json?["status"] as? [String: Any])?["favorited"] as? Bool == true)
            #expect((made.json?["tags"] as? [Any])?.isEmpty == true)
            #expect((made.json?["favorited_time"] as? String).flatMap(Timestamp.init(weiboText:)) != nil)
            // Favourited for me, not for the second account.
            #expect(await server.get("statuses/show.json", "id=\(id)").json?["favorited"] as? Bool == true)
            #expect(await server.get("statuses/show.json", "id=\(id)", token: server.second.token).json?["favorited"] as? Bool == false)
            let list = await server.get("favorites.json")
            #expect(((list.json?["favorites"] as? [[String: Any]])?.first?["status"] as? [String: Any])?["idstr"] as? String == id)
            #expect(list.json?["total_number"] as? Int == 1)
            #expect(await server.get("users/show.json", "uid=\(server.accounts[0].uid)").json?["favourites_count"] as? Int
                    == favouritesBefore + 1)

            let twice = await server.post("favorites/create.json", form: "id=\(id)")
            #expect(twice.status == 400)
            #expect(twice.errorCode == 20704)

            #expect(await server.post("favorites/destroy.json", form: "id=\(id)").status == 200)
            let notFavourited = await server.post("favorites/destroy.json", form: "id=\(id)")
            #expect(notFavourited.errorCode == 20705)
            #expect(await server.post("favorites/create.json", form: "id=4000000000999999").errorCode == 20101)
            #expect(await server.get("favorites.json").json?["total_number"] as? Int == 0)
        }
    }

    @Test("friendships/create and destroy answer the user; counts move; 20506 twice, 20522 not followed, 20504 self, 20003 unknown")
    func friendships() async throws {
        try await withSandbox { server in
            let me = server.accounts[0]
            let second = server.second
            // The second account may or may not follow me already; make sure it does not.
            _ = await server.post("friendships/destroy.json", form: "uid=\(me.uid)", as: second.token)
            let before = try #require(await server.get("users/show.json", "uid=\(me.uid)").json)
            let followers = try #require(before["followers_count"] as? Int)
            let theirs = try #require(await server.get("users/show.json", "uid=\(second.uid)").json?["friends_count"] as? Int)

            let followed = await server.post("friendships/create.json", form: "screen_name=" + formEncoded(me.screenName),
                                             as: second.token)
            #expect(followed.status == 200)
            #expect(followed.json?["idstr"] as? String == String(me.uid))
            #expect(followed.json?["following"] as? Bool == true)
            #expect(followed.json?["followers_count"] as? Int == followers + 1)
            #expect(await server.get("users/show.json", "uid=\(second.uid)").json?["friends_count"] as? Int == theirs + 1)
            #expect(await server.get("users/show.json", "uid=\(second.uid)").json?["follow_me"] as? Bool == true)

            let twice = await server.post("friendships/create.json", form: "uid=\(me.uid)", as: second.token)
            #expect(twice.status == 400)
            #expect(twice.errorCode == 20506)
            let unfollowed = await server.post("friendships/destroy.json", form: "uid=\(me.uid)", as: second.token)
            #expect(unfollowed.json?["following"] as? Bool == false)
            #expect(unfollowed.json?["followers_count"] as? Int == followers)
            #expect(await server.post("friendships/destroy.json", form: "uid=\(me.uid)", as: second.token).errorCode == 20522)
            #expect(await server.post("friendships/create.json", form: "uid=\(me.uid)").errorCode == 20504)
            #expect(await server.post("friendships/create.json", form: "uid=42").errorCode == 20003)
            #expect(await server.post("friendships/create.json", form: "").errorCode == 10008)
        }
    }
}
