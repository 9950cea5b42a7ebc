import WshDataController
import WshModel
import WshText

/// `notifications`, `dismiss`, `notifications --clear` and `conversations`:
/// screens opened over the list, and the two writes, which no call undoes
/// on the server (undo restores the screen and says so: `DismissedNotificationEffect`).
extension SessionViewModel {
    /// The notifications screen on top, if that is what shows.
    public var notifications: NotificationsViewModel? { timeline.notifications }
    /// The conversations screen on top, if that is what shows.
    public var conversations: ConversationsViewModel? { timeline.conversations }

    /// `notifications [N] [--types T,…] [--all [--limit N]]`: opens the notifications screen.
    @discardableResult
    public func notifications(count: Int = 20, types: [String] = [], all: Bool = false, limit: Int? = nil) async throws(ViewModelError) -> Int {
        var loaded = 0
        let typesWord = types.isEmpty ? "" : " --types \(Self.replayWord(types.joined(separator: ",")))"
        let allWords = all ? " --all" + (limit.map { " --limit \($0)" } ?? "") : ""
        let words = "notifications \(count)\(typesWord)\(allWords)"
        try await recordRemote(replay: words) { () async throws(ViewModelError) -> (String, (any RemoteEffect)?) in
            let stopped: ViewModelError?
            (loaded, stopped) = try await timeline.showNotifications(count: count, types: types, all: all, limit: limit)
            if let stopped { notes.append(Self.walkStopped(after: DisplayText.plural(loaded, "notification"), stopped)) }
            return ("\(words) → \(DisplayText.plural(loaded, "notification"))\(stopped == nil ? "" : " (stopped by the server)")", nil)
        }
        return loaded
    }

    /// `dismiss N`: dismisses row `index` of the notifications screen. Undo
    /// brings the row back on screen only: the server cannot restore it.
    public func dismiss(index: Int) async throws(ViewModelError) {
        try await recordRemote(replay: nil) { () async throws(ViewModelError) -> (String, (any RemoteEffect)?) in
            let dismissed = try await timeline.dismissNotification(index: index)
            notes.append(dismissed.note ?? "dismissed notification \(dismissed.id) on the server")
            return ("dismiss \(index) (\(dismissed.type) \(dismissed.id); undo cannot restore it on the server)",
                    DismissedNotificationEffect(id: dismissed.id))
        }
    }

    /// `notifications --clear`: dismisses every notification. Undo brings
    /// the rows back on screen only: the server cannot restore them.
    public func clearNotifications() async throws(ViewModelError) {
        try await recordRemote(replay: nil) { () async throws(ViewModelError) -> (String, (any RemoteEffect)?) in
            let cleared = try await timeline.clearNotifications()
            notes.append(cleared.note ?? "cleared the notifications on the server")
            return ("notifications --clear (\(DisplayText.plural(cleared.shown, "row")) shown; undo cannot restore them on the server)",
                    DismissedNotificationEffect(id: nil))
        }
    }

    /// `conversations [N]`: opens the direct conversations screen.
    @discardableResult
    public func conversations(count: Int = 20) async throws(ViewModelError) -> Int {
        var loaded = 0
        try await recordRemote(replay: "conversations \(count)") { () async throws(ViewModelError) -> (String, (any RemoteEffect)?) in
            loaded = try await timeline.showConversations(count: count)
            return ("conversations \(count) → \(DisplayText.plural(loaded, "conversation"))", nil)
        }
        return loaded
    }

    /// What the connected API can do, for refusing before any request.
    public var capabilities: Capabilities { timeline.dataController.capabilities }
}

/// A notification dismissed (`id`), or all of them cleared (nil): the server
/// has no call that brings them back, so undo restores the screen only and
/// says so; redo dismisses (clears) again.
struct DismissedNotificationEffect: RemoteEffect {
    /// The notification dismissed; nil when all were cleared.
    var id: String?

    public var summary: String {
        id.map { "dismissed notification \(TerminalText.sanitize($0)) · undo cannot restore it on the server" }
            ?? "cleared the notifications · undo cannot restore them on the server"
    }

    public func undo(in session: SessionViewModel, undoing operation: String) async throws(ViewModelError) -> String {
        id.map { "the server cannot restore a dismissed notification: notification \($0) is back on screen only" }
            ?? "the server cannot restore cleared notifications: they are back on screen only"
    }

    public func redo(in session: SessionViewModel, redoing operation: String) async throws(ViewModelError) {
        session.notes.append(try await session.timeline.dismissAgain(id: id, redoing: operation))
    }

    func replacingStatusID(_ oldID: String, with newID: String) -> DismissedNotificationEffect { self }
}
