import WshModel

/// What an operation changed on the server, and so what undo and redo must
/// send: undo is the compensating request, redo the write sent again.
///
/// The history keeps one with each operation that wrote (`post`). Reads
/// (`fetch`, `detail`…) and local changes (`mute`, `calc`) have none: undoing
/// them only restores what wsh shows.
///
/// A later write plugs in by adding a case here and its two requests to
/// `SessionViewModel.takeBack(_:)` and `reapply(_:)`, e.g. a comment (undo:
/// `comments/destroy`), a favourite (`favorites/destroy`), a follow
/// (`friendships/destroy`), each sent through the DataControllers.
public enum RemoteEffect: Sendable, Hashable {
    /// A status this session posted: undo deletes `id` (`statuses/destroy.json`),
    /// redo posts `text` again, which makes a new status with a new id.
    case postedStatus(id: String, text: String)
}

extension TimelineState {
    /// This state with the status `id` replaced by `status` wherever it shows:
    /// in the loaded statuses and on the screens open over them. Redo uses it
    /// when a post sent again comes back with a new id.
    func replacingStatus(id: String, with status: Status) -> TimelineState {
        var next = self
        next.statuses.replace(id: id, with: status)
        next.screens = screens.map { screen in
            switch screen {
            case .detail(let shown) where shown.identifier == id:
                .detail(status)
            case .comments(let shown, let page) where shown.identifier == id:
                .comments(status, page)
            default:
                screen
            }
        }
        return next
    }
}
