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
        case .dataController(let call) where call.source == .archive:
            answered.withLock { $0 = ($0 ?? 0) + call.itemCount }
        case .inputEnded:
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
