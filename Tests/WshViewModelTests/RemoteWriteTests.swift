import Foundation
import Synchronization
import Testing
import WshDataController
import WshModel
import WshRequest
import WshTestSupport
@testable import WshViewModel

/// A fake Weibo account with state: what `post` creates, `user_timeline`
/// lists and `destroy` deletes, plus scripted faults per endpoint, so a test
/// can lose the answer of a write the server did carry out.
final class FakeAccount: Sendable {
    /// What happens to one request.
    enum Fault: Sendable {
        /// The server does the work, then the answer is lost with this error.
        case loseAnswer(RequestError)
        /// The request fails with this error before the server does anything.
        case failBefore(RequestError)
        /// The server answers this instead of doing the work.
        case answer(HTTPResponse)
    }

    private struct State {
        var own: [Status] = []
        var nextID: Int64 = 5_000_000_000_000_000
        /// Per path, the faults of the next requests in turn (nil: served normally).
        var script: [String: [Fault?]] = [:]
    }

    let timeline = FakeWeiboAPI()
    private let state = Mutex(State())

    /// The account's statuses on the server, newest first.
    var own: [Status] { state.withLock { $0.own } }

    /// The next requests to `path` (e.g. `/2/statuses/update.json`) meet `faults` in turn.
    func script(_ path: String, _ faults: [Fault?]) {
        state.withLock { $0.script[path] = faults }
    }

    /// A dropped connection for `path`, as curl reports an empty reply.
    static func dropped(_ path: String) -> RequestError {
        .transport(TransportFailure(curlCode: 52, message: "Empty reply from server", url: "http://weibo.test" + path))
    }

    func respond(to request: HTTPRequest) throws(RequestError) -> HTTPResponse {
        let fault = state.withLock { state -> Fault? in
            guard var queue = state.script[request.path], !queue.isEmpty else { return nil }
            let next = queue.removeFirst()
            state.script[request.path] = queue
            return next
        }
        switch fault {
        case .failBefore(let error)?: throw error
        case .answer(let response)?: return response
        case .loseAnswer(let error)?:
            _ = serve(request)
            throw error
        case nil: return serve(request)
        }
    }

    private func serve(_ request: HTTPRequest) -> HTTPResponse {
        let fields = request.method == .post ? Self.form(request.body) : request.queryItems
        switch request.path {
        case "/2/statuses/update.json":
            let status = state.withLock { state -> Status in
                state.nextID += 1
                let status = Status(id: state.nextID, idstr: String(state.nextID), text: fields["status"] ?? "",
                                    user: timeline.users[0])
                state.own.insert(status, at: 0)
                return status
            }
            return Self.encode(status)
        case "/2/statuses/user_timeline.json":
            let since = Int64(fields["since_id"] ?? "") ?? 0
            let count = Int(fields["count"] ?? "20") ?? 20
            let listed = own.filter { ($0.id ?? 0) > since }.prefix(count)
            return Self.encode(TimelinePage(statuses: Array(listed), totalNumber: own.count))
        case "/2/statuses/destroy.json":
            let id = fields["id"] ?? ""
            let removed = state.withLock { state -> Status? in
                guard let index = state.own.firstIndex(where: { $0.idstr == id }) else { return nil }
                return state.own.remove(at: index)
            }
            guard let removed else { return FakeWeiboAPI.apiError(20101, "target weibo does not exist!", request.path) }
            return Self.encode(removed)
        case "/2/statuses/show.json":
            if let mine = own.first(where: { $0.idstr == fields["id"] }) { return Self.encode(mine) }
            return timeline.respond(to: request)
        default:
            return timeline.respond(to: request)
        }
    }

    private static func encode<T: Encodable>(_ value: T) -> HTTPResponse {
        .json(String(decoding: try! JSONEncoder().encode(value), as: UTF8.self))
    }

    private static func form(_ body: Data?) -> [String: String] {
        var fields: [String: String] = [:]
        for pair in String(decoding: body ?? Data(), as: UTF8.self).split(separator: "&") {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let value = parts.count > 1 ? String(parts[1]) : ""
            fields[String(parts[0])] = value.replacingOccurrences(of: "+", with: " ").removingPercentEncoding ?? value
        }
        return fields
    }
}

/// A session over a `FakeAccount`.
struct AccountFixture {
    let account = FakeAccount()
    let http: FakeHTTPClient
    let session: SessionViewModel

    init(historyLimit: Int = OperationHistory<SessionState>.defaultLimit) {
        let account = self.account
        http = FakeHTTPClient { request throws(RequestError) in try account.respond(to: request) }
        let client = APIClient(configuration: APIConfiguration(baseURL: "http://weibo.test/2/", token: .value(Secret("t"))),
                                 http: http)
        session = SessionViewModel(dataController: TimelineDataController(client: client, dialect: WeiboDialect()), historyLimit: historyLimit)
    }

    /// The requests sent to `path`.
    func requests(to path: String) -> [HTTPRequest] {
        http.requests.filter { $0.path == path }
    }

    /// The form fields of a POST.
    static func form(_ request: HTTPRequest) -> String {
        String(decoding: request.body ?? Data(), as: UTF8.self)
    }
}

@Suite("Remote writes: lost answers, undo and redo on the server, the history bound")
struct RemoteWriteTests {
    static let update = "/2/statuses/update.json"
    static let destroy = "/2/statuses/destroy.json"
    static let userTimeline = "/2/statuses/user_timeline.json"

    @Test("given a post whose answer is lost when the status is on the server then it is a success, recorded once, with a note")
    func lostAnswer_found_isRecordedSuccess() async throws {
        let fixture = AccountFixture()
        try await fixture.session.fetch(count: 3)
        fixture.account.script(Self.update, [.loseAnswer(FakeAccount.dropped(Self.update))])

        try await fixture.session.post("hello")

        #expect(fixture.account.own.map(\.text) == ["hello"])
        #expect(fixture.requests(to: Self.update).count == 1)
        #expect(fixture.session.operations == ["fetch 3 → 3 statuses", "post \"hello\""])
        #expect(fixture.session.rows.first?.text == "hello")
        #expect(fixture.session.rows.first?.id == fixture.account.own.first?.idstr)
        #expect(fixture.session.notes == ["the answer was lost; found the status on the server"])
        #expect(fixture.session.errorMessage == nil)
    }

    @Test("given a post whose answer is lost when nothing is on the server then it fails saying nothing was posted, and records nothing")
    func lostAnswer_absent_isFailure() async throws {
        let fixture = AccountFixture()
        try await fixture.session.fetch(count: 3)
        let before = fixture.session.state
        fixture.account.script(Self.update, [.failBefore(FakeAccount.dropped(Self.update))])

        await #expect {
            try await fixture.session.post("hello")
        } throws: { error in
            guard case ViewModelError.writeNotApplied(let reason, let outcome)? = error as? ViewModelError else { return false }
            return reason.contains("Empty reply from server") && outcome == "nothing was posted"
        }

        #expect(fixture.account.own.isEmpty)
        #expect(fixture.session.operations == ["fetch 3 → 3 statuses"])
        #expect(fixture.session.state == before)
        #expect(fixture.session.errorMessage?.contains("the server shows nothing was posted") == true)
    }

    @Test("given a lost answer when the check fails too then the outcome is unknown, with how to check, and nothing is recorded")
    func lostAnswer_checkFails_isUnknown() async throws {
        let fixture = AccountFixture()
        fixture.account.script(Self.update, [.loseAnswer(FakeAccount.dropped(Self.update))])
        // The first read (before posting) works; the check after the lost answer fails.
        fixture.account.script(Self.userTimeline, [nil, .failBefore(FakeAccount.dropped(Self.userTimeline))])

        await #expect {
            try await fixture.session.post("hello")
        } throws: { error in
            guard case ViewModelError.writeOutcomeUnknown? = error as? ViewModelError else { return false }
            return true
        }

        let message = try #require(fixture.session.errorMessage)
        #expect(message.contains("may or may not have been posted"))
        #expect(message.contains("api get statuses/user_timeline.json"))
        #expect(!message.contains("nothing was posted"))
        #expect(fixture.session.operationCount == 0)
        #expect(fixture.account.own.count == 1)   // it did land: wsh said "unknown", not "failed"
    }

    @Test("given a lost answer and a newer status with other text then the outcome is unknown, not a guess")
    func lostAnswer_otherNewerStatus_isUnknown() async throws {
        let fixture = AccountFixture()
        // The server rewrote the text (as Weibo shortens links), so nothing matches.
        fixture.account.script(Self.update, [.loseAnswer(FakeAccount.dropped(Self.update))])
        fixture.account.script(Self.userTimeline, [nil, .answer(.json(
            #"{"statuses":[{"id":5000000000000009,"idstr":"5000000000000009","text":"hello http://t.cn/x"}],"total_number":1}"#))])

        await #expect(throws: ViewModelError.self) { try await fixture.session.post("hello http://example.com/x") }

        #expect(fixture.session.errorMessage?.contains("1 newer status, none with this text") == true)
        #expect(fixture.session.operationCount == 0)
    }

    @Test("given a 502 proxy page to a post that landed then the check finds it: a success")
    func gateway5xx_found_isSuccess() async throws {
        let fixture = AccountFixture()
        fixture.account.script(Self.update, [.loseAnswer(.http(status: 502, url: "http://weibo.test/2/statuses/update.json",
                                                               excerpt: "<html>"))])

        try await fixture.session.post("through a proxy")

        #expect(fixture.session.operations == ["post \"through a proxy\""])
        #expect(fixture.account.own.count == 1)
    }

    @Test("given an API refusal of a post then it is an ordinary failure with no check")
    func apiRefusal_isNotResolved() async throws {
        let fixture = AccountFixture()
        fixture.account.script(Self.update, [.answer(FakeWeiboAPI.apiError(20012, "Text too long", Self.update))])

        await #expect(throws: ViewModelError.self) { try await fixture.session.post("x") }

        #expect(fixture.session.errorMessage?.contains("20012") == true)
        #expect(fixture.requests(to: Self.userTimeline).count == 1)   // only the read before posting
    }

    @Test("given a post when undone then the status is deleted on the server and the rows are as before")
    func undoPost_deletesOnServer() async throws {
        let fixture = AccountFixture()
        try await fixture.session.fetch(count: 3)
        let before = fixture.session.state
        try await fixture.session.post("take me back")
        let id = try #require(fixture.account.own.first?.idstr)

        try await fixture.session.undo()

        let delete = try #require(fixture.requests(to: Self.destroy).last)
        #expect(delete.method == .post)
        #expect(AccountFixture.form(delete) == "id=\(id)")
        #expect(fixture.account.own.isEmpty)
        #expect(fixture.session.state == before)
        #expect(fixture.session.operations == ["fetch 3 → 3 statuses"])
        #expect(fixture.session.canRedo)
        #expect(fixture.session.notes == ["deleted status \(id) on the server"])
    }

    @Test("given a post when the delete of undo fails then undo fails and nothing changes, on screen or in the history")
    func undoPost_deleteFails_changesNothing() async throws {
        let fixture = AccountFixture()
        try await fixture.session.fetch(count: 3)
        try await fixture.session.post("stays")
        let after = fixture.session.state
        fixture.account.script(Self.destroy, [.answer(FakeWeiboAPI.apiError(10001, "system error", Self.destroy, status: 500))])

        await #expect {
            try await fixture.session.undo()
        } throws: { error in
            guard case ViewModelError.undoFailed(let operation, _)? = error as? ViewModelError else { return false }
            return operation == "post \"stays\""
        }

        #expect(fixture.account.own.map(\.text) == ["stays"])
        #expect(fixture.session.state == after)
        #expect(fixture.session.operations == ["fetch 3 → 3 statuses", "post \"stays\""])
        #expect(!fixture.session.canRedo)
        #expect(fixture.session.errorMessage?.hasPrefix("cannot undo post \"stays\": deleting status") == true)
        #expect(fixture.session.errorMessage?.contains("10001") == true)
    }

    @Test("given a delete whose answer is lost when the status is gone then undo succeeds; when the read fails undo fails saying how to check")
    func undoPost_lostAnswer() async throws {
        let fixture = AccountFixture()
        try await fixture.session.post("one")
        try await fixture.session.post("two")
        fixture.account.script(Self.destroy, [.loseAnswer(FakeAccount.dropped(Self.destroy))])

        try await fixture.session.undo()
        #expect(fixture.account.own.map(\.text) == ["one"])
        #expect(fixture.session.notes.first?.hasPrefix("the answer was lost; the server shows status") == true)

        fixture.account.script(Self.destroy, [.loseAnswer(FakeAccount.dropped(Self.destroy))])
        fixture.account.script("/2/statuses/show.json", [.failBefore(FakeAccount.dropped("/2/statuses/show.json"))])
        await #expect(throws: ViewModelError.self) { try await fixture.session.undo() }
        #expect(fixture.session.operations == ["post \"one\""])
        #expect(fixture.session.errorMessage?.contains("api get statuses/show.json id=") == true)
    }

    @Test("given a status already gone from the server when its post is undone then undo succeeds and says so")
    func undoPost_alreadyGone() async throws {
        let fixture = AccountFixture()
        try await fixture.session.post("gone")
        let id = try #require(fixture.account.own.first?.idstr)
        fixture.account.script(Self.destroy, [.answer(FakeWeiboAPI.apiError(20101, "target weibo does not exist!", Self.destroy))])

        try await fixture.session.undo()

        #expect(fixture.session.notes == ["status \(id) was already gone from the server"])
        #expect(fixture.session.operationCount == 0)
    }

    @Test("given an undone post when redone then it is posted again with a new id, shown in its place, and undo deletes the new id")
    func redoPost_postsAgain() async throws {
        let fixture = AccountFixture()
        try await fixture.session.fetch(count: 3)
        try await fixture.session.post("again")
        try await fixture.session.detail(index: 1)
        let firstID = try #require(fixture.account.own.first?.idstr)
        try await fixture.session.undo()   // detail
        try await fixture.session.undo()   // post: deleted

        try await fixture.session.redo()

        #expect(fixture.requests(to: Self.update).count == 2)
        let secondID = try #require(fixture.account.own.first?.idstr)
        #expect(secondID != firstID)
        #expect(fixture.account.own.count == 1)
        #expect(fixture.session.rows.first?.id == secondID)
        #expect(fixture.session.operations == ["fetch 3 → 3 statuses", "post \"again\""])
        #expect(fixture.session.notes == ["posted again as status \(secondID)"])
        // The detail redone later shows the new status, not the deleted one.
        try await fixture.session.redo()
        #expect(fixture.session.detail?.id == secondID)
        try await fixture.session.undo()

        try await fixture.session.undo()
        #expect(AccountFixture.form(try #require(fixture.requests(to: Self.destroy).last)) == "id=\(secondID)")
        #expect(fixture.account.own.isEmpty)
    }

    @Test("given a redo whose post fails then redo fails and nothing changes")
    func redoPost_fails_changesNothing() async throws {
        let fixture = AccountFixture()
        try await fixture.session.post("x")
        try await fixture.session.undo()
        let state = fixture.session.state
        fixture.account.script(Self.update, [.answer(FakeWeiboAPI.apiError(10001, "system error", Self.update, status: 500))])

        await #expect(throws: ViewModelError.self) { try await fixture.session.redo() }

        #expect(fixture.session.state == state)
        #expect(fixture.session.canRedo)
        #expect(fixture.session.errorMessage?.hasPrefix("cannot redo post \"x\"") == true)
        #expect(fixture.account.own.isEmpty)
    }

    @Test("history marks the operations that changed the server; clear sends nothing")
    func history_marksRemote() async throws {
        let fixture = AccountFixture()
        try await fixture.session.fetch(count: 3)
        try await fixture.session.post("marked")
        try fixture.session.calc(keys: ["1"])

        #expect(fixture.session.operationRecords.map(\.isRemote) == [false, true, false])
        #expect((fixture.session.operationRecords[1].remote as? PostedStatusEffect) == PostedStatusEffect(id: fixture.account.own[0].idstr ?? "", text: "marked"))

        let sent = fixture.http.requests.count
        fixture.session.clear()
        #expect(fixture.http.requests.count == sent)
        #expect(fixture.account.own.count == 1)
    }

    @Test("given a bound of 10 when 25 operations are recorded then 10 are kept, undo reaches the oldest kept state, and the note comes once")
    func historyBound() async throws {
        let fixture = AccountFixture(historyLimit: 10)
        var notes: [[String]] = []
        for n in 1...25 {
            try fixture.session.calc(keys: ["C", String(n)])
            notes.append(fixture.session.notes)
        }

        #expect(fixture.session.operationCount == 10)
        #expect(fixture.session.operations.first == "calc C 16")
        #expect(notes.filter { !$0.isEmpty } == [["history keeps the last 10 operations; older ones were dropped"]])
        #expect(notes[10] == ["history keeps the last 10 operations; older ones were dropped"])
        for _ in 0..<10 { try await fixture.session.undo() }
        #expect(fixture.session.ledText == "15")
        await #expect(throws: ViewModelError.nothingToUndo) { try await fixture.session.undo() }
    }
}
