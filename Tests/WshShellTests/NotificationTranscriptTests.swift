import Foundation
import Testing
import WshRequest
import WshSandbox
import WshTestSupport
@testable import WshShell

/// `notifications`, `dismiss`, `conversations` through the real loop against the sandbox.
@Suite("Notifications and conversations through the shell", .serialized)
struct NotificationTranscriptTests {
    private func json(_ text: String) throws -> Any {
        try JSONSerialization.jsonObject(with: Data(text.utf8))
    }

    /// Sends a form to the sandbox's Mastodon API as `account`.
    private func mastodon(_ harness: ShellHarness, _ path: String, as account: SandboxAccount, form: String) async throws -> HTTPResponse {
        try await CurlHTTPClient(secrets: [account.token]).send(HTTPRequest(
            method: .post, url: harness.sandbox.mastodonBaseURL + "api/v1/" + path,
            headers: [HTTPHeader("Authorization", "Bearer " + account.token),
                      HTTPHeader("Content-Type", "application/x-www-form-urlencoded")],
            body: Data(form.utf8)))
    }

    @Test("notifications shows numbered rows, --json, detail N opens a row's status; dismiss N and undo, which says the server cannot restore it")
    func notificationsDetailDismissUndo() async throws {
        let harness = try await ShellHarness(dialect: .mastodon)
        let shown = await harness.run("notifications 5\necho $count")
        #expect(shown.status == 0, "\(shown.stderr)")
        let lines = shown.stdout.split(separator: "\n")
        #expect(lines.first?.hasPrefix("1  ") == true, "\(shown.stdout)")
        #expect(lines.contains { $0.hasPrefix("5  ") })
        #expect(lines.last == "5")

        let document = try #require(try json(await harness.run("notifications 5 --json").stdout) as? [String: Any])
        let notifications = try #require(document["notifications"] as? [[String: Any]])
        #expect(notifications.count == 5)
        #expect(document["has_more"] as? Bool == true)
        let withStatus = try #require(notifications.first { $0["status"] is [String: Any] })
        let index = try #require(withStatus["index"] as? Int)
        let statusID = try #require((withStatus["status"] as? [String: Any])?["id"] as? String)
        let detail = try #require(try json(await harness.run("detail \(index) --json").stdout) as? [String: Any])
        #expect(detail["id"] as? String == statusID)

        let firstID = try #require(notifications.first?["id"] as? String)
        let dismissed = await harness.run("back\ndismiss 1")
        #expect(dismissed.status == 0, "\(dismissed.stderr)")
        #expect(dismissed.stderr.contains("dismissed notification \(firstID) on the server"), "\(dismissed.stderr)")
        let after = try #require(try json(await harness.run("notifications 5 --json").stdout) as? [String: Any])
        #expect(!((after["notifications"] as? [[String: Any]])?.contains { $0["id"] as? String == firstID } ?? true))

        let undo = await harness.run("back\nnotifications 5\ndismiss 1\nundo\nlist")
        #expect(undo.status == 0, "\(undo.stderr)")
        #expect(undo.stderr.contains("the server cannot restore a dismissed notification"), "\(undo.stderr)")
        #expect(await harness.run("dismiss 99").status != 0)
    }

    @Test("another account's favourite arrives as a notification; --types filters; --clear empties and undo says it restores the screen only")
    func runtimeTypesClear() async throws {
        let harness = try await ShellHarness(dialect: .mastodon)
        let me = harness.sandbox.accounts[0]
        let mine = try #require(try await harness.rows(after: "fetch user \(me.uid) 5").compactMap { $0["id"] as? String }.first)
        let favourited = try await mastodon(harness, "statuses/\(mine)/favourite", as: harness.sandbox.accounts[1], form: "")
        #expect(favourited.status == 200)
        let top = await harness.run("notifications 1")
        #expect(top.stdout.contains("favourite"), "\(top.stdout)")
        #expect(top.stdout.contains("@" + harness.sandbox.accounts[1].screenName), "\(top.stdout)")

        let mentions = await harness.run("notifications 40 --types mention --json")
        let rows = try #require((try json(mentions.stdout) as? [String: Any])?["notifications"] as? [[String: Any]])
        #expect(!rows.isEmpty)
        #expect(rows.allSatisfy { $0["type"] as? String == "mention" })
        let bad = await harness.run("notifications --types nonsense")
        #expect(bad.status == 2)
        #expect(bad.stderr.contains("unknown notification type 'nonsense'"), "\(bad.stderr)")

        let cleared = await harness.run("notifications 5\nnotifications --clear\nlist")
        #expect(cleared.status == 0, "\(cleared.stderr)")
        #expect(await harness.run("notifications 5").stdout.contains("no notifications"))
        let undo = await harness.run("notifications 5\nnotifications --clear\nundo")
        #expect(undo.stderr.contains("cannot restore cleared notifications"), "\(undo.stderr)")
    }

    @Test("conversations lists the seed's and a direct message sent to you, --json, detail N opens it")
    func conversations() async throws {
        let harness = try await ShellHarness(dialect: .mastodon)
        let me = harness.sandbox.accounts[0]
        // The seed's three: with account 2, account 3 and a user who is no account.
        let seeded = await harness.run("conversations")
        #expect(seeded.stdout.hasPrefix("1  ") && seeded.stdout.contains("\n3  ") && !seeded.stdout.contains("\n4  "),
                "\(seeded.stdout)")
        let sent = try await mastodon(harness, "statuses", as: harness.sandbox.accounts[1],
                                      form: "visibility=direct&status=%40\(me.screenName)%20psst")
        #expect(sent.status == 200)
        let shown = await harness.run("conversations")
        #expect(shown.stdout.hasPrefix("1  "), "\(shown.stdout)")
        #expect(shown.stdout.split(separator: "\n").first?.contains("psst") == true, "\(shown.stdout)")
        let document = try #require(try json(await harness.run("conversations --json").stdout) as? [[String: Any]])
        let last = try #require(document.first?["last_status"] as? [String: Any])
        #expect(document.first?["unread"] as? Bool == true)
        let detail = try #require(try json(await harness.run("detail 1 --json").stdout) as? [String: Any])
        #expect(detail["id"] as? String == last["id"] as? String)
    }

    @Test("Weibo says in one line that it lacks notifications and conversations, in help too")
    func weibo() async throws {
        let harness = try await ShellHarness()
        _ = await harness.run("fetch 1")
        let refused = await harness.run("notifications")
        #expect(refused.status == 2)
        #expect(refused.stderr.contains("this API (weibo) has no notifications"), "\(refused.stderr)")
        #expect(await harness.run("conversations").stderr.contains("this API (weibo) has no direct conversations"))
        let help = await harness.run("help notifications")
        #expect(help.stdout.contains("Not on this API: weibo has no notifications."), "\(help.stdout)")
    }
}

@Suite("watch --stream through the shell", .serialized)
struct WatchStreamTranscriptTests {
    @Test("watch public --stream prints each status as it is posted; --until and --timeout end it")
    func streams() async throws {
        let harness = try await ShellHarness(dialect: .mastodon)
        let account = harness.sandbox.accounts[1]
        let poster = keepPosting(to: harness.sandbox, as: account)
        let watched = await harness.run("watch public --stream --until 1 --timeout 30\necho $count")
        poster.cancel()
        #expect(watched.status == 0, "\(watched.stderr)")
        #expect(watched.stdout.contains("streamed "), "\(watched.stdout)")
        #expect(watched.stdout.hasSuffix("1\n"))
        #expect(!watched.stderr.contains("no streaming here"), "\(watched.stderr)")
        let quiet = await harness.run("watch public --stream --timeout 0.5\necho $count")
        #expect(quiet.status == 0, "\(quiet.stderr)")
        #expect(quiet.stdout.hasSuffix("0\n"))
    }

    @Test("each way a sandbox serves its stream: watch --stream prints a status posted meanwhile and says how in one line",
          arguments: [
              (StreamingTransports.webSocket, "streaming over a WebSocket (the server has no server-sent events)"),
              (.serverSentEvents, "streaming over server-sent events"),
              (.both, "streaming over server-sent events"),
          ])
    func transports(served: StreamingTransports, note: String) async throws {
        let harness = try await ShellHarness(dialect: .mastodon, streaming: served)
        let poster = keepPosting(to: harness.sandbox, as: harness.sandbox.accounts[1])
        let watched = await harness.run("watch public --stream --until 1 --timeout 30\necho $count")
        poster.cancel()
        #expect(watched.status == 0, "\(watched.stderr)")
        #expect(watched.stdout.contains("streamed "), "\(watched.stdout)")
        #expect(watched.stdout.hasSuffix("1\n"), "\(watched.stdout)")
        let notes = watched.stderr.split(separator: "\n").filter { $0.hasPrefix("streaming over") }
        #expect(notes == [Substring(note)], "\(watched.stderr)")
        #expect(!watched.stderr.contains("no streaming here"), "\(watched.stderr)")
    }

    @Test("watch list NAME --stream follows a list's stream (stream=list&list=ID), over server-sent events and over a WebSocket",
          arguments: [StreamingTransports.serverSentEvents, .webSocket])
    func listStream(served: StreamingTransports) async throws {
        let harness = try await ShellHarness(dialect: .mastodon, streaming: served)
        let member = harness.sandbox.accounts[1].screenName
        let made = await harness.run("follow @\(member)\nlists create Streamed\nlists add streamed @\(member)")
        #expect(made.status == 0, "\(made.stderr)")
        let poster = keepPosting(to: harness.sandbox, as: harness.sandbox.accounts[1])
        let watched = await harness.run("watch list Streamed --stream --until 1 --timeout 30\necho $count")
        poster.cancel()
        #expect(watched.status == 0, "\(watched.stderr)")
        #expect(watched.stdout.contains("streamed "), "\(watched.stdout)")
        #expect(watched.stdout.contains("@\(member)"), "\(watched.stdout)")
        #expect(watched.stdout.hasSuffix("1\n"), "\(watched.stdout)")
        #expect(!watched.stderr.contains("no streaming here"), "\(watched.stderr)")
        let unknown = await harness.run("watch list Nowhere --stream --timeout 1")
        #expect(unknown.status != 0)
        #expect(unknown.stderr.contains("no list named 'Nowhere'"), "\(unknown.stderr)")
    }

    @Test("watch --stream honours the server's filters: a warn filter's title stands in for the text, a hide filter's statuses are not printed")
    func streamHonoursFilters() async throws {
        let harness = try await ShellHarness(dialect: .mastodon)
        let me = harness.sandbox.accounts[0]
        func filter(_ action: String) async throws {
            let made = try await CurlHTTPClient(secrets: [me.token]).send(HTTPRequest(
                method: .post, url: harness.sandbox.mastodonBaseURL + "api/v2/filters",
                headers: [HTTPHeader("Authorization", "Bearer " + me.token),
                          HTTPHeader("Content-Type", "application/x-www-form-urlencoded")],
                body: Data("title=Loud&context[]=public&filter_action=\(action)&keywords_attributes[][keyword]=streamed".utf8)))
            #expect(made.status == 200)
        }
        try await filter("warn")
        var poster = keepPosting(to: harness.sandbox, as: harness.sandbox.accounts[1])
        let warned = await harness.run("watch public --stream --until 1 --timeout 30\necho $count")
        poster.cancel()
        #expect(warned.stdout.contains("Filtered: Loud"), "\(warned.stdout)")
        #expect(!warned.stdout.contains("streamed "), "\(warned.stdout)")
        #expect(warned.stdout.hasSuffix("1\n"), "\(warned.stdout)")

        let id = try #require((try JSONSerialization.jsonObject(with: Data(await harness.run("filters --json").stdout.utf8))
            as? [[String: Any]])?.first?["id"] as? String)
        _ = try await CurlHTTPClient(secrets: [me.token]).send(HTTPRequest(
            method: .put, url: harness.sandbox.mastodonBaseURL + "api/v2/filters/\(id)",
            headers: [HTTPHeader("Authorization", "Bearer " + me.token),
                      HTTPHeader("Content-Type", "application/x-www-form-urlencoded")],
            body: Data("filter_action=hide".utf8)))
        // Two hidden statuses, then one the filter does not match, over and over: the first row printed is that one.
        let other = harness.sandbox.accounts[1]
        poster = Task {
            let http = CurlHTTPClient(secrets: [other.token])
            while !Task.isCancelled {
                for text in ["streamed%20one", "streamed%20two", "plain%20words"] {
                    _ = try? await http.send(HTTPRequest(
                        method: .post, url: harness.sandbox.mastodonBaseURL + "api/v1/statuses",
                        headers: [HTTPHeader("Authorization", "Bearer " + other.token),
                                  HTTPHeader("Content-Type", "application/x-www-form-urlencoded")],
                        body: Data("status=\(text)".utf8)))
                }
                try? await Task.sleep(for: .milliseconds(200))
            }
        }
        let hidden = await harness.run("watch public --stream --until 1 --timeout 30\necho $count")
        poster.cancel()
        #expect(hidden.status == 0, "\(hidden.stderr)")
        #expect(hidden.stdout.contains("plain words"), "\(hidden.stdout)")
        #expect(!hidden.stdout.contains("streamed ") && !hidden.stdout.contains("Filtered"), "\(hidden.stdout)")
        #expect(hidden.stdout.hasSuffix("1\n"), "\(hidden.stdout)")
    }

    @Test("on Weibo, watch --stream says in one line that there is no stream and polls")
    func weiboFallsBack() async throws {
        let harness = try await ShellHarness()
        let watched = await harness.run("watch public --stream --timeout 0.3")
        #expect(watched.status == 0, "\(watched.stderr)")
        #expect(watched.stderr.contains("no streaming here (this API (weibo) has no streaming API); polling every 60 s instead"),
                "\(watched.stderr)")
    }
}
