import Synchronization
import WshDataController
import WshViewModel

/// Collects, during one command, what happened in the layers below the
/// shell: DataController calls (with their HTTP requests) and ViewModel
/// change notifications, in order. The DataControllers report from the
/// task that runs the input; the shell reads once the input is over.
final class TraceRecorder: Sendable {
    enum Entry: Sendable {
        case dataController(TraceEvent)
        case change(SessionChange)
    }

    private let entries = Mutex<[Entry]>([])

    func record(_ event: TraceEvent) {
        entries.withLock { $0.append(.dataController(event)) }
    }

    func record(_ change: SessionChange) {
        entries.withLock { $0.append(.change(change)) }
    }

    /// Everything recorded since the last call, which forgets it.
    func drain() -> [Entry] {
        entries.withLock { entries in
            defer { entries.removeAll() }
            return entries
        }
    }

    /// The changes among `entries`, combined.
    static func changes(in entries: [Entry]) -> SessionChange {
        entries.reduce(into: SessionChange()) { result, entry in
            if case .change(let change) = entry { result.formUnion(change) }
        }
    }
}
