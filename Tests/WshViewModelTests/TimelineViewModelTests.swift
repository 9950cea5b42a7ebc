import Testing
import WshRequest
import WshTestSupport
import WshViewModel

@Suite("TimelineViewModel")
struct TimelineViewModelTests {
    @Test("given nothing loaded when refreshed with 5 then 5 rows numbered from 1, with .loading then .rows and .loading")
    func refresh_replacesRows() async throws {
        let fixture = TimelineFixture()

        let loaded = try await fixture.timeline.refresh(count: 5)

        #expect(loaded == 5)
        #expect(fixture.timeline.rows.map(\.index) == [1, 2, 3, 4, 5])
        #expect(fixture.timeline.rows.first?.text == "status 1 by @alice")
        #expect(fixture.changes.values == [.loading, [.rows, .loading]])
    }

    @Test("given 5 rows when more is loaded then 10 distinct rows")
    func loadMore_appendsDistinctRows() async throws {
        let fixture = TimelineFixture()
        try await fixture.timeline.refresh(count: 5)

        let added = try await fixture.timeline.loadMore()

        #expect(added == 5)
        #expect(Set(fixture.timeline.rows.map(\.id)).count == 10)
        #expect(fixture.http.requests.last?.queryItems == ["count": "5", "page": "2"])
    }

    @Test("given new statuses arrived since the fetch when more is loaded then the repeated ones are skipped")
    func loadMore_skipsDuplicates() async throws {
        let fixture = TimelineFixture()
        try await fixture.timeline.refresh(count: 5)
        let firstPage = fixture.timeline.rows.map(\.text)
        // Two new posts push statuses 4 and 5 onto page 2.
        var moved = fixture.api
        moved.statuses.insert(contentsOf: [FakeWeiboAPI.makeStatus(-1, by: moved.users[0]),
                                           FakeWeiboAPI.makeStatus(0, by: moved.users[1])], at: 0)
        fixture.http.answer { [moved] request in moved.respond(to: request) }

        let added = try await fixture.timeline.loadMore()

        #expect(added == 3)
        #expect(fixture.timeline.rows.map(\.text) == firstPage + (6...8).map { "status \($0) by @\(FakeWeiboAPI.screenNames[($0 - 1) % 4])" })
    }

    @Test("given nothing fetched when more is asked then an error says to fetch first")
    func loadMore_beforeFetch_isError() async {
        let fixture = TimelineFixture()

        await #expect(throws: ViewModelError.nothingFetched) { try await fixture.timeline.loadMore() }
        #expect(fixture.timeline.errorMessage == "nothing to continue: fetch first")
        #expect(fixture.changes.values == [.error])
    }

    @Test("given 20 rows when detail 99 or detail 0 is asked then a one-line error names the rows, and nothing changes")
    func showDetail_outOfRange_isError() async throws {
        let fixture = TimelineFixture()
        try await fixture.timeline.refresh(count: 20)
        let before = fixture.timeline.state

        await #expect(throws: ViewModelError.noRow(index: 99, count: 20)) { try await fixture.timeline.showDetail(index: 99) }
        #expect(fixture.timeline.errorMessage == "no row 99: the list has 20 rows")
        await #expect(throws: ViewModelError.noRow(index: 0, count: 20)) { try await fixture.timeline.showDetail(index: 0) }
        #expect(fixture.timeline.errorMessage == "no row 0: rows are numbered from 1 to 20")
        #expect(fixture.timeline.state == before)
    }

    @Test("given rows when detail 2 is shown then the detail is row 2's status, from the cache, and back returns to the list")
    func showDetail_thenBack() async throws {
        let fixture = TimelineFixture()
        try await fixture.timeline.refresh(count: 5)
        fixture.changes.reset()

        try await fixture.timeline.showDetail(index: 2)
        #expect(fixture.timeline.detail?.text == "status 2 by @bob")
        #expect(fixture.timeline.detail?.source == "Weibo Web")
        #expect(fixture.http.requests.count == 1)

        try fixture.timeline.back()
        #expect(fixture.timeline.screen == .list)
        #expect(fixture.changes.values == [.loading, [.screen, .loading], .screen])
    }

    @Test("given the list shows when back is asked then an error says there is nothing to go back to")
    func back_onList_isError() {
        let fixture = TimelineFixture()

        #expect(throws: ViewModelError.nothingToGoBackTo) { try fixture.timeline.back() }
    }

    @Test("given a detail when comments are asked without a row then they are the detail's comments")
    func comments_ofTheOpenDetail() async throws {
        let fixture = TimelineFixture()
        try await fixture.timeline.refresh(count: 5)
        try await fixture.timeline.showDetail(index: 4)

        let count = try await fixture.timeline.showComments()

        #expect(count == 3)
        #expect(fixture.timeline.comments?.statusID == String(FakeWeiboAPI.statusID(4)))
        try fixture.timeline.back()
        #expect(fixture.timeline.detail?.text == "status 4 by @dave")
    }

    @Test("given the list when comments are asked without a row then an error says which status is meant")
    func comments_withoutStatus_isError() async {
        let fixture = TimelineFixture()

        await #expect(throws: ViewModelError.noStatusOpen) { try await fixture.timeline.showComments() }
    }

    @Test("given rows when a user is shown by @name then the profile comes from the page's authors")
    func showUser_byName() async throws {
        let fixture = TimelineFixture()
        try await fixture.timeline.refresh(count: 5)

        try await fixture.timeline.showUser("@carol")

        #expect(fixture.timeline.user?.uid == "1003")
        #expect(fixture.http.requests.count == 1)
    }

    @Test("given an unknown user when shown then the API's error is the message and the screen stays")
    func showUser_unknown_keepsScreen() async throws {
        let fixture = TimelineFixture()

        await #expect(throws: ViewModelError.requestFailed(.api(APIFailure(
            code: 20003, message: "user does not exist", request: "/2/users/show.json", httpStatus: 400, kind: .notFound)))) {
            try await fixture.timeline.showUser("nobody")
        }
        #expect(fixture.timeline.screen == .list)
    }

    @Test("given rows by four authors when one is muted then their rows are hidden and renumbered")
    func mute_hidesRows() async throws {
        let fixture = TimelineFixture()
        try await fixture.timeline.refresh(count: 8)
        fixture.changes.reset()

        let hidden = try fixture.timeline.mute("@bob")

        #expect(hidden == 2)
        #expect(fixture.timeline.rows.count == 6)
        #expect(!fixture.timeline.rows.contains { $0.author == "@bob" })
        #expect(fixture.timeline.rows.map(\.index) == Array(1...6))
        #expect(fixture.timeline.mutedUsers == ["@bob"])
        #expect(fixture.changes.values == [.rows])
    }

    @Test("given a muted user when muted again or an unmuted one is unmuted then the error says so")
    func mute_twice_isError() throws {
        let fixture = TimelineFixture()
        try fixture.timeline.mute("bob")

        #expect(throws: ViewModelError.alreadyMuted("@BOB")) { try fixture.timeline.mute("BOB") }
        #expect(throws: ViewModelError.notMuted("@carol")) { try fixture.timeline.unmute("carol") }
    }

    @Test("given rows when a status is posted then it is the first row")
    func post_addsNewestRow() async throws {
        let fixture = TimelineFixture()
        try await fixture.timeline.refresh(count: 3)

        try await fixture.timeline.post("hello from wsh")

        #expect(fixture.timeline.rows.map(\.text) == ["hello from wsh", "status 1 by @alice", "status 2 by @bob", "status 3 by @carol"])
    }

    @Test("given blank text when posted then nothing is sent")
    func post_blank_isError() async {
        let fixture = TimelineFixture()

        await #expect(throws: ViewModelError.emptyPost) { try await fixture.timeline.post("  ") }
        #expect(fixture.http.requests.isEmpty)
    }

    @Test("given rows when a refresh fails then the old rows stay and the error shows, with .loading then .error and .loading")
    func refreshFailure_keepsRows() async throws {
        let fixture = TimelineFixture()
        try await fixture.timeline.refresh(count: 5)
        let rows = fixture.timeline.rows
        fixture.http.answer { _ in .json("<html>bad gateway</html>", status: 502) }
        fixture.changes.reset()

        await #expect(throws: ViewModelError.self) { try await fixture.timeline.refresh(count: 3) }

        #expect(fixture.timeline.rows == rows)
        #expect(fixture.timeline.errorMessage?.hasPrefix("HTTP 502 Bad Gateway") == true)
        #expect(!fixture.timeline.isLoading)
        #expect(fixture.changes.values == [.loading, [.error, .loading]])
    }

    @Test("given an error shows when the next input succeeds then the error is cleared in the same notification")
    func success_clearsError() async throws {
        let fixture = TimelineFixture()
        _ = try? fixture.timeline.back()
        fixture.changes.reset()

        try await fixture.timeline.refresh(count: 2)

        #expect(fixture.timeline.errorMessage == nil)
        #expect(fixture.changes.values == [.loading, [.rows, .error, .loading]])
    }

    @Test("given a count of 0 or 500 when refreshed then the error gives the allowed range and no request is sent")
    func refresh_badCount_isError() async {
        let fixture = TimelineFixture()

        await #expect(throws: ViewModelError.invalidPaging(name: "count", value: 0, allowed: 1...200)) {
            try await fixture.timeline.refresh(count: 0)
        }
        #expect(fixture.timeline.errorMessage == "count must be 1 to 200, not 0")
        // Past the page the API serves: the refusal names the API, as its other refusals do.
        await #expect(throws: ViewModelError.pageTooLarge(count: 500, maximum: 200, api: "weibo")) {
            try await fixture.timeline.refresh(count: 500)
        }
        #expect(fixture.timeline.errorMessage == "count must be 1 to 200, not 500: this API (weibo) serves at most 200 statuses a page")
        #expect(fixture.http.requests.isEmpty)
    }
}
