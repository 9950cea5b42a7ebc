import Foundation
import Testing
import WshRequest
import WshSandbox
import WshTestSupport
@testable import WshShell

/// The commands of the Mastodon issue, through the real loop against the
/// sandbox's Mastodon side.
@Suite("Mastodon through the same commands", .serialized)
struct MastodonTranscriptTests {
    @Test("public and local timelines, Link-header paging with no repeats, newer")
    func timelines() async throws {
        let harness = try await ShellHarness(dialect: .mastodon)
        #expect(await harness.run("fetch 30\nmore\nmore").status == 0)
        let ids = try await harness.rows().compactMap { $0["id"] as? String }
        #expect(ids.count == 90)
        #expect(Set(ids).count == 90)
        #expect(await harness.run("fetch local 5").status == 0)
        #expect(await harness.run("fetch 41").status == 2)        // Mastodon serves at most 40 a page
        let all = await harness.run("fetch public --all --limit 100\necho $count")
        #expect(all.stdout.hasSuffix("100\n"), "\(all.stderr)")
        // --json keeps Mastodon's own names.
        let json = await harness.run("detail 1 --json")
        let detail = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        #expect(detail["content"] is String)
        #expect((detail["account"] as? [String: Any])?["acct"] is String)
        #expect((detail["created_at"] as? String)?.hasSuffix("Z") == true)
        #expect(detail["reblogs_count"] is Int)
    }

    @Test("a reply thread shows threaded; a boost is recorded, shown and undone on the server")
    func threadAndBoost() async throws {
        let harness = try await ShellHarness(dialect: .mastodon)
        let thread = await harness.run("fetch 3\ncomment 1 first\nreply 1 1 second\ncomments 1")
        #expect(thread.status == 0, "\(thread.stderr)")
        #expect(thread.stdout.contains("first"))
        #expect(thread.stdout.contains("↳ 回复") || thread.stdout.contains("↳ second") || thread.stdout.contains("↳ @"),
                "\(thread.stdout)")
        let boost = await harness.run("fetch 3\nrepost 2\nlist")
        #expect(boost.status == 0, "\(boost.stderr)")
        #expect(boost.stdout.contains("boosted · "), "\(boost.stdout)")
        let undo = await harness.run("trace on\nundo\nhistory")
        #expect(undo.status == 0, "\(undo.stderr)")
        #expect(undo.stderr.contains("took back repost"), "\(undo.stderr)")
        // Mastodon's own compensating call: unboost the original, not DELETE of the boost status.
        let wire = undo.stdout + undo.stderr
        #expect(wire.contains("/unreblog"), "\(wire)")
        #expect(!wire.contains("DELETE"))
    }

    @Test("a content warning stays collapsed in the list and the detail until --expand")
    func contentWarning() async throws {
        let harness = try await ShellHarness(dialect: .mastodon)
        #expect(await harness.run("fetch 40").status == 0)
        let warned = await findWarned(harness)
        let index = try #require(warned)
        let collapsed = await harness.run("detail \(index)")
        #expect(collapsed.stdout.contains("CW: "))
        #expect(collapsed.stdout.contains("--expand shows them"))
        let expanded = await harness.run("back\ndetail \(index) --expand")
        #expect(!expanded.stdout.contains("--expand shows them"))
    }

    /// The row number of the first row whose line is a content warning.
    private func findWarned(_ harness: ShellHarness) async -> Int? {
        let list = await harness.run("list").stdout
        return list.split(separator: "\n").first { $0.contains("CW: ") }
            .flatMap { Int($0.trimmingCharacters(in: .whitespaces).prefix { $0.isNumber }) }
    }

    @Test("fetch, detail, comments, more, favorite and undo work on Mastodon's, GoToSocial's and Pleroma's ids",
          arguments: MastodonIDStyle.allCases)
    func everyIDStyle(style: MastodonIDStyle) async throws {
        let harness = try await ShellHarness(dialect: .mastodon, idStyle: style)
        let sandbox = harness.sandbox
        let session = await harness.run("fetch 5\ndetail 1\ncomments\nmore")
        #expect(session.status == 0, "\(style): \(session.stderr)")
        let rows = try await harness.rows()
        #expect(rows.count == 10, "\(style)")
        let ids = rows.compactMap { $0["id"] as? String }
        #expect(ids.count == 10 && ids.allSatisfy { style.parse($0) != nil }, "\(style): \(ids)")
        #expect(Set(ids).count == 10)
        let first = try #require(ids.first)
        let favourite = await harness.run("favorite 1")
        #expect(favourite.status == 0, "\(style): \(favourite.stderr)")
        // The server has it: the status is favourited for the account.
        #expect(await Self.favourited(first, on: sandbox) == true, "\(style)")
        let undo = await harness.run("undo")
        #expect(undo.status == 0, "\(style): \(undo.stderr)")
        #expect(await Self.favourited(first, on: sandbox) == false, "\(style)")
    }

    @Test("more sends the sandbox's next link and newer its prev link, byte for byte, in every id style",
          arguments: MastodonIDStyle.allCases)
    func linkFollowedAsSent(style: MastodonIDStyle) async throws {
        let harness = try await ShellHarness(dialect: .mastodon, idStyle: style)
        let sandbox = harness.sandbox
        let first = sandbox.mastodonBaseURL + "api/v1/timelines/public?limit=2&local=true"
        let response = try await CurlHTTPClient(secrets: [sandbox.token]).send(
            HTTPRequest(url: first, headers: [HTTPHeader("Authorization", "Bearer " + sandbox.token)]))
        let links = try #require(response.headers["link"], "\(style)")
        let next = try #require(Self.target("next", in: links)), prev = try #require(Self.target("prev", in: links))
        // The server's own order (its cursor after the request's parameters), not the one wsh would build.
        #expect(next.hasSuffix("?limit=2&local=true&max_id=" + (next.components(separatedBy: "max_id=").last ?? "")), "\(next)")
        let traced = await harness.run("trace on\nfetch local 2\nmore\nnewer")
        #expect(traced.status == 0, "\(style): \(traced.stderr)")
        let sent = (traced.stdout + traced.stderr).split(separator: "\n").filter { $0.contains("Request") && $0.contains("GET ") }
            .compactMap { $0.components(separatedBy: "GET ").last?.trimmingCharacters(in: .whitespaces) }
        #expect(sent == [first, next, prev], "\(style)")
    }

    /// The target of the `rel` link of a `Link` header.
    private static func target(_ rel: String, in header: String) -> String? {
        header.components(separatedBy: ",").first { $0.contains("rel=\"\(rel)\"") }
            .flatMap { $0.split(separator: "<").last?.split(separator: ">").first.map(String.init) }
    }

    @Test("limits on Mastodon shows the 300-call window and its reset, and claims no per-minute unit")
    func limitsWindow() async throws {
        let harness = try await ShellHarness(dialect: .mastodon)
        let limits = await harness.run("fetch 1\nlimits")
        #expect(limits.status == 0, "\(limits.stderr)")
        #expect(limits.stdout.contains(" of 300"), "\(limits.stdout)")
        #expect(!limits.stdout.contains("per "), "\(limits.stdout)")
        let minutes = limits.stdout.split(separator: "\n").first { $0.contains("resets") }
            .flatMap { line in line.range(of: "in ").map { Int(line[$0.upperBound...].prefix { $0.isNumber }) ?? 0 } }
        #expect((minutes ?? 99) <= 5 || limits.stdout.contains(" s "), "\(limits.stdout)")
    }

    /// Whether account 1 has favourited status `id`, as the sandbox's Mastodon side says.
    private static func favourited(_ id: String, on sandbox: SandboxServer) async -> Bool? {
        let request = HTTPRequest(url: sandbox.mastodonBaseURL + "api/v1/statuses/" + id,
                                  headers: [HTTPHeader("Authorization", "Bearer " + sandbox.token)])
        guard let response = try? await CurlHTTPClient(secrets: [sandbox.token]).send(request),
              let status = try? JSONSerialization.jsonObject(with: response.body) as? [String: Any] else { return nil }
        return status["favourited"] as? Bool
    }

    @Test("without a token the public timeline reads; with public preview off it says to log in")
    func publicPreview() async throws {
        let server = try await SandboxServer.start(SandboxConfiguration())
        defer { Thread.detachNewThread { server.stop() } }
        let base = server.baseURL.hasSuffix("2/") ? String(server.baseURL.dropLast(2)) : server.baseURL
        let anonymous = ShellHarness(api: base, token: nil)
        let open = await anonymous.run("fetch 3\nstatus")
        #expect(open.status == 0, "\(open.stderr)")
        #expect(open.stdout.contains("mastodon"))            // found out by asking api/v1/instance
        server.setPublicPreview(false)
        let closed = await anonymous.run("fetch 3")
        #expect(closed.status == 1)
        #expect(closed.stderr.contains("run login"), "\(closed.stderr)")
    }
}
