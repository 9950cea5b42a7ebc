import WshText

/// `expire --confirmed` in the history: the DataController deleted the
/// statuses (`TimelineDataController.expire`); the operation is recorded so
/// that `undo` says honestly what it cannot do (`ExpiredStatusesEffect`).
extension SessionViewModel {
    /// Records an `expire` that deleted `ids` on the server under the options `words`.
    public func expired(_ words: String, deleted ids: [String]) async throws(ViewModelError) {
        try await recordRemote(replay: nil) { () async throws(ViewModelError) -> (String, (any RemoteEffect)?) in
            ("expire \(words) → deleted \(DisplayText.plural(ids.count, "status", "statuses")) (undo cannot restore them on the server)",
             ExpiredStatusesEffect(ids: ids))
        }
    }
}

/// Statuses `expire` deleted: no API restores a deleted status, so undo sends
/// nothing and says so, pointing to `redraft ID`, which posts the archive's
/// copy as a new status; redo has nothing to send (they are still deleted).
struct ExpiredStatusesEffect: RemoteEffect {
    /// The statuses deleted, oldest first.
    var ids: [String]

    var summary: String {
        "deleted \(DisplayText.plural(ids.count, "status", "statuses")) (expire) · undo cannot restore them on the server"
    }

    func undo(in session: SessionViewModel, undoing operation: String) async throws(ViewModelError) -> String {
        let example = ids.first.map { " (redraft \(TerminalText.sanitize($0)))" } ?? ""
        return "the server cannot restore deleted statuses: the \(DisplayText.plural(ids.count, "status", "statuses")) expire deleted "
            + "stay deleted, and stay in the archive; redraft ID posts one again from the archive's copy as a new status\(example)"
    }

    func redo(in session: SessionViewModel, redoing operation: String) async throws(ViewModelError) {
        session.notes.append("the statuses expire deleted are still deleted: nothing to send")
    }

    func replacingStatusID(_ oldID: String, with newID: String) -> ExpiredStatusesEffect { self }
}
