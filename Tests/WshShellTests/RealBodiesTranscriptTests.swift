import Foundation
import Testing
import WshHAR
import WshRequest
@testable import WshShell

/// Real servers' bodies (the Model's fixtures: Mastodon, GoToSocial, Akkoma)
/// replayed to the whole shell: what `detail`, `user` and `--json` make of
/// fields the sandbox never sends.
@Suite("Real Mastodon-family bodies through the shell")
struct RealBodiesTranscriptTests {
    static func fixture(_ name: String) throws -> String {
        let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("WshModelTests/Fixtures/mastodon")
        return try String(contentsOf: folder.appendingPathComponent(name + ".json"), encoding: .utf8)
    }

    /// A shell on a Mastodon API that answers from a recording of real bodies:
    /// the public timeline holds status_card, gotosocial_status_cw and
    /// akkoma_status_quote_card, in that order.
    static func harness() throws -> ShellHarness {
        let page = "[" + (try ["status_card", "gotosocial_status_cw", "akkoma_status_quote_card"].map(fixture)
            .joined(separator: ",")) + "]"
        let account = try #require(try JSONSerialization.jsonObject(with: Data(fixture("status_card").utf8)) as? [String: Any])["account"]
        let accountBody = String(decoding: try JSONSerialization.data(withJSONObject: account as Any), as: UTF8.self)
        func entry(_ url: String, _ body: String) -> [String: Any] {
            ["request": ["method": "GET", "url": url],
             "response": ["status": 200, "headers": [["name": "Content-Type", "value": "application/json"]],
                          "content": ["text": body]]]
        }
        let har: [String: Any] = ["log": ["version": "1.2", "entries": [
            entry("https://mastodon.example/api/v1/timelines/public?limit=***", page),
            entry("https://mastodon.example/api/v1/accounts/lookup?acct=mastodonpy_test", accountBody),
        ]]]
        let recording = try HARRecording.parse(try JSONSerialization.data(withJSONObject: har), name: "real.har")
        var configuration = Shell.Configuration(target: .url("https://mastodon.example/"), tokenSource: .value(Secret("t0123456789")),
                                                json: false)
        configuration.dialect = .mastodon
        configuration.tape = .replay(ReplayHTTPClient(recording: recording))
        return ShellHarness(configuration: configuration)
    }

    func object(_ text: String) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any], "\(text)")
    }

    @Test("--json keeps a content warning's line breaks (GoToSocial's); detail shows it on one line")
    func contentWarningLineBreaks() async throws {
        let harness = try Self.harness()
        let json = await harness.run("fetch 3\ndetail 2 --json")
        #expect(json.status == 0, "\(json.stderr)")
        let warning = try #require(try object(json.stdout)["spoiler_text"] as? String)
        #expect(warning.hasPrefix("First paragraph of content warning\n\nHere's the title!\n\n"), "\(warning)")
        let detail = await harness.run("detail 2")
        #expect(detail.stdout.contains("CW: First paragraph of content warning  Here's the title!  "), "\(detail.stdout)")
    }

    @Test("detail says you favourited and bookmarked it (GoToSocial); user says the account is locked")
    func yoursAndLocked() async throws {
        let harness = try Self.harness()
        let detail = await harness.run("fetch 3\ndetail 2")
        #expect(detail.status == 0, "\(detail.stderr)")
        #expect(detail.stdout.contains("\n0 reposts · 1 comment · 1 like\nyou favourited · bookmarked\n"), "\(detail.stdout)")
        let untouched = await harness.run("detail 1")
        #expect(!untouched.stdout.contains("you "), "\(untouched.stdout)")
        let user = await harness.run("user mastodonpy_test")
        #expect(user.status == 0, "\(user.stderr)")
        #expect(user.stdout.contains("\n🔒 locked (approves each follower)\n"), "\(user.stdout)")
    }

    @Test("Akkoma's quote (the quoted status itself) is shown in detail and kept in --json")
    func akkomaQuote() async throws {
        let harness = try Self.harness()
        let detail = await harness.run("fetch 3\ndetail 3")
        #expect(detail.status == 0, "\(detail.stderr)")
        #expect(detail.stdout.contains("❝ quoting:\n│ @technicat@universeodon.com"), "\(detail.stdout)")
        let quote = try #require(try object(await harness.run("detail 3 --json").stdout)["quote"] as? [String: Any])
        #expect(quote["state"] as? String == "accepted")
        #expect((quote["quoted_status"] as? [String: Any])?["id"] as? String == "Al2KABLN3tuRoeE0A4")
    }

    @Test("--json keeps every field of the link preview the server sent")
    func wholeCard() async throws {
        let harness = try Self.harness()
        let card = try #require(try object(await harness.run("fetch 3\ndetail 1 --json").stdout)["card"] as? [String: Any])
        #expect(card["title"] as? String == "Example Domain" && card["url"] as? String == "http://example.org/")
        #expect(card["type"] as? String == "link" && card["description"] as? String == "")
        #expect(card["width"] as? Int == 0 && card.keys.contains("provider_name") && card.keys.contains("html"))
        // `image` and `blurhash` came as null: kept as the server sent them, as every field is.
        #expect(card["image"] is NSNull && card["blurhash"] is NSNull)
        let akkoma = try #require(try object(await harness.run("detail 3 --json").stdout)["card"] as? [String: Any])
        #expect(akkoma["description"] as? String == "Attached: 1 image\n\ngot a flu shot and fruit tea")
        #expect(akkoma["provider_name"] as? String == "universeodon.com")
    }

    @Test("fetch past Mastodon's page says which API refuses it")
    func countNamesTheAPI() async throws {
        let harness = try Self.harness()
        let refused = await harness.run("fetch 41")
        #expect(refused.status != 0)
        #expect(refused.stderr.contains("fetch: count must be 1 to 40, not 41: this API (mastodon) serves at most 40 statuses a page"),
                "\(refused.stderr)")
    }
}
