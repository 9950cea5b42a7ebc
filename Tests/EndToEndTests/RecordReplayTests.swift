import Foundation
import Testing
import WshHAR
import WshSandbox
import WshTestSupport

/// `wsh --record FILE.har` and `wsh --replay FILE.har`, run as a user runs
/// them: a session recorded against a sandbox replays with the sandbox
/// stopped, the file never holds a token, and a browser's HAR replays too.
@Suite("Record and replay a session as HAR, end to end")
struct RecordReplayTests {
    private static func log(_ path: String) throws -> [String: Any] {
        let root = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: path))) as? [String: Any])
        return try #require(root["log"] as? [String: Any])
    }

    @Test("a session recorded against the sandbox is HAR 1.2 without its token, and replays the same rows with the sandbox stopped")
    func recordThenReplay() async throws {
        let sandbox = try await SandboxServer.start(SandboxConfiguration())
        let folder = WshProcess.temporaryDirectory()
        let har = folder + "/session.har"
        let commands = "fetch 3; list; fetch 3; show 2"
        let live = try await WshProcess.run(["--api", sandbox.baseURL, "--record", har, "-c", commands],
                                            environment: ["WSH_ACCESS_TOKEN": sandbox.token])
        #expect(live.status == 0, "\(live.stderr)")
        await onOwnThreadStop(sandbox)

        let raw = try Data(contentsOf: URL(fileURLWithPath: har))
        #expect(!String(decoding: raw, as: UTF8.self).contains(sandbox.token))
        let log = try Self.log(har)
        #expect(log["version"] as? String == "1.2")
        let creator = try #require(log["creator"] as? [String: Any])
        #expect(creator["name"] as? String == "wsh" && creator["version"] is String)
        let entries = try #require(log["entries"] as? [[String: Any]])
        #expect(entries.count >= 2)
        for entry in entries {
            let request = try #require(entry["request"] as? [String: Any])
            let response = try #require(entry["response"] as? [String: Any])
            #expect((request["url"] as? String)?.hasPrefix(sandbox.baseURL) == true)
            #expect(request["headersSize"] as? Int == -1 && response["headersSize"] as? Int == -1)
            #expect(request["queryString"] is [Any] && entry["cache"] is [String: Any] && entry["timings"] is [String: Any])
            let headers = try #require(request["headers"] as? [[String: String]])
            #expect(headers.first { $0["name"] == "Authorization" }?["value"] == "***")
            #expect(response["status"] as? Int == 200)
            #expect((response["content"] as? [String: Any])?["text"] is String)
            let started = try #require(entry["startedDateTime"] as? String)
            #expect(ISO8601DateFormatter.withFractionalSeconds.date(from: started) != nil, "\(started)")
        }

        // No --api: the recording's API, which is no longer there, so any request
        // that reached the network would fail.
        let replayed = try await WshProcess.run(["--replay", har, "-c", commands])
        #expect(replayed.status == 0, "\(replayed.stderr)")
        #expect(replayed.stdout == live.stdout)
        #expect(replayed.stdout.contains("3 "))
    }

    @Test("record on FILE / record off inside a session: only the exchanges between, masked, 0600, and they replay")
    func recordOnOffInSession() async throws {
        let sandbox = try await SandboxServer.start(SandboxConfiguration())
        let folder = WshProcess.temporaryDirectory()
        let har = folder + "/part.har"
        let live = try await WshProcess.run(
            ["--api", sandbox.mastodonBaseURL, "--dialect", "mastodon", "-c",
             "fetch 2; record on \(har); record; fetch 3; list; post recorded mid-session; undo; record off; fetch 4; record"],
            environment: ["WSH_ACCESS_TOKEN": sandbox.token])
        await onOwnThreadStop(sandbox)
        #expect(live.status == 0, "\(live.stderr)")
        #expect(live.stdout.contains("recording to \(har)\n") && live.stdout.hasSuffix("recording off\n"), "\(live.stdout)")
        #expect(live.stderr.contains("recording to \(har)") && live.stderr.contains("recorded to \(har)"))

        let raw = try String(contentsOfFile: har, encoding: .utf8)
        #expect(!raw.contains(sandbox.token))
        let mode = try FileManager.default.attributesOfItem(atPath: har)[.posixPermissions] as? Int
        #expect(mode == 0o600)
        let entries = try #require(try Self.log(har)["entries"] as? [[String: Any]])
        let requests = entries.compactMap { entry -> String? in
            guard let request = entry["request"] as? [String: Any], let method = request["method"] as? String,
                  let url = request["url"] as? String else { return nil }
            return method + " " + (url.split(separator: "?").first.map(String.init) ?? url)
        }
        let base = sandbox.mastodonBaseURL + "api/v1/"
        #expect(requests.filter { $0.hasPrefix("GET \(base)timelines/public") }.count == 1,
                "only the fetch between on and off: \(requests)")
        #expect(requests.contains("POST \(base)statuses") && requests.contains { $0.hasPrefix("DELETE \(base)statuses/") })

        // The part recorded replays on its own: the same rows, the post and its undo.
        let replayed = try await WshProcess.run(["--replay", har, "-c", "fetch 3; list; post recorded mid-session; undo"])
        #expect(replayed.status == 0, "\(replayed.stderr)")
        let liveRows = live.stdout.split(separator: "\n").filter { $0.first?.isNumber == true }
        #expect(replayed.stdout.split(separator: "\n").filter { $0.first?.isNumber == true } == liveRows)
    }

    @Test("a request that got no answer is recorded (status 0, curl's code) and fails the same way on replay; a lost post's answer stays lost")
    func transportFailuresReplay() async throws {
        // Every post is served, then its answer dropped: wsh reads the server to learn the outcome.
        let sandbox = try await SandboxServer.start(SandboxConfiguration(
            faults: SandboxFaults(dropAfter: true, path: "statuses/update.json")))
        let har = WshProcess.temporaryDirectory() + "/failures.har"
        let commands = "fetch 2; post lost on the way back; undo; list"
        let live = try await WshProcess.run(["--api", sandbox.baseURL, "--record", har, "--keep-going", "-c", commands],
                                            environment: ["WSH_ACCESS_TOKEN": sandbox.token])
        await onOwnThreadStop(sandbox)
        #expect(live.stderr.contains("connection dropped") || live.stderr.contains("lost"), "\(live.stderr)")

        let entries = try #require(try Self.log(har)["entries"] as? [[String: Any]])
        let failed = try #require(entries.first { ($0["response"] as? [String: Any])?["status"] as? Int == 0 })
        let response = try #require(failed["response"] as? [String: Any])
        #expect((response["_error"] as? String)?.hasPrefix("connection dropped: ") == true, "\(response)")
        #expect((response["_transport"] as? [String: Any])?["curlCode"] as? Int == 52)
        #expect(((failed["request"] as? [String: Any])?["method"] as? String) == "POST")

        let replayed = try await WshProcess.run(["--replay", har, "--keep-going", "-c", commands])
        #expect(replayed.status == live.status)
        #expect(replayed.stdout == live.stdout)
        #expect(replayed.stderr == live.stderr)
    }

    @Test("a browser's failed request (status 0, net::ERR_…) replays as the same kind of failure")
    func browserFailureReplays() async throws {
        let folder = WshProcess.temporaryDirectory()
        let har = #"""
            {"log": {"version": "1.2", "entries": [
              {"request": {"method": "GET", "url": "https://m.example/api/v1/timelines/public?limit=20"},
               "response": {"status": 0, "statusText": "", "headers": [], "content": {"size": 0},
                            "_error": "net::ERR_CONNECTION_REFUSED"}}]}}
            """#
        try Data(har.utf8).write(to: URL(fileURLWithPath: folder + "/refused.har"))
        let run = try await WshProcess.run(["--api", "https://m.example/", "--dialect", "mastodon",
                                            "--replay", folder + "/refused.har", "-c", "fetch 20"])
        #expect(run.status == 1)
        #expect(run.stderr.hasPrefix("-c:1: fetch: connection refused: net::ERR_CONNECTION_REFUSED (curl 7, "), "\(run.stderr)")
    }

    @Test("a request not in the recording fails in one line naming it, exit 1; with --keep-going the session goes on")
    func unrecordedRequest() async throws {
        let sandbox = try await SandboxServer.start(SandboxConfiguration())
        let har = WshProcess.temporaryDirectory() + "/session.har"
        let live = try await WshProcess.run(["--api", sandbox.baseURL, "--record", har, "-c", "fetch 3"],
                                            environment: ["WSH_ACCESS_TOKEN": sandbox.token])
        #expect(live.status == 0, "\(live.stderr)")
        await onOwnThreadStop(sandbox)

        let failed = try await WshProcess.run(["--replay", har, "-c", "fetch 7; echo after"])
        #expect(failed.status == 1)
        #expect(failed.stderr == "-c:1: fetch: not in the recording: GET /2/statuses/public_timeline.json?count=7&page=1\n")
        #expect(!failed.stdout.contains("after"))

        let kept = try await WshProcess.run(["--replay", har, "--keep-going", "-c", "fetch 3; fetch 7; list"])
        #expect(kept.status == 1)
        #expect(kept.stderr.contains("not in the recording: GET /2/statuses/public_timeline.json?count=7"))
        #expect(kept.stdout.split(separator: "\n").filter { $0.hasPrefix("1 ") || $0.hasPrefix("3 ") }.count == 2, "\(kept.stdout)")
    }

    @Test("Mastodon: post, post, undo replays the POSTs in recorded order and the DELETE of the second")
    func writesReplayInOrder() async throws {
        let har = WshProcess.temporaryDirectory() + "/writes.har"
        let config = WshProcess.temporaryDirectory()
        let commands = "fetch 2; post hello one; post hello two; undo; fetch 2; list --json"
        // The embedded sandbox, recorded too.
        let live = try await WshProcess.run(["--dialect", "mastodon", "--record", har, "-c", commands],
                                            environment: ["XDG_CONFIG_HOME": config])
        #expect(live.status == 0, "\(live.stderr)")
        let entries = try #require(try Self.log(har)["entries"] as? [[String: Any]])
        let methods = entries.compactMap { ($0["request"] as? [String: Any])?["method"] as? String }
        #expect(methods.filter { $0 == "POST" }.count == 2 && methods.contains("DELETE"))

        let replayed = try await WshProcess.run(["--replay", har, "-c", commands], environment: ["XDG_CONFIG_HOME": config])
        #expect(replayed.status == 0, "\(replayed.stderr)")
        #expect(replayed.stdout == live.stdout)
        #expect(replayed.stderr == live.stderr)
        #expect(replayed.stderr.contains("undone: post \"hello two\""))
    }

    @Test("login is recorded with the token, the app's secret and the code masked; the token response keeps its shape")
    func loginRecorded() async throws {
        let sandbox = try await SandboxServer.start(SandboxConfiguration())
        defer { Thread.detachNewThread { sandbox.stop() } }
        let config = WshProcess.temporaryDirectory()
        let har = WshProcess.temporaryDirectory() + "/login.har"
        let env = ["XDG_CONFIG_HOME": config]
        let api = ["--api", sandbox.mastodonBaseURL, "--dialect", "mastodon"]
        let begun = try await WshProcess.run(api + ["-c", "login --url-only"], environment: env)
        #expect(begun.status == 0, "\(begun.stderr)")
        let code = try SandboxOAuth.approveOutOfBand(begun.stdout.trimmingCharacters(in: .whitespacesAndNewlines))
        let done = try await WshProcess.run(api + ["--record", har, "-c", "login --code \(code); whoami; post recorded"],
                                            environment: env)
        #expect(done.status == 0, "\(done.stderr)")

        let accounts = try String(contentsOfFile: config + "/wsh/accounts.json", encoding: .utf8)
        func field(_ name: String) -> String {
            accounts.components(separatedBy: "\"\(name)\" : \"").dropFirst().first?.split(separator: "\"").first.map(String.init) ?? ""
        }
        let (token, secret) = (field("access_token"), field("client_secret"))
        #expect(!token.isEmpty && !secret.isEmpty)
        let raw = try String(contentsOfFile: har, encoding: .utf8)
        for value in [token, secret, code] { #expect(!raw.contains(value)) }

        let entries = try #require(try Self.log(har)["entries"] as? [[String: Any]])
        let exchange = try #require(entries.first { (($0["request"] as? [String: Any])?["url"] as? String)?.hasSuffix("/oauth/token") == true })
        let text = try #require(((exchange["response"] as? [String: Any])?["content"] as? [String: Any])?["text"] as? String)
        let body = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
        #expect(body["access_token"] as? String == "***")
        #expect(body["token_type"] != nil)
        let params = try #require(((exchange["request"] as? [String: Any])?["postData"] as? [String: Any])?["params"] as? [[String: String]])
        for name in ["client_secret", "code"] { #expect(params.first { $0["name"] == name }?["value"] == "***", "\(name)") }
    }

    @Test("a HAR saved by Chromium (lower-case headers, base64 body, http/2.0, _fields) replays for --api on its host")
    func chromiumHAR() async throws {
        let statuses = #"""
            [{"id":"110","created_at":"2024-11-11T13:30:00.000Z","content":"<p>saved from a browser</p>",
              "visibility":"public","replies_count":1,"reblogs_count":2,"favourites_count":3,
              "account":{"id":"7","username":"alice","acct":"alice@m.example","display_name":"Alice"}}]
            """#
        let har: [String: Any] = ["log": [
            "version": "1.2",
            "creator": ["name": "WebInspector", "version": "537.36"],
            "pages": [["startedDateTime": "2024-11-11T13:30:00.000Z", "id": "page_1", "title": "https://m.example/", "pageTimings": [:]]],
            "entries": [[
                "_initiator": ["type": "script"], "_priority": "High", "_resourceType": "fetch",
                "cache": [:], "connection": "443", "pageref": "page_1",
                "request": [
                    "method": "GET", "url": "https://m.example/api/v1/timelines/public?limit=2", "httpVersion": "http/2.0",
                    "headers": [[":authority", "m.example"], ["authorization", "Bearer browser-token"], ["accept", "application/json"]]
                        .map { ["name": $0[0], "value": $0[1]] },
                    "queryString": [["name": "limit", "value": "2"]], "cookies": [], "headersSize": -1, "bodySize": 0,
                ],
                "response": [
                    "status": 200, "statusText": "", "httpVersion": "http/2.0",
                    "headers": [["content-type", "application/json; charset=utf-8"], ["content-encoding", "br"], ["x-ratelimit-remaining", "299"]]
                        .map { ["name": $0[0], "value": $0[1]] },
                    "cookies": [], "redirectURL": "", "headersSize": -1, "bodySize": -1, "_transferSize": 812, "_error": NSNull(),
                    "content": ["size": statuses.utf8.count, "mimeType": "application/json", "compression": 400,
                                "text": Data(statuses.utf8).base64EncodedString(), "encoding": "base64"],
                ],
                "serverIPAddress": "203.0.113.7", "startedDateTime": "2024-11-11T13:30:00.123Z", "time": 85.2,
                "timings": ["blocked": 1.1, "dns": -1, "ssl": -1, "connect": -1, "send": 0.2, "wait": 80.3, "receive": 3.6, "_blocked_queueing": 0.7],
            ]],
        ]]
        let path = WshProcess.temporaryDirectory() + "/m.example.har"
        try JSONSerialization.data(withJSONObject: har).write(to: URL(fileURLWithPath: path))

        let run = try await WshProcess.run(["--api", "https://m.example/", "--dialect", "mastodon", "--replay", path,
                                            "-c", "fetch 2; list"])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout.contains("saved from a browser"), "\(run.stdout)")
        #expect(run.stdout.contains("@alice"))
    }

    @Test("the file is a valid HAR after kill -9 mid-session, and replays what was recorded before")
    func killedMidSession() async throws {
        let sandbox = try await SandboxServer.start(SandboxConfiguration())
        defer { Thread.detachNewThread { sandbox.stop() } }
        let har = WshProcess.temporaryDirectory() + "/killed.har"
        let wsh = try RunningWsh(["--api", sandbox.baseURL, "--record", har, "-c",
                                  "fetch 3; fetch 3; echo ready; wait until false --every 0.05 --timeout 60"],
                                 environment: ["WSH_ACCESS_TOKEN": sandbox.token])
        #expect(await wsh.line(containing: "ready") != nil, "\(wsh.stderr)")
        wsh.kill()
        let run = await wsh.finish()
        #expect(run.status != 0)

        let entries = try #require(try Self.log(har)["entries"] as? [[String: Any]])
        #expect(entries.count == 2)
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: (har as NSString).deletingLastPathComponent)
        #expect(leftovers == ["killed.har"])
        let replayed = try await WshProcess.run(["--replay", har, "-c", "fetch 3; fetch 3; list"])
        #expect(replayed.status == 0, "\(replayed.stderr)")
    }

    @Test("--record and --replay together, or a replay file that is missing or not HAR, is a one-line usage error before anything runs")
    func usageErrors() async throws {
        let folder = WshProcess.temporaryDirectory()
        let both = try await WshProcess.run(["--record", folder + "/a.har", "--replay", folder + "/b.har", "-c", "echo ran"])
        #expect(both.status == 2 && !both.stdout.contains("ran"))
        #expect(both.stderr.contains("give --record or --replay, not both"))

        let missing = try await WshProcess.run(["--replay", folder + "/none.har", "-c", "echo ran"])
        #expect(missing.status == 2 && missing.stdout.isEmpty)
        #expect(missing.stderr == "wsh: --replay: cannot read '\(folder)/none.har': no such file\n")

        try Data("{\"log\": {}}".utf8).write(to: URL(fileURLWithPath: folder + "/bad.har"))
        let invalid = try await WshProcess.run(["--replay", folder + "/bad.har", "-c", "echo ran"])
        #expect(invalid.status == 2 && invalid.stdout.isEmpty)
        #expect(invalid.stderr == "wsh: --replay: '\(folder)/bad.har' is not a HAR file: no log.entries\n")
    }
}

private func onOwnThreadStop(_ sandbox: SandboxServer) async {
    _ = try? await onOwnThread { sandbox.stop() }
}

private extension ISO8601DateFormatter {
    static var withFractionalSeconds: ISO8601DateFormatter {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return formatter
    }
}

/// `wsh --test --replay FILE.har DIR`: a test folder run against a recording.
@Suite("Tests against a recording, end to end")
struct TestReplayTests {
    @Test("every test file replays the recording, offline; one asking what was not recorded fails naming the request")
    func testFolderAgainstRecording() async throws {
        let sandbox = try await SandboxServer.start(SandboxConfiguration())
        let folder = WshProcess.temporaryDirectory()
        let har = folder + "/ci.har"
        let live = try await WshProcess.run(["--api", sandbox.baseURL, "--record", har, "-c", "fetch 3; detail 2"],
                                            environment: ["WSH_ACCESS_TOKEN": sandbox.token])
        #expect(live.status == 0, "\(live.stderr)")
        Thread.detachNewThread { sandbox.stop() }
        let tests = folder + "/tests"
        try FileManager.default.createDirectory(atPath: tests, withIntermediateDirectories: true)
        try "fetch 3\nassert $count == 3\n".write(toFile: tests + "/a_rows.wsh", atomically: true, encoding: .utf8)
        try "fetch 3\ndetail 2\n".write(toFile: tests + "/b_detail.wsh", atomically: true, encoding: .utf8)
        try "fetch 9\n".write(toFile: tests + "/c_unrecorded.wsh", atomically: true, encoding: .utf8)
        let junit = folder + "/report.xml"
        // Run from another folder, with a relative path: each test's wsh gets the recording by absolute path.
        let run = try await WshProcess.run(["--test", "--replay", "ci.har", "--report-junit", junit, tests],
                                           environment: ["PWD": folder], workingDirectory: folder)
        #expect(run.status == 1, "\(run.stdout) \(run.stderr)")
        #expect(run.stdout.hasSuffix("2 passed, 1 failed\n"), "\(run.stdout)")
        let report = try String(contentsOfFile: junit, encoding: .utf8)
        #expect(report.contains("not in the recording: GET /2/statuses/public_timeline.json?count=9"), "\(report)")
        #expect(!report.contains(sandbox.token))
        let refused = try await WshProcess.run(["--test", "--record", har, tests])
        #expect(refused.status == 2)
        #expect(refused.stderr.contains("--record does not go with --test"))
    }
}

/// `trace on` says when a recording answered.
@Suite("trace on under --replay")
struct TraceReplayTests {
    @Test("each replayed answer is marked as such in the trace; a live one names its connection")
    func replayedMarked() async throws {
        let sandbox = try await SandboxServer.start(SandboxConfiguration())
        let folder = WshProcess.temporaryDirectory()
        let har = folder + "/t.har"
        let live = try await WshProcess.run(["--api", sandbox.baseURL, "--record", har, "-c", "trace on; fetch 3"],
                                            environment: ["WSH_ACCESS_TOKEN": sandbox.token])
        #expect(live.status == 0, "\(live.stderr)")
        #expect((live.stdout + live.stderr).contains("connection"))
        #expect(!(live.stdout + live.stderr).contains("replayed from the recording"))
        Thread.detachNewThread { sandbox.stop() }
        let replayed = try await WshProcess.run(["--replay", har, "-c", "trace on; fetch 3"])
        #expect(replayed.status == 0, "\(replayed.stderr)")
        #expect((replayed.stdout + replayed.stderr).contains("replayed from the recording"), "\(replayed.stdout)")
    }
}

/// `status` says whether the session records or replays.
@Suite("status under --record and --replay")
struct StatusTapeTests {
    @Test("status names the recording file, or the replayed one and its exchanges; off otherwise")
    func statusSaysSo() async throws {
        let folder = WshProcess.temporaryDirectory()
        let har = folder + "/s.har"
        let recorded = try await WshProcess.run(["--record", har, "-c", "fetch 2; status; status --json"])
        #expect(recorded.status == 0, "\(recorded.stderr)")
        #expect(recorded.stdout.contains("recording   to \(har)") || recorded.stdout.contains("recording  to \(har)"), "\(recorded.stdout)")
        #expect(recorded.stdout.contains("\"recording\" : \"to \(har)\""), "\(recorded.stdout)")
        let replayed = try await WshProcess.run(["--replay", har, "-c", "status --json"])
        #expect(replayed.stdout.contains("\"recording\" : \"replaying \(har) (1 exchange)\""), "\(replayed.stdout)")
        let live = try await WshProcess.run(["-c", "status --json"])
        #expect(live.stdout.contains("\"recording\" : \"off\""), "\(live.stdout)")
    }
}

/// `wsh-sandbox --replay FILE.har`: a recorded session served back as a
/// server, to a wsh (or any client) that talks to it over HTTP.
@Suite("A recording served by the sandbox, end to end")
struct SandboxReplayTests {
    @Test("a session recorded on either API, served by a replaying sandbox, gives the same output to a wsh talking HTTP to it",
          arguments: ["weibo", "mastodon"])
    func recordedSessionServed(dialect: String) async throws {
        let sandbox = try await SandboxServer.start(SandboxConfiguration())
        let har = WshProcess.temporaryDirectory() + "/session.har"
        let base = dialect == "weibo" ? sandbox.baseURL : sandbox.mastodonBaseURL
        let commands = "fetch 3; list --json; more; post served from a recording; undo; list; detail 2"
        let environment = ["WSH_ACCESS_TOKEN": sandbox.token]
        let live = try await WshProcess.run(["--api", base, "--dialect", dialect, "--record", har, "-c", commands],
                                            environment: environment)
        #expect(live.status == 0, "\(live.stderr)")
        await onOwnThreadStop(sandbox)

        let recording = try HARRecording.load(path: har)
        let served = try await SandboxServer.start(SandboxConfiguration(replay: recording))
        defer { Thread.detachNewThread { served.stop() } }
        let servedBase = dialect == "weibo" ? served.baseURL : served.mastodonBaseURL
        let replayed = try await WshProcess.run(["--api", servedBase, "--dialect", dialect, "-c", commands],
                                                environment: environment)
        #expect(replayed.status == 0, "\(replayed.stderr)")
        #expect(replayed.stdout == live.stdout)
        #expect(replayed.stderr == live.stderr)
        #expect(replayed.stdout.contains("served from a recording") || live.stdout.contains("1 "))

        // What the recording lacks is the server's 404, in one line; the rows stay.
        let missing = try await WshProcess.run(["--api", servedBase, "--dialect", dialect, "--keep-going",
                                                "-c", "fetch 3; fetch home 7; list"], environment: environment)
        #expect(missing.status == 1)
        let errors = missing.stderr.split(separator: "\n").filter { $0.contains("not in the recording") }
        #expect(errors.count == 1 && errors[0].hasPrefix("-c:1: fetch: ") && errors[0].contains(" GET /"), "\(missing.stderr)")
        #expect(missing.stdout.split(separator: "\n").count == 3, "the failed fetch keeps the rows: \(missing.stdout)")
    }

    @Test("the wsh-sandbox binary says it replays, and refuses a file that is not a HAR in one line")
    func binaryFlag() async throws {
        let folder = WshProcess.temporaryDirectory()
        try Data(#"{"log":{"entries":[{"request":{"method":"GET","url":"/2/x.json"},"response":{"status":200}}]}}"#.utf8)
            .write(to: URL(fileURLWithPath: folder + "/one.har"))
        try Data("{}".utf8).write(to: URL(fileURLWithPath: folder + "/bad.har"))
        let bad = try await onOwnThread { try SandboxBinary.startAndStop(["--replay", folder + "/bad.har", "--port", "0"]) }
        #expect(bad.status != 0 && bad.stdout.isEmpty)
        #expect(bad.stderr.contains("--replay: '\(folder)/bad.har' is not a HAR file: no log.entries"), "\(bad.stderr)")
        let good = try await onOwnThread { try SandboxBinary.startAndStop(["--replay", folder + "/one.har", "--port", "0", "--quiet"]) }
        #expect(good.stdout.hasPrefix("wsh-sandbox listening on http://127.0.0.1:"), "\(good)")
        #expect(good.stdout.hasSuffix("(replaying \(folder)/one.har: 1 exchange)\n"), "replaying, no account lines: \(good)")
    }
}
