import Testing
import WshRequest
import WshTestSupport
import WshViewModel

/// The commands of DESIGN.md section 3, as the shell drives them.
@Suite("SessionViewModel")
struct SessionViewModelTests {
    @Test("fetch 5; list gives 5 rows")
    func fetch5_gives5Rows() async throws {
        let fixture = SessionFixture()

        try await fixture.session.fetch(count: 5)

        #expect(fixture.session.rows.count == 5)
        #expect(fixture.session.operations == ["fetch 5 → 5 statuses"])
        #expect(fixture.changes.values == [.loading, [.rows, .loading, .history]])
    }

    @Test("fetch 5; more gives 10 distinct rows")
    func fetchThenMore_gives10DistinctRows() async throws {
        let fixture = SessionFixture()

        try await fixture.session.fetch(count: 5)
        try await fixture.session.more()

        #expect(Set(fixture.session.rows.map(\.id)).count == 10)
        #expect(fixture.session.operations == ["fetch 5 → 5 statuses", "more → 5 statuses"])
    }

    @Test("fetch 5; fetch 3; undo gives 5 rows again and redo 3, without a request")
    func undoRedo_ofFetch() async throws {
        let fixture = SessionFixture()
        try await fixture.session.fetch(count: 5)
        try await fixture.session.fetch(count: 3)
        fixture.changes.reset()

        try await fixture.session.undo()
        #expect(fixture.session.rows.count == 5)
        #expect(fixture.session.operationCount == 1)
        #expect(fixture.session.canRedo)

        try await fixture.session.redo()
        #expect(fixture.session.rows.count == 3)
        #expect(fixture.session.operationCount == 2)
        #expect(fixture.http.requests.count == 2)
        #expect(fixture.changes.values == [[.rows, .history], [.rows, .history]])
    }

    @Test("fetch 5; detail 2; history shows 2 operations")
    func fetchDetail_history() async throws {
        let fixture = SessionFixture()

        try await fixture.session.fetch(count: 5)
        try await fixture.session.detail(index: 2)

        #expect(fixture.session.operations == ["fetch 5 → 5 statuses", "detail 2"])
        #expect(fixture.session.detail?.author == "@bob")
    }

    @Test("fetch --page 3 is described with its page")
    func fetchPage_description() async throws {
        let fixture = SessionFixture()

        try await fixture.session.fetch(count: 4, page: 3)

        #expect(fixture.session.operations == ["fetch 4 --page 3 → 4 statuses"])
        #expect(fixture.session.rows.first?.text == "status 9 by @alice")
    }

    @Test("clear leaves no rows, no screen, no muted user, a calculator at 0 and no history")
    func clear_resetsEverything() async throws {
        let fixture = SessionFixture()
        try await fixture.session.fetch(count: 5)
        try await fixture.session.detail(index: 1)
        try fixture.session.mute("bob")
        try fixture.session.calc(keys: ["4", "2"])
        fixture.changes.reset()

        fixture.session.clear()

        #expect(fixture.session.rows.isEmpty)
        #expect(fixture.session.screen == .list)
        #expect(fixture.session.mutedUsers.isEmpty)
        #expect(fixture.session.ledText == "0")
        #expect(fixture.session.operations.isEmpty)
        #expect(!fixture.session.canUndo && !fixture.session.canRedo)
        #expect(fixture.changes.values == [[.rows, .screen, .led, .history]])
    }

    @Test("calc 5 + 5 =; calc + 1 =; undo; led shows 10")
    func calc_undo_showsPreviousResult() async throws {
        let fixture = SessionFixture()

        try fixture.session.calc(keys: ["5", "+", "5", "="])
        try fixture.session.calc(keys: ["+", "1", "="])
        #expect(fixture.session.ledText == "11")
        try await fixture.session.undo()

        #expect(fixture.session.ledText == "10")
        #expect(fixture.session.operations == ["calc 5 + 5 ="])
    }

    @Test("calc 12 + 7 * 2 = is one operation and sends one notification")
    func calc_isOneOperation() throws {
        let fixture = SessionFixture()

        try fixture.session.calc(keys: ["12", "+", "7", "*", "2", "="])

        #expect(fixture.session.ledText == "38")
        #expect(fixture.session.operations == ["calc 12 + 7 * 2 ="])
        #expect(fixture.changes.values == [[.led, .history]])
    }

    @Test("calc with an unknown key changes nothing and records nothing")
    func calc_unknownKey() throws {
        let fixture = SessionFixture()
        try fixture.session.calc(keys: ["7"])
        fixture.changes.reset()

        #expect(throws: ViewModelError.unknownKey("%")) { try fixture.session.calc(keys: ["7", "%"]) }

        #expect(fixture.session.ledText == "7")
        #expect(fixture.session.operationCount == 1)
        #expect(fixture.session.errorMessage == "unknown key '%': keys are 0-9 . + - * / = C")
        #expect(fixture.changes.values == [.error])
    }

    @Test("mute NAME hides that author's rows and undo brings them back")
    func mute_undo_bringsRowsBack() async throws {
        let fixture = SessionFixture()
        try await fixture.session.fetch(count: 8)
        fixture.changes.reset()

        try fixture.session.mute("@carol")
        #expect(!fixture.authors.contains("@carol"))
        #expect(fixture.session.rows.count == 6)
        #expect(fixture.session.operations.last == "mute @carol → 2 rows hidden")

        try await fixture.session.undo()
        #expect(fixture.authors.filter { $0 == "@carol" }.count == 2)
        #expect(fixture.session.mutedUsers.isEmpty)
        #expect(fixture.changes.values == [[.rows, .history], [.rows, .history]])

        // The DataController was told too: a new page is filtered the same way as the rows.
        try await fixture.session.redo()
        try await fixture.session.more()
        #expect(!fixture.authors.contains("@carol"))
    }

    @Test("unmute shows the rows again and is recorded")
    func unmute_showsRows() async throws {
        let fixture = SessionFixture()
        try await fixture.session.fetch(count: 8)
        try fixture.session.mute("alice")

        try fixture.session.unmute("alice")

        #expect(fixture.session.rows.count == 8)
        #expect(fixture.session.operations.last == "unmute @alice → 2 rows shown")
    }

    @Test("a failing fetch leaves the previous rows and the history, and says why")
    func fetchFailure_keepsRowsAndHistory() async throws {
        let fixture = SessionFixture()
        try await fixture.session.fetch(count: 5)
        let rows = fixture.session.rows
        fixture.failRequests()
        fixture.changes.reset()

        await #expect(throws: ViewModelError.requestFailed(.api(APIFailure(
            code: 10001, message: "system error", request: "/2/statuses/public_timeline.json", httpStatus: 500, kind: .server)))) {
            try await fixture.session.fetch(count: 3)
        }

        #expect(fixture.session.rows == rows)
        #expect(fixture.session.operations == ["fetch 5 → 5 statuses"])
        #expect(fixture.session.errorMessage == "API error 10001: system error (/2/statuses/public_timeline.json, HTTP 500)")
        #expect(fixture.changes.values == [.loading, [.loading, .error]])
    }

    @Test("after a failure the next success clears the error in its one notification")
    func failureThenSuccess_clearsError() async throws {
        let fixture = SessionFixture()
        fixture.failRequests()
        _ = try? await fixture.session.fetch(count: 5)
        fixture.answerRequests()
        fixture.changes.reset()

        try await fixture.session.fetch(count: 5)

        #expect(fixture.session.errorMessage == nil)
        #expect(fixture.changes.values == [.loading, [.rows, .loading, .history, .error]])
    }

    @Test("undo with nothing to undo is an error message, not a crash; so is redo")
    func undoNothing_isError() async {
        let fixture = SessionFixture()

        await #expect(throws: ViewModelError.nothingToUndo) { try await fixture.session.undo() }
        #expect(fixture.session.errorMessage == "nothing to undo")
        await #expect(throws: ViewModelError.nothingToRedo) { try await fixture.session.redo() }
        #expect(fixture.changes.values == [.error, .error])
    }

    @Test("undo and redo cross screens: detail, comments and user each come back in turn")
    func undoRedo_acrossScreens() async throws {
        let fixture = SessionFixture()
        try await fixture.session.fetch(count: 5)
        try await fixture.session.detail(index: 3)
        try await fixture.session.comments()
        try await fixture.session.user(name: "dave")
        try fixture.session.calc(keys: ["6", "*", "7", "="])
        let requests = fixture.http.requests.count

        try await fixture.session.undo()
        #expect(fixture.session.ledText == "0")
        #expect(fixture.session.user?.screenName == "@dave")
        try await fixture.session.undo()
        #expect(fixture.session.comments?.rows.count == 3)
        try await fixture.session.undo()
        #expect(fixture.session.detail?.text == "status 3 by @carol")
        try await fixture.session.undo()
        #expect(fixture.session.screen == .list)
        #expect(fixture.session.rows.count == 5)

        try await fixture.session.redo()
        try await fixture.session.redo()
        #expect(fixture.session.comments != nil)
        #expect(fixture.http.requests.count == requests)
        #expect(fixture.session.operations == ["fetch 5 → 5 statuses", "detail 3", "comments → 3 comments"])
    }

    @Test("a new operation after undo drops the redo tail")
    func newOperationAfterUndo_dropsRedo() async throws {
        let fixture = SessionFixture()
        try await fixture.session.fetch(count: 5)
        try await fixture.session.detail(index: 1)
        try await fixture.session.undo()

        try await fixture.session.detail(index: 2)

        #expect(!fixture.session.canRedo)
        #expect(fixture.session.operations == ["fetch 5 → 5 statuses", "detail 2"])
    }

    @Test("back, comments N, user and post are recorded with their descriptions")
    func descriptions() async throws {
        let fixture = SessionFixture()
        try await fixture.session.fetch(count: 5)
        try await fixture.session.comments(index: 2)
        try fixture.session.back()
        try await fixture.session.user(name: "1001")
        try await fixture.session.post("a new status that is rather long, longer than forty characters")

        #expect(fixture.session.operations == [
            "fetch 5 → 5 statuses", "comments 2 → 3 comments", "back", "user uid 1001",
            "post \"a new status that is rather long, longe…\"",
        ])
        #expect(fixture.session.rows.first?.text == "a new status that is rather long, longer than forty characters")
        #expect(fixture.session.screen == .list)
    }

    @Test("detail 99 of 20 rows is a one-line error that records nothing")
    func detailOutOfRange() async throws {
        let fixture = SessionFixture()
        try await fixture.session.fetch(count: 20)

        await #expect(throws: ViewModelError.noRow(index: 99, count: 20)) { try await fixture.session.detail(index: 99) }

        #expect(fixture.session.errorMessage == "no row 99: the list has 20 rows")
        #expect(fixture.session.operationCount == 1)
    }

    @Test("detail sends .loading first, then one notification with the screen and the history")
    func detail_notifications() async throws {
        let fixture = SessionFixture()
        try await fixture.session.fetch(count: 5)
        fixture.changes.reset()

        try await fixture.session.detail(index: 1)
        try fixture.session.back()

        #expect(fixture.changes.values == [.loading, [.screen, .loading, .history], [.screen, .history]])
    }

    @Test("a whole session sends exactly one notification per input, plus .loading before each request")
    func notifications_wholeSession() async throws {
        let fixture = SessionFixture()

        try await fixture.session.fetch(count: 5)
        try await fixture.session.more()
        try await fixture.session.comments(index: 1)
        try await fixture.session.user(name: "bob")
        try fixture.session.back()
        try fixture.session.mute("bob")
        try await fixture.session.post("hi")
        try fixture.session.calc(keys: ["1", "+", "1", "="])
        try await fixture.session.undo()
        try await fixture.session.redo()
        fixture.session.clear()

        let request: [SessionChange] = [.loading]
        #expect(fixture.changes.values
            == request + [[.rows, .loading, .history]]                  // fetch 5
            + request + [[.rows, .loading, .history]]                   // more
            + request + [[.screen, .loading, .history]]                 // comments 1
            + request + [[.screen, .loading, .history]]                 // user bob
            + [[.screen, .history]]                                     // back
            + [[.rows, .history]]                                       // mute bob
            + request + [[.rows, .screen, .loading, .history]]          // post hi
            + [[.led, .history], [.led, .history], [.led, .history]]   // calc, undo, redo
            + [[.rows, .led, .history]])                                // clear
    }

    @Test("snapshots share the statuses: thousands of detail and back operations keep one timeline array")
    func snapshots_shareStatuses() async throws {
        let fixture = SessionFixture(api: FakeWeiboAPI(statusCount: 200), historyLimit: 5_000)
        try await fixture.session.fetch(count: 200)
        for n in 1...2_000 {
            try await fixture.session.detail(index: n % 200 + 1)
            try fixture.session.back()
        }

        #expect(fixture.session.operationCount == 4_001)
        for _ in 0..<4_000 { try await fixture.session.undo() }
        #expect(fixture.session.rows.count == 200)
        #expect(fixture.session.screen == .list)
        #expect(fixture.session.state.timeline.statuses.sharesPages(with: fixture.session.history.current.timeline.statuses))
    }
}
