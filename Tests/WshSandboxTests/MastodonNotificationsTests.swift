import Foundation
import Testing
import WshSandbox

@Suite("Mastodon notifications and conversations: generated, made by other accounts' writes, dismissed, cleared")
struct MastodonNotificationsTests {
    /// The id of `account`'s newest own status (not a boost).
    private func newestStatus(of account: SandboxAccount, _ server: SandboxServer) async throws -> String {
        let own = await server.mastodon("accounts/\(account.uid)/statuses?exclude_reblogs=true&limit=1")
        return try #require(own.stringIDs.first)
    }

    @Test("the generated world notifies mentions, edits, favourites, boosts, follows and polls, the same for the same seed")
    func generated() async throws {
        // The same seed, the same notifications (bodies differ only in the port of their URLs).
        var runs: [[String]] = []
        for _ in 0..<2 {
            try await withSandbox(SandboxConfiguration(statuses: 600)) { server in
                let me = server.accounts[0]
                var types: Set<String> = []
                var next: String? = nil
                var page = await server.mastodon("notifications?limit=80", token: me.token)
                var seen: [String] = []
                while true {
                    for notification in page.array {
                        seen.append([notification["id"], notification["type"], (notification["account"] as? [String: Any])?["id"],
                                     (notification["status"] as? [String: Any])?["id"]].map { "\($0 ?? "-")" }.joined(separator: " "))
                        let type = try #require(notification["type"] as? String)
                        types.insert(type)
                        #expect(notification["id"] is String)
                        #expect(notification["created_at"] is String)
                        #expect(notification["group_key"] is String)
                        #expect((notification["account"] as? [String: Any])?["id"] is String)
                        // A follow is about no status; everything else is about one.
                        #expect((notification["status"] == nil) == (type == "follow"), "\(type)")
                    }
                    next = page.links["next"]
                    guard let link = next else { break }
                    page = await server.follow(link, token: me.token)
                }
                #expect(types.isSuperset(of: ["mention", "favourite", "reblog", "follow"]), "\(types)")
                runs.append(seen)
            }
        }
        #expect(runs[0].count > 40)
        #expect(runs[0] == runs[1])
    }

    @Test("types[], exclude_types[], account_id, max_id/min_id and limit filter and page")
    func filters() async throws {
        try await withSandbox(SandboxConfiguration(statuses: 600)) { server in
            let me = server.accounts[0]
            let favourites = await server.mastodon("notifications?types[]=favourite&limit=80", token: me.token).array
            #expect(!favourites.isEmpty)
            #expect(favourites.allSatisfy { $0["type"] as? String == "favourite" })
            let noMentions = await server.mastodon("notifications?exclude_types[]=mention&exclude_types[]=follow&limit=80", token: me.token).array
            #expect(!noMentions.isEmpty)
            #expect(noMentions.allSatisfy { !["mention", "follow"].contains($0["type"] as? String ?? "") })
            let who = try #require((favourites.first?["account"] as? [String: Any])?["id"] as? String)
            let fromOne = await server.mastodon("notifications?account_id=\(who)&limit=80", token: me.token).array
            #expect(!fromOne.isEmpty)
            #expect(fromOne.allSatisfy { ($0["account"] as? [String: Any])?["id"] as? String == who })

            let first = await server.mastodon("notifications?limit=3", token: me.token)
            #expect(first.array.count == 3)
            let older = await server.follow(try #require(first.links["next"]), token: me.token)
            #expect(older.array.count == 3)
            #expect(Set(older.stringIDs).isDisjoint(with: first.stringIDs))
            let newer = await server.follow(try #require(older.links["prev"]), token: me.token)
            #expect(newer.stringIDs == first.stringIDs)
            #expect(await server.mastodon("notifications").status == 401)
            #expect(await server.mastodon("notifications?max_id=nonsense", token: me.token).status == 400)
        }
    }

    @Test("another account's favourite, boost, reply, follow and mention each notify the author, newest first")
    func madeByWrites() async throws {
        try await withSandbox(SandboxConfiguration(statuses: 200)) { server in
            let me = server.accounts[0]
            let other = server.second.token
            let mine = try await newestStatus(of: me, server)
            func newest() async -> [String: Any] { await server.mastodon("notifications?limit=1", token: me.token).array.first ?? [:] }
            func about(_ notification: [String: Any]) -> String? { (notification["status"] as? [String: Any])?["id"] as? String }
            func by(_ notification: [String: Any]) -> String? { (notification["account"] as? [String: Any])?["id"] as? String }

            _ = await server.mastodon("POST", "statuses/\(mine)/favourite", token: other)
            var top = await newest()
            #expect(top["type"] as? String == "favourite")
            #expect(about(top) == mine)
            #expect(by(top) == String(server.second.uid))

            _ = await server.mastodon("POST", "statuses/\(mine)/reblog", token: other)
            top = await newest()
            #expect(top["type"] as? String == "reblog")
            #expect(about(top) == mine)

            let reply = await server.mastodon("POST", "statuses", token: other, form: "status=nice&in_reply_to_id=\(mine)")
            top = await newest()
            #expect(top["type"] as? String == "mention")
            #expect(about(top) == reply.json?["id"] as? String)
            #expect((top["status"] as? [String: Any])?["in_reply_to_id"] as? String == mine)

            _ = await server.mastodon("POST", "accounts/\(me.uid)/unfollow", token: other)
            _ = await server.mastodon("POST", "accounts/\(me.uid)/follow", token: other)
            top = await newest()
            #expect(top["type"] as? String == "follow")
            #expect(top["status"] == nil)

            let mention = await server.mastodon("POST", "statuses", token: other, form: "status=" + formEncoded("hi @\(me.screenName)"))
            top = await newest()
            #expect(top["type"] as? String == "mention")
            #expect(about(top) == mention.json?["id"] as? String)

            // Acting on one's own status tells no one.
            let before = await server.mastodon("notifications?limit=1", token: me.token).stringIDs
            _ = await server.mastodon("POST", "statuses/\(mine)/unfavourite", token: me.token)
            _ = await server.mastodon("POST", "statuses/\(mine)/favourite", token: me.token)
            #expect(await server.mastodon("notifications?limit=1", token: me.token).stringIDs == before)
            // A deleted status takes its notifications with it.
            _ = await server.mastodon("DELETE", "statuses/\(try #require(mention.json?["id"] as? String))", token: other)
            #expect(about(await newest()) != mention.json?["id"] as? String)
        }
    }

    @Test("GET /notifications/:id; dismiss removes one (404 after); clear removes all, later ones still arrive; reset brings them back")
    func dismissAndClear() async throws {
        try await withSandbox(SandboxConfiguration(statuses: 200)) { server in
            let me = server.accounts[0]
            let all = await server.mastodon("notifications?limit=80", token: me.token).stringIDs
            let first = try #require(all.first)
            #expect(await server.mastodon("notifications/\(first)", token: me.token).json?["id"] as? String == first)
            let dismissed = await server.mastodon("POST", "notifications/\(first)/dismiss", token: me.token)
            #expect(dismissed.status == 200)
            #expect(dismissed.json?.isEmpty == true)
            #expect(await server.mastodon("notifications/\(first)", token: me.token).status == 404)
            #expect(await server.mastodon("POST", "notifications/\(first)/dismiss", token: me.token).status == 404)
            #expect(await server.mastodon("notifications?limit=80", token: me.token).stringIDs == Array(all.dropFirst()))
            // Another account's notifications are not touched.
            #expect(!(await server.mastodon("notifications", token: server.second.token).array.isEmpty))

            #expect(await server.mastodon("POST", "notifications/clear", token: me.token).status == 200)
            #expect(await server.mastodon("notifications", token: me.token).array.isEmpty)
            let mine = try await newestStatus(of: me, server)
            _ = await server.mastodon("POST", "statuses/\(mine)/favourite", token: server.second.token)
            #expect(await server.mastodon("notifications", token: me.token).array.map { $0["type"] as? String } == ["favourite"])

            _ = await server.admin("POST", "reset")
            #expect(await server.mastodon("notifications?limit=80", token: me.token).stringIDs == all)
        }
    }

    @Test("the seed's conversations: each account's, with accounts, last_status (a direct reply in a thread), unread")
    func seededConversations() async throws {
        try await withSandbox(SandboxConfiguration(statuses: 100)) { server in
            let me = server.accounts[0]
            let mine = await server.mastodon("conversations", token: me.token).array
            // With account 2 (they answered last: unread), with account 3 (I wrote last: read), with a user who is no account.
            #expect(mine.count == 3)
            func with(_ conversation: [String: Any]) -> [String] {
                (conversation["accounts"] as? [[String: Any]])?.compactMap { $0["id"] as? String } ?? []
            }
            let second = try #require(mine.first { with($0) == [String(server.second.uid)] })
            let third = try #require(mine.first { with($0) == [String(server.accounts[2].uid)] })
            #expect(second["unread"] as? Bool == true)
            #expect(third["unread"] as? Bool == false)
            let last = try #require(second["last_status"] as? [String: Any])
            #expect(last["visibility"] as? String == "direct")
            #expect((last["account"] as? [String: Any])?["id"] as? String == String(server.second.uid))
            #expect((last["content"] as? String)?.contains("@<span>\(me.screenName)</span>") == true)
            let lastID = try #require(last["id"] as? String)
            let parentID = try #require(last["in_reply_to_id"] as? String)
            // Its thread: the message it answers, by me; it is no public status, nor on the Weibo side.
            let context = try #require(await server.mastodon("statuses/\(lastID)/context", token: me.token).json)
            #expect((context["ancestors"] as? [[String: Any]])?.compactMap { $0["id"] as? String } == [parentID])
            #expect(await server.mastodon("statuses/\(parentID)", token: me.token).json?["replies_count"] as? Int == 1)
            #expect(!(await server.mastodon("timelines/public?limit=40").stringIDs.contains(lastID)))
            #expect(await server.get("statuses/show.json", "id=\(lastID)").status == 404)
            // Newest last status first, each conversation once for each of its people.
            let times = mine.compactMap { ($0["last_status"] as? [String: Any])?["id"] as? String }
            #expect(times == times.sorted(by: >))
            let theirs = await server.mastodon("conversations", token: server.second.token).array
            #expect(theirs.first { with($0) == [String(me.uid)] }?["unread"] as? Bool == false)
            #expect(theirs.first { with($0) == [String(me.uid)] }?["id"] as? String == second["id"] as? String)
        }
    }

    @Test("a status posted with visibility=direct starts or continues a conversation for everyone in it, and is not public")
    func conversations() async throws {
        try await withSandbox(SandboxConfiguration(statuses: 100, accounts: 4)) { server in
            let me = server.accounts[0]
            // With four accounts, each has seeded conversations with its neighbours (1–2, 2–3, 3–4, 4–1): not 1 with 3.
            let third = server.accounts[2]
            let before = await server.mastodon("conversations", token: me.token).stringIDs
            // Account 3 and I have none yet: a new one.
            let sent = await server.mastodon("POST", "statuses", token: third.token,
                                             form: "visibility=direct&status=" + formEncoded("@\(me.screenName) psst"))
            let id = try #require(sent.json?["id"] as? String)
            let mine = await server.mastodon("conversations", token: me.token).array
            #expect(mine.count == before.count + 1)
            let conversation = try #require(mine.first)
            let conversationID = try #require(conversation["id"] as? String)
            #expect(!before.contains(conversationID))
            #expect(conversation["unread"] as? Bool == true)
            #expect((conversation["accounts"] as? [[String: Any]])?.map { $0["id"] as? String } == [String(third.uid)])
            #expect((conversation["last_status"] as? [String: Any])?["id"] as? String == id)
            #expect((conversation["last_status"] as? [String: Any])?["visibility"] as? String == "direct")
            let theirs = await server.mastodon("conversations", token: third.token).array
            #expect(theirs.first?["unread"] as? Bool == false)
            #expect(theirs.first?["id"] as? String == conversationID)
            #expect(!(await server.mastodon("conversations", token: server.accounts[3].token).stringIDs.contains(conversationID)))
            #expect(!(await server.mastodon("timelines/public?limit=40").stringIDs.contains(id)))

            let read = await server.mastodon("POST", "conversations/\(conversationID)/read", token: me.token)
            #expect(read.json?["unread"] as? Bool == false)
            #expect(await server.mastodon("conversations", token: me.token).array.first?["unread"] as? Bool == false)

            // A seeded conversation goes on: the same id, the new message last, first in the list, unread again.
            let seeded = try #require(before.last)
            let withSecond = try #require(await server.mastodon("conversations", token: me.token).array.first {
                ($0["accounts"] as? [[String: Any]])?.first?["id"] as? String == String(server.second.uid)
            })
            _ = await server.mastodon("POST", "conversations/\(withSecond["id"] as? String ?? "")/read", token: me.token)
            let again = await server.mastodon("POST", "statuses", token: server.second.token,
                                              form: "visibility=direct&status=" + formEncoded("@\(me.screenName) and again"))
            let newest = try #require(await server.mastodon("conversations", token: me.token).array.first)
            #expect(newest["id"] as? String == withSecond["id"] as? String)
            #expect(newest["unread"] as? Bool == true)
            #expect((newest["last_status"] as? [String: Any])?["id"] as? String == again.json?["id"] as? String)

            // Removed: gone from my list (not from theirs), until a newer message comes.
            #expect(await server.mastodon("DELETE", "conversations/\(seeded)", token: me.token).text == "{}")
            #expect(!(await server.mastodon("conversations", token: me.token).stringIDs.contains(seeded)))
            #expect(await server.mastodon("DELETE", "conversations/\(seeded)", token: me.token).status == 404)
            #expect(await server.mastodon("DELETE", "conversations/\(conversationID)", token: me.token).status == 200)
            #expect(await server.mastodon("conversations", token: third.token).stringIDs.contains(conversationID))
            _ = await server.mastodon("POST", "statuses", token: third.token,
                                      form: "visibility=direct&status=" + formEncoded("@\(me.screenName) still there?"))
            #expect(await server.mastodon("conversations", token: me.token).array.first?["id"] as? String == conversationID)
        }
    }
}
