import Foundation
import Testing
@testable import WshShell

/// Every command that shows something renders it through a View the session's
/// stream announces: `trace` names the View of `list`, `history`, `state`,
/// `limits` and `led` as it names an input's, with the ViewModel output it read,
/// and the output on stdout is what it was.
@Suite("every View through the one stream")
struct ViewsOnTheStreamTests {
    @Test("trace on; list; history; state; limits; led: each names its View, and its output is unchanged")
    func traceNamesEveryView() async throws {
        for dialect in [Connection.DialectChoice.weibo, .mastodon] {
            let harness = try await ShellHarness(dialect: dialect)
            let plain = await harness.run("fetch 2; list; history; state; limits; led")
            #expect(plain.status == 0, "\(plain.stderr)")
            let traced = await harness.run("trace on; list; history; state; limits; led")
            #expect(traced.status == 0, "\(traced.stderr)")
            for (output, view) in [("output SessionViewModel.rows", "rendered TimelineListView (2 rows)"),
                                   ("output SessionViewModel.operationRecords", "rendered HistoryView (1 operation)"),
                                   ("output SessionViewModel.stateDocument", "rendered StateView"),
                                   ("input  SessionViewModel.limits()", "rendered LimitsView"),
                                   ("output SessionViewModel.ledText", "rendered LEDView")] {
                #expect(traced.stderr.contains(output), "\(dialect): \(output)\n\(traced.stderr)")
                #expect(traced.stderr.contains(view), "\(dialect): \(view)\n\(traced.stderr)")
            }
            #expect(!traced.stderr.contains("nothing to render"), "\(dialect): \(traced.stderr)")
            // The results are what they were without the trace: the rows, the history, the state.
            let rows = plain.stdout.split(separator: "\n").prefix(2)
            #expect(rows.count == 2 && rows.allSatisfy { traced.stdout.contains($0) }, "\(dialect): \(traced.stdout)")
            #expect(traced.stdout.contains("1  fetch 2 → 2 statuses"), "\(dialect): \(traced.stdout)")
        }
    }

    @Test("list before anything was fetched prints nothing and still names its View")
    func emptyListNamesItsView() async throws {
        let harness = try await ShellHarness(dialect: .mastodon)
        let traced = await harness.run("trace on; list")
        #expect(traced.status == 0, "\(traced.stderr)")
        #expect(traced.stdout.isEmpty, "\(traced.stdout)")
        #expect(traced.stderr.contains("rendered TimelineListView (0 rows)"), "\(traced.stderr)")
    }
}
