import WshDataController
import WshViewModel

/// One traced command as `trace diagram` draws it: the same entries `trace
/// on` drew, kept after the command ended.
struct TraceRecord: Sendable {
    /// What happened below the shell during the input.
    enum Entry: Sendable {
        /// A DataController call, with the requests it sent or its cache hit.
        case dataController(TraceEvent)
        /// A ViewModel change notification.
        case change(SessionChange)
    }

    /// The command as typed, e.g. `fetch 3`.
    var command: String
    /// The ViewModel input, e.g. `SessionViewModel.fetch(count: 3, page: 1)`;
    /// nil for a command that goes straight to the Request layer (`api`).
    var input: String?
    /// What happened below the shell, in order.
    var entries: [Entry]
    /// The Views rendered.
    var rendered: [String]
    /// The error message when the command failed.
    var failure: String?
    /// Wall-clock time of the whole command.
    var elapsed: Duration

    /// How many traced commands the shell keeps for `trace diagram --last N`.
    static let kept = 10
}

extension Array where Element == TraceRecord {
    /// Appends `record`, dropping the oldest beyond `TraceRecord.kept`.
    mutating func keep(_ record: TraceRecord) {
        append(record)
        if count > TraceRecord.kept { removeFirst(count - TraceRecord.kept) }
    }
}
