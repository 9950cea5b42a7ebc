import Foundation
import Testing
import WshRequest
import WshSandbox
import WshTestSupport
@testable import WshShell

/// Every timeline source, `more`, `newer`, `--all --limit` and `watch --until`
/// through the real loop, libcurl and the sandbox's Weibo semantics.
@Suite("Timelines against the sandbox", .serialized)
struct TimelineTranscriptTests {
    /// Posts `text` as the sandbox's first account, as another client would.
    private func postElsewhere(_ sandbox: SandboxServer, _ text: String) async throws {
        let client = APIClient(configuration: APIConfiguration(baseURL: sandbox.baseURL, token: .value(Secret(sandbox.token))),
                                 http: CurlHTTPClient())
        _ = try await client.send(Endpoint(.post, "statuses/update.json", parameters: [("status", text)]))
    }

    private func ids(_ harness: ShellHarness) async throws -> [String] {
        try await harness.rows().compactMap { $0["idstr"] as? String }
    }

    @Test("home, user, mentions and reposts each load their own statuses, and more never repeats one")
    func everySource() async throws {
        let harness = try await ShellHarness()
        let me = try #require(harness.sandbox.accounts.first)
        #expect(await harness.run("fetch home 10").status == 0)
        var seen = try await ids(harness)
        #expect(seen.count == 10)
        for _ in 0..<3 {
            let more = await harness.run("more")
            #expect(more.status == 0, "\(more.stderr)")
            seen = try await ids(harness)
        }
        #expect(seen.count == 40)
        #expect(Set(seen).count == 40, "more repeated a status: \(seen)")

        let user = await harness.run("fetch user @\(me.screenName) 5\nlist --json")
        #expect(user.status == 0, "\(user.stderr)")
        let authors = try #require(try JSONSerialization.jsonObject(with: Data(user.stdout.utf8)) as? [[String: Any]])
        #expect(authors.count == 5)
        #expect(authors.allSatisfy { ($0["user"] as? [String: Any])?["screen_name"] as? String == me.screenName })

        let mentions = await harness.run("fetch mentions 5\nlist --json")
        #expect(mentions.status == 0, "\(mentions.stderr)")
        #expect(mentions.stdout.contains("@\(me.screenName)"))

        let reposts = await harness.run("fetch 5\nfetch reposts 1 5")
        #expect(reposts.status == 0, "\(reposts.stderr)")
        #expect(await harness.run("fetch reposts 99").stderr.contains("no row 99"))

        let history = await harness.run("history")
        #expect(history.stdout.contains("fetch home 10 → 10 statuses"))
        #expect(history.stdout.contains("fetch mentions 5 → "))
        #expect(history.stdout.contains("fetch reposts of "))
    }

    @Test("newer puts a status posted elsewhere on top, once")
    func newer() async throws {
        let harness = try await ShellHarness()
        #expect(await harness.run("fetch home 5").status == 0)
        try await postElsewhere(harness.sandbox, "arrived while reading")
        let newer = await harness.run("newer\nlist --json")
        #expect(newer.status == 0, "\(newer.stderr)")
        #expect(newer.stderr.contains("loaded 1 status"))
        let rows = try #require(try JSONSerialization.jsonObject(with: Data(newer.stdout.utf8)) as? [[String: Any]])
        #expect(rows.count == 6)
        #expect(rows.first?["text"] as? String == "arrived while reading")
        #expect(await harness.run("newer").stderr.contains("loaded 0 statuses"))
    }

    @Test("fetch --all --limit stops at the limit; $count says so; usage errors are status 2")
    func allWithLimit() async throws {
        let harness = try await ShellHarness()
        let run = await harness.run("fetch home --all --limit 150\necho $count")
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout == "150\n")
        #expect(Set(try await ids(harness)).count == 150)
        #expect(await harness.run("fetch home --limit 5").status == 2)
        #expect(await harness.run("fetch home --page 2").status == 2)
    }

    @Test("watch --until prints each new status as it arrives, then stops")
    func watchUntil() async throws {
        // A budget large enough that the rate limit allows polling every 50 ms.
        let harness = try await ShellHarness(rateLimit: 1_000_000)
        #expect(await harness.run("fetch home 5").status == 0)
        let requests = harness.sandbox.stats.requests
        async let watched = harness.run("watch home --every 0.05 --until 2")
        // Post once the watch is polling: the sandbox has seen its requests.
        #expect(await waitUntil { harness.sandbox.stats.requests > requests + 1 })
        try await postElsewhere(harness.sandbox, "first arrival")
        try await postElsewhere(harness.sandbox, "second arrival")
        let run = await watched
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout.contains("first arrival"))
        #expect(run.stdout.contains("second arrival"))
        #expect(run.stderr.contains("watched home: 2 new statuses"))
        #expect(await harness.run("history").stdout.contains("watch home → 2 new statuses"))
        #expect(await harness.run("watch home --every 0.05").status == 2)   // a script must say when it stops
    }
}
