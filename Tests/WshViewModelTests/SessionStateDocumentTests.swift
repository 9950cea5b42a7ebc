import Testing
import WshDataController
import WshRequest
import WshSandbox
import WshTestSupport
import WshViewModel

/// `state --json` and `state --diff`, built from `SessionState` in the ViewModel layer.
@Suite("SessionStateDocument and SessionStateDiff")
struct SessionStateDocumentTests {
    func makeSession(_ client: APIClient) -> SessionViewModel {
        SessionViewModel(dataController: TimelineDataController(client: client, dialect: WeiboDialect()))
    }

    @Test("given a fetch, a mute, a detail and calc 12 + when documented then rows keep muted authors marked, the screen names its status, the brain its pending +")
    func documentOfState() async throws {
        try await withSandboxClient { _, client in
            let session = makeSession(client)
            try await session.fetch(count: 5)
            let author = try #require(session.stateDocument.rows[1].author)
            try session.mute(author)
            try await session.detail(index: 1)
            try session.calc(keys: ["12", "+"])

            let document = session.stateDocument
            #expect(document.rows.count == 5)
            #expect(document.rows.filter(\.muted).allSatisfy { $0.index == nil && $0.author == author })
            #expect(document.rows.filter { !$0.muted }.map(\.index) == Array(1...session.rowCount).map { Optional($0) })
            #expect(document.muted == ["@\(author)"])
            #expect(document.screens.map(\.kind) == ["detail"])
            #expect(document.screens[0].statusID == session.rows[0].id)
            #expect(document.calculator.led == "12")
            #expect(document.calculator.pending == "+")
            #expect(document.source == "public")
            #expect(document.pageSize == 5)
            #expect(document.fetched)
        }
    }

    @Test("given operations when the last is a more, a back, an unmute, a calc then the diff names rows added, the screen popped, the user unmuted, LED before → after")
    func diffOfLastOperation() async throws {
        try await withSandboxClient { _, client in
            let session = makeSession(client)
            #expect(session.lastChange == nil)
            try await session.fetch(count: 3)
            #expect(session.lastChange?.rowsAdded.count == 3)
            try await session.more()
            let more = try #require(session.lastChange)
            #expect(more.rowsAdded.count == 3 && more.rowsRemoved.isEmpty && more.screensPushed.isEmpty)
            try await session.detail(index: 2)
            #expect(session.lastChange?.screensPushed.map(\.kind) == ["detail"])
            try session.back()
            #expect(session.lastChange?.screensPopped.map(\.kind) == ["detail"])
            try session.mute("somebody")
            #expect(session.lastChange?.mutedAdded == ["@somebody"])
            try session.unmute("somebody")
            #expect(session.lastChange?.mutedRemoved == ["@somebody"])
            try session.calc(keys: ["7"])
            #expect(session.lastChange?.led?.before == "0" && session.lastChange?.led?.after == "7")
            #expect(session.lastChange?.operation == "calc 7")
            try await session.undo()
            #expect(session.lastChange?.operation.hasPrefix("unmute") == true)
        }
    }

    @Test("given any operation when undone then the state document equals the one before it, and redo gives back the one after")
    func undoRestoresDocument() async throws {
        try await withSandboxClient { _, client in
            let session = makeSession(client)
            try await session.fetch(count: 4)
            let before = session.stateDocument
            try await session.more()
            let after = session.stateDocument
            #expect(after != before)
            try await session.undo()
            #expect(session.stateDocument == before)
            try await session.redo()
            #expect(session.stateDocument == after)
        }
    }
}
