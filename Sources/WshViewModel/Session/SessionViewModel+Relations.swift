import WshDataController
import WshModel

/// `search`, `followers`, `following` (screens, recorded like `user`: undo
/// closes them) and `block`, `unblock`, `mute --server`, `unmute --server`
/// (writes marked remote, their effects `BlockEffect` and `ServerMuteEffect`:
/// undo sends the compensating call, redo the write again).
extension SessionViewModel {
    // MARK: Screens

    /// `search QUERY [--accounts|--statuses|--tags] [N]`: opens the results.
    public func search(_ query: String, kinds: Set<SearchKind> = [], limit: Int = 20, resolve: Bool = false)
        async throws(ViewModelError) {
        let options = kinds.map { " --\($0 == .hashtags ? "tags" : $0.rawValue)" }.sorted().joined()
        try await recordRemote(replay: "search \(Self.replayWord(query))\(options) \(limit)") { () async throws(ViewModelError) -> (String, (any RemoteEffect)?) in
            let shown = try await timeline.search(query, kinds: kinds, limit: limit, resolve: resolve)
            return ("search \(Self.quoted(query))\(options) → \(shown.summary)", nil)
        }
    }

    /// `followers USER [N] [--all]` / `following USER [N] [--all]`: opens the list (with `all`, every page).
    public func accounts(_ list: AccountList, name: String, count: Int = 40, all: Bool = false) async throws(ViewModelError) {
        try await recordRemote(replay: "\(list.rawValue) \(Self.replayWord(name)) \(count)\(all ? " --all" : "")") { () async throws(ViewModelError) -> (String, (any RemoteEffect)?) in
            let (shown, stopped) = try await timeline.showAccounts(list, name: name, count: count, all: all)
            let loaded = DisplayText.plural(shown.rows.count, "account")
            if let stopped { notes.append(Self.walkStopped(after: loaded, stopped)) }
            return ("\(list.rawValue) \(Self.describeUser(name)) → \(loaded)\(stopped == nil ? "" : " (stopped by the server)")", nil)
        }
    }

    /// `favourited-by N [COUNT] [--all]` / `reblogged-by N [COUNT] [--all]`: opens who favourited or boosted row N.
    public func statusAccounts(_ list: StatusAccountList, index: Int, count: Int = 40, all: Bool = false) async throws(ViewModelError) {
        try await recordRemote(replay: "\(list.rawValue) \(index) \(count)\(all ? " --all" : "")") { () async throws(ViewModelError) -> (String, (any RemoteEffect)?) in
            let (shown, stopped) = try await timeline.showStatusAccounts(list, index: index, count: count, all: all)
            let loaded = DisplayText.plural(shown.rows.count, "account")
            if let stopped { notes.append(Self.walkStopped(after: loaded, stopped)) }
            return ("\(list.rawValue) \(index) → \(loaded)\(stopped == nil ? "" : " (stopped by the server)")", nil)
        }
    }

    // MARK: Writes

    /// `mute USER --server [--duration S] [--notifications]` / `unmute USER --server`: undo does the other.
    public func setServerMute(_ mute: Bool, name: String, duration: Int? = nil, notifications: Bool = false) async throws(ViewModelError) {
        var options = " --server"
        if mute, let duration { options += " --duration \(duration)" }
        if mute, notifications { options += " --notifications" }
        try await recordRemote(replay: "\(mute ? "mute" : "unmute") \(Self.replayWord(name))\(options)") { () async throws(ViewModelError) -> (String, (any RemoteEffect)?) in
            let toggled = try await timeline.setServerMute(mute, name: name, duration: duration, notifications: notifications)
            notes.append(toggled.note ?? "\(mute ? "muted" : "unmuted") \(toggled.target) on the server")
            let reference = UserReference(name) ?? .screenName(name)
            return ("\(mute ? "mute" : "unmute") \(reference)\(options)",
                    ServerMuteEffect(user: reference, on: mute, duration: duration, notifications: notifications))
        }
    }

}

/// A server-side mute (`on`, with its options) or unmute of `user`: undo
/// sends the other, redo the same again.
struct ServerMuteEffect: RemoteEffect {
    /// The user muted or unmuted.
    var user: UserReference
    /// True for a mute, false for an unmute.
    var on: Bool
    /// How long the mute lasts, in seconds; nil: until undone.
    var duration: Int?
    /// Whether the mute hides the user's notifications too.
    var notifications = false

    public var summary: String {
        "\(on ? "muted" : "unmuted") \(user) on the server · undo \(on ? "unmutes" : "mutes again")"
    }

    public func undo(in session: SessionViewModel, undoing operation: String) async throws(ViewModelError) -> String {
        try await session.timeline.setServerMuteAgain(!on, user, duration: duration, notifications: notifications,
                                                      for: operation, undo: true)
    }

    public func redo(in session: SessionViewModel, redoing operation: String) async throws(ViewModelError) {
        session.notes.append(try await session.timeline.setServerMuteAgain(on, user, duration: duration, notifications: notifications,
                                                                           for: operation, undo: false))
    }

    func replacingStatusID(_ oldID: String, with newID: String) -> ServerMuteEffect { self }
}
