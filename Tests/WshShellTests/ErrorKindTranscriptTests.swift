import Foundation
import Testing
import WshRequest
import WshSandbox
@testable import WshShell
import WshTestSupport

/// Errors classified once per API (Weibo by its codes, Mastodon by its
/// statuses and messages) into one vocabulary: scripts read it as
/// `$errkind`, undo and the advice in messages are written against it.
@Suite("Error kinds on both APIs")
struct ErrorKindTranscriptTests {
    /// Prints `$errkind` and `$errcode` of `command`'s failure, one per line.
    private func kind(of command: String, _ harness: ShellHarness) async -> (kind: String, code: String, error: String) {
        let run = await harness.run("try { \(command) } catch { echo \"[$errkind] [$errcode]\"; echo $error }")
        let lines = run.stdout.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let first = lines.last { $0.hasPrefix("[") } ?? ""
        let parts = first.dropFirst().dropLast().components(separatedBy: "] [")
        return (parts.first ?? "", parts.count > 1 ? parts[1] : "", lines.last { !$0.isEmpty && !$0.hasPrefix("[") } ?? "")
    }

    @Test("Weibo: not found, already done, rate limited, invalid and network each have their $errkind beside $errcode")
    func weiboKinds() async throws {
        let harness = try await ShellHarness()
        _ = await harness.run("fetch 5")
        #expect(await kind(of: "api GET statuses/show.json id=1", harness).kind == "not_found")
        _ = await harness.run("favorite 2")
        let again = await kind(of: "favorite 2", harness)
        #expect(again.kind == "already_done" && again.code == "20704")
        #expect(await kind(of: "api GET statuses/public_timeline.json count=abc", harness).kind == "invalid")
        let limited = try await ShellHarness(faults: SandboxFaults(rateLimit: 0))
        let rate = await kind(of: "fetch 3", limited)
        #expect(rate.kind == "rate_limited" && rate.code == "10023")
        let offline = ShellHarness(api: "http://127.0.0.1:9/2/", token: "t0123456789", timeout: .seconds(5))
        #expect(await kind(of: "fetch 3", offline).kind == "network")
        // Not every failure is the API's: a bad row number has no kind.
        #expect(await kind(of: "detail 99", harness).kind == "")
    }

    @Test("Mastodon: a validation error (text too long) is invalid and does not say to log in; a missing status is not_found")
    func mastodonKinds() async throws {
        let harness = try await ShellHarness(dialect: .mastodon)
        let long = String(repeating: "x", count: 501)
        let invalid = await kind(of: "post \(long)", harness)
        #expect(invalid.kind == "invalid" && invalid.code == "422")
        #expect(invalid.error.contains("character limit"))
        #expect(!invalid.error.contains("login"))
        _ = await harness.run("fetch 3")
        let missing = await kind(of: "api GET api/v1/statuses/999999999", harness)
        #expect(missing.kind == "not_found" && missing.code == "404")
    }

    @Test("Mastodon: with public preview off and no token the failure is unauthorized and says to log in")
    func mastodonUnauthorized() async throws {
        let server = try await SandboxServer.start(SandboxConfiguration())
        defer { Thread.detachNewThread { server.stop() } }
        server.setPublicPreview(false)
        let anonymous = ShellHarness(api: String(server.baseURL.dropLast(2)), token: nil)
        let closed = await kind(of: "fetch 3", anonymous)
        #expect(closed.kind == "unauthorized")
        #expect(closed.error.contains("run login"))
    }

    @Test("Mastodon: post, the status deleted elsewhere, undo: the undo succeeds and says it was already gone")
    func mastodonUndoOfDeletedPost() async throws {
        let harness = try await ShellHarness(dialect: .mastodon)
        let posted = await harness.run("post gone soon; list --json")
        #expect(posted.status == 0, "\(posted.stderr)")
        let rows = try #require(try JSONSerialization.jsonObject(with: Data(posted.stdout.utf8)) as? [[String: Any]])
        let id = try #require(rows.first?["id"] as? String)
        // Someone (the same account, in a browser) deletes it.
        let deleted = try await CurlHTTPClient().send(HTTPRequest(
            method: .delete, url: harness.sandbox.mastodonBaseURL + "api/v1/statuses/\(id)",
            headers: [HTTPHeader("Authorization", "Bearer " + harness.sandbox.token)]))
        #expect(deleted.status == 200)
        let undone = await harness.run("undo; history")
        #expect(undone.status == 0, "\(undone.stderr)")
        #expect(undone.stderr.contains("status \(id) was already gone from the server"))
        #expect(!undone.stdout.contains("post gone soon"))
    }
}

/// What real Mastodon servers do that a Weibo-shaped client got wrong.
@Suite("Mastodon writes: the write's answer is the outcome")
struct MastodonWriteOutcomeTests {
    @Test("a follow the server accepted is reported done and recorded, even when the profile read after it fails")
    func followOutcomeIsTheWritesAnswer() async throws {
        let harness = try await ShellHarness(dialect: .mastodon)
        let listed = await harness.run("fetch 5; list --json")
        let rows = try #require(try JSONSerialization.jsonObject(with: Data(listed.stdout.utf8)) as? [[String: Any]])
        let account = try #require(rows.compactMap { $0["account"] as? [String: Any] }
            .first { ($0["acct"] as? String) != nil && ($0["id"] as? String) != nil })
        let id = try #require(account["id"] as? String), acct = try #require(account["acct"] as? String)
        harness.sandbox.setFaults(SandboxFaults(failStatus: 500, failRate: 1, path: "api/v1/accounts/\(id)"))
        let followed = await harness.run("follow \(acct); history")
        #expect(followed.status == 0, "\(followed.stderr)")
        #expect(followed.stdout.contains("follow"))
        harness.sandbox.setFaults(SandboxFaults())
        let undone = await harness.run("undo")
        #expect(undone.status == 0, "\(undone.stderr)")
    }
}

/// Ids are strings end to end: the lost-answer checks compare them as the
/// server writes them, numbers or not.
@Suite("Lost answers on servers whose ids are not numbers")
struct OpaqueIDLostAnswerTests {
    @Test("a post and a comment whose answers are lost are found on the server with ULID and flake ids",
          arguments: [MastodonIDStyle.ulid, .flake, .snowflake])
    func lostAnswersFound(style: MastodonIDStyle) async throws {
        let harness = try await ShellHarness(dialect: .mastodon, idStyle: style)
        #expect(await harness.run("fetch 3").status == 0)
        harness.sandbox.setFaults(SandboxFaults(dropAfter: true, path: "api/v1/statuses"))
        let posted = await harness.run("post landed once")
        #expect(posted.status == 0, "\(style): \(posted.stderr)")
        #expect(posted.stderr.contains("the answer was lost; found the status on the server"), "\(style): \(posted.stderr)")
        let commented = await harness.run("fetch 3; comment 2 found again")
        #expect(commented.status == 0, "\(style): \(commented.stderr)")
        #expect(commented.stderr.contains("the answer was lost"), "\(style): \(commented.stderr)")
        harness.sandbox.setFaults(SandboxFaults())
        #expect(await harness.run("undo; undo").status == 0)
    }
}

/// Help and completion from what the connected API offers.
@Suite("help fetch from the connected API's capabilities")
struct CapabilityHelpTests {
    @Test("on Weibo: 200 on the public timeline, 100 on the others, reposts offered, local and tag not")
    func weibo() async throws {
        let harness = try await ShellHarness()
        let help = await harness.run("help fetch").stdout
        #expect(help.contains("On this API (weibo): public: 1 to 200 statuses a page; home, user NAME, mentions, reposts N: 1 to 100 statuses a page. Not offered here: local, tag NAME."), "\(help)")
        #expect(harness.shell.offeredTimelines().map(\.word) == ["public", "home", "user", "mentions", "reposts"])
    }

    @Test("on Mastodon: 40 a page, local and tag offered, reposts not; fetch reposts fails before any request naming the API")
    func mastodon() async throws {
        let harness = try await ShellHarness(dialect: .mastodon)
        let help = await harness.run("help fetch").stdout
        #expect(help.contains("On this API (mastodon): public, local, home, tag NAME, user NAME, mentions: 1 to 40 statuses a page. Not offered here: reposts N."), "\(help)")
        #expect(!help.contains("200"))
        #expect(harness.shell.offeredTimelines().map(\.word) == ["public", "local", "home", "tag", "user", "mentions"])
        let before = harness.sandbox.stats.requests
        let refused = await harness.run("fetch reposts 1")
        #expect(refused.status == 2)
        #expect(refused.stderr.contains("fetch: reposts N: this API (mastodon) has no such timeline; it offers public, local, home, tag NAME, user NAME, mentions"), "\(refused.stderr)")
        #expect(harness.sandbox.stats.requests == before)
    }

    @Test("an --api URL not yet asked says the timelines are found out on the first request")
    func unknown() async throws {
        let harness = ShellHarness(api: "http://127.0.0.1:9/", token: nil)
        #expect(await harness.run("help fetch").stdout.contains("found out on the first request"))
    }
}

/// README's examples of the wire are what wsh really sends.
@Suite("README's wire examples")
struct ReadmeWireTests {
    @Test("the Mastodon tour's `trace on; newer` line names the request really sent for fetch local")
    func localTimelineWire() async throws {
        let readme = try String(contentsOfFile: WshProcess.packageRoot + "/README.md", encoding: .utf8)
        let line = try #require(readme.split(separator: "\n").first { $0.contains("trace on; newer") && $0.contains("see the wire: GET ") })
        let claimed = try #require(line.components(separatedBy: "see the wire: GET ").last).components(separatedBy: "…")
        let harness = try await ShellHarness(dialect: .mastodon)
        let traced = await harness.run("fetch local 20; trace on; newer")
        #expect(traced.status == 0, "\(traced.stderr)")
        let request = (traced.stdout + traced.stderr).split(separator: "\n").first { $0.contains("Request") && $0.contains("GET ") }
        #expect(claimed.count == 2 && claimed.allSatisfy { request?.contains($0) == true }, "README claims \(claimed), wsh sent \(request ?? "nothing")")
    }
}
