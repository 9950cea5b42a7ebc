import Testing
import WshDataController
import WshTestSupport
@testable import WshViewModel

/// Each recorded operation carries the command that replays it (`history --save`).
@Suite("SessionViewModel: replay commands")
struct ReplayTests {
    @Test("each input records the command that reproduces it; undone ones are gone")
    func replayStrings() async throws {
        let fixture = SessionFixture()
        let session = fixture.session
        try await session.fetch(count: 5)
        try await session.fetch(source: .home, count: 3, page: nil)
        try await session.more()
        try await session.detail(index: 2)
        try session.back()
        try session.mute("@bob")
        try session.calc(keys: ["12", "+", "7", "="])
        try await session.detail(index: 1)
        try await session.undo()
        #expect(session.operationRecords.map(\.replay) == [
            "fetch 5", "fetch home 3", "more", "detail 2", "back", "mute @bob", "calc 12 + 7 =",
        ])
    }

    @Test("fetch sources and words read back as one word each")
    func words() {
        #expect(SessionViewModel.replayWords(.user(.screenName("bob"))) == "user @bob ")
        #expect(SessionViewModel.replayWords(.user(.uid("123"))) == "user 123 ")
        #expect(SessionViewModel.replayWords(.tag("swift lang")) == "tag 'swift lang' ")
        #expect(SessionViewModel.replayWords(.reposts(statusID: "9")) == nil)
        #expect(SessionViewModel.replayWord("hello") == "hello")
        #expect(SessionViewModel.replayWord("") == "''")
        #expect(SessionViewModel.replayWord("a b") == "'a b'")
        #expect(SessionViewModel.replayWord("it's $5") == "\"it's \\$5\"")
        #expect(SessionViewModel.replayWord("line\none") == "\"line\\none\"")
    }
}
