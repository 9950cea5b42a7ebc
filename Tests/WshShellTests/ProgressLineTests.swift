import Testing
@testable import WshShell

/// What a terminal shows while `archive sync` or `fetch --all` walks.
@Suite("The progress line")
struct ProgressLineTests {
    @Test("with --limit, a bar filling toward it and the count of it; without, the count so far")
    func lines() {
        let bounded = ProgressLine(title: "syncing public", limit: 80_000)
        #expect(bounded.text(0) == "syncing public [░░░░░░░░░░░░░░░░░░░░░░░░] 0 of 80000 statuses")
        #expect(bounded.text(40_000) == "syncing public [████████████░░░░░░░░░░░░] 40000 of 80000 statuses")
        // The last page may bring more than the limit asks: the bar stops full.
        #expect(bounded.text(80_040) == "syncing public [████████████████████████] 80000 of 80000 statuses")
        #expect(ProgressLine(title: "fetching home", limit: nil).text(1_200) == "fetching home: 1200 statuses…")
    }

    @Test("each drawing goes back to the start of the line, and clearing blanks the widest drawn")
    func drawnInPlace() {
        let line = ProgressLine(title: "syncing home", limit: nil)
        #expect(line.draw(5) == "\rsyncing home: 5 statuses…")
        _ = line.draw(12_345)
        #expect(line.clear == "\r" + String(repeating: " ", count: "syncing home: 12345 statuses…".count) + "\r")
    }
}
