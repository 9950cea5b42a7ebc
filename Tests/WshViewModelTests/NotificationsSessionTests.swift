import Foundation
import Testing
import WshDataController
import WshModel
import WshRequest
import WshSandbox
import WshTestSupport
import WshViewModel

/// Notifications and conversations through the session, against the sandbox's Mastodon side.
@Suite("SessionViewModel notifications and conversations against the sandbox")
struct NotificationsSessionTests {
    /// A Mastodon session as `account`, its calls traced into `traces`.
    func session(_ server: SandboxServer, as account: SandboxAccount, dialect: any Dialect = MastodonDialect(),
                 traces: RecordingObserver<TraceEvent> = RecordingObserver()) -> SessionViewModel {
        var configuration = APIConfiguration(baseURL: dialect.name == "mastodon" ? server.mastodonBaseURL : server.baseURL,
                                             token: .value(Secret(account.token)))
        configuration.authScheme = dialect.authScheme
        let client = APIClient(configuration: configuration, http: CurlHTTPClient(secrets: [account.token]))
        return SessionViewModel(dataController: TimelineDataController(client: client, dialect: dialect, trace: { traces.record($0) }))
    }

    @Test("notifications opens a screen of numbered rows; detail N opens a row's status and back returns to the screen")
    func screenAndDetail() async throws {
        try await withSandboxClient(SandboxConfiguration(statuses: 600)) { server, _ in
            let me = session(server, as: server.accounts[0])
            let loaded = try await me.notifications(count: 30)
            let screen = try #require(me.notifications)
            #expect(loaded == 30)
            #expect(screen.rows.map(\.index) == Array(1...30))
            #expect(screen.hasMore)
            #expect(screen.rows.allSatisfy { !$0.who.isEmpty && !$0.time.isEmpty })
            #expect(screen.document.notifications.count == 30)
            let row = try #require(screen.rows.first { $0.type != "follow" })
            let document = try #require(screen.document.notifications.first { $0.index == row.index })

            try await me.detail(index: row.index)
            #expect(me.detail?.id == document.status?.idstr)
            try me.back()
            #expect(me.notifications?.rows == screen.rows)

            if let follow = screen.rows.first(where: { $0.type == "follow" }) {
                await #expect(throws: ViewModelError.noStatusInRow(index: follow.index, what: "a follow notification")) {
                    try await me.detail(index: follow.index)
                }
            }
            await #expect(throws: ViewModelError.noRow(index: 31, count: 30)) { try await me.detail(index: 31) }
        }
    }

    @Test("--types keeps those types; --all follows the Link header to the end or --limit")
    func typesAndAll() async throws {
        try await withSandboxClient(SandboxConfiguration(statuses: 600)) { server, _ in
            let traces = RecordingObserver<TraceEvent>()
            let me = session(server, as: server.accounts[0], traces: traces)
            try await me.notifications(count: 80, types: ["favourite", "reblog"])
            let rows = try #require(me.notifications?.rows)
            #expect(!rows.isEmpty)
            #expect(rows.allSatisfy { ["favourite", "reblog"].contains($0.type) })
            let url = traces.values.last?.url ?? ""
            #expect(url.contains("types%5B%5D=favourite") || url.contains("types[]=favourite"), "\(url)")

            let all = try await me.notifications(count: 5, all: true)
            #expect(all > 5)
            #expect(me.notifications?.hasMore == false)
            #expect(Set(me.notifications?.document.notifications.map(\.id) ?? []).count == all)
            #expect(try await me.notifications(count: 5, all: true, limit: 12) == 12)
        }
    }

    @Test("another account's favourite shows on top; dismiss removes the row on the server; undo restores the screen only and says so")
    func dismissAndUndo() async throws {
        try await withSandboxClient(SandboxConfiguration(statuses: 200)) { server, _ in
            let me = session(server, as: server.accounts[0])
            let other = session(server, as: server.accounts[1])
            try await me.fetch(source: .user(.uid(String(server.accounts[0].uid))), count: 5)
            try await other.fetch(source: .user(.uid(String(server.accounts[0].uid))), count: 5)
            let status = try #require(other.rows.first { !$0.isRetweet })
            try await other.set(.favorite, true, index: status.index)

            try await me.notifications(count: 10)
            let top = try #require(me.notifications?.rows.first)
            #expect(top.type == "favourite")
            #expect(top.who == "@" + server.accounts[1].screenName)
            let before = try #require(me.notifications)

            try await me.dismiss(index: 1)
            #expect(me.notifications?.rows.first?.id != top.id)
            #expect(me.notes.contains("dismissed notification \(top.id) on the server"))
            #expect(me.operations.last?.contains("undo cannot restore it on the server") == true)
            let fresh = session(server, as: server.accounts[0])
            try await fresh.notifications(count: 10)
            #expect(fresh.notifications?.rows.contains { $0.id == top.id } == false)

            try await me.undo()
            #expect(me.notifications?.rows == before.rows)
            #expect(me.notes == ["the server cannot restore a dismissed notification: notification \(top.id) is back on screen only"])
            try await me.redo()
            #expect(me.notifications?.rows.first?.id != top.id)

            await #expect(throws: ViewModelError.noRow(index: 99, count: 9)) { try await me.dismiss(index: 99) }
            try me.back()
            await #expect(throws: ViewModelError.noNotificationsScreen) { try await me.dismiss(index: 1) }
        }
    }

    @Test("a dismiss whose answer is lost is resolved by reading the notification back: gone means dismissed")
    func lostDismiss() async throws {
        try await withSandboxClient(SandboxConfiguration(statuses: 200)) { server, _ in
            let me = session(server, as: server.accounts[0])
            try await me.notifications(count: 5)
            let first = try #require(me.notifications?.rows.first)
            server.setFaults(SandboxFaults(dropAfter: true, path: "api/v1/notifications/\(first.id)/dismiss"))
            try await me.dismiss(index: 1)
            server.setFaults(SandboxFaults())
            #expect(me.notes == ["the answer was lost; the server shows notification \(first.id) dismissed"])
            #expect(me.notifications?.rows.first?.id != first.id)
            #expect(me.operations.last?.hasPrefix("dismiss 1") == true)
        }
    }

    @Test("notifications --clear empties the screen and the server; undo restores the rows on screen only")
    func clearAndUndo() async throws {
        try await withSandboxClient(SandboxConfiguration(statuses: 200)) { server, _ in
            let me = session(server, as: server.accounts[0])
            try await me.notifications(count: 10)
            let before = try #require(me.notifications?.rows)
            #expect(before.count == 10)
            try await me.clearNotifications()
            #expect(me.notifications?.rows.isEmpty == true)
            #expect(try await session(server, as: server.accounts[0]).notifications(count: 10) == 0)
            try await me.undo()
            #expect(me.notifications?.rows == before)
            #expect(me.notes.first?.contains("cannot restore cleared notifications") == true)
        }
    }

    @Test("conversations lists the seed's and a direct status sent to you, newest first; detail N opens its last status")
    func conversations() async throws {
        try await withSandboxClient(SandboxConfiguration(statuses: 100)) { server, _ in
            let me = session(server, as: server.accounts[0])
            // The seed's: with account 2, account 3 and a user who is no account.
            #expect(try await me.conversations() == 3)
            #expect(me.conversations?.rows.filter(\.unread).count == 2)
            let http = CurlHTTPClient(secrets: [server.accounts[1].token])
            let sent = try await http.send(HTTPRequest(
                method: .post, url: server.mastodonBaseURL + "api/v1/statuses",
                headers: [HTTPHeader("Authorization", "Bearer " + server.accounts[1].token),
                          HTTPHeader("Content-Type", "application/x-www-form-urlencoded")],
                body: Data("visibility=direct&status=%40\(server.accounts[0].screenName)%20psst".utf8)))
            #expect(sent.status == 200)
            // It goes on the seed's conversation with account 2, now the newest.
            #expect(try await me.conversations() == 3)
            let row = try #require(me.conversations?.rows.first)
            #expect(row.with == "@" + server.accounts[1].screenName)
            #expect(row.unread)
            #expect(row.text.contains("psst"))
            let lastID = try #require(me.conversations?.document.first?.lastStatus?.idstr)
            try await me.detail(index: 1)
            #expect(me.detail?.id == lastID)
        }
    }

    @Test("on Weibo, notifications and conversations are refused in one line before any request")
    func weiboLacksThem() async throws {
        try await withSandboxClient { server, _ in
            let traces = RecordingObserver<TraceEvent>()
            let me = session(server, as: server.accounts[0], dialect: WeiboDialect(), traces: traces)
            await #expect(throws: ViewModelError.notOffered("this API (weibo) has no notifications")) {
                try await me.notifications()
            }
            #expect(me.errorMessage == "this API (weibo) has no notifications")
            await #expect(throws: ViewModelError.notOffered("this API (weibo) has no direct conversations")) {
                try await me.conversations()
            }
            #expect(traces.values.isEmpty)
        }
    }
}

/// `watch --stream` through the session, against the sandbox's streaming API.
@Suite("SessionViewModel watchStream against the sandbox")
struct WatchStreamSessionTests {
    @Test("new statuses arrive from the stream as they are posted, go on top, and the watch is one operation")
    func streams() async throws {
        try await withSandboxClient(SandboxConfiguration(statuses: 100)) { server, _ in
            let me = NotificationsSessionTests().session(server, as: server.accounts[0])
            let poster = keepPosting(to: server, as: server.accounts[1])
            var told: [String] = []
            var arrived: [String] = []
            let total = try await me.watchStream(source: .public, pollingEvery: .seconds(60),
                                                 limit: .init(newStatuses: 2, duration: .seconds(30)),
                                                 told: { told.append($0) }, arrived: { arrived += $0.map(\.text) })
            poster.cancel()
            #expect(total == 2)
            // Only how it streams: no reconnect, no polling.
            #expect(told == ["streaming over server-sent events"], "\(told)")
            #expect(arrived.count == 2)
            #expect(arrived.allSatisfy { $0.hasPrefix("streamed ") }, "\(arrived)")
            #expect(me.rows.first?.text == arrived.last)
            #expect(me.operations.last == "watch public --stream → 2 new statuses")
        }
    }

    @Test("on Weibo, which has no stream, it says so in one line and polls")
    func weiboPolls() async throws {
        try await withSandboxClient { server, _ in
            let me = NotificationsSessionTests().session(server, as: server.accounts[0], dialect: WeiboDialect())
            var told: [String] = []
            let total = try await me.watchStream(source: .public, pollingEvery: .seconds(60),
                                                 limit: .init(duration: .milliseconds(300)),
                                                 told: { told.append($0) }, arrived: { _ in })
            #expect(total == 0)
            #expect(told.count == 1)
            #expect(told.first?.hasPrefix("no streaming here (this API (weibo) has no streaming API); polling every 60 s instead") == true,
                    "\(told)")
            #expect(me.operations.last == "watch public --stream → 0 new statuses (polled)")
        }
    }
}
