import Foundation
import Testing
import WshSandbox
import WshTestSupport
@testable import WshShell

/// The sandbox in Akkoma's flavour (its `pleroma` and `akkoma` members on
/// every status and account): `--json` of each command that shows statuses
/// or accounts keeps them, beside wsh's own `index`.
@Suite("--json keeps the server's fields, against the sandbox", .serialized)
struct ServerFieldsSandboxTests {
    func json(_ text: String) throws -> Any {
        try JSONSerialization.jsonObject(with: Data(text.utf8))
    }

    /// Whether `entity` carries Akkoma's own members beside Mastodon's `id`.
    func flavoured(_ entity: Any?) -> Bool {
        guard let object = entity as? [String: Any] else { return false }
        return object["pleroma"] is [String: Any] && object["akkoma"] is [String: Any] && object["id"] != nil
    }

    @Test("search, followers, a thread, mentions, conversations and a favourite's answer keep Akkoma's members in --json")
    func akkomaMembersKept() async throws {
        let harness = try await ShellHarness(dialect: .mastodon, flavour: .akkoma)
        let connected = await harness.run("fetch 20\nlist --json")
        #expect(connected.status == 0, "\(connected.stderr)")
        let rows = try #require(try json(connected.stdout) as? [[String: Any]], "\(connected.stdout)")
        #expect(rows.allSatisfy { flavoured($0) && flavoured($0["account"]) && $0["index"] != nil })
        let replied = try #require(rows.first { ($0["replies_count"] as? Int ?? 0) > 0 }, "no status with replies in \(rows.count)")
        let acct = try #require((replied["account"] as? [String: Any])?["acct"] as? String)

        let thread = await harness.run("comments \(replied["index"] as? Int ?? 0) --json")
        #expect(thread.status == 0, "\(thread.stderr)")
        let replies = try #require((try json(thread.stdout) as? [String: Any])?["comments"] as? [[String: Any]], "\(thread.stdout)")
        #expect(!replies.isEmpty)
        #expect(replies.allSatisfy { flavoured($0) && $0["in_reply_to_account_id"] != nil && $0["depth"] != nil && $0["index"] != nil },
                "\(replies.first?.keys.sorted() ?? [])")
        #expect(replies.allSatisfy { flavoured($0["account"]) })

        let searched = await harness.run("search \(acct) --json")
        #expect(searched.status == 0, "\(searched.stderr)")
        let results = try #require(try json(searched.stdout) as? [String: Any], "\(searched.stdout)")
        let accounts = try #require(results["accounts"] as? [[String: Any]])
        #expect(!accounts.isEmpty && accounts.allSatisfy { flavoured($0["user"]) }, "\(searched.stdout.prefix(600))")
        #expect((results["statuses"] as? [[String: Any]] ?? []).allSatisfy { flavoured($0) })

        // Followers of the first author the sandbox gives any.
        var users: [[String: Any]] = []
        for author in Set(rows.compactMap { ($0["account"] as? [String: Any])?["acct"] as? String }).sorted() where users.isEmpty {
            let followers = await harness.run("followers \(author) --json")
            #expect(followers.status == 0, "\(followers.stderr)")
            users = try #require((try json(followers.stdout) as? [String: Any])?["users"] as? [[String: Any]], "\(followers.stdout)")
        }
        #expect(!users.isEmpty && users.allSatisfy { flavoured($0["user"]) && $0["index"] != nil })

        let favourited = await harness.run("favorite 1\nlist --json")
        #expect(favourited.status == 0, "\(favourited.stderr) \(favourited.stdout.prefix(300))")
        let first = try #require((try json(favourited.stdout) as? [[String: Any]])?.first)
        #expect(flavoured(first) && first["favourited"] as? Bool == true)

        // The mentions timeline is read from mention notifications: each one's `status`, as the server sent it.
        let mentions = await harness.run("fetch mentions 5\nlist --json")
        #expect(mentions.status == 0, "\(mentions.stderr)")
        let mentioned = try #require(try json(mentions.stdout) as? [[String: Any]], "\(mentions.stdout)")
        #expect(!mentioned.isEmpty && mentioned.allSatisfy { flavoured($0) && flavoured($0["account"]) }, "\(mentions.stdout.prefix(300))")

        // A direct message starts a conversation; its last status is the server's, every member of it.
        let conversations = await harness.run("post --visibility direct @\(acct) a word in private\nconversations --json")
        #expect(conversations.status == 0, "\(conversations.stderr)")
        let threads = try #require(try json(conversations.stdout) as? [[String: Any]], "\(conversations.stdout)")
        let last = try #require(threads.first?["last_status"] as? [String: Any], "\(conversations.stdout)")
        // Where wsh writes a plain value (the accounts' names) and the server sent objects, the server's stay.
        let others = try #require(threads.first?["accounts"] as? [[String: Any]], "\(conversations.stdout)")
        #expect(others.first?["acct"] as? String == acct, "\(conversations.stdout)")
        let notified = await harness.run("notifications 3 --json")
        let notes = try #require((try json(notified.stdout) as? [String: Any])?["notifications"] as? [[String: Any]], "\(notified.stdout)")
        #expect(!notes.isEmpty)
        #expect(notes.allSatisfy { (($0["account"] as? [String: Any])?["acct"] as? String) != nil }, "\(notified.stdout)")
        #expect(flavoured(last) && last["visibility"] as? String == "direct" && threads.first?["index"] as? Int == 1)
        #expect(flavoured(last["account"]))
    }

    @Test("a status streamed over either transport keeps the server's members in list --json",
          arguments: [StreamingTransports.serverSentEvents, .webSocket])
    func streamedStatusKept(served: StreamingTransports) async throws {
        let harness = try await ShellHarness(dialect: .mastodon, flavour: .akkoma, streaming: served)
        let poster = keepPosting(to: harness.sandbox, as: harness.sandbox.accounts[1])
        let watched = await harness.run("watch public --stream --until 1 --timeout 30\nlist --json")
        poster.cancel()
        #expect(watched.status == 0, "\(watched.stderr)")
        let text = String(watched.stdout[(watched.stdout.firstIndex(of: "[") ?? watched.stdout.startIndex)...])
        let rows = try #require(try json(text) as? [[String: Any]], "\(watched.stdout)")
        let streamed = try #require(rows.first { ($0["account"] as? [String: Any])?["acct"] as? String == harness.sandbox.accounts[1].screenName },
                                    "\(watched.stdout.prefix(400))")
        #expect(flavoured(streamed) && flavoured(streamed["account"]) && streamed["index"] != nil)
    }
}
