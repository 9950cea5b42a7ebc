import Foundation
import Testing
import WshSandbox

@Suite("Mastodon statuses: show, context, post, delete, boost, favourite, across both APIs")
struct MastodonStatusTests {
    @Test("a status has Mastodon's shape: string id, ISO time with milliseconds, HTML content, account, application")
    func statusShape() async throws {
        try await withSandbox(SandboxConfiguration(statuses: 100)) { server in
            let status = try #require(await server.mastodon("statuses/4000000000000100").json)
            #expect(status["id"] as? String == "4000000000000100")
            #expect(status["created_at"] as? String == "2024-11-11T13:30:00.000Z")
            #expect((status["content"] as? String)?.hasPrefix("<p>") == true)
            #expect((status["account"] as? [String: Any])?["id"] is String)
            #expect((status["application"] as? [String: Any])?["name"] is String)
            for key in ["uri", "url", "visibility", "spoiler_text", "language"] { #expect(status[key] is String, "\(key)") }
            for key in ["replies_count", "reblogs_count", "favourites_count"] { #expect(status[key] is Int, "\(key)") }
            for key in ["media_attachments", "mentions", "tags", "emojis"] { #expect(status[key] is [Any], "\(key)") }
            // Without a token there is no per-viewer state; with one there is.
            #expect(status["favourited"] == nil)
            #expect(await server.mastodon("statuses/4000000000000100", token: server.token).json?["favourited"] as? Bool == false)
            let missing = await server.mastodon("statuses/4000000000099999")
            #expect(missing.status == 404)
            #expect(missing.mastodonError == "Record not found")
            #expect(await server.mastodon("statuses/nope").status == 404)
        }
    }

    @Test("generated extras: content warnings, polls, the :wsh: emoji, alt text, cards, boosts and quotes appear")
    func generatedExtras() async throws {
        try await withSandbox(SandboxConfiguration(statuses: 300)) { server in
            var all = (await server.mastodon("timelines/public?limit=40")).array
            for _ in 0..<6 {
                guard let next = (all.last?["id"] as? String) else { break }
                all += await server.mastodon("timelines/public?limit=40&max_id=\(next)").array
            }
            #expect(all.contains { !($0["spoiler_text"] as? String ?? "").isEmpty && $0["sensitive"] as? Bool == true })
            let polls = all.compactMap { $0["poll"] as? [String: Any] }
            let poll = try #require(polls.first)
            #expect((poll["options"] as? [[String: Any]])?.first?["title"] is String)
            let emojis = all.compactMap { ($0["emojis"] as? [[String: Any]])?.first }
            let emoji = try #require(emojis.first)
            #expect(emoji["shortcode"] as? String == "wsh")
            #expect(emoji["visible_in_picker"] as? Bool == true)
            let media = all.flatMap { $0["media_attachments"] as? [[String: Any]] ?? [] }
            #expect(media.allSatisfy { $0["type"] as? String == "image" && $0["url"] is String && $0["preview_url"] is String })
            #expect(media.contains { $0["description"] is String })
            #expect(all.contains { ($0["card"] as? [String: Any])?["url"] as? String != nil })
            let quote = try #require(all.first { $0["quote"] is [String: Any] })
            #expect((quote["content"] as? String)?.contains("class=\"quote-inline\"") == true)
            #expect(quote["reblog"] is NSNull)
            // Boosts are on home and account timelines (not public ones): content empty, reblog the original.
            let home = await server.mastodon("timelines/home?limit=40", token: server.token).array
            for boost in home where !(boost["reblog"] is NSNull) {
                #expect(boost["content"] as? String == "")
                #expect((boost["reblog"] as? [String: Any])?["id"] is String)
            }
        }
    }

    @Test("content HTML: links with invisible parts, h-card mentions, hashtags, <br />, entities escaped")
    func contentHTML() async throws {
        try await withSandbox(SandboxConfiguration(statuses: 20)) { server in
            let name = server.second.screenName
            let text = "hi @\(name) see https://www.example.com/a/very/long/path/that/goes/on/and/on & <b>\n#Swift# and #wsh"
            let posted = await server.mastodon("POST", "statuses", token: server.token, form: "status=" + formEncoded(text))
            #expect(posted.status == 200)
            let content = try #require(posted.json?["content"] as? String)
            #expect(content.hasPrefix("<p>hi <span class=\"h-card\"><a href=\"\(server.mastodonBaseURL)@"))
            #expect(content.contains("class=\"u-url mention\">@<span>\(name)</span></a></span>"))
            #expect(content.contains("<a href=\"https://www.example.com/a/very/long/path/that/goes/on/and/on\" rel=\"nofollow noopener noreferrer\" target=\"_blank\"><span class=\"invisible\">https://www.</span><span class=\"ellipsis\">example.com/a/very/long/path/t</span><span class=\"invisible\">hat/goes/on/and/on</span></a>"))
            #expect(content.contains(" &amp; &lt;b&gt;<br />"))
            #expect(content.contains("<a href=\"\(server.mastodonBaseURL)tags/swift\" class=\"mention hashtag\" rel=\"tag\">#<span>Swift</span></a> and "))
            #expect(content.hasSuffix("#<span>wsh</span></a></p>"))
            let mentions = posted.json?["mentions"] as? [[String: Any]]
            #expect(mentions?.first?["id"] as? String == String(server.second.uid))
            let tags = (posted.json?["tags"] as? [[String: Any]])?.compactMap { $0["name"] as? String }
            #expect(tags == ["swift", "wsh"])
        }
    }

    @Test("context: a status's comments are threaded replies; replies to replies follow their parent")
    func contextThreading() async throws {
        try await withSandbox(SandboxConfiguration(statuses: 30)) { server in
            let root = try #require(await server.mastodon("POST", "statuses", token: server.token, form: "status=root").json?["id"] as? String)
            let a = await server.mastodon("POST", "statuses", token: server.second.token, form: "status=a&in_reply_to_id=\(root)")
            #expect(a.status == 200)
            let aID = try #require(a.json?["id"] as? String)
            #expect(a.json?["in_reply_to_id"] as? String == root)
            #expect(a.json?["in_reply_to_account_id"] as? String == String(server.accounts[0].uid))
            let b = try #require(await server.mastodon("POST", "statuses", token: server.token, form: "status=b&in_reply_to_id=\(root)").json?["id"] as? String)
            let a1 = try #require(await server.mastodon("POST", "statuses", token: server.token, form: "status=a1&in_reply_to_id=\(aID)").json?["id"] as? String)

            let context = try #require(await server.mastodon("statuses/\(root)/context").json)
            #expect((context["ancestors"] as? [Any])?.isEmpty == true)
            let descendants = try #require(context["descendants"] as? [[String: Any]])
            #expect(descendants.compactMap { $0["id"] as? String } == [aID, a1, b])
            #expect(descendants[1]["in_reply_to_id"] as? String == aID)
            // A reply's context: the status and its parent above, nothing below.
            let below = try #require(await server.mastodon("statuses/\(a1)/context").json)
            #expect((below["ancestors"] as? [[String: Any]])?.compactMap { $0["id"] as? String } == [root, aID])
            // The Weibo side sees comments; replies_count counts them.
            #expect(await server.get("comments/show.json", "id=\(root)").json?["total_number"] as? Int == 3)
            #expect(await server.mastodon("statuses/\(root)").json?["replies_count"] as? Int == 3)
            #expect(await server.mastodon("statuses/\(aID)").json?["replies_count"] as? Int == 1)
            // Generated comments show as descendants too.
            let generated = try #require(await server.get("statuses/public_timeline.json", "count=30").statuses
                .first { ($0["comments_count"] as? Int ?? 0) > 0 })
            let id = try #require(generated["idstr"] as? String)
            let replies = await server.mastodon("statuses/\(id)/context").json?["descendants"] as? [[String: Any]]
            #expect(replies?.count == generated["comments_count"] as? Int)
            #expect(await server.mastodon("POST", "statuses", token: server.token, form: "status=x&in_reply_to_id=4000000000099999").status == 404)
        }
    }

    @Test("a post through Weibo's statuses/update.json shows on Mastodon's home, and one through Mastodon on Weibo's")
    func crossAPI() async throws {
        try await withSandbox(SandboxConfiguration(statuses: 50)) { server in
            let weibo = await server.post("statuses/update.json", form: "status=" + formEncoded("from weibo"))
            let weiboID = try #require(weibo.idstr)
            let home = await server.mastodon("timelines/home", token: server.token)
            #expect(home.stringIDs.first == weiboID)
            #expect((home.array.first?["content"] as? String) == "<p>from weibo</p>")

            let mastodon = await server.mastodon("POST", "statuses", token: server.token,
                                                 form: "status=" + formEncoded("from mastodon") + "&spoiler_text=cw&visibility=unlisted")
            let mastodonID = try #require(mastodon.json?["id"] as? String)
            #expect(mastodon.json?["spoiler_text"] as? String == "cw")
            #expect(mastodon.json?["sensitive"] as? Bool == true)
            #expect(mastodon.json?["visibility"] as? String == "unlisted")
            #expect(await server.get("statuses/home_timeline.json").ids.first == Int64(mastodonID))
            #expect(await server.get("statuses/show.json", "id=\(mastodonID)").json?["text"] as? String == "from mastodon")
            // Unlisted stays off the public timeline.
            #expect(!(await server.mastodon("timelines/public").stringIDs.contains(mastodonID)))
            #expect(server.stats.posts == 2)
        }
    }

    @Test("posting: JSON bodies work, Idempotency-Key posts once, blank and over-long text is 422")
    func postingRules() async throws {
        try await withSandbox(SandboxConfiguration(statuses: 10)) { server in
            let json = await server.mastodon("POST", "statuses", token: server.token, form: "{\"status\":\"json body\",\"sensitive\":true}",
                                             headers: ["Content-Type": "application/json"])
            #expect(json.status == 200, "\(json.text)")
            #expect(json.json?["content"] as? String == "<p>json body</p>")
            #expect(json.json?["sensitive"] as? Bool == true)

            let first = await server.mastodon("POST", "statuses", token: server.token, form: "status=once", headers: ["Idempotency-Key": "k1"])
            let again = await server.mastodon("POST", "statuses", token: server.token, form: "status=once", headers: ["Idempotency-Key": "k1"])
            #expect(first.json?["id"] as? String == again.json?["id"] as? String)
            #expect(server.stats.posts == 2)

            let blank = await server.mastodon("POST", "statuses", token: server.token, form: "status=+++")
            #expect(blank.status == 422)
            #expect(blank.mastodonError == "Validation failed: Text can't be blank")
            let long = await server.mastodon("POST", "statuses", token: server.token, form: "status=" + String(repeating: "a", count: 501))
            #expect(long.status == 422)
            #expect(await server.mastodon("POST", "statuses", token: server.token, form: "status=" + String(repeating: "a", count: 500)).status == 200)
            #expect(await server.mastodon("POST", "statuses", form: "status=x").status == 401)
        }
    }

    @Test("delete: own only (403 otherwise), answers with text, then 404; replies too")
    func deletion() async throws {
        try await withSandbox(SandboxConfiguration(statuses: 10)) { server in
            let id = try #require(await server.mastodon("POST", "statuses", token: server.token, form: "status=bye").json?["id"] as? String)
            let theirs = await server.mastodon("DELETE", "statuses/\(id)", token: server.second.token)
            #expect(theirs.status == 403)
            #expect(theirs.mastodonError == "This action is not allowed")
            let deleted = await server.mastodon("DELETE", "statuses/\(id)", token: server.token)
            #expect(deleted.status == 200)
            #expect(deleted.json?["text"] as? String == "bye")
            #expect(await server.mastodon("statuses/\(id)").status == 404)
            #expect(await server.get("statuses/show.json", "id=\(id)").errorCode == 20101)
            #expect(await server.mastodon("DELETE", "statuses/\(id)", token: server.token).status == 404)

            let reply = try #require(await server.mastodon("POST", "statuses", token: server.token,
                                                           form: "status=re&in_reply_to_id=4000000000000005").json?["id"] as? String)
            #expect(await server.mastodon("DELETE", "statuses/\(reply)", token: server.token).json?["text"] as? String == "re")
            #expect(await server.mastodon("statuses/\(reply)").status == 404)
            #expect(server.stats.deletions == 2)
        }
    }

    @Test("boost and unboost, favourite and unfavourite change counts and the caller's flags, idempotently")
    func boostAndFavourite() async throws {
        try await withSandbox(SandboxConfiguration(statuses: 30)) { server in
            let id = "4000000000000010"
            let before = try #require(await server.mastodon("statuses/\(id)", token: server.token).json)
            let reblogs = try #require(before["reblogs_count"] as? Int)
            let favourites = try #require(before["favourites_count"] as? Int)

            let boost = await server.mastodon("POST", "statuses/\(id)/reblog", token: server.token)
            #expect(boost.status == 200)
            let boostID = try #require(boost.json?["id"] as? String)
            let original = try #require(boost.json?["reblog"] as? [String: Any])
            #expect(original["id"] as? String == id)
            #expect(original["reblogged"] as? Bool == true)
            #expect(original["reblogs_count"] as? Int == reblogs + 1)
            // Again: the same boost.
            #expect(await server.mastodon("POST", "statuses/\(id)/reblog", token: server.token).json?["id"] as? String == boostID)
            // It is a Weibo repost, on home for both APIs.
            #expect(await server.get("statuses/show.json", "id=\(boostID)").json?["retweeted_status"] != nil)
            #expect(await server.mastodon("timelines/home", token: server.token).stringIDs.first == boostID)

            let unboosted = try #require(await server.mastodon("POST", "statuses/\(id)/unreblog", token: server.token).json)
            #expect(unboosted["reblogged"] as? Bool == false)
            #expect(unboosted["reblogs_count"] as? Int == reblogs)
            #expect(await server.mastodon("statuses/\(boostID)").status == 404)

            let favourited = try #require(await server.mastodon("POST", "statuses/\(id)/favourite", token: server.token).json)
            #expect(favourited["favourited"] as? Bool == true)
            #expect(favourited["favourites_count"] as? Int == favourites + 1)
            #expect(await server.mastodon("POST", "statuses/\(id)/favourite", token: server.token).json?["favourites_count"] as? Int == favourites + 1)
            // The Weibo side sees the favourite.
            #expect(await server.get("statuses/show.json", "id=\(id)").json?["favorited"] as? Bool == true)
            // Another viewer sees the count, not the flag.
            #expect(await server.mastodon("statuses/\(id)", token: server.second.token).json?["favourited"] as? Bool == false)
            let unfavourited = try #require(await server.mastodon("POST", "statuses/\(id)/unfavourite", token: server.token).json)
            #expect(unfavourited["favourited"] as? Bool == false)
            #expect(unfavourited["favourites_count"] as? Int == favourites)
            #expect(await server.mastodon("POST", "statuses/4000000000099999/favourite", token: server.token).status == 404)
            #expect(await server.mastodon("POST", "statuses/\(id)/favourite").status == 401)
        }
    }
}
