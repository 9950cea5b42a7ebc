import Foundation
import Testing
import WshSandbox

@Suite("home_timeline, mentions and repost_timeline")
struct HomeAndMentionsTests {
    func authors(_ result: HTTPResult) -> Set<String> {
        Set(result.statuses.compactMap { ($0["user"] as? [String: Any])?["idstr"] as? String })
    }

    @Test("home is the account's own statuses plus those of whom it follows, newest first")
    func home_isOwnPlusFollowed() async throws {
        try await withSandbox { server in
            let home = await server.get("statuses/home_timeline.json", "count=100")
            #expect(home.status == 200)
            let public100 = await server.get("statuses/public_timeline.json", "count=100")
            #expect(home.ids != public100.ids)
            let me = String(server.accounts[0].uid)
            var followed = Set<String>()
            for author in authors(home) where author != me {
                let user = await server.get("users/show.json", "uid=\(author)").json
                #expect(user?["following"] as? Bool == true, "\(author)")
                followed.insert(author)
            }
            #expect(!followed.isEmpty)
            // Every status in the whole timeline by those authors and me is there.
            var everything: [[String: Any]] = []
            for page in 1...5 { everything += await server.timeline(count: 200, page: page) }
            let expected = everything.filter {
                let author = ($0["user"] as? [String: Any])?["idstr"] as? String ?? ""
                return author == me || followed.contains(author)
            }.compactMap { ($0["idstr"] as? String).flatMap(Int64.init) }
            #expect(Array(expected.prefix(home.ids.count)) == home.ids)
        }
    }

    @Test("after follow the followed user's statuses join home; after unfollow they leave")
    func home_followsChangeIt() async throws {
        try await withSandbox { server in
            let stranger = try await unfollowedUser(server)
            let before = authors(await server.get("statuses/home_timeline.json", "count=100"))
            #expect(!before.contains(stranger))
            #expect(await server.post("friendships/create.json", form: "uid=\(stranger)").status == 200)
            let theirs = await server.get("statuses/user_timeline.json", "uid=\(stranger)&count=100").ids
            let after = await server.get("statuses/home_timeline.json", "count=100")
            #expect(authors(after).contains(stranger))
            #expect(Set(theirs.filter { $0 >= (after.ids.last ?? 0) }).isSubset(of: Set(after.ids)))
            #expect(await server.post("friendships/destroy.json", form: "uid=\(stranger)").status == 200)
            #expect(!authors(await server.get("statuses/home_timeline.json", "count=100")).contains(stranger))
            // A post of mine leads my home, not the second account's.
            let posted = await server.post("statuses/update.json", form: "status=home+sweet+home")
            #expect(await server.get("statuses/home_timeline.json", "count=1").statuses.first?["idstr"] as? String == posted.idstr)
            let theirHome = await server.get("statuses/home_timeline.json", "count=1", token: server.second.token)
            #expect(theirHome.statuses.first?["idstr"] as? String != posted.idstr)
        }
    }

    /// A uid with statuses that account 1 does not follow.
    func unfollowedUser(_ server: SandboxServer) async throws -> String {
        for index in 3..<50 {
            let user = await server.get("users/show.json", "uid=\(1_700_000_000 + index)").json
            if user?["following"] as? Bool == false, (user?["statuses_count"] as? Int ?? 0) > 3 {
                return String(1_700_000_000 + index)
            }
        }
        throw CancellationError()
    }

    @Test("every account has mentions in the generated data; each names it with @")
    func mentions_ofEachAccount() async throws {
        try await withSandbox(SandboxConfiguration(statuses: 200)) { server in
            for account in server.accounts {
                let mentions = await server.get("statuses/mentions.json", "count=100", token: account.token)
                #expect(mentions.statuses.count >= 3, "@\(account.screenName)")
                for status in mentions.statuses {
                    let text = status["text"] as? String ?? ""
                    #expect(text.contains("@\(account.screenName)"), "\(text)")
                }
                #expect(mentions.json?["total_number"] as? Int == mentions.statuses.count)
            }
        }
    }

    @Test("a post that mentions an account appears in that account's mentions, newest first")
    func mentions_includePosts() async throws {
        try await withSandbox { server in
            let second = server.second
            let text = "hello @\(second.screenName) 你好"
            let posted = await server.post("statuses/update.json", form: "status=" + formEncoded(text))
            let mentions = await server.get("statuses/mentions.json", "count=5", token: second.token)
            #expect(mentions.statuses.first?["idstr"] as? String == posted.idstr)
            #expect(!(await server.get("statuses/mentions.json", "count=5").ids.contains(Int64(posted.idstr ?? "") ?? 0)))
        }
    }

    @Test("repost_timeline lists a status's reposts under `reposts`, with total_number; unknown id is 20101")
    func repostTimeline() async throws {
        try await withSandbox { server in
            // A generated repost names its original; that original's repost timeline holds it.
            let repost = try #require(await server.timeline(count: 100).first { $0["retweeted_status"] != nil })
            let original = try #require((repost["retweeted_status"] as? [String: Any])?["idstr"] as? String)
            let reposts = await server.get("statuses/repost_timeline.json", "id=\(original)")
            #expect(reposts.json?["reposts"] != nil)
            #expect(reposts.ids.contains(Int64(repost["idstr"] as? String ?? "") ?? 0))
            #expect(reposts.json?["total_number"] as? Int == reposts.ids.count)
            #expect(await server.get("statuses/repost_timeline.json", "id=4000000000999999").errorCode == 20101)
            #expect(await server.get("statuses/repost_timeline.json").errorCode == 10008)
        }
    }
}
