import Foundation
import Testing
@testable import WshShell
import WshTestSupport

/// Weibo and Mastodon as equals: what each shared command's help names comes
/// from the connected API, and no Weibo path is written outside Weibo's folders.
@Suite("Two APIs as equals")
struct EqualAPIsTests {
    /// Each shared command and a call its help must name on Mastodon, with the field it changes where it has one.
    static let mastodonCalls: [(command: String, call: String)] = [
        ("favorite", #"POST /api/v1/statuses/:id/favourite, field "favourited""#),
        ("unfavorite", #"POST /api/v1/statuses/:id/unfavourite, field "favourited""#),
        ("comment", "POST /api/v1/statuses (status, in_reply_to_id)"),
        ("reply", "POST /api/v1/statuses (status, in_reply_to_id: the comment's id)"),
        ("delete", "DELETE /api/v1/statuses/:id"),
        ("follow", #"POST /api/v1/accounts/:id/follow, field "following""#),
        ("unfollow", #"POST /api/v1/accounts/:id/unfollow, field "following""#),
        ("repost", "POST /api/v1/statuses/:id/reblog"),
        ("limits", "GET /api/v1/accounts/verify_credentials"),
    ]

    @Test("on Mastodon, help for every shared command names Mastodon's call and no Weibo path")
    func mastodonHelp() async throws {
        let harness = try await ShellHarness(dialect: .mastodon)
        for (command, call) in Self.mastodonCalls {
            let help = await harness.run("help \(command)").stdout
            #expect(help.contains("On this API (mastodon): \(call)"), "\(command): \(help)")
            #expect(!help.contains(".json"), "\(command): \(help)")
        }
        let undo = await harness.run("help undo").stdout
        #expect(!undo.contains(".json"), "\(undo)")
    }

    @Test("on Weibo, help favorite names favorites/create.json and the field favorited, as before")
    func weiboHelp() async throws {
        let harness = try await ShellHarness()
        let help = await harness.run("help favorite").stdout
        #expect(help.contains(#"On this API (weibo): POST favorites/create.json (id), field "favorited"; undo: POST favorites/destroy.json (id), field "favorited"."#), "\(help)")
        let follow = await harness.run("help follow").stdout
        #expect(follow.contains("POST friendships/create.json (uid or screen_name)"), "\(follow)")
    }

    @Test("api completes the connected API's paths: Mastodon's on Mastodon, Weibo's on Weibo")
    func apiCompletion() async throws {
        let mastodon = try await ShellHarness(dialect: .mastodon)
        let offered = mastodon.shell.completions(forLine: "api get api/v1/t")
        #expect(offered.contains("api/v1/timelines/public"), "\(offered)")
        #expect(mastodon.shell.completions(forLine: "api get statuses/").isEmpty)
        let weibo = try await ShellHarness()
        #expect(weibo.shell.completions(forLine: "api get statuses/").contains("statuses/show.json"))
    }

    @Test("no Weibo endpoint is written in Sources outside Weibo's folders, the write declarations and the sandbox")
    func noWeiboPathsOutsideWeibo() throws {
        let sources = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Sources")
        let pattern = try Regex(#"(statuses|favorites|comments|friendships|users|account|search|oauth2)/[a-z_/]*\.json|favorites\.json|users/show|account/rate_limit_status"#)
        let files = try #require(FileManager.default.enumerator(atPath: sources.path)).compactMap { $0 as? String }
        #expect(files.contains("WshRequest/APIClient.swift"), "the scan reads \(sources.path)")
        var found: [String] = []
        for file in files where file.hasSuffix(".swift") {
            // The sandbox serves Weibo's paths; each Weibo/ folder is where they belong, and a
            // write's declaration (WshDataController/Writes) names its call on every API at once.
            if file.hasPrefix("WshSandbox/") || file.hasPrefix("wsh-sandbox/") || file.hasPrefix("WshDataController/Writes/")
                || file.split(separator: "/").contains("Weibo") { continue }
            let text = try String(contentsOf: sources.appendingPathComponent(file), encoding: .utf8)
            for (number, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated()
            where line.contains(pattern) {
                found.append("\(file):\(number + 1): \(line.trimmingCharacters(in: .whitespaces))")
            }
        }
        #expect(found.isEmpty, "Weibo paths outside Weibo's folders:\n\(found.joined(separator: "\n"))")
    }
}
