import Foundation
import Testing
import WshSandbox
@testable import WshShell

/// Custom emojis, profile fields and quotes through the real loop, on the
/// sandbox's Mastodon side, and what Weibo says.
@Suite("Emojis, profile fields and quotes in the shell", .serialized)
struct MastodonExtrasTranscriptTests {
    func object(_ text: String) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
    }

    @Test("user NAME lists fields (✓ when verified) and emojis; --json keeps them as sent")
    func profile() async throws {
        let harness = try await ShellHarness(dialect: .mastodon)
        let name = harness.sandbox.accounts[2].screenName
        let shown = await harness.run("user \(name)")
        #expect(shown.status == 0, "\(shown.stderr)")
        #expect(shown.stdout.contains("Website: example.com/~\(name) ✓\n"), "\(shown.stdout)")
        #expect(shown.stdout.contains("Mood: :wsh:\n"))
        #expect(shown.stdout.contains("emoji: :wsh:"))
        let json = try object(await harness.run("user \(name) --json").stdout)
        let fields = try #require(json["fields"] as? [[String: Any]])
        #expect(fields.contains { $0["name"] as? String == "Website" && ($0["value"] as? String)?.hasPrefix("<a ") == true
                                  && $0["verified_at"] is String })
        #expect((json["emojis"] as? [[String: Any]])?.first?["shortcode"] as? String == "wsh")
    }

    @Test("a quote is marked ❝ in the list; detail shows the quoted status indented or says why not; --json keeps quote")
    func quotes() async throws {
        let harness = try await ShellHarness(dialect: .mastodon)
        let listed = await harness.run("fetch 40\nmore\nlist")
        #expect(listed.status == 0, "\(listed.stderr)")
        let rows = try await harness.rows()
        var accepted = false
        var pending = false
        for row in rows {
            guard let index = row["index"] as? Int, let quote = row["quote"] as? [String: Any] else { continue }
            let detail = await harness.run("detail \(index)")
            if quote["state"] as? String == "accepted" && !accepted {
                accepted = true
                #expect(detail.stdout.contains("❝ quoting:\n│ @"), "\(detail.stdout)")
                let json = try object(await harness.run("detail \(index) --json").stdout)
                let quoted = try #require((json["quote"] as? [String: Any])?["quoted_status"] as? [String: Any])
                #expect(quoted["id"] as? String == (quote["quoted_status"] as? [String: Any])?["id"] as? String)
            } else if quote["state"] as? String == "pending" {
                pending = true
                #expect(detail.stdout.contains("❝ quote pending (its author has not approved it yet)\n"), "\(detail.stdout)")
                #expect(!detail.stdout.contains("❝ quoting:"))
            }
        }
        #expect(accepted && pending)
        #expect(listed.stdout.contains(" ❝"))
    }

    @Test("a content warning posted on two lines keeps them in --json, as the server does; the row folds it to one")
    func contentWarningLines() async throws {
        let harness = try await ShellHarness(dialect: .mastodon)
        let posted = await harness.run(#"post --cw "first line\nsecond line" body one"#)
        #expect(posted.status == 0, "\(posted.stderr)")
        let rows = try await harness.rows(after: "fetch home 1")
        #expect(rows.first?["spoiler_text"] as? String == "first line\nsecond line", "\(rows)")
        #expect(await harness.run("list").stdout.contains("CW: first line second line"))
    }

    @Test("detail lists the custom emojis; Weibo has no fields, emojis or quotes")
    func emojiAndWeibo() async throws {
        let harness = try await ShellHarness(dialect: .mastodon)
        #expect(await harness.run("fetch 40").status == 0)
        let rows = try await harness.rows()
        let index = try #require(rows.first { ($0["emojis"] as? [Any])?.isEmpty == false }?["index"] as? Int)
        let detail = await harness.run("detail \(index)")
        #expect(detail.stdout.contains("emoji: :wsh:\n"), "\(detail.stdout)")

        let weibo = try await ShellHarness()
        let name = weibo.sandbox.accounts[2].screenName
        let user = await weibo.run("fetch 40\nlist\nuser \(name)")
        #expect(user.status == 0, "\(user.stderr)")
        #expect(!user.stdout.contains("Website:") && !user.stdout.contains("❝") && !user.stdout.contains("emoji:"))
        #expect(try object(await weibo.run("user \(name) --json").stdout)["fields"] == nil)
    }
}
