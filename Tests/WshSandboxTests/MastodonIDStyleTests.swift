import Foundation
import Testing
import WshSandbox

/// `--id-style`: the Mastodon side's ids as Mastodon, GoToSocial, Pleroma or
/// Sharkey write them, taken back by every route and cursor (the server that
/// nodeinfo and `instance` name is the flavour's: `SandboxFlavourTests`).
@Suite("Mastodon id styles: ids, routes, Link cursors")
struct MastodonIDStyleTests {
    /// Whether `id` is written as `style` writes ids.
    static func looksLike(_ style: MastodonIDStyle, _ id: String) -> Bool {
        switch style {
        case .snowflake:
            return !id.isEmpty && id.allSatisfy(\.isASCII) && id.allSatisfy(\.isNumber)
        case .ulid:
            let crockford = Set("0123456789ABCDEFGHJKMNPQRSTVWXYZ")
            return id.count == 26 && id.allSatisfy(crockford.contains) && id.first! <= "7"
        case .flake:
            return id.count == 18 && id.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber) }
        case .aid:
            return id.count == 16 && id.allSatisfy { $0.isASCII && ($0.isLowercase || $0.isNumber) }
        }
    }

    /// True when `newer` sorts after `older` as the style's server orders ids.
    static func isNewer(_ style: MastodonIDStyle, _ newer: String, than older: String) -> Bool {
        style == .snowflake ? Int64(newer)! > Int64(older)! : newer > older
    }

    /// `id` with its last character changed to another of the style's alphabet.
    static func garbled(_ id: String) -> String {
        String(id.dropLast()) + (id.last == "1" ? "2" : "1")
    }

    @Test("ids are in the style's alphabet and length, and newer statuses sort after older ones",
          arguments: MastodonIDStyle.allCases)
    func idFormats(style: MastodonIDStyle) async throws {
        try await withSandbox(SandboxConfiguration(statuses: 60, idStyle: style)) { server in
            let page = await server.mastodon("timelines/public?limit=40", token: server.token)
            #expect(page.status == 200)
            let statuses = page.array
            #expect(statuses.count == 40)
            for status in statuses {
                let id = try #require(status["id"] as? String)
                #expect(Self.looksLike(style, id), "\(id)")
                let account = try #require((status["account"] as? [String: Any])?["id"] as? String)
                #expect(Self.looksLike(style, account), "\(account)")
                // The status's URL names it by the same id, as the real servers' do.
                #expect((status["url"] as? String)?.hasSuffix("/" + id) == true)
                for media in status["media_attachments"] as? [[String: Any]] ?? [] {
                    #expect(Self.looksLike(style, media["id"] as? String ?? ""))
                }
            }
            let ids = statuses.compactMap { $0["id"] as? String }
            // Newest first: each id sorts after the next one, by the server's own order.
            for (newer, older) in zip(ids, ids.dropFirst()) {
                #expect(Self.isNewer(style, newer, than: older), "\(newer) before \(older)")
            }
        }
    }

    @Test("a style's ids and only those: each renders and parses back, another style's and garbled ones do not")
    func bijection() {
        let samples: [Int64] = [1, 1_700_000_000, 4_000_000_000_000_001, 4_500_000_000_200_003, 40_000_000_000_000_018]
        for style in MastodonIDStyle.allCases {
            for id in samples {
                let text = style.render(id)
                #expect(style.parse(text) == id, "\(style) \(text)")
                #expect(style.parse(Self.garbled(text)) == nil || style == .snowflake, "\(style) \(text)")
                for other in MastodonIDStyle.allCases where other != style {
                    #expect(other.parse(text) == nil, "\(other) took \(style)'s \(text)")
                }
            }
            #expect(style.parse("") == nil)
            #expect(style.parse("not an id") == nil)
        }
    }

    @Test("every id-taking route takes the style's ids; a garbled id is 404 Record not found, a garbled cursor 400",
          arguments: MastodonIDStyle.allCases)
    func routesTakeStyledIDs(style: MastodonIDStyle) async throws {
        try await withSandbox(SandboxConfiguration(statuses: 60, idStyle: style)) { server in
            let statuses = await server.mastodon("timelines/public?limit=10").array
            let replied = try #require(statuses.first { ($0["replies_count"] as? Int ?? 0) > 0 })
            let id = try #require(replied["id"] as? String)
            let account = try #require((replied["account"] as? [String: Any])?["id"] as? String)
            #expect(await server.mastodon("statuses/\(id)").json?["id"] as? String == id)
            let context = try #require(await server.mastodon("statuses/\(id)/context").json)
            let replies = try #require(context["descendants"] as? [[String: Any]])
            #expect(replies.count == replied["replies_count"] as? Int)
            let reply = try #require(replies.first?["id"] as? String)
            #expect(Self.looksLike(style, reply))
            #expect(replies.first?["in_reply_to_id"] as? String == id)
            #expect(await server.mastodon("statuses/\(reply)").json?["in_reply_to_id"] as? String == id)
            #expect(await server.mastodon("accounts/\(account)").json?["id"] as? String == account)
            let own = await server.mastodon("accounts/\(account)/statuses?limit=5").stringIDs
            #expect(!own.isEmpty && own.allSatisfy { Self.looksLike(style, $0) })
            let favourited = await server.mastodon("POST", "statuses/\(id)/favourite", token: server.token)
            #expect(favourited.json?["favourited"] as? Bool == true)
            let relationships = await server.mastodon("accounts/relationships?id[]=\(account)", token: server.token)
            #expect(relationships.stringIDs == [account])
            // Cursors: a page below the first status starts right after it.
            let below = await server.mastodon("timelines/public?limit=3&max_id=\(statuses[0]["id"] as! String)").stringIDs
            #expect(below == statuses[1...3].compactMap { $0["id"] as? String })

            for path in ["statuses/\(Self.garbled(id))", "statuses/\(Self.garbled(id))/context",
                         "accounts/\(Self.garbled(account))", "accounts/\(Self.garbled(account))/statuses"]
                where style != .snowflake || !path.hasPrefix("accounts") {
                let unknown = await server.mastodon(path)
                #expect(unknown.status == 404, "\(path)")
                #expect(unknown.mastodonError == "Record not found", "\(path)")
            }
            let other = MastodonIDStyle.allCases.first { $0 != style }!.render(4_000_000_000_000_001)
            #expect(await server.mastodon("statuses/\(other)").status == 404)
            #expect(await server.mastodon("POST", "statuses/\(Self.garbled(id))/favourite", token: server.token).status == 404)
            let badCursor = await server.mastodon("timelines/public?max_id=\(style == .snowflake ? "abc" : Self.garbled(id))")
            #expect(badCursor.status == 400)
            #expect(badCursor.mastodonError?.contains(style.rawValue) == true)
            // Last: a reply is a status, whose id (the next one) a garbled snowflake id could name.
            let posted = await server.mastodon("POST", "statuses", token: server.token,
                                               form: "status=answer&in_reply_to_id=\(id)")
            #expect(posted.json?["in_reply_to_id"] as? String == id)
        }
    }

    @Test("following Link next from the first page gives every status once, in order, and the last page has no next",
          arguments: MastodonIDStyle.allCases)
    func linkCursorsWalkTheTimeline(style: MastodonIDStyle) async throws {
        // The snowflake walk's ids, rendered in `style`, are what the styled walk must give.
        var expected: [String] = []
        try await withSandbox(SandboxConfiguration(statuses: 60)) { server in
            expected = try await Self.walk(server).map { MastodonIDStyle.snowflake.parse($0)! }.map(style.render)
        }
        try await withSandbox(SandboxConfiguration(statuses: 60, idStyle: style)) { server in
            let walked = try await Self.walk(server)
            #expect(walked == expected)
            #expect(Set(walked).count == walked.count)
            #expect(walked.count > 40)
            for (newer, older) in zip(walked, walked.dropFirst()) {
                #expect(Self.isNewer(style, newer, than: older))
            }
            // prev from a later page comes back to the page before it.
            let first = await server.mastodon("timelines/public?limit=7")
            let second = await server.follow(try #require(first.links["next"]))
            let back = await server.follow(try #require(second.links["prev"]))
            #expect(back.stringIDs == first.stringIDs)
        }
    }

    /// The public timeline, 7 a page, through `Link` next until there is none.
    static func walk(_ server: SandboxServer) async throws -> [String] {
        var page = await server.mastodon("timelines/public?limit=7")
        var ids: [String] = []
        while true {
            #expect(page.status == 200)
            ids += page.stringIDs
            #expect(page.links["prev"] != nil)
            guard let next = page.links["next"] else { break }
            #expect(next.contains("max_id=" + ids.last!))
            page = await server.follow(next)
            #expect(ids.count < 200, "the walk does not end")
            if ids.count >= 200 { break }
        }
        // The last page is not empty: its next would have been absent already.
        #expect(!page.stringIDs.isEmpty)
        return ids
    }
}
