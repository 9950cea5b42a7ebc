import WshDataController
import WshLanguage
import WshText
import WshViewModel

/// `notifications`, `dismiss`, `conversations`: screens opened over the
/// list (numbered rows, `detail N` opens a row's status) and the two writes
/// on notifications, which the server cannot take back.
extension Shell {
    /// The notification types Mastodon names (`--types`).
    static let notificationTypes = ["mention", "status", "reblog", "follow", "follow_request", "favourite", "poll", "update",
                                    "admin.sign_up", "admin.report", "severed_relationships", "moderation_warning"]

    func notificationCommands() -> [CommandSpec] {
        let notifications = CommandSpec(
            name: "notifications", abstract: "Show your notifications (mentions, favourites, boosts, follows, …).",
            discussion: """
                GET /api/v1/notifications: the newest N (default 20, up to 80), each a row
                with its type, who, when and the status's text; detail N opens a row's
                status, dismiss N dismisses a row. --types keeps only those types (comma
                separated: mention, favourite, reblog, follow, poll, update, status, …).
                --all follows the server's Link header page by page (--limit N stops
                after N). --clear dismisses every notification (POST /api/v1/notifications/clear).
                The server has no call that brings back a dismissed notification: undo
                of dismiss or --clear restores the rows on screen only, and says so.
                Sets $count to the number shown.
                  notifications
                  notifications 40 --types mention,favourite
                  notifications --clear
                """,
            arguments: [ArgumentSpec("N", help: "how many (default 20)", arity: .optional)],
            options: [
                .valued("types", valueName: "T,…", help: "only these types"),
                .flag("all", help: "every page, until there are no more"),
                .valued("limit", valueName: "N", help: "with --all: stop after N"),
                .flag("clear", help: "dismiss every notification (undo cannot restore them on the server)"),
                .json,
            ],
            completion: { _ in [] },
            handler: { [unowned self] context in try self.notifications(context) })
        let dismiss = CommandSpec(
            name: "dismiss", abstract: "Dismiss row N of the notifications screen.",
            discussion: """
                POST /api/v1/notifications/:id/dismiss; the row goes. The server cannot
                restore a dismissed notification: undo brings the row back on screen only,
                and says so; redo dismisses it again. A lost answer is resolved by reading
                the notification back (GET /api/v1/notifications/:id).
                """,
            arguments: [ArgumentSpec("N", help: "the row number from notifications")],
            completion: { [unowned self] _ in (0..<(sessionStorage?.notifications?.rows.count ?? 0)).map { String($0 + 1) } },
            handler: { [unowned self] context in
                let index = try integer(context.arguments["N"], name: "N") ?? 0
                try drive(context, input: "SessionViewModel.dismiss(index: \(index))") { try await $0.dismiss(index: index) }
                noteOperation(context)
            })
        let conversations = CommandSpec(
            name: "conversations", abstract: "Show your direct conversations, newest first.",
            discussion: """
                GET /api/v1/conversations: who each is with, whether it is unread, and its
                last status; detail N opens that status. N is how many (default 20, up to 40).
                Sets $count to the number shown.
                """,
            arguments: [ArgumentSpec("N", help: "how many (default 20)", arity: .optional)],
            options: [.json],
            handler: { [unowned self] context in
                let count = try integer(context.arguments["N"], name: "N") ?? 20
                let loaded = try driveScreen(context, input: "SessionViewModel.conversations(count: \(count))",
                                             document: \.conversations?.document) {
                    try await $0.conversations(count: count)
                }
                context.setVariable("count", to: .int(loaded))
            })
        return [notifications, dismiss, conversations]
    }

    private func notifications(_ context: CommandContext) throws(LanguageError) {
        let count = try integer(context.arguments["N"], name: "N")
        let limit = try integer(context.arguments.option("limit"), name: "--limit")
        let all = context.arguments.flag("all")
        if limit != nil && !all { throw .usage("--limit goes with --all") }
        if context.arguments.flag("clear") {
            guard count == nil, context.arguments.option("types") == nil, !all else {
                throw .usage("--clear dismisses every notification: it takes no N, --types or --all")
            }
            try drive(context, input: "SessionViewModel.clearNotifications()") { try await $0.clearNotifications() }
            noteOperation(context)
            return
        }
        var types: [String] = []
        if let option = context.arguments.option("types") {
            types = option.split(separator: ",").map { $0.trimmingSpaces.lowercased() }.filter { !$0.isEmpty }
            if let unknown = types.first(where: { !Self.notificationTypes.contains($0) }) {
                throw .usage("unknown notification type '\(unknown)': \(Self.notificationTypes.joined(separator: ", "))")
            }
        }
        let loaded = try driveScreen(context, input: "SessionViewModel.notifications(count: \(count ?? 20), types: \(types), all: \(all))",
                                     document: \.notifications?.document) {
            try await $0.notifications(count: count ?? 20, types: types, all: all, limit: limit)
        }
        context.setVariable("count", to: .int(loaded))
    }

    /// Notes the operation just recorded.
    private func noteOperation(_ context: CommandContext) {
        if let last = sessionStorage?.operations.last { context.note(console.diagnosticStyle.dim(last)) }
    }
}
