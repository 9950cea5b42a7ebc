import Foundation
import Testing
import WshDataController
import WshModel
import WshRequest
import WshSandbox
import WshTestSupport
import WshViewModel

/// Custom emojis, profile fields and quotes through the session: what `detail N`
/// and `user NAME` show and keep in `--json`, against the sandbox's Mastodon side
/// (and Weibo's, which has none of them).
@Suite("Emojis, profile fields and quotes on the detail and user screens")
struct MastodonExtrasSessionTests {
    func session(_ server: SandboxServer, dialect: any Dialect = MastodonDialect()) -> SessionViewModel {
        let account = server.accounts[0]
        var configuration = APIConfiguration(baseURL: dialect.name == "mastodon" ? server.mastodonBaseURL : server.baseURL,
                                             token: .value(Secret(account.token)))
        configuration.authScheme = dialect.authScheme
        let client = APIClient(configuration: configuration, http: CurlHTTPClient(secrets: [account.token]))
        return SessionViewModel(dataController: TimelineDataController(client: client, dialect: dialect))
    }

    func json(_ document: some Encodable) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: JSONEncoder().encode(document)) as? [String: Any])
    }

    @Test("user NAME: fields as name: value lines (HTML as text, ✓ when verified), the emojis; --json keeps both as sent")
    func profileFields() async throws {
        try await withSandboxClient(SandboxConfiguration(statuses: 50)) { server, _ in
            let me = session(server)
            let name = server.accounts[2].screenName
            try await me.user(name: name)
            let user = try #require(me.user)
            #expect(user.fieldLines.contains("Website: example.com/~\(name) ✓"))
            #expect(user.fieldLines.contains("Mood: :wsh:"))
            #expect(user.emojiLine == ":wsh:")
            let document = try json(user.document)
            let fields = try #require(document["fields"] as? [[String: Any]])
            let website = try #require(fields.first { $0["name"] as? String == "Website" })
            #expect((website["value"] as? String)?.hasPrefix("<a href=") == true)
            #expect(website["verified_at"] is String)
            #expect(fields.first { $0["name"] as? String == "Mood" }?["verified_at"] is NSNull)
            #expect((document["emojis"] as? [[String: Any]])?.first?["shortcode"] as? String == "wsh")
            #expect((document["emojis"] as? [[String: Any]])?.first?["url"] is String)

            try await me.user(name: server.accounts[0].screenName)
            #expect(me.user?.fieldLines.contains { $0.hasPrefix("Website:") } == false)
            #expect(me.user?.emojiLine == "")
        }
    }

    @Test("a quote is marked ❝ in its row; detail shows the quoted status, or one line saying why not; --json keeps quote")
    func quotes() async throws {
        try await withSandboxClient(SandboxConfiguration(statuses: 300)) { server, _ in
            let me = session(server)
            _ = try await me.fetch(count: 40)
            _ = try await me.more()
            _ = try await me.more()
            let quoting = me.rows.filter { $0.markers.contains("❝") }
            var shown = 0
            var hidden: Set<String> = []
            for row in quoting {
                try await me.detail(index: row.index)
                let detail = try #require(me.detail)
                let quote = try #require(try json(detail.document)["quote"] as? [String: Any])
                if let quoted = detail.quoted {
                    shown += 1
                    #expect(detail.quoteNote.isEmpty)
                    #expect(quote["state"] as? String == "accepted")
                    #expect((quote["quoted_status"] as? [String: Any])?["id"] as? String == quoted.id)
                    #expect(!quoted.author.isEmpty && !quoted.text.isEmpty)
                } else {
                    hidden.insert(detail.quoteNote)
                    #expect(quote["quoted_status"] is NSNull)
                    #expect(quote["state"] as? String != "accepted")
                }
                try me.back()
            }
            #expect(shown > 0)
            #expect(hidden.isSuperset(of: ["quote pending (its author has not approved it yet)", "quote removed by its author"]), "\(hidden)")
        }
    }

    @Test("detail lists a status's custom emojis on one line; the text keeps :wsh:; --json keeps emojis")
    func statusEmoji() async throws {
        try await withSandboxClient(SandboxConfiguration(statuses: 100)) { server, _ in
            let me = session(server)
            _ = try await me.fetch(count: 40)
            let row = try #require(me.rows.first { $0.text.hasSuffix(":wsh:") })
            try await me.detail(index: row.index)
            let detail = try #require(me.detail)
            #expect(detail.emojiLine == ":wsh:")
            #expect(detail.text.hasSuffix(":wsh:"))
            let emojis = try #require(try json(detail.document)["emojis"] as? [[String: Any]])
            #expect(emojis.map { $0["shortcode"] as? String } == ["wsh"])
        }
    }

    @Test("no byte of a field, an emoji or a quote state reaches the terminal as a control sequence")
    func hostileBytes() throws {
        let body = #"""
            {"id":"1","content":"<p>x :e\u001b[2J:</p>","emojis":[{"shortcode":"e\u001b[2J","url":"https://x/\u001b]0;t\u0007"}],
             "quote":{"state":"pending\u001b[31m","quoted_status":null},
             "account":{"id":"2","acct":"a","fields":[{"name":"N\u001b[31m","value":"<b>v\u001b[0m</b>","verified_at":null}],
                        "emojis":[{"shortcode":"s\u009b1m","url":"https://x/s"}]}}
            """#
        let status = try ModelDecoding.decode(MastodonStatus.self, from: Data(body.utf8)).status
        let detail = StatusDetailViewModel(status: status)
        let user = UserViewModel(user: try #require(status.user))
        let shown = [detail.emojiLine, detail.quoteNote, user.emojiLine] + user.fieldLines
        let encoded = String(decoding: try JSONEncoder().encode(detail.document), as: UTF8.self)
            + String(decoding: try JSONEncoder().encode(user.document), as: UTF8.self)
        for text in shown + [encoded] {
            #expect(!text.unicodeScalars.contains { $0.value == 0x1B || $0.value == 0x9B || $0.value == 0x07 }, "\(text)")
        }
        // JSONEncoder writes a control character as an escape, which jq would print raw.
        #expect(!encoded.lowercased().contains("\\u001b") && !encoded.lowercased().contains("\\u0007"), "\(encoded)")
        #expect(user.fieldLines.first?.hasPrefix("N") == true)
        #expect(detail.quoteNote == "quote not visible to you")
    }

    @Test("Weibo has none of them: no fields, no emojis, no quote marks")
    func weiboHasNone() async throws {
        try await withSandboxClient(SandboxConfiguration(statuses: 300)) { server, _ in
            let me = session(server, dialect: WeiboDialect())
            _ = try await me.fetch(count: 40)
            #expect(me.rows.allSatisfy { !$0.markers.contains("❝") })
            #expect(me.rows.contains { $0.markers.contains("[RT]") })
            try await me.user(name: server.accounts[2].screenName)
            #expect(me.user?.fieldLines == [])
            #expect(me.user?.emojiLine == "")
            #expect(try json(try #require(me.user).document)["fields"] == nil)
        }
    }
}
