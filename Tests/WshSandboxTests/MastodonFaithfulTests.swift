import Foundation
import Testing
import WshSandbox

/// Issue 34, part 2: the Mastodon side answers as Mastodon 4 documents it:
/// replies are statuses, the endpoints real clients call, filters, expiring
/// mutes, exclusive lists and replies policies.
@Suite("Mastodon, faithfully: replies as statuses, profile edits, favourited_by, filters, expiring mutes, lists")
struct MastodonFaithfulTests {
    /// A multipart upload of a tiny GIF by `token`.
    func upload(_ server: SandboxServer, token: String) async -> String? {
        let boundary = "wshBoundary9"
        let body = "--\(boundary)\r\nContent-Disposition: form-data; name=\"file\"; filename=\"a.gif\"\r\n"
            + "Content-Type: image/gif\r\n\r\nGIF89a pixels\r\n--\(boundary)--\r\n"
        return await server.mastodon("POST", "v2/media", token: token, form: body,
                                     headers: ["Content-Type": "multipart/form-data; boundary=\(boundary)"]).json?["id"] as? String
    }

    @Test("a reply is a status: in its author's statuses (exclude_replies honoured), in the parent's context, with media and a poll; Weibo still sees a comment")
    func replyIsAStatus() async throws {
        try await withSandbox(SandboxConfiguration(statuses: 40)) { server in
            let root = try #require(await server.mastodon("POST", "statuses", token: server.token, form: "status=root").json?["id"] as? String)
            let media = try #require(await upload(server, token: server.second.token))
            let reply = await server.mastodon("POST", "statuses", token: server.second.token,
                                              form: "status=with+a+picture&in_reply_to_id=\(root)&media_ids[]=\(media)")
            #expect(reply.status == 200, "\(reply.text)")
            let replyID = try #require(reply.json?["id"] as? String)
            #expect(reply.json?["in_reply_to_id"] as? String == root)
            #expect(reply.json?["in_reply_to_account_id"] as? String == String(server.accounts[0].uid))
            #expect((reply.json?["media_attachments"] as? [[String: Any]])?.first?["id"] as? String == media)
            let poll = await server.mastodon("POST", "statuses", token: server.token,
                                             form: "status=vote&in_reply_to_id=\(replyID)&poll[options][]=yes&poll[options][]=no&poll[expires_in]=3600")
            #expect(poll.status == 200, "\(poll.text)")
            let pollID = try #require(poll.json?["id"] as? String)
            #expect((poll.json?["poll"] as? [String: Any])?["options"] as? [[String: Any]] != nil)

            // In its author's statuses; exclude_replies leaves out a reply to someone else.
            let author = String(server.second.uid)
            #expect(await server.mastodon("accounts/\(author)/statuses?limit=5").stringIDs.first == replyID)
            #expect(!(await server.mastodon("accounts/\(author)/statuses?limit=5&exclude_replies=true").stringIDs.contains(replyID)))
            let account = await server.mastodon("accounts/\(author)").json
            #expect(account?["statuses_count"] as? Int == (await server.get("users/show.json", "uid=\(author)").json?["statuses_count"] as? Int))

            // The parent's context, in thread order; the reply's ancestors.
            let context = try #require(await server.mastodon("statuses/\(root)/context").json)
            #expect((context["descendants"] as? [[String: Any]])?.compactMap { $0["id"] as? String } == [replyID, pollID])
            let below = try #require(await server.mastodon("statuses/\(pollID)/context").json)
            #expect((below["ancestors"] as? [[String: Any]])?.compactMap { $0["id"] as? String } == [root, replyID])
            #expect(await server.mastodon("statuses/\(root)").json?["replies_count"] as? Int == 2)
            #expect(await server.mastodon("statuses/\(replyID)").json?["replies_count"] as? Int == 1)

            // A reply is a status: it can be favourited and boosted.
            #expect(await server.mastodon("POST", "statuses/\(replyID)/favourite", token: server.token).json?["favourited"] as? Bool == true)

            // The Weibo side still shows the replies as comments, the second answering the first.
            let comments = await server.get("comments/show.json", "id=\(root)").json?["comments"] as? [[String: Any]]
            #expect(comments?.compactMap { $0["text"] as? String } == ["vote", "with a picture"])
            #expect(comments?.first?["reply_comment"] != nil)

            // Deleting the reply takes its comment with it.
            #expect(await server.mastodon("DELETE", "statuses/\(pollID)", token: server.token).status == 200)
            #expect(await server.get("comments/show.json", "id=\(root)").json?["total_number"] as? Int == 1)
            #expect(await server.mastodon("statuses/\(replyID)").json?["replies_count"] as? Int == 0)
        }
    }

    @Test("timelines take replies as Mastodon does: public leaves out replies to others, home needs the one replied to followed")
    func repliesOnTimelines() async throws {
        try await withSandbox(SandboxConfiguration(statuses: 40)) { server in
            let root = try #require(await server.mastodon("POST", "statuses", token: server.token, form: "status=root").json?["id"] as? String)
            let thread = try #require(await server.mastodon("POST", "statuses", token: server.token,
                                                            form: "status=more&in_reply_to_id=\(root)").json?["id"] as? String)
            let answer = try #require(await server.mastodon("POST", "statuses", token: server.second.token,
                                                            form: "status=answer&in_reply_to_id=\(root)").json?["id"] as? String)
            let publicIDs = await server.mastodon("timelines/public?limit=10").stringIDs
            #expect(publicIDs.contains(thread), "a self-reply (a thread) is public")
            #expect(!publicIDs.contains(answer), "a reply to someone else is not")

            // Account 3 follows account 2 only: account 2's reply to account 1 stays off its home.
            let third = server.accounts[2].token
            for user in [server.accounts[0], server.accounts[1]] {
                _ = await server.mastodon("POST", "accounts/\(user.uid)/unfollow", token: third)
            }
            _ = await server.mastodon("POST", "accounts/\(server.second.uid)/follow", token: third)
            #expect(!(await server.mastodon("timelines/home?limit=10", token: third).stringIDs.contains(answer)))
            _ = await server.mastodon("POST", "accounts/\(server.accounts[0].uid)/follow", token: third)
            #expect(await server.mastodon("timelines/home?limit=10", token: third).stringIDs.contains(answer))
            // The one replied to sees it on their home once they follow its author: it answers them.
            _ = await server.mastodon("POST", "accounts/\(server.second.uid)/unfollow", token: server.token)
            _ = await server.mastodon("POST", "accounts/\(server.second.uid)/follow", token: server.token)
            #expect(await server.mastodon("timelines/home?limit=10", token: server.token).stringIDs.contains(answer))
        }
    }

    @Test("update_credentials changes the profile everyone sees and answers the CredentialAccount with source")
    func updateCredentials() async throws {
        try await withSandbox(SandboxConfiguration(statuses: 10)) { server in
            let form = "display_name=" + formEncoded("新名字 New") + "&note=" + formEncoded("line one\n<b>two</b>")
                + "&locked=true&bot=1&fields_attributes[0][name]=Site&fields_attributes[0][value]=https%3A%2F%2Fexample.org"
                + "&fields_attributes[1][name]=Pronouns&fields_attributes[1][value]=they"
            let updated = await server.mastodon("PATCH", "accounts/update_credentials", token: server.token, form: form)
            #expect(updated.status == 200, "\(updated.text)")
            let json = try #require(updated.json)
            #expect(json["display_name"] as? String == "新名字 New")
            #expect(json["note"] as? String == "<p>line one<br />&lt;b&gt;two&lt;/b&gt;</p>")
            #expect(json["locked"] as? Bool == true)
            #expect(json["bot"] as? Bool == true)
            #expect((json["fields"] as? [[String: Any]])?.compactMap { $0["name"] as? String } == ["Site", "Pronouns"])
            let source = try #require(json["source"] as? [String: Any])
            #expect(source["note"] as? String == "line one\n<b>two</b>")
            #expect((source["fields"] as? [[String: Any]])?.first?["value"] as? String == "https://example.org")
            // Others see it too; a JSON body works; no token is 401.
            let seen = await server.mastodon("accounts/\(server.accounts[0].uid)").json
            #expect(seen?["display_name"] as? String == "新名字 New")
            #expect(seen?["source"] == nil)
            let again = await server.mastodon("PATCH", "accounts/update_credentials", token: server.token,
                                              form: "{\"display_name\":\"json\",\"locked\":false}", headers: ["Content-Type": "application/json"])
            #expect(again.json?["display_name"] as? String == "json")
            #expect(again.json?["locked"] as? Bool == false)
            #expect(again.json?["bot"] as? Bool == true, "what is not sent stays")
            #expect(await server.mastodon("PATCH", "accounts/update_credentials", form: "note=x").status == 401)
        }
    }

    @Test("favourited_by and reblogged_by list the accounts, newest first, paged by Link with the favourite's own ids")
    func favouritedAndRebloggedBy() async throws {
        try await withSandbox(SandboxConfiguration(statuses: 30)) { server in
            let id = "4000000000000010"
            for account in server.accounts {
                #expect(await server.mastodon("POST", "statuses/\(id)/favourite", token: account.token).status == 200)
            }
            // A favourite made elsewhere in between: the record ids are not the status's.
            _ = await server.mastodon("POST", "statuses/4000000000000011/favourite", token: server.token)
            let first = await server.mastodon("statuses/\(id)/favourited_by?limit=2")
            #expect(first.stringIDs == [String(server.accounts[2].uid), String(server.accounts[1].uid)])
            let next = try #require(first.links["next"])
            #expect(next.contains("max_id=2"), "\(next)")
            let rest = await server.follow(next)
            #expect(rest.stringIDs == [String(server.accounts[0].uid)])
            #expect(rest.links["next"] == nil)
            let newer = await server.mastodon("statuses/\(id)/favourited_by?since_id=1")
            #expect(newer.stringIDs == [String(server.accounts[2].uid), String(server.accounts[1].uid)])

            _ = await server.mastodon("POST", "statuses/\(id)/reblog", token: server.second.token)
            _ = await server.mastodon("POST", "statuses/\(id)/reblog", token: server.token)
            let boosters = await server.mastodon("statuses/\(id)/reblogged_by")
            #expect(boosters.stringIDs == [String(server.accounts[0].uid), String(server.second.uid)])
            #expect(await server.mastodon("statuses/4000000000099999/favourited_by").status == 404)
        }
    }

    @Test("custom_emojis lists the seed's emoji with its category")
    func customEmojis() async throws {
        try await withSandbox(SandboxConfiguration(statuses: 10)) { server in
            let emojis = await server.mastodon("custom_emojis").array
            #expect(emojis.count == 1)
            #expect(emojis.first?["shortcode"] as? String == "wsh")
            #expect((emojis.first?["url"] as? String)?.hasPrefix(server.mastodonBaseURL) == true)
            #expect(emojis.first?["static_url"] as? String != nil)
            #expect(emojis.first?["visible_in_picker"] as? Bool == true)
            #expect(emojis.first?["category"] as? String == "wsh")
        }
    }

    @Test("filters v2: CRUD, keywords with whole_word, statuses carry filtered in every context (timelines, a status, a thread, notifications), hide too, expiry by the clock")
    func filters() async throws {
        let clock = SandboxClock.manual()
        try await withSandbox(SandboxConfiguration(statuses: 30, clock: clock)) { server in
            _ = await server.mastodon("POST", "statuses", token: server.second.token, form: "status=" + formEncoded("I like cats a lot"))
            let dogs = try #require(await server.mastodon("POST", "statuses", token: server.second.token,
                                                          form: "status=" + formEncoded("hotdogs and Dogs")).json?["id"] as? String)
            let cats = try #require(await server.mastodon("timelines/public?limit=2").stringIDs.last)

            let warn = await server.mastodon("POST", "v2/filters", token: server.token,
                                             form: "title=pets&context[]=public&context[]=home&filter_action=warn"
                                                + "&keywords_attributes[][keyword]=dogs&keywords_attributes[][whole_word]=true"
                                                + "&keywords_attributes[][keyword]=CAT&keywords_attributes[][whole_word]=false")
            #expect(warn.status == 200, "\(warn.text)")
            let filter = try #require(warn.json)
            let filterID = try #require(filter["id"] as? String)
            #expect(filter["context"] as? [String] == ["public", "home"])
            #expect(filter["filter_action"] as? String == "warn")
            let keywords = try #require(filter["keywords"] as? [[String: Any]])
            #expect(keywords.compactMap { $0["keyword"] as? String } == ["dogs", "CAT"])
            #expect(keywords.compactMap { $0["whole_word"] as? Bool } == [true, false])

            let page = await server.mastodon("timelines/public?limit=2", token: server.token).array
            let results = page.map { $0["filtered"] as? [[String: Any]] ?? [] }
            #expect(results[0].first?["keyword_matches"] as? [String] == ["Dogs"], "whole word: hotdogs does not match")
            #expect(results[1].first?["keyword_matches"] as? [String] == ["cat"])
            let named = try #require(results[0].first?["filter"] as? [String: Any])
            #expect(named["id"] as? String == filterID)
            #expect(named["keywords"] == nil, "a status's filtered names the filter without its rules")
            #expect(await server.mastodon("timelines/public?limit=2").array.allSatisfy { ($0["filtered"] as? [Any])?.isEmpty == true })
            // Whatever the context, as Mastodon 4 answers: the filter names its contexts, the client applies them.
            func filtered(_ status: [String: Any]?) -> [String] {
                (status?["filtered"] as? [[String: Any]])?.compactMap { ($0["filter"] as? [String: Any])?["id"] as? String } ?? []
            }
            let account = await server.mastodon("accounts/\(server.second.uid)/statuses?limit=1", token: server.token).array
            #expect(filtered(account.first) == [filterID], "the account context, which the filter does not name")
            #expect(filtered(await server.mastodon("statuses/\(dogs)", token: server.token).json) == [filterID])
            #expect(filtered(await server.mastodon("statuses/\(dogs)").json).isEmpty, "no token, no filters")
            // In a thread, and inside a notification's status.
            let reply = try #require(await server.mastodon("POST", "statuses", token: server.second.token,
                                                           form: "in_reply_to_id=\(cats)&status=" + formEncoded("more dogs")).json?["id"] as? String)
            let thread = try #require(await server.mastodon("statuses/\(cats)/context", token: server.token).json)
            #expect(filtered((thread["descendants"] as? [[String: Any]])?.first { $0["id"] as? String == reply }) == [filterID])
            _ = await server.mastodon("POST", "statuses", token: server.second.token,
                                      form: "status=" + formEncoded("@\(server.accounts[0].screenName) look, dogs"))
            let mention = await server.mastodon("notifications?types[]=mention&limit=1", token: server.token).array.first
            #expect(filtered(mention?["status"] as? [String: Any]) == [filterID])

            // hide: the status stays in the page, carrying the filter, whose action tells the client to leave it out.
            let hidden = await server.mastodon("PUT", "v2/filters/\(filterID)", token: server.token, form: "filter_action=hide&expires_in=3600")
            #expect(hidden.json?["filter_action"] as? String == "hide")
            #expect(hidden.json?["expires_at"] as? String == "2024-11-11T14:30:00.000Z")
            let kept = await server.mastodon("timelines/public?limit=5", token: server.token).array
            let hiddenDogs = try #require(kept.first { $0["id"] as? String == dogs })
            let result = try #require((hiddenDogs["filtered"] as? [[String: Any]])?.first)
            #expect((result["filter"] as? [String: Any])?["filter_action"] as? String == "hide")
            #expect(await server.mastodon("v2/filters", token: server.token).stringIDs == [filterID])

            // Expired: it stays listed but no longer applies.
            clock.advance(by: 3600)
            #expect(filtered(await server.mastodon("timelines/public?limit=5", token: server.token).array.first { $0["id"] as? String == dogs }).isEmpty)
            #expect(await server.mastodon("v2/filters/\(filterID)", token: server.token).status == 200)

            // Keywords on their own; delete; others' filters are 404.
            let added = await server.mastodon("POST", "v2/filters/\(filterID)/keywords", token: server.token, form: "keyword=birds")
            #expect(added.json?["whole_word"] as? Bool == true)
            #expect(await server.mastodon("v2/filters/\(filterID)/keywords", token: server.token).array.count == 3)
            #expect(await server.mastodon("v2/filters/\(filterID)", token: server.second.token).status == 404)
            #expect(await server.mastodon("POST", "v2/filters", token: server.token, form: "title=x").status == 422)
            #expect(await server.mastodon("POST", "v2/filters", token: server.token, form: "title=x&context[]=nowhere").status == 422)
            #expect(await server.mastodon("DELETE", "v2/filters/\(filterID)", token: server.token).status == 200)
            #expect(await server.mastodon("v2/filters", token: server.token).array.isEmpty)
        }
    }

    @Test("a mute with a duration ends when the clock passes it: muting false, gone from mutes, statuses back")
    func muteExpires() async throws {
        let clock = SandboxClock.manual()
        try await withSandbox(SandboxConfiguration(statuses: 30, clock: clock)) { server in
            let posted = try #require(await server.mastodon("POST", "statuses", token: server.second.token, form: "status=loud").json?["id"] as? String)
            let target = String(server.second.uid)
            let muted = await server.mastodon("POST", "accounts/\(target)/mute", token: server.token, form: "duration=600")
            #expect(muted.json?["muting"] as? Bool == true)
            let list = await server.mastodon("mutes", token: server.token).array
            #expect(list.first?["mute_expires_at"] as? String == "2024-11-11T13:40:00.000Z")
            #expect(!(await server.mastodon("timelines/public?limit=5", token: server.token).stringIDs.contains(posted)))

            clock.advance(by: 599)
            #expect(await server.mastodon("accounts/relationships?id[]=\(target)", token: server.token).array.first?["muting"] as? Bool == true)
            clock.advance(by: 1)
            #expect(await server.mastodon("accounts/relationships?id[]=\(target)", token: server.token).array.first?["muting"] as? Bool == false)
            #expect(await server.mastodon("mutes", token: server.token).array.isEmpty)
            #expect(await server.mastodon("timelines/public?limit=5", token: server.token).stringIDs.contains(posted))
        }
    }

    @Test("lists: an exclusive list's members leave home; replies_policy followed, list and none on the list's timeline")
    func exclusiveListsAndRepliesPolicy() async throws {
        try await withSandbox(SandboxConfiguration(statuses: 30)) { server in
            let me = server.token
            let third = server.accounts[2]
            // Account 1 follows accounts 2 and 3; account 2 replies to account 3 and posts.
            for account in [server.second, third] {
                _ = await server.mastodon("POST", "accounts/\(account.uid)/follow", token: me)
            }
            let other = try #require(await server.mastodon("POST", "statuses", token: third.token, form: "status=three").json?["id"] as? String)
            let reply = try #require(await server.mastodon("POST", "statuses", token: server.second.token,
                                                           form: "status=re&in_reply_to_id=\(other)").json?["id"] as? String)
            let plain = try #require(await server.mastodon("POST", "statuses", token: server.second.token, form: "status=plain").json?["id"] as? String)
            let list = try #require(await server.mastodon("POST", "lists", token: me, form: "title=two&replies_policy=list").json?["id"] as? String)
            #expect(await server.mastodon("POST", "lists/\(list)/accounts", token: me, form: "account_ids[]=\(server.second.uid)").status == 200)

            func listIDs() async -> [String] { await server.mastodon("timelines/list/\(list)?limit=10", token: me).stringIDs }
            // list: a reply to someone not on the list is left out.
            #expect(await listIDs().contains(plain))
            #expect(!(await listIDs().contains(reply)))
            _ = await server.mastodon("PUT", "lists/\(list)", token: me, form: "replies_policy=followed")
            #expect(await listIDs().contains(reply), "followed: account 1 follows account 3")
            _ = await server.mastodon("PUT", "lists/\(list)", token: me, form: "replies_policy=none")
            #expect(!(await listIDs().contains(reply)))

            #expect(await server.mastodon("timelines/home?limit=10", token: me).stringIDs.contains(plain))
            _ = await server.mastodon("PUT", "lists/\(list)", token: me, form: "exclusive=true")
            let home = await server.mastodon("timelines/home?limit=10", token: me).stringIDs
            #expect(!home.contains(plain) && !home.contains(reply), "an exclusive list's members leave home")
            #expect(home.contains(other))
        }
    }
}
