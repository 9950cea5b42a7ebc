import Foundation
import Synchronization
import Testing
import WshTestSupport
@testable import WshShell

/// Issue 45, item 4, as a user meets it: `archive sync` (its walk back and
/// its catch-up) and the `--all` walks against a server over a real socket
/// whose older pages carry higher ids or whose `max_id` rises. Each stops at
/// the first such page with one line saying so, keeps what arrived, and
/// exits as its repeated-page stop does: 1 for `archive sync` and `fetch
/// --all`, 0 with a note for the screens (`notifications --all`,
/// `followers --all`). A server whose pages go older, or a moving timeline,
/// syncs to the end. `WalkingAPI` answers empty pages after 200 requests,
/// so a walk that never notices ends there.
@Suite("archive sync and --all stop when the server's pages go the wrong way", .serialized)
struct WalkDirectionTranscriptTests {
    static let token = "walking-token-0123456789"

    /// The API a server answers as, switched between runs.
    private final class Current: Sendable {
        let api: Mutex<WalkingAPI>
        init(_ api: WalkingAPI) { self.api = Mutex(api) }
    }

    /// A server answering as `api` does (switched with `serve`), and a shell on it.
    private final class Setup: Sendable {
        let current: Current
        let server: LoopbackHTTPServer
        let harness: ShellHarness

        init(_ api: WalkingAPI, mastodon: Bool) throws {
            let current = Current(api)
            self.current = current
            server = try LoopbackHTTPServer { request in current.api.withLock { $0 }.respond(to: request) }
            harness = ShellHarness(api: server.baseURL(mastodon ? "" : "2/"), token: WalkDirectionTranscriptTests.token)
        }

        /// Answers as `api` from now on.
        func serve(_ api: WalkingAPI) { current.api.withLock { $0 = api } }

        deinit { server.stop() }
    }

    // MARK: archive sync

    @Test("archive sync of Mastodon's home whose Link max_id rises: stops after the second page, keeping both, exit 1")
    func archiveSyncMastodonLinkRising() async throws {
        let api = WalkingAPI(.backwards)
        let setup = try Setup(api, mastodon: true)
        let file = ArchiveTranscriptTests.freshFile()
        let sync = await setup.harness.run("archive sync home --archive \(file)")
        #expect(api.pagedRequests.count == 2, "walked \(api.pagedRequests.count) pages: \(sync.stderr)")
        #expect(sync.status == 1)
        #expect(sync.stderr.contains("archive: home: stopped after 40 statuses, kept: the server's next page is newer than the one before "
                                     + "(max_id went from 9000000 up to 9000020): its cursor goes the wrong way, so the sync stopped"),
                "\(sync.stderr)")
        #expect(try ArchiveTranscriptTests.sqlite3(file, "SELECT count(*) FROM statuses") == "40")
    }

    @Test("archive sync of Weibo's public timeline whose page 2 carries higher ids: stops there, keeping both pages, exit 1")
    func archiveSyncWeiboPagesRising() async throws {
        let api = WalkingAPI(.backwards)
        let setup = try Setup(api, mastodon: false)
        let file = ArchiveTranscriptTests.freshFile()
        let sync = await setup.harness.run("archive sync public --archive \(file)")
        #expect(api.pagedRequests.count == 2, "walked \(api.pagedRequests.count) pages: \(sync.stderr)")
        #expect(sync.status == 1)
        #expect(sync.stderr.contains("archive: public: stopped after 40 statuses, kept: the server's next page is newer than the one before "
                                     + "(it brought id 9000039 after id 9000000): its cursor goes the wrong way, so the sync stopped"),
                "\(sync.stderr)")
        #expect(try ArchiveTranscriptTests.sqlite3(file, "SELECT count(*) FROM statuses") == "40")
    }

    @Test("archive sync's catch-up walk (new statuses above the archive's newest) whose max_id rises stops too, and the next sync asks that page again")
    func archiveSyncCatchUpLinkRising() async throws {
        let setup = try Setup(WalkingAPI(.older(pages: 1)), mastodon: true)
        let file = ArchiveTranscriptTests.freshFile()
        let first = await setup.harness.run("archive sync home --archive \(file)")
        #expect(first.status == 0, "\(first.stderr)")
        // Statuses far above the archive's newest: the newest page does not reach it, so a catch-up walks down, the wrong way.
        let api = WalkingAPI(.backwards, base: 9_500_000)
        setup.serve(api)
        let second = await setup.harness.run("archive sync home --archive \(file)")
        #expect(api.pagedRequests.count == 2, "walked \(api.pagedRequests.count) pages: \(second.stderr)")
        #expect(second.status == 1)
        #expect(second.stderr.contains("archive: home: stopped after 40 statuses, kept: the server's next page is newer than the one before "
                                       + "(max_id went from 9500000 up to 9500020): its cursor goes the wrong way, so the sync stopped"),
                "\(second.stderr)")
        #expect(try ArchiveTranscriptTests.sqlite3(file, "SELECT count(*) FROM statuses") == "60")
        // The gap's cursor stayed before the page that went the wrong way: the next sync
        // goes on with the catch-up from there, asks that page again, and stops again.
        let again = WalkingAPI(.backwards, base: 9_500_000)
        setup.serve(again)
        let third = await setup.harness.run("archive sync home --archive \(file)")
        #expect(third.status == 1)
        #expect(again.pagedRequests.map { $0.hasSuffix("timelines/home") } == [true], "\(again.pagedRequests): \(third.stderr)")
        #expect(third.stderr.contains("max_id went from 9500000 up to 9500020"), "\(third.stderr)")
    }

    @Test("archive sync of a server whose pages go older, or of a moving timeline paged by number, goes to the end, exit 0",
          arguments: [(WalkingAPI.Way.older(pages: 3), true, "home", 60), (.older(pages: 3), false, "public", 60),
                      (.moving(pages: 4, posted: 3), false, "public", 71)])
    func archiveSyncSane(way: WalkingAPI.Way, mastodon: Bool, source: String, rows: Int) async throws {
        let setup = try Setup(WalkingAPI(way), mastodon: mastodon)
        let file = ArchiveTranscriptTests.freshFile()
        let sync = await setup.harness.run("archive sync \(source) --archive \(file)")
        #expect(sync.status == 0, "\(sync.stderr)")
        #expect(try ArchiveTranscriptTests.sqlite3(file, "SELECT count(*) FROM statuses") == "\(rows)")
    }

    // MARK: --all

    @Test("fetch --all of Mastodon's home whose Link max_id rises: stops after two pages, keeping them, exit 1")
    func fetchAllLinkRising() async throws {
        let api = WalkingAPI(.backwards)
        let setup = try Setup(api, mastodon: true)
        let fetch = await setup.harness.run("fetch home --all; echo after")
        #expect(api.pagedRequests.count == 2, "walked \(api.pagedRequests.count) pages: \(fetch.stderr)")
        #expect(fetch.status == 1)
        #expect(fetch.stderr.contains("fetch: stopped after 40 statuses, kept: the server's next page is newer than the one before "
                                      + "(max_id went from 9000000 up to 9000020): its cursor goes the wrong way, so the walk stopped"),
                "\(fetch.stderr)")
        #expect(!fetch.stdout.contains("after"))
        #expect(try await setup.harness.rows().count == 40)
    }

    @Test("notifications --all and followers --all whose max_id rises: the screen shows what came, a note says why, exit 0",
          arguments: ["notifications 20 --all", "followers 7 20 --all"])
    func screensLinkRising(command: String) async throws {
        let api = WalkingAPI(.backwards)
        let setup = try Setup(api, mastodon: true)
        let run = await setup.harness.run(command + "; echo count $count")
        #expect(api.pagedRequests.count == 2, "walked \(api.pagedRequests.count) pages: \(run.stderr)")
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout.contains("count 40"), "\(run.stdout)")
        #expect(run.stderr.contains("stopped after 40 \(command.hasPrefix("notifications") ? "notifications" : "accounts"), kept: "
                                    + "the server's next page is newer than the one before (max_id went from 9000000 up to 9000020): "
                                    + "its cursor goes the wrong way, so the walk stopped"), "\(run.stderr)")
    }
}
