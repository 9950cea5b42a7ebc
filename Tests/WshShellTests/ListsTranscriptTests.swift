import Foundation
import Testing
import WshRequest
import WshSandbox
import WshTestSupport
@testable import WshShell

/// `fetch list|bookmarks|favourites`, `bookmark`, `unbookmark` and `lists`
/// through the real loop against the sandbox's Mastodon side, and what Weibo says.
@Suite("Bookmarks and lists through the shell", .serialized)
struct ListsTranscriptTests {
    @Test("bookmark, fetch bookmarks with --json and more, undo unbookmarks on the server")
    func bookmarks() async throws {
        let harness = try await ShellHarness(dialect: .mastodon)
        let ids = try await harness.rows(after: "fetch 5").compactMap { $0["id"] as? String }
        let marked = await harness.run("bookmark 3\nbookmark 1\nhistory")
        #expect(marked.status == 0, "\(marked.stderr)")
        #expect(marked.stdout.contains("bookmark 3"))
        let rows = try await harness.rows(after: "fetch bookmarks 1\nmore")
        #expect(rows.compactMap { $0["id"] as? String } == [ids[0], ids[2]])
        #expect(rows.allSatisfy { $0["bookmarked"] as? Bool == true })
        let undo = await harness.run("fetch 5\nundo\nundo\nundo")     // fetch, more, fetch bookmarks… then bookmark 1
        #expect(undo.status == 0, "\(undo.stderr)")
        let after = await harness.run("undo\nfetch bookmarks\nlist --json")
        #expect(after.stderr.contains("unbookmarked status \(ids[0])"), "\(after.stderr)")
        let left = try JSONSerialization.jsonObject(with: Data(after.stdout.utf8)) as? [[String: Any]] ?? []
        #expect(left.compactMap { $0["id"] as? String } == [ids[2]])
    }

    @Test("a status bookmarked in this session opens in detail as bookmarked, in its own-state line and in --json")
    func detailAfterBookmark() async throws {
        let harness = try await ShellHarness(dialect: .mastodon)
        #expect(await harness.run("fetch 3\nbookmark 2").status == 0)
        let shown = await harness.run("detail 2")
        #expect(shown.stdout.contains("you bookmarked"), "\(shown.stdout)")
        let json = await harness.run("back\ndetail 2 --json")
        let detail = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        #expect(detail["bookmarked"] as? Bool == true)
    }

    @Test("unbookmark takes a bookmark away on the server; undo bookmarks it again, redo takes it away again")
    func unbookmark() async throws {
        let harness = try await ShellHarness(dialect: .mastodon)
        let ids = try await harness.rows(after: "fetch 3\nbookmark 2\nbookmark 3").compactMap { $0["id"] as? String }
        let bookmarked = { () async throws -> [String] in
            try await ShellHarness.ids(harness.run("fetch bookmarks\nlist --json\nundo").stdout)
        }
        let taken = await harness.run("fetch 3\nunbookmark 2")
        #expect(taken.status == 0, "\(taken.stderr)")
        let again = await harness.run("undo\nredo")
        #expect(again.stderr.contains("bookmarked status \(ids[1]) on the server"), "\(again.stderr)")
        #expect(again.stderr.contains("unbookmarked status \(ids[1]) on the server"), "\(again.stderr)")
        #expect(try await bookmarked() == [ids[2]])
        #expect(await harness.run("undo").status == 0)
        // Bookmarked again by undo: the newest bookmark now.
        #expect(try await bookmarked() == [ids[1], ids[2]])
    }

    @Test("lists: create, the screen with --json, add needs a follow (one line), fetch list, delete and undo")
    func lists() async throws {
        let harness = try await ShellHarness(dialect: .mastodon)
        let me = harness.sandbox.accounts[0].screenName
        let authors = try await harness.rows(after: "fetch 20").compactMap { ($0["account"] as? [String: Any])?["acct"] as? String }
        let author = try #require(authors.first { $0 != me })
        let made = await harness.run("lists create Close friends\nlists")
        #expect(made.status == 0, "\(made.stderr)")
        #expect(made.stdout.contains("1.  Close friends  (replies: list)"), "\(made.stdout)")
        let json = await harness.run("lists --json")
        let document = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        let entry = try #require((document["lists"] as? [[String: Any]])?.first)
        #expect(entry["title"] as? String == "Close friends")
        #expect(entry["index"] as? Int == 1)
        let unfollowed = await harness.run("unfollow @\(author)\nlists add 'close friends' @\(author)")
        #expect(unfollowed.status != 0)
        #expect(unfollowed.stderr.contains("Mastodon lists hold only accounts you follow: follow @\(author) first"), "\(unfollowed.stderr)")
        let added = await harness.run("follow @\(author)\nlists add 'close friends' @\(author)\nfetch list 'Close friends' 5")
        #expect(added.status == 0, "\(added.stderr)")
        let rows = try await harness.rows()
        #expect(!rows.isEmpty)
        #expect(rows.allSatisfy { ($0["account"] as? [String: Any])?["acct"] as? String == author })
        let deleted = await harness.run("lists delete 'Close friends'\nlists\nundo\nundo\nlists")
        #expect(deleted.status == 0, "\(deleted.stderr)")
        #expect(deleted.stderr.contains("the server gave it a new id"), "\(deleted.stderr)")
        #expect(deleted.stdout.contains("no lists"))
        let back = try await harness.rows(after: "fetch list 'close friends' 5")
        #expect(back.allSatisfy { ($0["account"] as? [String: Any])?["acct"] as? String == author } && !back.isEmpty)
        let unknown = await harness.run("fetch list nosuch")
        #expect(unknown.stderr.contains("no list named 'nosuch'"), "\(unknown.stderr)")
    }

    @Test("a bookmark and a list deletion whose answers are lost are resolved by reading the server", arguments: [MastodonIDStyle.snowflake, .ulid])
    func lostAnswers(style: MastodonIDStyle) async throws {
        let harness = try await ShellHarness(dialect: .mastodon, idStyle: style)
        let ids = try await harness.rows(after: "fetch 3").compactMap { $0["id"] as? String }
        harness.sandbox.setFaults(SandboxFaults(dropAfter: true, path: "api/v1/statuses/\(ids[0])/bookmark"))
        let marked = await harness.run("bookmark 1")
        #expect(marked.status == 0, "\(marked.stderr)")
        #expect(marked.stderr.contains("the answer was lost; the server shows it done"), "\(marked.stderr)")
        harness.sandbox.setFaults(SandboxFaults())
        let made = await harness.run("lists create Friends\nlists --json\nback")
        let document = try #require(try JSONSerialization.jsonObject(
            with: Data(made.stdout.utf8)) as? [String: Any])
        let listID = try #require((document["lists"] as? [[String: Any]])?.first?["id"] as? String)
        harness.sandbox.setFaults(SandboxFaults(dropAfter: true, path: "api/v1/lists/\(listID)"))
        let deleted = await harness.run("lists delete friends")
        #expect(deleted.status == 0, "\(deleted.stderr)")
        #expect(deleted.stderr.contains("the answer was lost; the server shows the list deleted"), "\(deleted.stderr)")
        harness.sandbox.setFaults(SandboxFaults())
        let undone = await harness.run("undo\nundo\nundo\nundo\nundo\nfetch bookmarks")
        #expect(undone.status == 0, "\(undone.stderr)")
        #expect(undone.stderr.contains("unbookmarked status \(ids[0])"), "\(undone.stderr)")
        #expect(try await harness.rows().isEmpty)
    }

    @Test("Weibo: bookmarks and lists refused in one line before any request; favorites and favourites both fetch")
    func weibo() async throws {
        let harness = try await ShellHarness()
        #expect(await harness.run("fetch 3\nfavorite 2").status == 0)
        let before = harness.sandbox.stats.requests
        for (command, line) in [("bookmark 1", "bookmark: this API (weibo) has no bookmarks"),
                                ("lists", "lists: this API (weibo) has no lists"),
                                ("fetch bookmarks", "bookmarks: this API (weibo) has no such timeline"),
                                ("fetch list x", "list NAME: this API (weibo) has no such timeline")] {
            let refused = await harness.run(command)
            #expect(refused.status == 2)
            #expect(refused.stderr.contains(line), "\(refused.stderr)")
            #expect(refused.stderr.split(separator: "\n").count == 1, "\(refused.stderr)")
            #expect(!refused.stderr.contains("bookmark: bookmark:") && !refused.stderr.contains("lists: lists:"))
        }
        #expect(harness.sandbox.stats.requests == before)
        #expect(await harness.run("help lists").stdout.contains("Not on this API: weibo has no lists."))
        #expect(try await harness.rows(after: "fetch favorites").count == 1)
        #expect(try await harness.rows(after: "fetch favourites").count == 1)
    }
}

extension ShellHarness {
    /// The ids of a `list --json` answer.
    static func ids(_ json: String) throws -> [String] {
        let rows = try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [[String: Any]] ?? []
        return rows.compactMap { $0["id"] as? String }
    }
}
