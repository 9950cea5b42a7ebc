import Testing
import WshModel
import WshTestSupport
import WshViewModel

@Suite("LoadedStatuses")
struct LoadedStatusesTests {
    func page(_ range: ClosedRange<Int>) -> [Status] { range.map { Status(idstr: String($0)) } }

    @Test("given pages appended and a status prepended when read by position then the order is prepended, then pages in order")
    func order() {
        var loaded = LoadedStatuses(page(1...3))
        loaded.append(page: page(4...5))
        loaded.append(page: [])
        loaded.prepend(Status(idstr: "0"))

        #expect(loaded.map(\.idstr) == ["0", "1", "2", "3", "4", "5"])
        #expect(loaded[4].idstr == "4")
        #expect(loaded.count == 6)
    }

    @Test("given a snapshot when a page is appended to a copy then the copy shares the snapshot's pages")
    func appendSharesPages() {
        let snapshot = LoadedStatuses(page(1...200))
        var next = snapshot
        next.append(page: page(201...400))

        #expect(snapshot.sharesPages(with: next))
        #expect(snapshot.count == 200)
        #expect(!next.sharesPages(with: snapshot))
    }

    @Test("given fetch 5 and more in a session when the history is read then the state after more shares the first page")
    func sessionMoreSharesPages() async throws {
        let fixture = SessionFixture()
        try await fixture.session.fetch(count: 5)
        let afterFetch = fixture.session.state.timeline.statuses

        try await fixture.session.more()

        #expect(afterFetch.sharesPages(with: fixture.session.state.timeline.statuses))
    }
}
