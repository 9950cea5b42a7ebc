import Foundation
import Testing
import WshSandbox
import WshTestSupport
@testable import WshShell

/// The lesson the layering teaches: a second API under the same ViewModels.
/// One script, run over the sandbox's Weibo side and over its Mastodon side
/// (the same generated data), gives the same rows, screens and history.
@Suite("One script over Weibo and Mastodon", .serialized)
struct CrossDialectTests {
    static let script = """
        fetch 5
        detail 5
        comments
        back
        back
        more
        mute @pixel_kafka68
        user @深夜熊猫
        back
        calc 12 + 7 * 2 =
        """

    // Row 5 has fewer comments than a page: Weibo shows the first 50 comments
    // of a status, Mastodon its whole thread, so a longer one would differ.

    /// What the session shows after `script`: each row's id and author, the
    /// history, and what the detail and user screens showed.
    private func run(_ dialect: Connection.DialectChoice) async throws -> (rows: [[String]], history: String, shown: String) {
        let harness = try await ShellHarness(dialect: dialect)
        let run = await harness.run(Self.script)
        #expect(run.status == 0, "\(dialect): \(run.stderr)")
        // `--json` keeps each API's names: Weibo's idstr and user.screen_name, Mastodon's id and account.acct.
        let rows = try await harness.rows().map { row in
            [row["idstr"] as? String ?? row["id"] as? String ?? "",
             (row["user"] as? [String: Any])?["screen_name"] as? String ?? (row["account"] as? [String: Any])?["acct"] as? String ?? ""]
        }
        let history = await harness.run("history").stdout
        return (rows, history, run.stdout)
    }

    @Test("the same rows, screens and history over both dialects")
    func sameSessionOverBoth() async throws {
        let weibo = try await run(.weibo)
        let mastodon = try await run(.mastodon)
        #expect(weibo.rows.count == 8)
        #expect(mastodon.rows == weibo.rows)
        #expect(mastodon.history == weibo.history)
        #expect(weibo.history.contains("mute @pixel_kafka68 → 2 rows hidden"))
        // Both drew a detail (its counts line), the comments and a user profile.
        for shown in [weibo.shown, mastodon.shown] {
            #expect(shown.contains("5 reposts · 10 comments · 10 likes"))
            #expect(shown.contains("· 10 comments\n"))
            #expect(shown.contains("599 followers ·"))
        }
    }

    @Test("trace on shows the different wire under the same command")
    func traceShowsTheWire() async throws {
        let weibo = try await ShellHarness(dialect: .weibo).run("trace on\nfetch 5\nmore")
        let mastodon = try await ShellHarness(dialect: .mastodon).run("trace on\nfetch 5\nmore")
        #expect(weibo.stderr.contains("/2/statuses/public_timeline.json?count=5&page=1"))
        #expect(mastodon.stderr.contains("/api/v1/timelines/public?limit=5"))
        for trace in [weibo.stderr, mastodon.stderr] {
            #expect(trace.contains("StatusDataController.timeline(public, count: 5)"))
        }
        // `more` names where it starts: a page number, or the server's own link.
        #expect(weibo.stderr.contains("StatusDataController.timeline(public, count: 5, from: page(2))"), "\(weibo.stderr)")
        #expect(mastodon.stderr.contains("StatusDataController.timeline(public, count: 5, from: link(older than "), "\(mastodon.stderr)")
    }

    @Test("a timeline one API lacks is a usage error naming it")
    func timelinesOneAPILacks() async throws {
        let weibo = try await ShellHarness(dialect: .weibo).run("fetch local")
        #expect(weibo.status == 2)
        #expect(weibo.stderr.contains("fetch: local: this API (weibo) has no such timeline; it offers public, home"), "\(weibo.stderr)")
        let mastodon = try await ShellHarness(dialect: .mastodon).run("fetch 3\nfetch reposts 1")
        #expect(mastodon.status == 2)
        #expect(mastodon.stderr.contains("fetch: reposts N: this API (mastodon) has no such timeline"), "\(mastodon.stderr)")
    }
}
