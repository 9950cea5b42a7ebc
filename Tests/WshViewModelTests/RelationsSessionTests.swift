import Foundation
import Testing
import WshDataController
import WshModel
import WshRequest
import WshSandbox
import WshTestSupport
@testable import WshViewModel

/// search, followers/following, block and the server's mute through the
/// session, against the sandbox's Mastodon side (and its Weibo side, which
/// lacks some of them).
@Suite("Search, account lists, blocks and server mutes against the sandbox", .serialized)
struct RelationsSessionTests {
    /// A Mastodon session on `server`, its calls traced into `traces`, and a client for checking the server.
    private func mastodon(_ server: SandboxServer, traces: RecordingObserver<TraceEvent> = RecordingObserver())
        -> (SessionViewModel, APIClient) {
        var configuration = APIConfiguration(baseURL: server.mastodonBaseURL, token: .value(Secret(server.token)))
        configuration.authScheme = MastodonDialect().authScheme
        let client = APIClient(configuration: configuration, http: CurlHTTPClient(secrets: [server.token]))
        let controller = TimelineDataController(client: client, dialect: MastodonDialect(), trace: { traces.record($0) })
        return (SessionViewModel(dataController: controller), client)
    }

    /// The account ids a Mastodon list endpoint answers (`api/v1/blocks`, `api/v1/mutes`).
    private func listed(_ path: String, _ client: APIClient) async throws -> [String] {
        let body = try await client.send(Endpoint(.get, path)).body
        return (try JSONSerialization.jsonObject(with: body) as? [[String: Any]] ?? []).compactMap { $0["id"] as? String }
    }

    /// A public author who is not the token's owner.
    private func stranger(_ session: SessionViewModel, but server: SandboxServer) async throws -> String {
        try await session.fetch(count: 20)
        let mine = "@" + server.accounts[0].screenName
        return try #require(session.rows.map(\.author).first { $0 != mine })
    }

    @Test("search shows accounts, statuses and hashtags as numbered rows; detail opens an account or a status; undo closes it")
    func search() async throws {
        try await withSandboxClient(SandboxConfiguration(statuses: 300)) { server, _ in
            let (session, _) = mastodon(server)
            // The generated world has accounts named swift_… and statuses about Swift.
            let name = "swift"
            try await session.fetch(count: 5)

            try await session.search(name)
            try await session.undo()                       // undo closes the results
            #expect(session.search == nil)
            #expect(session.screen == .list)
            try await session.redo()
            let results = try #require(session.search)
            guard case .account(let first)? = results.rows.first else { Issue.record("no account row first"); return }
            let author = first.screenName
            #expect(author.hasPrefix("@swift"))
            #expect(first.index == 1)
            let statusIndex = try #require(results.rows.firstIndex { if case .status = $0 { true } else { false } }) + 1
            #expect(results.document.accounts.first?.user.screenName == String(author.dropFirst()))
            #expect(results.document.statuses.first?.index == statusIndex)

            try await session.detail(index: 1)
            #expect(session.user?.screenName == author)
            try session.back()
            try await session.detail(index: statusIndex)
            #expect(session.detail?.text.localizedCaseInsensitiveContains(name) == true)
            try session.back()
            await #expect(throws: ViewModelError.noRow(index: 999, count: results.rows.count)) { try await session.detail(index: 999) }

            try await session.search("#", kinds: [.hashtags])
            #expect(session.search?.rows.isEmpty == true)
            try await session.undo()
            #expect(session.search?.query == name)

        }
    }

    @Test("a hashtag row says how to see its statuses; --tags on Weibo is refused before any request")
    func hashtagAndWeibo() async throws {
        try await withSandboxClient(SandboxConfiguration(statuses: 300)) { server, client in
            let (session, _) = mastodon(server)
            try await session.search("swift", kinds: [.hashtags])
            let tag = try #require(session.search?.rows.first)
            guard case .hashtag(let index, let name, let uses) = tag else { Issue.record("not a hashtag row"); return }
            #expect(name == "swift")
            #expect((uses ?? 0) > 0)
            await #expect(throws: ViewModelError.self) { try await session.detail(index: index) }
            #expect(session.errorMessage?.contains("fetch tag swift") == true)

            let traces = RecordingObserver<TraceEvent>()
            let weibo = SessionViewModel(dataController: TimelineDataController(client: client, dialect: WeiboDialect(), trace: { traces.record($0) }))
            await #expect(throws: ViewModelError.self) { try await weibo.search("swift", kinds: [.hashtags]) }
            #expect(weibo.errorMessage == "this API (weibo) cannot search --tags; its search finds statuses")
            #expect(traces.values.isEmpty)
            try await weibo.search("Swift", limit: 5)
            #expect(weibo.search?.rows.isEmpty == false)
            #expect(weibo.search?.rows.allSatisfy { if case .status = $0 { true } else { false } } == true)
        }
    }

    @Test("followers and following show the follow graph with whether you follow each; detail opens the profile")
    func accountLists() async throws {
        try await withSandboxClient(SandboxConfiguration(statuses: 300)) { server, _ in
            let (session, _) = mastodon(server)
            let author = try await stranger(session, but: server)
            let me = "@" + server.accounts[0].screenName
            try await session.set(.follow, true, name: author)

            try await session.accounts(.followers, name: author)
            let followers = try #require(session.accounts)
            #expect(followers.title == "followers of \(author)")
            #expect(followers.rows.contains { $0.screenName == me })
            try await session.accounts(.following, name: me)
            let following = try #require(session.accounts)
            let row = try #require(following.rows.first { $0.screenName == author })
            #expect(row.followedByYou == true)
            #expect(row.followText == "you follow")
            #expect(following.document.users.first { $0.user.screenName == String(author.dropFirst()) }?.following == true)
            try await session.detail(index: row.index)
            #expect(session.user?.screenName == author)
            // Page by page (two a page) by the server's Link cursor: the same accounts as in one page.
            try await session.accounts(.following, name: me, count: 2, all: true)
            let walked = try #require(session.accounts)
            #expect(walked.rows.map(\.screenName) == following.rows.map(\.screenName))
            #expect(walked.rows.count > 2)
            #expect(!walked.hasMore)
            await #expect(throws: ViewModelError.invalidPaging(name: "N", value: 81, allowed: 1...80)) {
                try await session.accounts(.followers, name: author, count: 81)
            }
        }
    }

    @Test("block is undone by unblock and redone by block, on the server; Weibo is refused before any request")
    func block() async throws {
        try await withSandboxClient(SandboxConfiguration(statuses: 300)) { server, weiboClient in
            let (session, client) = mastodon(server)
            let author = try await stranger(session, but: server)
            let id = await accountID(author, client)
            #expect(!id.isEmpty)

            try await session.set(.block, true, name: author)
            #expect(try await listed("api/v1/blocks", client) == [id])
            #expect((session.operationRecords.last?.remote as? AccountToggleEffect) == AccountToggleEffect(toggle: .block, on: true, user: .screenName(String(author.dropFirst()))))
            try await session.undo()
            #expect(try await listed("api/v1/blocks", client).isEmpty)
            try await session.redo()
            #expect(try await listed("api/v1/blocks", client) == [id])
            try await session.set(.block, false, name: author)
            #expect(try await listed("api/v1/blocks", client).isEmpty)

            let traces = RecordingObserver<TraceEvent>()
            let weibo = SessionViewModel(dataController: TimelineDataController(client: weiboClient, dialect: WeiboDialect(), trace: { traces.record($0) }))
            await #expect(throws: ViewModelError.notOffered("this API (weibo) has no block")) { try await weibo.set(.block, true, name: author) }
            #expect(traces.values.isEmpty)
            #expect(weibo.operations.isEmpty)
        }
    }

    @Test("a block whose answer is lost is resolved by reading the relationship")
    func blockLostAnswer() async throws {
        try await withSandboxClient(SandboxConfiguration(statuses: 300)) { server, _ in
            let (session, client) = mastodon(server)
            let author = try await stranger(session, but: server)
            let id = await accountID(author, client)
            server.setFaults(SandboxFaults(dropAfter: true, path: "/api/v1/accounts/\(id)/block"))
            try await session.set(.block, true, name: author)
            #expect(session.notes.contains { $0.contains("the answer was lost; the server shows it done") }, "\(session.notes)")
            server.setFaults(SandboxFaults())
            #expect(try await listed("api/v1/blocks", client) == [id])
        }
    }

    @Test("mute --server keeps its options through undo and redo; the local mute is untouched")
    func serverMute() async throws {
        try await withSandboxClient(SandboxConfiguration(statuses: 300)) { server, _ in
            let (session, client) = mastodon(server)
            let author = try await stranger(session, but: server)
            let id = await accountID(author, client)
            let rows = session.rows.count

            try await session.setServerMute(true, name: author, duration: 600, notifications: true)
            #expect(try await listed("api/v1/mutes", client) == [id])
            #expect(session.rows.count == rows)                // the list's own filter is not the server's mute
            #expect(session.mutedUsers.isEmpty)
            #expect(session.operations.last == "mute \(author) --server --duration 600 --notifications")
            try await session.undo()
            #expect(try await listed("api/v1/mutes", client).isEmpty)
            try await session.redo()
            #expect(try await listed("api/v1/mutes", client) == [id])
            let relationship = try JSONSerialization.jsonObject(with: try await client.send(
                Endpoint(.get, "api/v1/accounts/relationships", parameters: [("id[]", id)])).body) as? [[String: Any]]
            #expect(relationship?.first?["muting_notifications"] as? Bool == true)
            try await session.setServerMute(false, name: author)
            #expect(try await listed("api/v1/mutes", client).isEmpty)
        }
    }

    @Test("a server's control sequences in names and tags never reach a search or account row")
    func hostileNames() throws {
        let json = #"""
            {"accounts":[{"id":"1","username":"a\u001b[2J","acct":"a\u001b[2J","display_name":"\u001b]0;owned\u0007Eve","followers_count":3}],
             "statuses":[],"hashtags":[{"name":"t\u001b[31mred","history":[{"day":"1","uses":"2","accounts":"1"}]}]}
            """#
        let results = try JSONDecoder().decode(MastodonSearch.self, from: Data(json.utf8)).results
        let search = SearchViewModel(query: "q\u{1b}[1m", results: results)
        let page = UserPage(users: results.accounts, following: [:])
        let accounts = AccountsViewModel(list: .followers, owner: "@x\u{1b}[0m", page: page)
        var shown = [search.query, accounts.title] + accounts.rows.flatMap { [$0.screenName, $0.name] }
        for row in search.rows {
            switch row {
            case .account(let cell): shown += [cell.screenName, cell.name]
            case .hashtag(_, let name, let uses): shown.append(name); #expect(uses == 2)
            case .status: break
            }
        }
        #expect(shown.count == 7)
        #expect(shown.allSatisfy { !$0.contains("\u{1b}") && !$0.contains("\u{07}") }, "\(shown)")
    }

    private func accountID(_ author: String, _ client: APIClient) async -> String {
        let body = (try? await client.send(Endpoint(.get, "api/v1/accounts/lookup", parameters: [("acct", String(author.dropFirst()))])).body) ?? Data()
        return ((try? JSONSerialization.jsonObject(with: body)) as? [String: Any])?["id"] as? String ?? ""
    }
}
