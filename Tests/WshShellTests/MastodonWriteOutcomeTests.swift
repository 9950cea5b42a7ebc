import Foundation
import Testing
import WshRequest
import WshSandbox
@testable import WshShell
import WshTestSupport

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

/// `comments --json` on Mastodon keeps Mastodon's shape.
@Suite("Mastodon threads in --json")
struct MastodonCommentsJSONTests {
    @Test("comments --json on Mastodon: ids are strings as sent, times ISO 8601, account and depth; on Weibo unchanged")
    func mastodonShape() async throws {
        let harness = try await ShellHarness(dialect: .mastodon)
        let run = await harness.run("fetch 3; comment 1 first; reply 1 1 second; comments 1 --json")
        #expect(run.status == 0, "\(run.stderr)")
        let start = try #require(run.stdout.firstIndex(of: "{"))
        let document = try #require(try JSONSerialization.jsonObject(with: Data(run.stdout[start...].utf8)) as? [String: Any])
        let comments = try #require(document["comments"] as? [[String: Any]])
        #expect(!comments.isEmpty)
        for comment in comments {
            #expect(comment["id"] is String, "\(comment)")
            #expect(comment["idstr"] == nil && comment["user"] == nil)
            #expect(comment["account"] is [String: Any])
            #expect((comment["created_at"] as? String)?.hasSuffix("Z") == true, "\(comment)")
            #expect(comment["depth"] is Int)
        }
        let weibo = try await ShellHarness()
        let weiboRun = await weibo.run("fetch 3; comments 1 --json")
        #expect(weiboRun.stdout.contains("\"idstr\"") && weiboRun.stdout.contains("\"user\""))
    }
}
