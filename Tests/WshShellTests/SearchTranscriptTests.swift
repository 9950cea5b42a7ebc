import Foundation
import Testing
import WshSandbox
@testable import WshShell

/// search, followers, following, block, unblock and mute --server through the
/// real loop against the sandbox, with --json, undo, and what Weibo says.
@Suite("search, followers/following, block and server mutes through the shell", .serialized)
struct SearchTranscriptTests {
    /// A public author of the first page who is not the sandbox's own account.
    private func stranger(_ harness: ShellHarness) async throws -> String {
        let rows = try await harness.rows(after: "fetch 20")
        let mine = harness.sandbox.accounts[0].screenName
        return try #require(rows.compactMap { ($0["account"] as? [String: Any])?["acct"] as? String }.first { $0 != mine })
    }

    /// What `api get api/v1/NAME` answers (blocks, mutes), as objects.
    private func listed(_ harness: ShellHarness, _ name: String) async -> [[String: Any]] {
        let answer = await harness.run("api get api/v1/\(name)").stdout
        return (try? JSONSerialization.jsonObject(with: Data(answer.utf8))) as? [[String: Any]] ?? []
    }

    @Test("search lists sections of numbered rows, --json numbers them the same, detail opens them, @name@host resolves, undo closes")
    func search() async throws {
        let harness = try await ShellHarness(dialect: .mastodon)
        let name = try await stranger(harness)
        let shown = await harness.run("search \(name)")
        #expect(shown.status == 0, "\(shown.stderr)")
        #expect(shown.stdout.contains("search \"\(name)\" · "), "\(shown.stdout)")
        #expect(shown.stdout.contains("accounts\n1  @\(name)"), "\(shown.stdout)")
        let json = await harness.run("search \(name) --json")
        let document = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        #expect(((document["accounts"] as? [[String: Any]])?.first?["user"] as? [String: Any])?["acct"] as? String == name)
        let statusIndex = try #require((document["statuses"] as? [[String: Any]])?.first?["index"] as? Int)
        // TAB after `detail ` offers the results' rows, not the list's.
        let rowsOnTop = try #require(harness.shell.sessionStorage?.search?.rows.count)
        #expect(harness.shell.rowNumbers() == (1...rowsOnTop).map(String.init))
        let profile = await harness.run("detail 1")
        #expect(profile.stdout.contains("@\(name)"), "\(profile.stdout)")
        let status = await harness.run("back\ndetail \(statusIndex) --json")
        #expect(status.status == 0, "\(status.stderr)")
        #expect(status.stdout.contains("\"content\""))

        let host = String(harness.sandbox.mastodonBaseURL.dropFirst("http://".count).dropLast())
        let resolved = await harness.run("search @\(name)@\(host) --json")
        let accounts = try #require(try JSONSerialization.jsonObject(with: Data(resolved.stdout.utf8)) as? [String: Any])["accounts"] as? [[String: Any]]
        #expect(accounts?.count == 1, "\(resolved.stdout)")
        #expect(await harness.run("search @\(name)@elsewhere.example").stdout.contains("0 accounts"))

        let undo = await harness.run("undo\nstatus --json")
        #expect(undo.status == 0, "\(undo.stderr)")
        #expect(undo.stderr.contains("undone: search"), "\(undo.stderr)")
        #expect(await harness.run("search").status == 2)           // QUERY is required
    }

    @Test("followers and following show rows and --json; detail N opens the profile; on Weibo they read friendships")
    func accountLists() async throws {
        let harness = try await ShellHarness(dialect: .mastodon)
        let name = try await stranger(harness)
        let me = harness.sandbox.accounts[0].screenName
        #expect(await harness.run("follow @\(name)").status == 0)
        let followers = await harness.run("followers @\(name)")
        #expect(followers.stdout.hasPrefix("followers of @\(name)\n"), "\(followers.stdout)")
        #expect(followers.stdout.contains("@\(me)"))
        let following = await harness.run("following @\(me) --json")
        let document = try #require(try JSONSerialization.jsonObject(with: Data(following.stdout.utf8)) as? [String: Any])
        let rows = try #require(document["users"] as? [[String: Any]])
        let row = try #require(rows.first { ($0["user"] as? [String: Any])?["acct"] as? String == name })
        #expect(row["following"] as? Bool == true)
        #expect(document["list"] as? String == "following")
        let opened = await harness.run("detail \(row["index"] as? Int ?? 0)")
        #expect(opened.stdout.hasPrefix("@\(name)"), "\(opened.stdout)")

        let weibo = try await ShellHarness()
        let mine = await weibo.run("following @\(weibo.sandbox.accounts[0].screenName) 5")
        #expect(mine.status == 0, "\(mine.stderr)")
        #expect(mine.stdout.contains("you follow"), "\(mine.stdout)")
        // --all follows Weibo's next_cursor, two a page, to the same list as one page of 80.
        let whole = await weibo.run("following @\(weibo.sandbox.accounts[0].screenName) 80 --json").stdout
        let paged = await weibo.run("following @\(weibo.sandbox.accounts[0].screenName) 2 --all --json").stdout
        #expect(whole == paged)
        #expect(whole.contains("\"index\" : 3"), "\(whole)")
    }

    @Test("block and unblock are writes: undo sends the other, the server's lists follow; Weibo refuses in one line before any request")
    func block() async throws {
        let harness = try await ShellHarness(dialect: .mastodon)
        let name = try await stranger(harness)
        let blocked = await harness.run("block @\(name)\nhistory")
        #expect(blocked.status == 0, "\(blocked.stderr)")
        #expect(blocked.stderr.contains("blocked @\(name) on the server"))
        #expect(blocked.stdout.contains("⇅ block @\(name)"))
        #expect(await listed(harness, "blocks").count == 1)
        let undone = await harness.run("undo")
        #expect(undone.stderr.contains("unblocked @\(name) on the server"), "\(undone.stderr)")
        #expect(await listed(harness, "blocks").isEmpty)
        #expect(await harness.run("redo").stderr.contains("blocked @\(name) on the server"))
        #expect(await listed(harness, "blocks").count == 1)

        let weibo = try await ShellHarness()
        _ = await weibo.run("fetch 1")
        let before = weibo.sandbox.stats.requests
        let refused = await weibo.run("block @\(name)")
        #expect(refused.status == 2)
        #expect(refused.stderr == "-c:1: block: this API (weibo) has no block\n", "\(refused.stderr)")
        #expect(weibo.sandbox.stats.requests == before)
        #expect(await weibo.run("help block").stdout.contains("Not on this API: weibo has no block."))
    }

    @Test("mute --server mutes on the server (undo unmutes), plain mute stays the local filter, Weibo has no server mute")
    func serverMute() async throws {
        let harness = try await ShellHarness(dialect: .mastodon)
        let name = try await stranger(harness)
        let muted = await harness.run("mute @\(name) --server --duration 60 --notifications\nmute")
        #expect(muted.status == 0, "\(muted.stderr)")
        #expect(muted.stdout.isEmpty, "the local filter holds no one: \(muted.stdout)")
        let mutes = await listed(harness, "mutes")
        #expect(mutes.first?["acct"] as? String == name)
        #expect(mutes.first?["mute_expires_at"] is String)
        #expect(await harness.run("undo").stderr.contains("unmuted @\(name) on the server"))
        #expect(await listed(harness, "mutes").isEmpty)
        let local = await harness.run("mute @\(name)\nmute")
        #expect(local.stdout == "@\(name)\n", "\(local.stdout)")
        #expect(await listed(harness, "mutes").isEmpty)
        #expect(await harness.run("unmute @\(name)\nmute --duration 5 @\(name)").stderr
            .contains("--duration and --notifications are for the server's mute: add --server"))

        let weibo = try await ShellHarness()
        let refused = await weibo.run("mute @\(name) --server")
        #expect(refused.status == 2)
        #expect(refused.stderr.contains("this API (weibo) has no server-side mute"))
        #expect(await weibo.run("help mute").stdout.contains("On this API (weibo): no server-side mute (--server)."))
        #expect(await weibo.run("help search").stdout.contains("On this API (weibo): search finds statuses."))
    }
}
