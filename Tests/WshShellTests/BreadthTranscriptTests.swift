import Foundation
import Testing
import WshRequest
import WshSandbox
import WshTestSupport
@testable import WshShell

/// Issue 33's "what the last breadth work left", through the real loop
/// against the embedded sandbox: the server's filters, `post --at` with
/// every option, `more` over the scheduled and notifications screens, who
/// favourited and who boosted a row, and Weibo's picture.
@Suite("Filters, scheduling with options, paging screens, status accounts, Weibo pictures", .serialized)
struct BreadthTranscriptTests {
    private func json(_ text: String) throws -> Any {
        do {
            return try JSONSerialization.jsonObject(with: Data(text.utf8))
        } catch {
            Issue.record("not JSON: \(text)")
            throw error
        }
    }

    /// Sends a form to the sandbox's Mastodon API as `account`.
    @discardableResult
    private func mastodon(_ harness: ShellHarness, _ path: String, as account: SandboxAccount, form: String) async throws -> HTTPResponse {
        try await CurlHTTPClient(secrets: [account.token]).send(HTTPRequest(
            method: .post, url: harness.sandbox.mastodonBaseURL + path,
            headers: [HTTPHeader("Authorization", "Bearer " + account.token),
                      HTTPHeader("Content-Type", "application/x-www-form-urlencoded")],
            body: Data(form.utf8)))
    }

    private func png() -> String {
        let path = NSTemporaryDirectory() + "wsh-breadth-\(UUID().uuidString).png"
        let bytes: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + Array(repeating: 7, count: 64)
        _ = FileManager.default.createFile(atPath: path, contents: Data(bytes))
        return path
    }

    // MARK: a. Filters

    /// Makes each (title, action, keyword) a filter of `account`'s for `contexts`, as a client would (POST /api/v2/filters).
    private func addFilters(_ harness: ShellHarness, as account: SandboxAccount, in contexts: [String],
                            _ filters: [(title: String, action: String, keyword: String)]) async throws {
        let context = contexts.map { "&context[]=\($0)" }.joined()
        for filter in filters {
            let made = try await mastodon(harness, "api/v2/filters", as: account, form: "title=\(filter.title)\(context)"
                                          + "&filter_action=\(filter.action)&keywords_attributes[][keyword]=\(filter.keyword)")
            #expect(made.status == 200)
        }
    }

    @Test("a filter applies only in the contexts it names: one for home and notifications leaves the public timeline as it is, though the server marks the status with it there too")
    func filtersApplyInTheirContexts() async throws {
        let harness = try await ShellHarness(dialect: .mastodon)
        let me = harness.sandbox.accounts[0]
        let other = harness.sandbox.accounts[1]
        try await addFilters(harness, as: me, in: ["home", "notifications"], [("Sunsets", "warn", "sunset"), ("Boats", "hide", "sailboat")])
        try await mastodon(harness, "api/v1/statuses", as: other, form: "status=what%20a%20sunset%20tonight")
        try await mastodon(harness, "api/v1/statuses", as: other, form: "status=a%20red%20sailboat%20passed")
        let marked = await harness.run("api get api/v1/timelines/public limit=2")
        #expect(marked.stdout.contains("\"Sunsets\""), "the server marks it in every context: \(marked.stdout)")

        let rows = await harness.run("fetch public 5\nlist")
        #expect(rows.status == 0, "\(rows.stderr)")
        #expect(rows.stdout.contains("what a sunset tonight"), "\(rows.stdout)")
        #expect(rows.stdout.contains("a red sailboat passed"), "\(rows.stdout)")
        #expect(!rows.stdout.contains("Filtered:"), "\(rows.stdout)")
    }

    @Test("a warn filter shows 'Filtered: TITLE' in place of the text until detail opens it; a hide filter leaves the row out, in timelines and notifications; filters lists them")
    func filtersAreHonoured() async throws {
        let harness = try await ShellHarness(dialect: .mastodon)
        let me = harness.sandbox.accounts[0]
        let other = harness.sandbox.accounts[1]
        try await addFilters(harness, as: me, in: ["public", "notifications"], [("Spoilers", "warn", "finale"), ("Conference", "hide", "wwdc")])
        try await mastodon(harness, "api/v1/statuses", as: other, form: "status=%40\(me.screenName)%20the%20finale%20was%20great")
        try await mastodon(harness, "api/v1/statuses", as: other, form: "status=%40\(me.screenName)%20see%20you%20at%20WWDC")
        try await mastodon(harness, "api/v1/statuses", as: other, form: "status=nothing%20to%20hide")

        let listed = await harness.run("filters")
        #expect(listed.status == 0, "\(listed.stderr)")
        #expect(listed.stdout.contains("filters · 2 filters"), "\(listed.stdout)")
        #expect(listed.stdout.contains("Spoilers  warn  in public, notifications  \"finale\""), "\(listed.stdout)")
        #expect(listed.stdout.contains("Conference  hide"), "\(listed.stdout)")
        let document = try #require(try json(await harness.run("filters --json").stdout) as? [[String: Any]])
        #expect(document.map { $0["filter_action"] as? String } == ["warn", "hide"])

        let rows = await harness.run("fetch public 5\nlist")
        #expect(rows.status == 0, "\(rows.stderr)")
        #expect(rows.stdout.contains("Filtered: Spoilers"), "\(rows.stdout)")
        #expect(!rows.stdout.contains("the finale was great"), "\(rows.stdout)")
        #expect(!rows.stdout.contains("WWDC"), "\(rows.stdout)")
        #expect(rows.stdout.contains("nothing to hide"), "\(rows.stdout)")
        let filteredRow = try #require(rows.stdout.split(separator: "\n").first { $0.contains("Filtered: Spoilers") })
        let index = try #require(filteredRow.split(separator: " ").first.map(String.init))
        let detail = await harness.run("detail \(index)")
        #expect(detail.stdout.contains("filtered by your filter \"Spoilers\" (warn)"), "\(detail.stdout)")
        #expect(detail.stdout.contains("the finale was great"), "\(detail.stdout)")

        // The sandbox marks a notification's status with every matching filter; wsh hides what `hide` matches.
        let notifications = await harness.run("back\nnotifications 5")
        #expect(notifications.status == 0, "\(notifications.stderr)")
        #expect(notifications.stdout.contains("Filtered: Spoilers"), "\(notifications.stdout)")
        #expect(!notifications.stdout.contains("WWDC"), "\(notifications.stdout)")
    }

    @Test("Weibo has no filters: filters is refused in one line, before any request; help says so")
    func weiboHasNoFilters() async throws {
        let harness = try await ShellHarness()
        _ = await harness.run("fetch 1")
        let refused = await harness.run("filters")
        #expect(refused.status == 2)
        #expect(refused.stderr == "-c:1: filters: this API (weibo) has no filters\n", "\(refused.stderr)")
        #expect(await harness.run("help filters").stdout.contains("Not on this API: weibo has no filters."))
    }

    // MARK: b. post --at with options

    @Test("post --at carries the content warning, visibility, language, media and poll; undo of unschedule schedules them all again")
    func scheduledPostCarriesItsOptions() async throws {
        let harness = try await ShellHarness(dialect: .mastodon)
        let path = png()
        defer { try? FileManager.default.removeItem(atPath: path) }
        let polled = await harness.run("post --cw later --visibility unlisted --poll 'yes|no' --poll-expires 1h --at +1h shall we?")
        #expect(polled.status == 0, "\(polled.stderr)")
        let pictured = await harness.run("post --media \(path) --language en --at +2h look --json")
        #expect(pictured.status == 0, "\(pictured.stderr)")
        #expect(pictured.stderr.contains("uploaded 1 file"), "\(pictured.stderr)")
        let made = try #require(try json(pictured.stdout) as? [String: Any])
        #expect((made["media_ids"] as? [String])?.count == 1)
        #expect(made["language"] as? String == "en")

        let shown = await harness.run("scheduled")
        #expect(shown.stdout.contains("[poll] [unlisted] CW: later"), "\(shown.stdout)")
        #expect(shown.stdout.contains("[1 attachment] look"), "\(shown.stdout)")
        let listed = try #require(try json(await harness.run("scheduled --json").stdout) as? [[String: Any]])
        let poll = try #require(listed.first { $0["text"] as? String == "shall we?" })
        #expect(poll["spoiler_text"] as? String == "later")
        #expect(poll["visibility"] as? String == "unlisted")
        #expect((poll["poll"] as? [String: Any])?["options"] as? [String] == ["yes", "no"])
        #expect((poll["poll"] as? [String: Any])?["expires_in"] as? Int == 3600)

        // Cancelled, then scheduled again by undo: the same options go with it.
        let index = try #require(listed.first { $0["text"] as? String == "shall we?" }?["index"] as? Int)
        let again = await harness.run("unschedule \(index)\nundo")
        #expect(again.status == 0, "\(again.stderr)")
        #expect(again.stderr.contains("scheduled it again as a new scheduled status"), "\(again.stderr)")
        let after = try #require(try json(await harness.run("scheduled --json").stdout) as? [[String: Any]])
        let restored = try #require(after.first { $0["text"] as? String == "shall we?" })
        #expect(restored["id"] as? String != poll["id"] as? String)
        #expect(restored["spoiler_text"] as? String == "later")
        #expect(restored["visibility"] as? String == "unlisted")
        #expect((restored["poll"] as? [String: Any])?["options"] as? [String] == ["yes", "no"])
    }

    // MARK: c. more over scheduled and notifications

    @Test("scheduled N pages: more appends the next page (the server's Link) and says 0 at the end; more after notifications pages them")
    func morePagesScreens() async throws {
        let harness = try await ShellHarness(dialect: .mastodon)
        let made = await harness.run("for i in 1 2 3 4 5 { post --at +1h \"later $i\" }")
        #expect(made.status == 0, "\(made.stderr)")
        let first = await harness.run("scheduled 2\necho $count")
        #expect(first.stdout.hasSuffix("2\n"), "\(first.stdout)")
        #expect(first.stdout.contains("(more on the server: more)"), "\(first.stdout)")
        let paged = await harness.run("more\necho $count\nmore\necho $count\nmore\necho $count")
        #expect(paged.status == 0, "\(paged.stderr)")
        // Each more shows the screen, then its count.
        let counts = paged.stdout.split(separator: "\n").filter { $0.allSatisfy(\.isNumber) }
        #expect(counts == ["2", "1", "0"], "\(paged.stdout)")
        #expect(paged.stdout.contains("scheduled · 5 scheduled statuses"), "\(paged.stdout)")
        let listed = await harness.run("scheduled --json")
        let all = try #require(try json(listed.stdout) as? [[String: Any]], "\(listed.stdout)")
        #expect(Set(all.compactMap { $0["text"] as? String }) == Set((1...5).map { "later \($0)" }))

        let notifications = try #require(try json(await harness.run("notifications 3 --json").stdout) as? [String: Any])
        let firstIDs = try #require(notifications["notifications"] as? [[String: Any]]).compactMap { $0["id"] as? String }
        let more = await harness.run("notifications 3\nmore\necho $count")
        #expect(more.status == 0, "\(more.stderr)")
        #expect(more.stdout.hasSuffix("3\n"), "\(more.stdout)")
        #expect(more.stdout.contains("\n6  "), "\(more.stdout)")
        let shown = try #require(try json(await harness.run("notifications 6 --json").stdout) as? [String: Any])
        let sixIDs = try #require(shown["notifications"] as? [[String: Any]]).compactMap { $0["id"] as? String }
        #expect(Array(sixIDs.prefix(3)) == firstIDs)
        #expect(sixIDs.count == 6)
    }

    // MARK: e. Who favourited and who boosted

    @Test("favourited-by N and reblogged-by N show a screen of accounts: detail N opens one, --json lists them, undo closes it")
    func statusAccountsOnMastodon() async throws {
        let harness = try await ShellHarness(dialect: .mastodon)
        let me = harness.sandbox.accounts[0]
        let other = harness.sandbox.accounts[1]
        let fetched = await harness.run("fetch user @\(me.screenName) 3\nlist --json")
        #expect(fetched.status == 0, "\(fetched.stderr)")
        let mine = try #require((try json(fetched.stdout) as? [[String: Any]])?.compactMap { $0["id"] as? String }.first)
        #expect(try await mastodon(harness, "api/v1/statuses/\(mine)/favourite", as: other, form: "").status == 200)
        #expect(try await mastodon(harness, "api/v1/statuses/\(mine)/reblog", as: other, form: "").status == 200)

        let favourited = await harness.run("fetch user @\(me.screenName) 3\nfavourited-by 1\necho $count")
        #expect(favourited.status == 0, "\(favourited.stderr)")
        #expect(favourited.stdout.contains("who favourited status \(mine)"), "\(favourited.stdout)")
        #expect(favourited.stdout.contains("@" + other.screenName), "\(favourited.stdout)")
        #expect(favourited.stdout.hasSuffix("1\n"), "\(favourited.stdout)")
        let profile = await harness.run("detail 1 --json")
        let user = try #require(try json(profile.stdout) as? [String: Any])
        #expect(user["acct"] as? String == other.screenName || user["screen_name"] as? String == other.screenName, "\(profile.stdout)")

        let boosted = try #require(try json(await harness.run("back\nback\nreblogged-by 1 --json").stdout) as? [String: Any])
        #expect(boosted["list"] as? String == "reblogged-by")
        #expect(boosted["owner"] as? String == mine)
        let users = try #require(boosted["users"] as? [[String: Any]])
        #expect(users.count == 1)
        #expect(await harness.run("undo").status == 0)
        #expect(await harness.run("favourited-by 99").stderr.contains("no row 99"))
    }

    @Test("Weibo: reblogged-by N lists who reposted it; favourited-by is refused in one line before any request")
    func statusAccountsOnWeibo() async throws {
        let harness = try await ShellHarness()
        // The repost becomes row 1: the status it reposts is row 3 then.
        let reposted = await harness.run("fetch 3\nrepost 2 nice\nreblogged-by 3\necho $count")
        #expect(reposted.status == 0, "\(reposted.stderr)")
        #expect(reposted.stdout.contains("who boosted status"), "\(reposted.stdout)")
        #expect(reposted.stdout.contains("@" + harness.sandbox.accounts[0].screenName), "\(reposted.stdout)")
        let refused = await harness.run("favourited-by 1")
        #expect(refused.status == 2)
        #expect(refused.stderr == "-c:1: favourited-by: this API (weibo) does not say who favourited a status\n", "\(refused.stderr)")
    }

    // MARK: f. Weibo takes a picture

    @Test("Weibo: post --media FILE sends the text and the picture in one statuses/upload.json; the row shows it; what Weibo cannot take is refused before any request")
    func weiboPicture() async throws {
        let harness = try await ShellHarness()
        let path = png()
        defer { try? FileManager.default.removeItem(atPath: path) }
        let posted = await harness.run("trace on\npost --media \(path) 一张图\ntrace off\nlist")
        #expect(posted.status == 0, "\(posted.stderr)")
        #expect(posted.stderr.contains("statuses/upload.json"), "\(posted.stderr)")
        let first = try #require(posted.stdout.split(separator: "\n").first { $0.hasPrefix("1  ") })
        #expect(first.contains("一张图") && first.contains("[1 pic]"), "\(first)")
        let detail = try #require(try json(await harness.run("detail 1 --json").stdout) as? [String: Any])
        #expect((detail["pic_urls"] as? [Any])?.count == 1)

        let two = await harness.run("post --media \(path) --media \(path) two")
        #expect(two.status == 2)
        #expect(two.stderr.contains("--media: weibo takes one picture a post"), "\(two.stderr)")
        #expect(await harness.run("post --media \(path) --alt words alt").stderr.contains("--alt: weibo has no alt text"))
        let notPicture = NSTemporaryDirectory() + "wsh-breadth-\(UUID().uuidString).png"
        _ = FileManager.default.createFile(atPath: notPicture, contents: Data("not a picture".utf8))
        defer { try? FileManager.default.removeItem(atPath: notPicture) }
        let refused = await harness.run("post --media \(notPicture) bad")
        #expect(refused.status == 1)
        #expect(refused.stderr.contains("API error 20005"), "\(refused.stderr)")
        #expect(await harness.run("help post").stdout.contains("one picture (--media"), "help post names Weibo's picture")
    }
}
