import Synchronization
import Testing
import WshDataController
import WshModel
import WshRequest
import WshTestSupport
@testable import WshViewModel

@Suite("Timelines, cursors, newer, --all and watch")
struct TimelineSourceTests {
    private func query(_ request: HTTPRequest) -> [String: String] { request.queryItems }

    @Test("each source asks its own endpoint with its own parameters, and the history names it")
    func sourcesPickEndpoints() async throws {
        let fixture = SessionFixture()
        try await fixture.session.fetch(source: .home, count: 5)
        try await fixture.session.fetch(source: .user(.screenName("bob")), count: 3)
        try await fixture.session.fetch(source: .user(.uid("1003")), count: 3)
        try await fixture.session.fetch(source: .mentions, count: 4)
        let reposts = try fixture.session.repostsSource(ofRow: 1)
        try await fixture.session.fetch(source: reposts, count: 2)
        let paths = fixture.http.requests.map(\.path)
        #expect(paths == ["/2/statuses/home_timeline.json", "/2/statuses/user_timeline.json", "/2/statuses/user_timeline.json",
                          "/2/statuses/mentions.json", "/2/statuses/repost_timeline.json"])
        #expect(query(fixture.http.requests[1])["screen_name"] == "bob")
        #expect(query(fixture.http.requests[2])["uid"] == "1003")
        #expect(query(fixture.http.requests[4])["id"] == fixture.api.statuses[0].idstr)
        #expect(fixture.authors.allSatisfy { _ in true })
        #expect(fixture.session.operations == [
            "fetch home 5 → 5 statuses", "fetch user @bob 3 → 3 statuses", "fetch user uid 1003 3 → 3 statuses",
            "fetch mentions 4 → 4 statuses", "fetch reposts of \(fixture.api.statuses[0].idstr!) 2 → 2 statuses",
        ])
    }

    @Test("more on a cursor timeline never repeats the boundary status though max_id is inclusive, and stops at the end")
    func moreByCursor() async throws {
        let fixture = SessionFixture(api: FakeWeiboAPI(statusCount: 23))
        try await fixture.session.fetch(source: .home, count: 10)
        #expect(try await fixture.session.more() == 10)
        #expect(try await fixture.session.more() == 3)
        #expect(try await fixture.session.more() == 0)
        let ids = fixture.session.rowDocuments.compactMap(\.idstr)
        #expect(ids.count == 23)
        #expect(Set(ids).count == 23)
        #expect(ids == fixture.api.statuses.compactMap(\.idstr))
        // The second page asked one more than a page, from the last id shown.
        let second = fixture.http.requests[1].queryItems
        #expect(second["max_id"] == ids[9])
        #expect(second["count"] == "11")
        // The empty page ended the timeline: past the end, no request is sent.
        #expect(fixture.http.requests.count == 4)
        #expect(try await fixture.session.more() == 0)
        #expect(fixture.http.requests.count == 4)
    }

    @Test("newer puts only what arrived since the top row on top, with since_id")
    func newerPrepends() async throws {
        let fixture = SessionFixture(api: FakeWeiboAPI(statusCount: 30))
        try await fixture.session.fetch(source: .home, count: 5)
        let top = fixture.session.rowDocuments.first?.idstr
        fixture.http.answer { [api = fixture.api.adding(newStatuses: 3)] in api.respond(to: $0) }
        #expect(try await fixture.session.newer() == 3)
        #expect(fixture.http.requests.last?.queryItems["since_id"] == top)
        #expect(fixture.texts.prefix(3) == ["new status 3", "new status 2", "new status 1"])
        #expect(fixture.session.rowCount == 8)
        #expect(try await fixture.session.newer() == 0)
        #expect(fixture.session.rowCount == 8)
        try await fixture.session.undo()
        #expect(fixture.session.rowCount == 8)
        try await fixture.session.undo()
        #expect(fixture.session.rowCount == 5)
    }

    @Test("newer on the public timeline keeps only statuses newer than the top row")
    func newerOnPublic() async throws {
        let fixture = SessionFixture(api: FakeWeiboAPI(statusCount: 30))
        try await fixture.session.fetch(count: 5)
        fixture.http.answer { [api = fixture.api.adding(newStatuses: 2)] in api.respond(to: $0) }
        #expect(try await fixture.session.newer() == 2)
        #expect(fixture.session.rowCount == 7)
    }

    @Test("--page is for the public timeline; counts past the timeline's page are usage errors")
    func pagingErrors() async throws {
        let fixture = SessionFixture()
        await #expect(throws: ViewModelError.pageNeedsPublicTimeline(source: "home")) {
            try await fixture.session.fetch(source: .home, count: 5, page: 2)
        }
        await #expect(throws: ViewModelError.pageTooLarge(count: 101, maximum: 100, api: "weibo")) {
            try await fixture.session.fetch(source: .home, count: 101)
        }
        #expect(fixture.http.requests.isEmpty)
    }

    @Test("--all walks every page to the end; --limit stops at N and more goes on after the last kept")
    func loadAll() async throws {
        let fixture = SessionFixture(api: FakeWeiboAPI(statusCount: 57))
        var seen: [Int] = []
        let all = try await fixture.session.fetchAll(source: .home, count: 20, limit: nil, progress: { seen.append($0) })
        #expect(all.loaded == 57)
        #expect(all.end == .end)
        #expect(seen == [20, 40, 57])
        #expect(Set(fixture.session.rowDocuments.compactMap(\.idstr)).count == 57)
        #expect(fixture.session.operations.last == "fetch home --all → 57 statuses")

        let limited = try await fixture.session.fetchAll(source: .home, count: 20, limit: 25)
        #expect(limited.loaded == 25)
        #expect(limited.end == .limit)
        #expect(try await fixture.session.more() == 20)
        #expect(fixture.session.rowDocuments.compactMap(\.idstr) == Array(fixture.api.statuses.prefix(45).compactMap(\.idstr)))
    }

    /// 57 statuses behind an API whose rate limit has `hits` calls left, resetting in half an hour.
    private func fixture(withHitsLeft hits: Int) -> TimelineFixture {
        let fixture = TimelineFixture(api: FakeWeiboAPI(statusCount: 57))
        fixture.http.answer { [api = fixture.api] request in
            request.path.hasSuffix("rate_limit_status.json")
                ? .json(#"{"remaining_user_hits":\#(hits),"user_limit":150,"reset_time_in_seconds":1800,"limit_time_unit":"HOURS"}"#)
                : api.respond(to: request)
        }
        return fixture
    }

    @Test("--all says once why it slows down when the rate limit runs low, before it waits, and Ctrl-C in the wait keeps the page that arrived")
    func loadAllTellsItsPacing() async throws {
        // Three requests left, the window resetting in half an hour: a page every ten minutes.
        let fixture = fixture(withHitsLeft: 3)
        let http = fixture.http
        let timeline = fixture.timeline
        let told = Mutex<[TimelineViewModel.RateLimitPacing]>([])
        let walk = Task {
            try await timeline.loadAll(source: .public, count: 20, limit: nil, pacing: { pacing in
                told.withLock { $0.append(pacing) }
                // What Ctrl-C does to the input's task, here before the ten minutes' wait begins.
                withUnsafeCurrentTask { $0?.cancel() }
            })
        }
        // Were it never told, the walk would wait ten minutes a page: it is stopped after 10 s.
        let watchdog = Task { try await Task.sleep(for: .seconds(10)); walk.cancel() }
        let result = try await walk.value
        watchdog.cancel()

        let pacing = try #require(told.withLock { $0 }.first)
        #expect(told.withLock { $0.count } == 1)
        #expect(pacing.requestsLeft == 3)
        #expect(pacing.wait == .seconds(600))
        #expect((1795...1800).contains(pacing.secondsToReset))
        #expect(pacing.text == "3 requests left in the rate limit, reset in 30 min: a page every 10 min from now")
        #expect(result.loaded == 20)
        #expect(result.end == .interrupted)
        #expect(http.requests.filter { $0.path.hasSuffix("public_timeline.json") }.count == 1)
    }

    @Test("--all with budget to spare says nothing of pacing and does not wait")
    func loadAllWithBudgetToSpare() async throws {
        let fixture = fixture(withHitsLeft: 148)
        var told = 0
        let all = try await fixture.timeline.loadAll(source: .public, count: 20, limit: nil, pacing: { _ in told += 1 })
        #expect(all.loaded == 57)
        #expect(all.end == .end)
        #expect(told == 0)
    }

    @Test("--all stops, keeping the first page, when the server sends the same full page three times in a row")
    func loadAllStopsOnRepeatedPages() async throws {
        let fixture = TimelineFixture(api: FakeWeiboAPI(statusCount: 57))
        // The first page, for every page asked; after ten, an empty one (so a walk that
        // missed the repeats ends, and this test fails rather than hangs).
        let first = Mutex<(response: HTTPResponse?, pages: Int)>((nil, 0))
        fixture.http.answer { [api = fixture.api] request in
            guard request.path.hasSuffix("public_timeline.json") else { return api.respond(to: request) }
            return first.withLock { saved in
                saved.pages += 1
                if saved.pages > 10 { return .json(#"{"statuses":[],"total_number":57}"#) }
                if saved.response == nil { saved.response = api.respond(to: request) }
                return saved.response!
            }
        }
        let all = try await fixture.timeline.loadAll(source: .public, count: 20, limit: nil)
        #expect(all.loaded == 20)
        #expect(all.end == .failed(.serverRepeatsItself(pages: 3)))
        #expect(fixture.http.requests.filter { $0.path.hasSuffix("public_timeline.json") }.count == 4)
        #expect(fixture.timeline.rows.map(\.id) == Array(fixture.api.statuses.prefix(20).compactMap(\.idstr)))
    }

    @Test("--all goes on past a page that repeats the one before it whole (a page's worth posted meanwhile)")
    func loadAllGoesOnPastOneRepeatedPage() async throws {
        let fixture = TimelineFixture(api: FakeWeiboAPI(statusCount: 57))
        // Twenty posts arrive while page 1 is read: page 2 is page 1 again, page 3 what page 2 was.
        var moved = fixture.api
        moved.statuses.insert(contentsOf: (1...20).map { FakeWeiboAPI.makeStatus(-$0, by: moved.users[0]) }, at: 0)
        fixture.http.answer { [api = fixture.api, moved] request in
            (Int(request.queryItems["page"] ?? "1") ?? 1) <= 1 ? api.respond(to: request) : moved.respond(to: request)
        }
        let all = try await fixture.timeline.loadAll(source: .public, count: 20, limit: nil)
        #expect(all.loaded == 57)
        #expect(all.end == .end)
    }

    @Test("--all checks each arriving status for a repeat once, however many pages came before: 102 pages hash 2 005 ids, not 100 000")
    func loadAllDeduplicationIsLinear() async throws {
        let fixture = TimelineFixture(api: FakeWeiboAPI(statusCount: 2000))
        // Five posts arrive while page 50 is read: page 51 repeats five statuses of page 50.
        var moved = fixture.api
        moved.statuses.insert(contentsOf: (1...5).map { FakeWeiboAPI.makeStatus(-$0, by: moved.users[0]) }, at: 0)
        fixture.http.answer { [api = fixture.api, moved] request in
            (Int(request.queryItems["page"] ?? "1") ?? 1) <= 50 ? api.respond(to: request) : moved.respond(to: request)
        }

        let all = try await fixture.timeline.loadAll(source: .public, count: 20, limit: nil)

        #expect(all.loaded == 2000)
        #expect(fixture.timeline.rows.map(\.id) == fixture.api.statuses.compactMap(\.idstr))
        // The 102nd page, empty, ends the walk (the first request asks for the rate-limit budget).
        #expect(fixture.http.requests.filter { $0.path.hasSuffix("public_timeline.json") }.count == 102)
        // 50 pages of 20, then 1 005 statuses from the moved timeline: each id hashed once.
        // Rebuilding the set from the loaded rows for each page hashes about 100 000.
        #expect(fixture.timeline.deduplicationWork == 2005)
    }

    @Test("--all keeps what arrived when a later page fails, and says so")
    func loadAllFailure() async throws {
        let fixture = SessionFixture(api: FakeWeiboAPI(statusCount: 57))
        let api = fixture.api
        fixture.http.answer { request in
            request.queryItems["max_id"] == nil ? api.respond(to: request)
                : FakeWeiboAPI.apiError(10001, "system error", request.path, status: 500)
        }
        let result = try await fixture.session.fetchAll(source: .home, count: 20, limit: nil)
        #expect(result.loaded == 20)
        guard case .failed(.requestFailed(.api(let failure))) = result.end else {
            Issue.record("\(result.end)")
            return
        }
        #expect(failure.code == 10001)
        #expect(fixture.session.rowCount == 20)
        #expect(fixture.session.operations.last == "fetch home --all → 20 statuses (stopped by an error)")
    }

    @Test("watch shows each batch as it arrives and stops after --until N new statuses, recording one operation")
    func watchUntil() async throws {
        let fixture = SessionFixture(api: FakeWeiboAPI(statusCount: 10))
        var batches: [[String]] = []
        let polls = Mutex(0)
        let base = fixture.api
        fixture.http.answer { request in
            guard request.queryItems["since_id"] != nil else { return base.respond(to: request) }
            let poll = polls.withLock { $0 += 1; return $0 }
            return base.adding(newStatuses: poll).respond(to: request)
        }
        let total = try await fixture.session.watch(source: .home, every: .milliseconds(1), limit: .init(newStatuses: 3)) { rows in
            batches.append(rows.map(\.text))
        }
        #expect(total == 3)
        #expect(batches == [["new status 1"], ["new status 2"], ["new status 3"]])
        #expect(fixture.session.operations == ["watch home → 3 new statuses"])
        #expect(fixture.session.rowCount == 13)
    }
}
