import Synchronization
import WshDataController
import WshViewModel

/// `trace on`: a subscriber of the session's stream that gathers, for each
/// ViewModel input (or raw `api` request), what happened in the layers below
/// the shell — DataController calls with their HTTP requests, change
/// notifications, the Views rendered — into one `TraceRecord`, and hands it
/// over when the input ends. The shell keeps the record for `trace diagram`
/// and draws it.
final class TraceSubscriber: SessionSubscriber {
    /// The input being gathered.
    private struct Open {
        var command: String
        var input: String?
        var entries: [TraceRecord.Entry] = []
        var rendered: [String] = []
    }

    private let open = Mutex<Open?>(nil)
    private let finished: @Sendable (TraceRecord) -> Void

    /// `finished` hears each input's record once it ends.
    init(finished: @escaping @Sendable (TraceRecord) -> Void) {
        self.finished = finished
    }

    func receive(_ event: SessionEvent) {
        switch event {
        case .inputStarted(let command, let input, _):
            open.withLock { $0 = Open(command: command, input: input) }
        case .dataController(let call):
            open.withLock { $0?.entries.append(.dataController(call)) }
        case .changed(let change, _):
            open.withLock { $0?.entries.append(.change(change)) }
        case .rendered(let view, _, let onTerminal) where onTerminal:
            open.withLock { $0?.rendered.append(view) }
        case .inputEnded(let end):
            guard let gathered = open.withLock({ open in
                defer { open = nil }
                return open
            }) else { return }
            finished(TraceRecord(command: gathered.command, input: gathered.input, entries: gathered.entries,
                                 rendered: gathered.rendered, failure: end.failure, elapsed: end.elapsed))
        default:
            break
        }
    }
}
