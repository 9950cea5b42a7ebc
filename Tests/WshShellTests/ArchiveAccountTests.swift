import Foundation
import Testing
import WshRequest
import WshSandbox
@testable import WshShell

/// `archive sync` of an account's data beyond timelines (its own posts, the
/// follow graph, mutes, blocks, lists, notifications, bookmarks, favourites)
/// and `archive changes`, on both of the sandbox's APIs, read back with
/// SQLite's own shell.
@Suite("The archive: an account's data", .serialized)
struct ArchiveAccountTests {
    private func sqlite3(_ file: String, _ query: String) throws -> String { try ArchiveTranscriptTests.sqlite3(file, query) }

    @Test("Mastodon: me, bookmarks, favourites, following, followers, lists, mutes, blocks and notifications are kept, with how each follow and mute is set")
    func everyKindOnMastodon() async throws {
        let file = ArchiveTranscriptTests.freshFile()
        let harness = try await ShellHarness(dialect: .mastodon, accounts: 5)
        let me = harness.sandbox.accounts[0]
        let (fan, muted, blocked, member) = (harness.sandbox.accounts[1], harness.sandbox.accounts[2], harness.sandbox.accounts[3],
                                             harness.sandbox.accounts[4])
        try await harness.mastodonPost("api/v1/accounts/\(me.uid)/follow", as: fan)
        try await harness.mastodonPost("api/v1/accounts/\(muted.uid)/mute", as: me, form: "notifications=false")
        try await harness.mastodonPost("api/v1/accounts/\(blocked.uid)/block", as: me)
        try await harness.mastodonPost("api/v1/accounts/\(member.uid)/follow", as: me,
                                       form: "reblogs=false&notify=true&languages[]=en&languages[]=fr")
        let list = try await harness.mastodonPost("api/v1/lists", as: me, form: "title=Friends")
        let listID = try #require((try JSONSerialization.jsonObject(with: list.body) as? [String: Any])?["id"] as? String)
        try await harness.mastodonPost("api/v1/lists/\(listID)/accounts", as: me, form: "account_ids[]=\(member.uid)")
        let public5 = await harness.run("fetch public 5\nbookmark 1\nfavorite 2")
        #expect(public5.status == 0, "\(public5.stderr)")

        let sync = await harness.run(
            "archive sync me bookmarks favourites following followers lists mutes blocks notifications --archive \(file)")
        #expect(sync.status == 0, "\(sync.stderr)")
        #expect(sync.stderr.contains("synced followers: 1 account, 1 new"), "\(sync.stderr)")
        #expect(try sqlite3(file, "SELECT kind || ':' || acct FROM relations WHERE kind IN ('followers', 'mutes', 'blocks') ORDER BY kind")
                == "blocks:\(blocked.screenName)\nfollowers:\(fan.screenName)\nmutes:\(muted.screenName)")
        // How the follow and the mute are set, from the relationships.
        #expect(try sqlite3(file, "SELECT show_boosts || notify || languages FROM relations "
                                  + "WHERE kind = 'following' AND target_id = '\(member.uid)'") == "01en,fr")
        #expect(try sqlite3(file, "SELECT DISTINCT show_boosts || notify || coalesce(languages, '-') FROM relations "
                                  + "WHERE kind = 'following' AND target_id <> '\(member.uid)'") == "10-")
        #expect(try sqlite3(file, "SELECT hide_notifications FROM relations WHERE kind = 'mutes'") == "0")
        #expect(try sqlite3(file, "SELECT l.title || ':' || m.acct FROM lists l JOIN list_members m ON m.list_id = l.id")
                == "Friends:\(member.screenName)")
        #expect(try sqlite3(file, "SELECT count(*) FROM source_statuses WHERE source = 'bookmarks'") == "1")
        #expect(try sqlite3(file, "SELECT count(*) FROM source_statuses WHERE source = 'favourites'") == "1")
        let mine = try sqlite3(file, "SELECT count(*) FROM source_statuses s JOIN statuses t ON t.rowid = s.status "
                                     + "WHERE s.source = 'me' AND t.author_id = '\(me.uid)'")
        let kept = try sqlite3(file, "SELECT count(*) FROM source_statuses WHERE source = 'me'")
        #expect(mine != "0" && mine == kept)
        // The notifications themselves, and the follow among them.
        #expect(try sqlite3(file, "SELECT count(*) FROM notifications WHERE type = 'follow' AND from_id = '\(fan.uid)'") == "1")
        #expect(try sqlite3(file, "SELECT count(*) FROM accounts WHERE id = '\(fan.uid)' AND json LIKE '%\"acct\"%'") == "1")
        // The summary counts each kind as its last sync saw it.
        let summary = await harness.run("archive --archive \(file)")
        for line in ["followers: 1 account · last sync", "mutes: 1 account · last sync", "lists: 1 list · last sync"] {
            #expect(summary.stdout.contains(line), "\(line): \(summary.stdout)")
        }
    }

    @Test("me keeps every earlier version of your edited statuses from their edit history, once, and a later edit's too")
    func ownEditHistories() async throws {
        let file = ArchiveTranscriptTests.freshFile()
        let harness = try await ShellHarness(dialect: .mastodon)
        let me = harness.sandbox.accounts[0]
        let edited = await harness.run("""
            post "first words"
            fetch user @\(me.screenName) 1
            edit 1 second words
            edit 1 third words
            archive sync me --archive \(file)
            """)
        #expect(edited.status == 0, "\(edited.stderr)")
        #expect(edited.stderr.contains("2 earlier versions from edit histories"), "\(edited.stderr)")
        let versions = "SELECT group_concat(e.text, '|') FROM edits e JOIN statuses s ON s.rowid = e.status WHERE s.text = '%@'"
        #expect(try sqlite3(file, versions.replacingOccurrences(of: "%@", with: "third words")) == "first words|second words")
        #expect(try sqlite3(file, "SELECT count(*) FROM edits WHERE json LIKE '%\"content\"%'") == "2")
        let again = await harness.run("archive sync me --archive \(file)")
        #expect(!again.stderr.contains("from edit histories"), "\(again.stderr)")
        let later = await harness.run("fetch user @\(me.screenName) 1\nedit 1 fourth words\narchive sync me --archive \(file)")
        #expect(later.status == 0, "\(later.stderr)")
        #expect(try sqlite3(file, versions.replacingOccurrences(of: "%@", with: "fourth words")) == "first words|second words|third words")
    }

    @Test("archive changes followers shows who came and who left between the last two syncs, and nothing after one")
    func changesBetweenSyncs() async throws {
        let file = ArchiveTranscriptTests.freshFile()
        let harness = try await ShellHarness(dialect: .mastodon, accounts: 5)
        let me = harness.sandbox.accounts[0]
        let (leaving, staying, coming) = (harness.sandbox.accounts[1], harness.sandbox.accounts[2], harness.sandbox.accounts[3])
        try await harness.mastodonPost("api/v1/accounts/\(me.uid)/follow", as: leaving)
        try await harness.mastodonPost("api/v1/accounts/\(me.uid)/follow", as: staying)
        try await harness.mastodonPost("api/v1/accounts/\(me.uid)/unfollow", as: coming)
        let first = await harness.run("archive sync followers --archive \(file)\narchive changes followers --archive \(file)")
        #expect(first.status == 0, "\(first.stderr)")
        #expect(first.stderr.contains("one sync of followers so far"), "\(first.stderr)")

        try await harness.mastodonPost("api/v1/accounts/\(me.uid)/unfollow", as: leaving)
        try await harness.mastodonPost("api/v1/accounts/\(me.uid)/follow", as: coming)
        let second = await harness.run("archive sync followers --archive \(file)\narchive changes followers --archive \(file)")
        #expect(second.status == 0, "\(second.stderr)")
        #expect(second.stderr.contains("synced followers: 2 accounts, 1 new, 1 gone since the last sync"), "\(second.stderr)")
        let lines = second.stdout.split(separator: "\n").map(String.init)
        #expect(lines.contains("+ @\(coming.screenName)"), "\(second.stdout)")
        #expect(lines.contains("- @\(leaving.screenName)"), "\(second.stdout)")
        #expect(!second.stdout.contains(staying.screenName), "\(second.stdout)")
        let document = try #require(try JSONSerialization.jsonObject(
            with: Data(await harness.run("archive changes followers --json --archive \(file)").stdout.utf8)) as? [String: Any])
        #expect((document["came"] as? [[String: Any]])?.compactMap { $0["acct"] as? String } == [coming.screenName])
        #expect((document["left"] as? [[String: Any]])?.compactMap { $0["acct"] as? String } == [leaving.screenName])
        // The one who left is kept, with when they were last seen.
        #expect(try sqlite3(file, "SELECT first_seen < last_seen OR first_seen = last_seen FROM relations WHERE target_id = '\(leaving.uid)'") == "1")
    }

    @Test("Weibo: archive changes following shows whom you unfollowed between two syncs")
    func changesOnWeibo() async throws {
        let file = ArchiveTranscriptTests.freshFile()
        let harness = try await ShellHarness(dialect: .weibo)
        let first = await harness.run("archive sync following --archive \(file)")
        #expect(first.status == 0, "\(first.stderr)")
        let name = try sqlite3(file, "SELECT acct FROM relations WHERE kind = 'following' ORDER BY acct LIMIT 1")
        #expect(!name.isEmpty)
        let second = await harness.run("unfollow @\(name)\narchive sync following --archive \(file)\narchive changes following --archive \(file)")
        #expect(second.status == 0, "\(second.stderr)")
        #expect(second.stderr.contains("0 new, 1 gone since the last sync"), "\(second.stderr)")
        #expect(second.stdout.split(separator: "\n").map(String.init).contains("- @\(name)"), "\(second.stdout)")
    }

    @Test("Weibo: what its API has not (bookmarks, lists, mutes, blocks, notifications) is one line, and the rest syncs")
    func weiboSaysWhichNot() async throws {
        let file = ArchiveTranscriptTests.freshFile()
        let harness = try await ShellHarness(dialect: .weibo)
        let sync = await harness.run(
            "archive sync me bookmarks favourites following followers lists mutes blocks notifications --archive \(file)")
        #expect(sync.status == 0, "\(sync.stderr)")
        let notes = sync.stderr.split(separator: "\n").filter { $0.contains("not on this API") }
        #expect(notes == ["not on this API (weibo): bookmarks, lists, mutes, blocks, notifications; syncing the rest"], "\(sync.stderr)")
        let following = try sqlite3(file, "SELECT count(*) FROM relations WHERE kind = 'following'")
        #expect(following != "0")
        #expect(try sqlite3(file, "SELECT count(*) FROM source_statuses WHERE source = 'me'") != "0")
        let only = await harness.run("archive sync mutes --archive \(file)")
        #expect(only.status != 0)
        #expect(only.stderr == "-c:1: archive: this API (weibo) has no mutes to sync\n", "\(only.stderr)")
    }

    @Test("a read of followers that fails keeps nothing of it: the last complete read stands, and no one looks gone")
    func failedReadKeepsTheLastOne() async throws {
        let file = ArchiveTranscriptTests.freshFile()
        let harness = try await ShellHarness(dialect: .mastodon, accounts: 5)
        let me = harness.sandbox.accounts[0]
        for fan in harness.sandbox.accounts[1...3] { try await harness.mastodonPost("api/v1/accounts/\(me.uid)/follow", as: fan) }
        let first = await harness.run("archive sync following followers --archive \(file)")
        #expect(first.status == 0, "\(first.stderr)")
        let before = try sqlite3(file, "SELECT count(*) || ' ' || max(last_seen) FROM relations WHERE kind = 'followers'")
        harness.sandbox.setFaults(SandboxFaults(failRate: 1, path: "api/v1/accounts/\(me.uid)/followers"))
        let failed = await harness.run("archive sync followers --archive \(file)")
        harness.sandbox.setFaults(SandboxFaults())
        #expect(failed.status != 0)
        #expect(failed.stderr.contains("followers:") && failed.stderr.contains("nothing of it kept"), "\(failed.stderr)")
        #expect(try sqlite3(file, "SELECT count(*) || ' ' || max(last_seen) FROM relations WHERE kind = 'followers'") == before)
        #expect(try sqlite3(file, "SELECT count(*) FROM relation_syncs WHERE kind = 'followers'") == "1")
    }
}
