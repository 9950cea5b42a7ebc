import WshDataController
import WshModel

/// `search`, `followers`, `following` (screens, recorded like `user`: undo
/// closes them) and `block`, `unblock`, `mute --server`, `unmute --server`
/// (writes marked remote: undo sends the compensating call, redo the write again).
extension SessionViewModel {
    // MARK: Screens

    /// `search QUERY [--accounts|--statuses|--tags] [N]`: opens the results.
    public func search(_ query: String, kinds: Set<SearchKind> = [], limit: Int = 20, resolve: Bool = false)
        async throws(ViewModelError) {
        let options = kinds.map { " --\($0 == .hashtags ? "tags" : $0.rawValue)" }.sorted().joined()
        try await recordRemote(replay: "search \(Self.replayWord(query))\(options) \(limit)") { () async throws(ViewModelError) -> (String, RemoteEffect?) in
            let shown = try await timeline.search(query, kinds: kinds, limit: limit, resolve: resolve)
            return ("search \(Self.quoted(query))\(options) → \(shown.summary)", nil)
        }
    }

    /// `followers USER [N] [--all]` / `following USER [N] [--all]`: opens the list (with `all`, every page).
    public func accounts(_ list: AccountList, name: String, count: Int = 40, all: Bool = false) async throws(ViewModelError) {
        try await recordRemote(replay: "\(list.rawValue) \(Self.replayWord(name)) \(count)\(all ? " --all" : "")") { () async throws(ViewModelError) -> (String, RemoteEffect?) in
            let shown = try await timeline.showAccounts(list, name: name, count: count, all: all)
            return ("\(list.rawValue) \(Self.describeUser(name)) → \(DisplayText.plural(shown.rows.count, "account"))", nil)
        }
    }

    // MARK: Writes

    /// `block USER` / `unblock USER`: undo does the other.
    public func setBlocking(_ block: Bool, name: String) async throws(ViewModelError) {
        try await recordRemote(replay: "\(block ? "block" : "unblock") \(Self.replayWord(name))") { () async throws(ViewModelError) -> (String, RemoteEffect?) in
            let toggled = try await timeline.setBlocking(block, name: name)
            notes.append(toggled.note ?? "\(block ? "blocked" : "unblocked") \(toggled.target) on the server")
            let reference = UserReference(name) ?? .screenName(name)
            return ("\(block ? "block" : "unblock") \(reference)", .blocking(reference, on: block))
        }
    }

    /// `mute USER --server [--duration S] [--notifications]` / `unmute USER --server`: undo does the other.
    public func setServerMute(_ mute: Bool, name: String, duration: Int? = nil, notifications: Bool = false) async throws(ViewModelError) {
        var options = " --server"
        if mute, let duration { options += " --duration \(duration)" }
        if mute, notifications { options += " --notifications" }
        try await recordRemote(replay: "\(mute ? "mute" : "unmute") \(Self.replayWord(name))\(options)") { () async throws(ViewModelError) -> (String, RemoteEffect?) in
            let toggled = try await timeline.setServerMute(mute, name: name, duration: duration, notifications: notifications)
            notes.append(toggled.note ?? "\(mute ? "muted" : "unmuted") \(toggled.target) on the server")
            let reference = UserReference(name) ?? .screenName(name)
            return ("\(mute ? "mute" : "unmute") \(reference)\(options)",
                    .serverMute(reference, on: mute, duration: duration, notifications: notifications))
        }
    }

    // MARK: Remote effects

    /// Undo of a block or server mute: the other call.
    func takeBackRelation(_ effect: RemoteEffect, undoing operation: String) async throws(ViewModelError) -> String {
        switch effect {
        case .blocking(let reference, let on):
            return try await timeline.setBlockingAgain(!on, reference, for: operation, undo: true)
        case .serverMute(let reference, let on, let duration, let notifications):
            return try await timeline.setServerMuteAgain(!on, reference, duration: duration, notifications: notifications,
                                                         for: operation, undo: true)
        default:
            preconditionFailure("takeBackRelation is for blocks and server mutes")
        }
    }

    /// Redo of a block or server mute: the same call again.
    func reapplyRelation(_ effect: RemoteEffect, redoing operation: String) async throws(ViewModelError) -> String {
        switch effect {
        case .blocking(let reference, let on):
            return try await timeline.setBlockingAgain(on, reference, for: operation, undo: false)
        case .serverMute(let reference, let on, let duration, let notifications):
            return try await timeline.setServerMuteAgain(on, reference, duration: duration, notifications: notifications,
                                                         for: operation, undo: false)
        default:
            preconditionFailure("reapplyRelation is for blocks and server mutes")
        }
    }
}
