import Synchronization
import WshDataController

/// Says in one line, after a command, that its timeline came from the local
/// archive and not from the server: the one place the user learns it, since
/// the ViewModel does not know where its rows came from. A subscriber of the
/// session's stream like the other Views: it hears the DataController's
/// `.archive` events.
final class ArchiveNoticeView: SessionSubscriber, @unchecked Sendable {
    /// Statuses the archive gave since the input started; nil while it gave nothing.
    private let answered = Mutex<Int?>(nil)
    /// A write `archive on` could not make, said once when the input ends.
    private let failure = Mutex<String?>(nil)
    private let offline: Bool
    private let path: String
    private let write: (String) -> Void

    init(offline: Bool, path: String, write: @escaping (String) -> Void) {
        self.offline = offline
        self.path = path
        self.write = write
    }

    func receive(_ event: SessionEvent) {
        switch event {
        case .inputStarted:
            answered.withLock { $0 = nil }
        // Only a timeline answered in the server's place says so (not `archive search`, nor its rows' detail).
        case .dataController(let call) where call.source == .archive && call.call.hasPrefix("ArchiveStore.statuses("):
            answered.withLock { $0 = ($0 ?? 0) + call.itemCount }
        case .dataController(let call) where call.call.hasPrefix("ArchiveStore.store("):
            if case .failed(let message) = call.source { failure.withLock { $0 = message } }
        case .inputEnded:
            if let message = failure.withLock({ line in defer { line = nil }; return line }) { write(message) }
            let answer = answered.withLock { count in
                defer { count = nil }
                return count
            }
            guard let count = answer else { return }
            let why = offline ? "offline" : "the server could not be reached"
            write("\(why): answered from the archive (\(count) status\(count == 1 ? "" : "es") from \(path))")
        default:
            break
        }
    }
}
