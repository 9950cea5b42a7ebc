import Foundation
import Testing
import WshRequest
import WshSandbox
@testable import WshShell
import WshTestSupport

/// Help and completion from what the connected API offers.
@Suite("help fetch from the connected API's capabilities")
struct CapabilityHelpTests {
    @Test("the help list marks the commands the connected API lacks: every Mastodon-only one on Weibo, none on Mastodon")
    func helpListMarksWhatIsNotOffered() async throws {
        let mastodonOnly = ["notifications", "dismiss", "conversations", "bookmark", "unbookmark", "lists", "edit",
                            "edits", "scheduled", "unschedule", "vote", "block", "unblock", "filters", "favourited-by"]
        let weibo = await (try ShellHarness()).run("help").stdout
        let marked = weibo.split(separator: "\n").filter { $0.hasSuffix(" [not on weibo]") }
            .compactMap { $0.split(separator: " ").first.map(String.init) }
        #expect(marked.sorted() == mastodonOnly.sorted(), "\(weibo)")
        let mastodon = await (try ShellHarness(dialect: .mastodon)).run("help").stdout
        #expect(!mastodon.contains("[not on"), "\(mastodon)")
        for command in mastodonOnly { #expect(mastodon.contains("  \(command) "), "\(command) is listed on Mastodon") }
    }

    @Test("on Weibo: 200 on the public timeline, 100 on the others, reposts offered, local and tag not")
    func weibo() async throws {
        let harness = try await ShellHarness()
        let help = await harness.run("help fetch").stdout
        #expect(help.contains("On this API (weibo): public: 1 to 200 statuses a page; home, user NAME, mentions, reposts N: 1 to 100 statuses a page; favourites: 1 to 50 statuses a page. Not offered here: local, tag NAME, list NAME, bookmarks."), "\(help)")
        #expect(harness.shell.offeredTimelines().map(\.word) == ["public", "home", "user", "mentions", "reposts", "favourites"])
    }

    @Test("on Mastodon: 40 a page, local and tag offered, reposts not; fetch reposts fails before any request naming the API")
    func mastodon() async throws {
        let harness = try await ShellHarness(dialect: .mastodon)
        let help = await harness.run("help fetch").stdout
        #expect(help.contains("On this API (mastodon): public, local, home, tag NAME, user NAME, mentions, list NAME, bookmarks, favourites: 1 to 40 statuses a page. Not offered here: reposts N."), "\(help)")
        #expect(!help.contains("200"))
        #expect(harness.shell.offeredTimelines().map(\.word) == ["public", "local", "home", "tag", "user", "mentions", "list", "bookmarks", "favourites"])
        let before = harness.sandbox.stats.requests
        let refused = await harness.run("fetch reposts 1")
        #expect(refused.status == 2)
        #expect(refused.stderr.contains("fetch: reposts N: this API (mastodon) has no such timeline; it offers public, local, home, tag NAME, user NAME, mentions"), "\(refused.stderr)")
        #expect(harness.sandbox.stats.requests == before)
    }

    @Test("an --api URL not yet asked says the timelines are found out by connect URL or the first request")
    func unknown() async throws {
        let harness = ShellHarness(api: "http://127.0.0.1:9/", token: nil)
        #expect(await harness.run("help fetch").stdout.contains("found out by connect URL or the first request"))
    }

    @Test("the manual page, which knows no API, lists each API's timelines and page sizes under fetch; help does not")
    func manualListsEveryAPI() async throws {
        let harness = ShellHarness(api: "http://127.0.0.1:9/", token: nil)
        let fetch = try #require(harness.shell.interpreter.commands.all.first { $0.name == "fetch" })
        #expect(fetch.manualNotes == """
            On weibo: public: 1 to 200 statuses a page; home, user NAME, mentions, reposts N: 1 to 100 statuses a page; \
            favourites: 1 to 50 statuses a page. Not offered here: local, tag NAME, list NAME, bookmarks.

            On mastodon: public, local, home, tag NAME, user NAME, mentions, list NAME, bookmarks, favourites: \
            1 to 40 statuses a page. Not offered here: reposts N.
            """)
        #expect(!(await harness.run("help fetch").stdout.contains("On weibo:")))
    }
}

/// Writes an API cannot do as asked are refused before any request.
@Suite("Write capabilities")
struct WriteCapabilityTests {
    @Test("repost N TEXT on Mastodon is refused before any request (a boost has no text); repost N boosts; Weibo keeps the text")
    func repostText() async throws {
        let mastodon = try await ShellHarness(dialect: .mastodon)
        _ = await mastodon.run("fetch 3")
        let before = mastodon.sandbox.stats.requests
        let refused = await mastodon.run("repost 2 look at this")
        #expect(refused.status == 2)
        #expect(refused.stderr.contains("repost: TEXT: this API (mastodon) reposts without text of its own"), "\(refused.stderr)")
        #expect(mastodon.sandbox.stats.requests == before)
        #expect(await mastodon.run("repost 2").status == 0)
        let weibo = try await ShellHarness()
        #expect(await weibo.run("fetch 3; repost 2 look at this").status == 0)
    }
}
