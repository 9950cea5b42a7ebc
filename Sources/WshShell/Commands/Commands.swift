import WshDataController
import WshLanguage

/// The shell's commands as the interpreter learns them: the groups, each
/// declared when first needed, and what a command needs of the connected API.
extension Shell {
    /// Registers every shell command in the interpreter's table, a group at a
    /// time, each declared when first needed: `wsh -c 'echo hi'` declares none,
    /// `fetch` and `list` only the timeline's (the commonest first: the timeline's,
    /// then `undo` and `history`, then the writes).
    /// (One call a group, not a loop over an array of them: an array of
    /// functions would have the runtime build its type at every start.)
    func registerCommands() {
        group { $0.timelineCommands() }
        group { $0.historyCommands() }
        group { $0.writeCommands() }
        group { $0.postCommands() }
        group { $0.editCommands() }
        group { $0.stateCommands() }
        group { $0.sessionCommands() }
        group { $0.webCommands() }
        group { $0.accountCommands() }
        group { $0.notificationCommands() }
        group { $0.searchCommands() }
        group { $0.listsCommands() }
        group { $0.archiveCommands() }
        group { $0.expireCommands() }
    }

    /// One group, declared when first needed, each command gated by what the API offers.
    private func group(_ make: @escaping (Shell) -> [CommandSpec]) {
        interpreter.register(lazily: { [unowned self] in make(self).map(gatedByCapability) })
    }

    /// Refuses, before any request, what the connected API cannot do: one line naming the API.
    func refuseUnless(_ capability: KeyPath<Capabilities, Bool>, _ what: String) throws(LanguageError) {
        guard let dialect = connection.knownDialect, !dialect.capabilities[keyPath: capability] else { return }
        throw .usage("this API (\(dialect.serverName)) \(what)")
    }

    /// The commands only some APIs have, with what the connected API must
    /// offer for each and its name in a refusal: `help NAME` and the `help`
    /// list say when the connected API lacks it (the commands themselves
    /// refuse before any request).
    static let offeredOnlyWith: [String: (capability: KeyPath<Capabilities, Bool> & Sendable, feature: String)] = [
        "notifications": (\.notifications, "notifications"), "dismiss": (\.notifications, "notifications"),
        "conversations": (\.conversations, "direct conversations"),
        "lists": (\.lists, "lists"),
        "edit": (\.editsStatuses, "status edits"), "edits": (\.editsStatuses, "status edits"),
        "scheduled": (\.schedulesStatuses, "scheduled statuses"), "unschedule": (\.schedulesStatuses, "scheduled statuses"),
        "vote": (\.polls, "polls"),
        "block": (\.blocksAccounts, "block"), "unblock": (\.blocksAccounts, "block"),
        "filters": (\.filters, "filters"),
        "favourited-by": (\.listsFavouritedBy, "a list of who favourited a status"),
        "reblogged-by": (\.listsRebloggedBy, "a list of who boosted a status"),
    ]

    /// `command` as the connected API offers it: when it lacks what the
    /// command needs (`offeredOnlyWith`), `help NAME` says so in one line
    /// (unless the command says more itself) and the `help` list marks it.
    func gatedByCapability(_ command: CommandSpec) -> CommandSpec {
        guard let (capability, feature) = Self.offeredOnlyWith[command.name] else { return command }
        var gated = command
        if gated.currentNotes == nil {
            gated.currentNotes = { [unowned self] in capabilityNote(capability, feature) }
        }
        gated.unavailable = { [unowned self] in
            guard let dialect = connection.knownDialect, !dialect.capabilities[keyPath: capability] else { return nil }
            return "not on \(dialect.serverName)"
        }
        return gated
    }

    /// `help` for a command the connected API lacks: one line saying so.
    func capabilityNote(_ capability: KeyPath<Capabilities, Bool>, _ feature: String) -> String? {
        guard let dialect = connection.knownDialect, !dialect.capabilities[keyPath: capability] else { return nil }
        return "Not on this API: \(dialect.serverName) has no \(feature)."
    }
}
