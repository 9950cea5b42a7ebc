import WshDataController
import WshModel

/// `notifications`, `dismiss`, `notifications --clear` and `conversations`:
/// screens opened over the list, and the two writes, which no call undoes
/// on the server (undo restores the screen and says so).
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
        try await recordRemote(replay: words) { () async throws(ViewModelError) -> (String, RemoteEffect?) in
            loaded = try await timeline.showNotifications(count: count, types: types, all: all, limit: limit)
            return ("\(words) → \(DisplayText.plural(loaded, "notification"))", nil)
        }
        return loaded
    }

    /// `dismiss N`: dismisses row `index` of the notifications screen. Undo
    /// brings the row back on screen only: the server cannot restore it.
    public func dismiss(index: Int) async throws(ViewModelError) {
        try await recordRemote(replay: nil) { () async throws(ViewModelError) -> (String, RemoteEffect?) in
            let dismissed = try await timeline.dismissNotification(index: index)
            notes.append(dismissed.note ?? "dismissed notification \(dismissed.id) on the server")
            return ("dismiss \(index) (\(dismissed.type) \(dismissed.id); undo cannot restore it on the server)",
                    .dismissedNotification(id: dismissed.id))
        }
    }

    /// `notifications --clear`: dismisses every notification. Undo brings
    /// the rows back on screen only: the server cannot restore them.
    public func clearNotifications() async throws(ViewModelError) {
        try await recordRemote(replay: nil) { () async throws(ViewModelError) -> (String, RemoteEffect?) in
            let cleared = try await timeline.clearNotifications()
            notes.append(cleared.note ?? "cleared the notifications on the server")
            return ("notifications --clear (\(DisplayText.plural(cleared.shown, "row")) shown; undo cannot restore them on the server)",
                    .dismissedNotification(id: nil))
        }
    }

    /// `conversations [N]`: opens the direct conversations screen.
    @discardableResult
    public func conversations(count: Int = 20) async throws(ViewModelError) -> Int {
        var loaded = 0
        try await recordRemote(replay: "conversations \(count)") { () async throws(ViewModelError) -> (String, RemoteEffect?) in
            loaded = try await timeline.showConversations(count: count)
            return ("conversations \(count) → \(DisplayText.plural(loaded, "conversation"))", nil)
        }
        return loaded
    }

    /// What the connected API can do, for refusing before any request.
    public var capabilities: Capabilities { timeline.dataController.capabilities }
}
