import Testing
import WshDataController
import WshModel
import WshRequest
import WshSandbox
import WshTestSupport
import WshViewModel

/// Bookmarks, favourites, lists and their timelines through the SessionViewModel,
/// against the sandbox's Mastodon side (and what Weibo says).
@Suite("Bookmarks and lists against the sandbox", .serialized)
struct ListsSessionTests {
    /// A session on the sandbox's Mastodon side, traced into `traces`, and
    /// `other`, a second session of the same account (another wsh).
    func withMastodonSession(
        _ body: (_ server: SandboxServer, _ session: SessionViewModel, _ other: SessionViewModel,
                 _ traces: RecordingObserver<TraceEvent>) async throws -> Void
    ) async throws {
        try await withSandboxClient { server, _ in
            var configuration = APIConfiguration(baseURL: server.mastodonBaseURL, token: .value(Secret(server.token)))
            configuration.authScheme = MastodonDialect().authScheme
            let client = APIClient(configuration: configuration, http: CurlHTTPClient(secrets: [server.token]))
            let traces = RecordingObserver<TraceEvent>()
            let session = SessionViewModel(dataController: TimelineDataController(
                client: client, dialect: MastodonDialect(), trace: { traces.record($0) }))
            let other = SessionViewModel(dataController: TimelineDataController(client: client, dialect: MastodonDialect()))
            try await body(server, session, other, traces)
        }
    }

    /// Fetches 20 statuses and returns `@name` of a row's author who is not the session's account.
    func otherAuthor(_ session: SessionViewModel, _ server: SandboxServer) async throws -> String {
        try await session.fetch(count: 20)
        let me = "@" + (server.accounts.first?.screenName ?? "")
        return try #require(session.rows.first { $0.author.hasPrefix("@") && $0.author != me }?.author)
    }

    @Test("bookmark 2 then fetch bookmarks shows it; more pages by the server's Link; undo unbookmarks on the server")
    func bookmarkFetchUndo() async throws {
        try await withMastodonSession { _, session, _, traces in
            try await session.fetch(count: 5)
            let ids = session.rows.map(\.id)
            for index in [3, 2, 1] { try await session.set(.bookmark, true, index: index) }
            #expect(session.rowDocuments[0].mastodon != nil)
            try await session.fetch(source: .bookmarks, count: 2)
            #expect(session.rows.map(\.id) == [ids[0], ids[1]])
            try await session.more()
            #expect(session.rows.map(\.id) == [ids[0], ids[1], ids[2]])
            // The next page's cursor was the Link header's bookmark id, not the last row's status id.
            let url = try #require(traces.values.last?.url)
            #expect(url.contains("max_id="))
            #expect(!url.contains("max_id=\(ids[1])"))
            try await session.undo()                    // more
            try await session.undo()                    // fetch bookmarks
            try await session.undo()                    // bookmark 1
            try await session.fetch(source: .bookmarks, count: 10)
            #expect(session.rows.map(\.id) == [ids[1], ids[2]])
        }
    }

    @Test("newer on bookmarks brings what was bookmarked since the top row")
    func newerBookmarks() async throws {
        try await withMastodonSession { _, session, other, _ in
            try await other.fetch(count: 5)
            let ids = other.rows.map(\.id)
            try await other.set(.bookmark, true, index: 4)
            try await session.fetch(source: .bookmarks, count: 5)
            #expect(session.rows.map(\.id) == [ids[3]])
            // Bookmarked later, of an older status than some bookmarked before: by when, not by id.
            try await other.set(.bookmark, true, index: 5)
            try await other.set(.bookmark, true, index: 1)
            try await session.newer()
            #expect(session.rows.map(\.id) == [ids[0], ids[4], ids[3]])
        }
    }

    @Test("lists create, add, fetch list, remove, delete; undo of delete makes it again with its members and a new id")
    func listsLifecycle() async throws {
        try await withMastodonSession { server, session, _, _ in
            let author = try await otherAuthor(session, server)
            try await session.createList(title: "Friends")
            try await session.showLists()
            #expect(session.lists?.rows.map(\.title) == ["Friends"])
            let firstID = try #require(session.lists?.rows.first?.id)
            // Mastodon keeps only followed accounts on a list: one clear line, nothing changed.
            try await session.set(.follow, false, name: author)
            await #expect(throws: ViewModelError.self) { try await session.setListMember(true, list: "friends", user: author) }
            #expect(session.errorMessage?.contains("follow @") == true)
            try await session.set(.follow, true, name: author)
            try await session.setListMember(true, list: "friends", user: author)
            try await session.fetch(source: .list("Friends"), count: 5)
            #expect(!session.rows.isEmpty)
            #expect(session.rows.allSatisfy { $0.author == author })
            try await session.deleteList(name: "Friends")
            try await session.showLists()
            #expect(session.lists?.rows.isEmpty == true)
            try await session.undo()                    // lists
            try await session.undo()                    // lists delete
            #expect(session.notes.joined().contains("new id"))
            try await session.showLists()
            let again = try #require(session.lists?.rows.first)
            #expect(again.title == "Friends")
            #expect(again.id != firstID)
            try await session.fetch(source: .list("Friends"), count: 5)
            #expect(!session.rows.isEmpty)
            try await session.setListMember(false, list: "Friends", user: author)
            try await session.fetch(source: .list("Friends"), count: 5)
            #expect(session.rows.isEmpty)
            try await session.undo()                    // fetch
            try await session.undo()                    // lists remove
            try await session.fetch(source: .list("Friends"), count: 5)
            #expect(!session.rows.isEmpty)
        }
    }

    @Test("undo of lists add removes the member, undo of create deletes the list, redo makes it again with a new id")
    func undoAddAndCreate() async throws {
        try await withMastodonSession { server, session, _, _ in
            let author = try await otherAuthor(session, server)
            try await session.set(.follow, true, name: author)
            try await session.createList(title: "Watch")
            try await session.showLists()
            let firstID = try #require(session.lists?.rows.first?.id)
            try session.back()
            try await session.setListMember(true, list: "Watch", user: author)
            try await session.undo()                    // lists add
            try await session.fetch(source: .list("Watch"), count: 5)
            #expect(session.rows.isEmpty)
            try await session.undo()                    // fetch
            try await session.undo()                    // back
            try await session.undo()                    // lists
            try await session.undo()                    // lists create
            await #expect(throws: ViewModelError.self) { try await session.fetch(source: .list("Watch"), count: 5) }
            try await session.redo()                    // lists create, again
            try await session.showLists()
            #expect(session.lists?.rows.map(\.title) == ["Watch"])
            #expect(session.lists?.rows.first?.id != firstID)
        }
    }

    @Test("favourites on Mastodon: newest favourite first, more by the Link header")
    func favourites() async throws {
        try await withMastodonSession { _, session, _, _ in
            try await session.fetch(count: 5)
            let ids = session.rows.map(\.id)
            for index in [5, 1, 3] { try await session.set(.favorite, true, index: index) }
            try await session.fetch(source: .favourites, count: 2)
            try await session.more()
            #expect(session.rows.map(\.id) == [ids[2], ids[0], ids[4]])
        }
    }

    @Test("Weibo has no bookmarks or lists: refused before any request; favourites page by number")
    func weiboRefuses() async throws {
        try await withSandboxClient { _, client in
            let traces = RecordingObserver<TraceEvent>()
            let session = SessionViewModel(dataController: TimelineDataController(client: client, dialect: WeiboDialect(), trace: { traces.record($0) }))
            try await session.fetch(count: 3)
            let sent = traces.values.count
            await #expect(throws: ViewModelError.self) { try await session.set(.bookmark, true, index: 1) }
            #expect(session.errorMessage == "this API (weibo) has no bookmarks")
            await #expect(throws: ViewModelError.self) { try await session.showLists() }
            await #expect(throws: ViewModelError.self) { try await session.fetch(source: .bookmarks) }
            #expect(traces.values.count == sent)
            try await session.set(.favorite, true, index: 2)
            try await session.fetch(source: .favourites, count: 5)
            #expect(session.rows.count == 1)
        }
    }
}
