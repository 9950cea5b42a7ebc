import Foundation
import Testing
import WshHAR
import WshRequest
@testable import WshShell

/// `connect URL` to servers other than Mastodon, answered from real
/// nodeinfo and instance bodies (Tests/WshModelTests/Fixtures/servers):
/// a Sharkey is spoken to through its Mastodon-compatible API and `status`
/// says so; what it lacks is refused before any request; a Lemmy is refused
/// in one line and the session stays where it was.
@Suite("connect to servers with and without a Mastodon API")
struct ServerProfileTranscriptTests {
    static func fixture(_ name: String) throws -> String {
        let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("WshModelTests/Fixtures/servers")
        return try String(contentsOf: folder.appendingPathComponent(name + ".json"), encoding: .utf8)
    }

    /// A shell whose requests are answered by a recording: a Sharkey at
    /// sharkey.example and a Lemmy at lemmy.example, each with its nodeinfo.
    static func harness() throws -> ShellHarness {
        func entry(_ url: String, _ body: String) -> [String: Any] {
            ["request": ["method": "GET", "url": url],
             "response": ["status": 200, "headers": [["name": "Content-Type", "value": "application/json"]],
                          "content": ["text": body]]]
        }
        func index(_ host: String) -> String {
            #"{"links":[{"rel":"http://nodeinfo.diaspora.software/ns/schema/2.1","href":"https://\#(host)/nodeinfo/2.1"}]}"#
        }
        let har: [String: Any] = ["log": ["version": "1.2", "entries": [
            entry("https://sharkey.example/.well-known/nodeinfo", index("sharkey.example")),
            entry("https://sharkey.example/nodeinfo/2.1", try fixture("sharkey_nodeinfo_2_1")),
            entry("https://sharkey.example/api/v1/instance", try fixture("sharkey_instance_v1")),
            entry("https://lemmy.example/.well-known/nodeinfo", index("lemmy.example")),
            entry("https://lemmy.example/nodeinfo/2.1", try fixture("lemmy_nodeinfo_2_0")),
        ]]]
        let recording = try HARRecording.parse(try JSONSerialization.data(withJSONObject: har), name: "servers.har")
        var configuration = Shell.Configuration(target: .url("https://sharkey.example/"), tokenSource: .value(Secret("t0123456789")),
                                                json: false)
        configuration.tape = .replay(ReplayHTTPClient(recording: recording))
        return ShellHarness(configuration: configuration)
    }

    @Test("connect to a Sharkey: status names it and says its Mastodon API is a compatibility layer; what it lacks is refused")
    func sharkey() async throws {
        let harness = try Self.harness()
        let connected = await harness.run("connect https://sharkey.example/\nstatus")
        #expect(connected.status == 0, "\(connected.stderr)")
        #expect(connected.stderr.contains("connected to https://sharkey.example/: sharkey 2024.2.0-beta.12 (mastodon API)"),
                "\(connected.stderr)")
        let lines = connected.stdout.split(separator: "\n")
        let server = lines.first { $0.hasPrefix("server") } ?? ""
        #expect(server.hasSuffix("  Sharkey 2024.2.0-beta.12 through its Mastodon-compatible API (compatibility layer)"),
                "\(connected.stdout)")
        #expect(lines.contains { $0.hasPrefix("lacks") && $0.hasSuffix("  scheduled statuses, status edits") }, "\(connected.stdout)")
        let json = await harness.run("status --json")
        let facts = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        let profile = try #require(facts["server"] as? [String: Any], "\(json.stdout)")
        #expect(profile["software"] as? String == "Sharkey" && profile["compatibility_layer"] as? Bool == true)
        #expect(profile["mastodon_version"] as? String == "3.0.0")
        // Refused before any request: the recording holds no scheduled_statuses, so a request would fail otherwise.
        let scheduled = await harness.run("scheduled")
        #expect(scheduled.status != 0)
        #expect(scheduled.stderr.contains("this API (sharkey) cannot schedule a status"), "\(scheduled.stderr)")
        #expect(scheduled.stderr.split(separator: "\n").count == 1, "\(scheduled.stderr)")
        let help = await harness.run("help scheduled")
        #expect(help.stdout.contains("Not on this API: sharkey has no scheduled statuses."), "\(help.stdout)")
    }

    @Test("connect to a Lemmy is refused in one line naming it, and the session stays on the Sharkey")
    func lemmy() async throws {
        let harness = try Self.harness()
        _ = await harness.run("connect https://sharkey.example/")
        let refused = await harness.run("connect https://lemmy.example/")
        #expect(refused.status != 0)
        let lines = refused.stderr.split(separator: "\n")
        #expect(lines.count == 1, "\(refused.stderr)")
        #expect(refused.stderr.contains("runs Lemmy 0.18.5 (its nodeinfo says so), which has no Mastodon API"), "\(refused.stderr)")
        let status = await harness.run("status")
        #expect(status.stdout.contains("Sharkey 2024.2.0-beta.12 through its Mastodon-compatible API"), "\(status.stdout)")
    }
}

/// Pleroma's and GoToSocial's real bodies through the shell: `--json` keeps
/// every field the server sent beside wsh's own, `detail` shows emoji
/// reactions, `user` a moved account, `notifications` a reaction's emoji.
@Suite("What real servers send, kept")
struct ServerFieldsTranscriptTests {
    static func harness() throws -> ShellHarness {
        func entry(_ url: String, _ body: String, method: String = "GET") -> [String: Any] {
            ["request": ["method": method, "url": url],
             "response": ["status": 200, "headers": [["name": "Content-Type", "value": "application/json"]],
                          "content": ["text": body]]]
        }
        let fixture = ServerProfileTranscriptTests.fixture
        func array(_ names: [String]) throws -> String { "[" + (try names.map(fixture).joined(separator: ",\n")) + "]" }
        let page = try array(["pleroma_status_card", "pleroma_status_poll"])
        // Real entities nested as the server nests them: a search, a thread, a conversation.
        let search = #"{"accounts": "# + (try array(["gotosocial_account_moved", "pixelfed_account"])) + #", "statuses": "#
            + (try array(["pleroma_status_card"])) + #", "hashtags": []}"#
        let context = #"{"ancestors": [], "descendants": "# + (try array(["pleroma_status_poll", "pleroma_status_quote"])) + "}"
        let conversations = #"[{"id": "31", "unread": true, "accounts": "# + (try array(["pixelfed_account"]))
            + #", "last_status": "# + (try fixture("pleroma_status_poll")) + "}]"
        // The favourite's answer: the status as the server has it now, a reaction more than the page showed.
        var favourited = try #require(try JSONSerialization.jsonObject(with: Data(try fixture("pleroma_status_card").utf8)) as? [String: Any])
        favourited["favourited"] = true
        var pleroma = try #require(favourited["pleroma"] as? [String: Any])
        pleroma["emoji_reactions"] = [["name": "🎉", "count": 1, "me": true]]
        favourited["pleroma"] = pleroma
        let answer = String(decoding: try JSONSerialization.data(withJSONObject: favourited), as: UTF8.self)
        let har: [String: Any] = ["log": ["version": "1.2", "entries": [
            entry("https://pleroma.example/api/v1/timelines/public?limit=***", page),
            entry("https://pleroma.example/api/v1/accounts/lookup?acct=the_mighty_zork", try fixture("gotosocial_account_moved")),
            entry("https://pleroma.example/api/v1/notifications?limit=***",
                  "[" + (try fixture("pleroma_notification_emoji_reaction")) + "]"),
            entry("https://pleroma.example/api/v2/search?q=zork&limit=***", search),
            entry("https://pleroma.example/api/v1/accounts/01F8MH1H7YV1Z7D2C8K2730QBF/followers?limit=***",
                  try array(["pixelfed_account", "mastodon_account_moved"])),
            entry("https://pleroma.example/api/v1/statuses/A8tEMYF2GNnfPcL4dc/context", context),
            entry("https://pleroma.example/api/v1/conversations?limit=***", conversations),
            entry("https://pleroma.example/api/v1/statuses/A8tEMYF2GNnfPcL4dc/favourite", answer, method: "POST"),
        ]]]
        let recording = try HARRecording.parse(try JSONSerialization.data(withJSONObject: har), name: "pleroma.har")
        var configuration = Shell.Configuration(target: .url("https://pleroma.example/"), tokenSource: .value(Secret("t0123456789")),
                                                json: false)
        configuration.dialect = .mastodon
        configuration.tape = .replay(ReplayHTTPClient(recording: recording))
        return ShellHarness(configuration: configuration)
    }

    func object(_ text: String) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any], "\(text)")
    }

    @Test("list --json and detail --json keep the server's own fields (pleroma, in_reply_to_account_id, media meta) beside index")
    func statusFieldsKept() async throws {
        let harness = try Self.harness()
        let fetched = await harness.run("fetch 2\nlist --json")
        #expect(fetched.status == 0, "\(fetched.stderr)")
        let rows = try #require(try JSONSerialization.jsonObject(with: Data(fetched.stdout.utf8)) as? [[String: Any]])
        #expect(rows.map { $0["index"] as? Int } == [1, 2])
        let first = rows[0]
        #expect(first.keys.contains("in_reply_to_account_id"), "\(first.keys.sorted())")
        let pleroma = try #require(first["pleroma"] as? [String: Any])
        #expect((pleroma["emoji_reactions"] as? [[String: Any]])?.first?["name"] as? String == "❤️")
        // wsh's own fields are there too, under the server's names.
        #expect(first["favourites_count"] != nil && (first["account"] as? [String: Any])?["acct"] != nil)
        let detail = try object(await harness.run("detail 2 --json").stdout)
        #expect((detail["poll"] as? [String: Any])?["options"] != nil && detail["pleroma"] != nil)
    }

    @Test("search --json keeps every field of each account and status the server sent")
    func searchFieldsKept() async throws {
        let harness = try Self.harness()
        let searched = await harness.run("search zork --json")
        #expect(searched.status == 0, "\(searched.stderr)")
        let json = try object(searched.stdout)
        let accounts = try #require(json["accounts"] as? [[String: Any]])
        let zork = try #require(accounts.first?["user"] as? [String: Any])
        // GoToSocial's own (`enable_rss`, `role`) beside wsh's (`acct`, `moved`).
        #expect(zork["enable_rss"] != nil && zork["role"] != nil && zork["avatar"] != nil, "\(zork.keys.sorted())")
        #expect(zork["acct"] as? String == "the_mighty_zork" && zork["moved"] != nil)
        #expect((accounts.last?["user"] as? [String: Any])?["discoverable"] != nil)
        let status = try #require((json["statuses"] as? [[String: Any]])?.first)
        #expect(status["index"] as? Int == 3 && status["in_reply_to_account_id"] != nil && status["pinned"] != nil, "\(status.keys.sorted())")
        #expect(((status["pleroma"] as? [String: Any])?["emoji_reactions"] as? [Any])?.isEmpty == false)
        #expect((status["account"] as? [String: Any])?["avatar"] != nil)
    }

    @Test("followers --json keeps every field of each account the server sent")
    func followersFieldsKept() async throws {
        let harness = try Self.harness()
        let listed = await harness.run("followers the_mighty_zork --json")
        #expect(listed.status == 0, "\(listed.stderr)")
        let users = try #require(try object(listed.stdout)["users"] as? [[String: Any]])
        #expect(users.map { $0["index"] as? Int } == [1, 2])
        let pixelfed = try #require(users[0]["user"] as? [String: Any])
        #expect(pixelfed["discoverable"] != nil && pixelfed["last_status_at"] != nil && pixelfed["avatar"] != nil, "\(pixelfed.keys.sorted())")
        let moved = try #require(users[1]["user"] as? [String: Any])
        #expect((moved["moved"] as? [String: Any])?["avatar"] != nil, "\(moved)")
    }

    @Test("comments --json of a thread keeps every field of each reply the server sent")
    func threadFieldsKept() async throws {
        let harness = try Self.harness()
        let thread = await harness.run("fetch 2\ncomments 1 --json")
        #expect(thread.status == 0, "\(thread.stderr)")
        let replies = try #require(try object(thread.stdout)["comments"] as? [[String: Any]])
        #expect(replies.map { $0["index"] as? Int } == [1, 2])
        let first = replies[0]
        #expect(first["in_reply_to_account_id"] != nil && first["pleroma"] != nil && first["poll"] != nil, "\(first.keys.sorted())")
        #expect(first["depth"] as? Int == 0 && first["id"] as? String == "103874034847713213")
        #expect((first["account"] as? [String: Any])?["avatar"] != nil && (first["account"] as? [String: Any])?["acct"] != nil)
    }

    @Test("conversations --json keeps the conversation's and its last status's fields")
    func conversationFieldsKept() async throws {
        let harness = try Self.harness()
        let listed = await harness.run("conversations --json")
        #expect(listed.status == 0, "\(listed.stderr)")
        let rows = try #require(try JSONSerialization.jsonObject(with: Data(listed.stdout.utf8)) as? [[String: Any]], "\(listed.stdout)")
        let last = try #require(rows.first?["last_status"] as? [String: Any])
        #expect(last["pleroma"] != nil && last["in_reply_to_account_id"] != nil && last["pinned"] != nil, "\(last.keys.sorted())")
        #expect(rows.first?["index"] as? Int == 1 && rows.first?["unread"] as? Bool == true)
    }

    @Test("after favorite, list --json shows the server's answer: every field of it, the new reactions too")
    func favouriteAnswerKept() async throws {
        let harness = try Self.harness()
        let favourited = await harness.run("fetch 2\nfavorite 1\nlist --json")
        #expect(favourited.status == 0, "\(favourited.stderr)")
        let rows = try #require(try JSONSerialization.jsonObject(with: Data(favourited.stdout.utf8)) as? [[String: Any]])
        let first = try #require(rows.first)
        #expect(first["favourited"] as? Bool == true && first["index"] as? Int == 1)
        let reactions = (first["pleroma"] as? [String: Any])?["emoji_reactions"] as? [[String: Any]]
        #expect(reactions?.map { $0["name"] as? String } == ["🎉"], "\(String(describing: reactions))")
        #expect(first["in_reply_to_account_id"] != nil)
    }

    @Test("detail shows Pleroma's emoji reactions")
    func reactionsShown() async throws {
        let harness = try Self.harness()
        let detail = await harness.run("fetch 2\ndetail 1")
        #expect(detail.status == 0, "\(detail.stderr)")
        #expect(detail.stdout.contains("\nreactions: ❤️ 5 · 👍 1\n"), "\(detail.stdout)")
    }

    @Test("user shows a moved account as moved, and --json keeps `moved`")
    func movedAccount() async throws {
        let harness = try Self.harness()
        let user = await harness.run("user the_mighty_zork")
        #expect(user.status == 0, "\(user.stderr)")
        #expect(user.stdout.contains("\nmoved to @1happyturtle\n"), "\(user.stdout)")
        let json = try object(await harness.run("user the_mighty_zork --json").stdout)
        let moved = try #require(json["moved"] as? [String: Any])
        #expect(moved["acct"] as? String == "1happyturtle" && moved["id"] != nil)
        #expect(json["source"] != nil)
    }

    @Test("notifications shows a Pleroma reaction with its emoji; --json keeps it and the server's fields")
    func reactionNotification() async throws {
        let harness = try Self.harness()
        let screen = await harness.run("notifications")
        #expect(screen.status == 0, "\(screen.stderr)")
        let row = screen.stdout.split(separator: "\n").first { $0.contains("pleroma:emoji_reaction") } ?? ""
        #expect(row.contains("😮"), "\(screen.stdout)")
        let json = try object(await harness.run("notifications --json").stdout)
        let first = try #require((json["notifications"] as? [[String: Any]])?.first)
        #expect(first["emoji"] as? String == "😮" && first["pleroma"] != nil && first["index"] as? Int == 1)
        #expect((first["status"] as? [String: Any])?["card"] != nil)
    }
}
