import WshDataController
import WshModel

/// What an operation changed on the server, and so what undo and redo must
/// send: undo is the compensating request, redo the write sent again.
///
/// The history keeps one with each operation that wrote (`post`). Reads
/// (`fetch`, `detail`…) and local changes (`mute`, `calc`) have none: undoing
/// them only restores what wsh shows.
///
/// Each family of write is one type, declared beside the inputs that make it
/// (`ToggleEffect` in `SessionViewModel+Writes.swift`, `EditEffect` in
/// `SessionViewModel+Edits.swift`…), and carries its own undo, redo and id
/// replacement: `SessionViewModel.undo()` and `redo()` call them without
/// knowing which write it is, and `history --effects` shows `summary`. A new
/// write plugs in by declaring one more such type.
///
/// Effects are compared by value: two are equal when they are the same type
/// with the same inputs (`RecordedOperation`'s `==` relies on it).
public protocol RemoteEffect: Sendable, Hashable {
    /// What the write changed on the server and what undo will send, on one
    /// line, e.g. `favourited status 123 · undo unfavourites`.
    var summary: String { get }

    /// Sends the compensating request through `session`'s timeline; returns
    /// a note on what the server did. `operation` is the history's
    /// description of the operation, for the error should the request fail.
    func undo(in session: SessionViewModel, undoing operation: String) async throws(ViewModelError) -> String

    /// Sends the write again through `session`'s timeline, adds a note to
    /// `session.notes`, and, where the write made something new (a new
    /// status id), revises the history so the redone operation and the
    /// states after it name the new one.
    func redo(in session: SessionViewModel, redoing operation: String) async throws(ViewModelError)

    /// This effect naming the status `newID` wherever it named `oldID`:
    /// undo that posts a deleted status again revises every operation with it.
    func replacingStatusID(_ oldID: String, with newID: String) -> Self
}

extension RemoteEffect {
    /// True when `other` is this same effect: the same type, the same inputs.
    public func isSame(as other: (any RemoteEffect)?) -> Bool {
        (other as? Self) == self
    }
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
            case .edits(let shown, let versions) where shown.identifier == id:
                .edits(status, versions)
            default:
                screen
            }
        }
        return next
    }
}
