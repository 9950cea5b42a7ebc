import Foundation
import Testing
import WshSandbox
import WshTestSupport
@testable import WshShell

/// `connect`, `ping`, `api` and `user` with no name, through the real loop:
/// what a user types, what the streams show and the exit status.
@Suite("Session commands through the real loop")
struct SessionCommandTests {
    /// `status --json` as an object.
    private func status(_ harness: ShellHarness) async throws -> [String: Any] {
        let transcript = await harness.run("status --json")
        try #require(transcript.status == 0, "\(transcript.stderr)")
        return try #require(try JSONSerialization.jsonObject(with: Data(transcript.stdout.utf8)) as? [String: Any])
    }

    // MARK: connect

    @Test("connect sandbox after fetch 3 empties the history and the rows; the prompt shows [0]")
    func connectSandbox_resetsSession() async throws {
        let harness = try await ShellHarness()
        let fetched = await harness.run("fetch 3\ndetail 1")
        #expect(fetched.status == 0, "\(fetched.stderr)")
        #expect(harness.shell.prompt() == "wsh sandbox [3]> ")
        #expect(try await status(harness)["operations"] as? Int == 2)

        let connected = await harness.run("connect sandbox")
        #expect(connected.status == 0)
        #expect(connected.stderr.contains("connected to sandbox"))
        #expect(harness.shell.prompt() == "wsh sandbox [0]> ")
        let history = await harness.run("history")
        #expect(history.status == 0)
        #expect(history.stdout.isEmpty, "history: \(history.stdout)")
        #expect(try await harness.rows().isEmpty)
        let facts = try await status(harness)
        #expect(facts["rows"] as? Int == 0)
        #expect(facts["operations"] as? Int == 0)
        #expect(await harness.run("undo").status == 1, "nothing is left to undo")

        // The session works again on the same sandbox.
        let before = harness.sandbox.stats.requests
        #expect(try await harness.rows(after: "fetch 2").count == 2)
        #expect(harness.sandbox.stats.requests == before + 1)
        #expect(harness.shell.prompt() == "wsh sandbox [2]> ")
    }

    @Test("connect URL of another sandbox resets the session, and the next fetch goes there")
    func connectURL_switchesAPI() async throws {
        let first = try await SandboxServer.start(SandboxConfiguration(seed: 1))
        let second = try await SandboxServer.start(SandboxConfiguration(seed: 2))
        defer { Thread.detachNewThread { first.stop(); second.stop() } }
        let harness = ShellHarness(api: first.baseURL, token: first.token)
        #expect(try await harness.rows(after: "fetch 3").count == 3)
        #expect(first.stats.requests == 1)

        let connected = await harness.run("connect \(second.baseURL)")
        #expect(connected.status == 0, "\(connected.stderr)")
        #expect(harness.shell.prompt() == "wsh 127.0.0.1:\(second.port) [0]> ")
        #expect(await harness.run("history").stdout.isEmpty)
        let facts = try await status(harness)
        #expect(facts["base_url"] as? String == second.baseURL)
        #expect(facts["rows"] as? Int == 0)
        #expect(facts["operations"] as? Int == 0)

        #expect(try await harness.rows(after: "fetch 2").count == 2)
        #expect(second.stats.requests == 1)
        #expect(first.stats.requests == 1)
    }

    @Test("connect with a target that is neither sandbox nor an http(s) URL is a usage error that keeps the session")
    func connectBadTarget_isUsageError() async throws {
        let harness = try await ShellHarness()
        #expect(await harness.run("fetch 3").status == 0)
        for target in ["ftp://example.com/2/", "api.weibo.com", "sandboxes"] {
            let transcript = await harness.run("connect \(target)")
            #expect(transcript.status == 2, "connect \(target)")
            #expect(transcript.stderr.contains("TARGET is sandbox or an http(s) URL, not '\(target)'"), "\(transcript.stderr)")
        }
        #expect(harness.shell.prompt() == "wsh sandbox [3]> ")
        #expect(try await status(harness)["operations"] as? Int == 1)
    }

    @Test("connect with no argument prints where the session points")
    func connectAlone_printsTarget() async throws {
        let harness = try await ShellHarness()
        #expect(await harness.run("connect").stdout == "sandbox\n")
        #expect(await harness.run("fetch 1\nconnect").stdout == "sandbox (\(harness.sandbox.baseURL))\n")

        let url = "http://127.0.0.1:\(unusedLocalPort())/2/"
        let other = ShellHarness(api: url, token: "t")
        let shown = await other.run("connect")
        #expect(shown.status == 0)
        #expect(shown.stdout == "\(url) (\(url))\n")
    }

    // MARK: ping

    @Test("ping on the sandbox says how fast it answered and exits 0, with one request sent")
    func ping_sandbox() async throws {
        let harness = try await ShellHarness()
        let transcript = await harness.run("ping")
        #expect(transcript.status == 0, "\(transcript.stderr)")
        #expect(transcript.stdout.hasPrefix("sandbox: the server answered in "), "\(transcript.stdout)")
        #expect(transcript.stdout.hasSuffix(" ms (HTTP 404 for GET of the API base)\n"), "\(transcript.stdout)")
        #expect(harness.sandbox.stats.requests == 1)
    }

    @Test("ping where nothing listens fails with status 1: no answer, connection refused")
    func ping_refused() async throws {
        let url = "http://127.0.0.1:\(unusedLocalPort())/2/"
        let transcript = await ShellHarness(api: url, token: "t").run("ping")
        #expect(transcript.status == 1)
        #expect(transcript.stdout.isEmpty)
        #expect(transcript.stderr.contains("ping: \(url): no answer after"), "\(transcript.stderr)")
        #expect(transcript.stderr.contains("connection refused"), "\(transcript.stderr)")
    }

    @Test("ping of a server that never answers fails with status 1 once the timeout passes")
    func ping_timesOut() async throws {
        let server = try SilentServer()
        defer { server.stop() }
        let harness = ShellHarness(api: server.baseURL, token: "t", timeout: .milliseconds(300))
        let transcript = await harness.run("ping")
        #expect(transcript.status == 1)
        #expect(await waitUntil { server.acceptedCount == 1 }, "ping never reached the server")
        #expect(transcript.stderr.contains("no answer after"), "\(transcript.stderr)")
        #expect(transcript.stderr.contains("timed out"), "\(transcript.stderr)")
    }

    // MARK: api

    @Test("api post statuses/update.json 'status=hello 微博' creates a status and prints its JSON")
    func apiPost_createsStatus() async throws {
        let harness = try await ShellHarness()
        let transcript = await harness.run("api post statuses/update.json 'status=hello 微博'")
        #expect(transcript.status == 0, "\(transcript.stderr)")
        #expect(harness.sandbox.stats.posts == 1)
        let posted = try #require(try JSONSerialization.jsonObject(with: Data(transcript.stdout.utf8)) as? [String: Any])
        #expect(posted["text"] as? String == "hello 微博")
        #expect((posted["idstr"] as? String)?.isEmpty == false)
        // Pretty, in the server's key order: created_at comes first in the sandbox's statuses.
        #expect(transcript.stdout.hasPrefix("{\n  \"created_at\": "))
        // The new status is first on the timeline.
        let rows = try await harness.rows(after: "fetch 1")
        #expect(rows.first?["text"] as? String == "hello 微博")
    }

    @Test("api post to a path the API lacks prints the error body on stdout and exits 1")
    func apiPost_badPath() async throws {
        let harness = try await ShellHarness()
        let transcript = await harness.run("api post statuses/nope.json status=x")
        #expect(transcript.status == 1)
        let body = try #require(try JSONSerialization.jsonObject(with: Data(transcript.stdout.utf8)) as? [String: Any])
        #expect(body["error_code"] as? Int == 10020)
        #expect(body["request"] as? String == "/2/statuses/nope.json")
        #expect(transcript.stderr.contains("api: API error 10020"), "\(transcript.stderr)")
        #expect(harness.sandbox.stats.posts == 0)
        #expect(harness.sandbox.stats.requests == 1)
    }

    @Test("api with a METHOD that is not an HTTP verb it knows is a usage error, and nothing is sent")
    func api_badMethod() async throws {
        let harness = try await ShellHarness()
        let transcript = await harness.run("api fetch statuses/update.json status=x")
        #expect(transcript.status == 2)
        #expect(transcript.stdout.isEmpty)
        #expect(transcript.stderr.contains("METHOD is get, post, put, patch or delete, not 'fetch'"), "\(transcript.stderr)")
        #expect(harness.sandbox.stats.requests == 0)
    }

    // MARK: user

    @Test("user with no name, after detail 2, shows the author of row 2")
    func userAlone_showsOpenStatusAuthor() async throws {
        let harness = try await ShellHarness()
        let rows = try await harness.rows(after: "fetch 3")
        let authors = rows.map { ($0["user"] as? [String: Any])?["screen_name"] as? String }
        let author = try #require(authors[1])
        try #require(authors[0] != author, "rows 1 and 2 need different authors for this test to tell them apart")
        #expect(await harness.run("detail 2").status == 0)

        let shown = await harness.run("user")
        #expect(shown.status == 0, "\(shown.stderr)")
        #expect(shown.stdout.hasPrefix("@\(author) "), "\(shown.stdout)")
        #expect(await harness.run("back").status == 0)

        let json = await harness.run("user --json")
        #expect(json.status == 0, "\(json.stderr)")
        let user = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        #expect(user["screen_name"] as? String == author)
        #expect(user["idstr"] as? String == (rows[1]["user"] as? [String: Any])?["idstr"] as? String)
    }

    @Test("user with no name and no status open fails with status 1 and says what to give")
    func userAlone_withoutOpenStatus() async throws {
        let harness = try await ShellHarness()
        for script in ["user", "fetch 3\nuser", "fetch 3\ndetail 1\nback\nuser"] {
            let transcript = await harness.run(script)
            #expect(transcript.status == 1, "\(script)")
            #expect(transcript.stderr.contains("user: give a screen name or uid, or open a status with detail first"),
                    "\(script): \(transcript.stderr)")
        }
    }
}
