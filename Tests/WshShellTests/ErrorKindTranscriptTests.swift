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

/// Ids are strings end to end: the lost-answer checks compare them as the
