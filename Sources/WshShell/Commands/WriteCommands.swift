import WshDataController
import WshLanguage
import WshViewModel

/// `comment`, `reply`, `repost`, `delete` and the toggles (`favorite`,
/// `bookmark`, `follow`, `block`… and their opposites, one command each way
/// per `StatusToggle` or `AccountToggle` declaration): writes, each one recorded ViewModel input marked
/// `⇅` whose undo is a request to the server; and `limits`, which only reads.
extension Shell {
    func writeCommands() -> [CommandSpec] {
        let lostAnswer = """
            If the answer is lost (timeout, dropped connection, 5xx page), wsh reads the
            server before it reports: done, not done, or it cannot tell and says how to check.
            """
        let row = ArgumentSpec("N", help: "the row number from list")
        return [
            withCalls(CommandSpec(
                name: "comment", abstract: "Comment on row N (needs a token).",
                discussion: """
                    undo deletes the comment; redo comments again (a new comment id).
                    A lost answer is resolved by reading the status's comments for this text among
                    the comments newer than the newest one seen before.
                    """,
                arguments: [row, ArgumentSpec("TEXT", help: "the comment", arity: .oneOrMore)],
                completion: { [unowned self] _ in rowNumbers() },
                handler: { [unowned self] context in
                    let index = try integer(context.arguments["N"], name: "N") ?? 0
                    let text = context.arguments.values("TEXT").joined(separator: " ")
                    try drive(context, input: "SessionViewModel.comment(index: \(index), …)") {
                        try await $0.comment(index: index, text: text)
                    }
                }), [("", .comment), ("undo", .deleteComment), ("lost answer", .readComments)]),
            withCalls(CommandSpec(
                name: "reply", abstract: "Reply to comment M of row N (M as `comments N` numbers them).",
                discussion: """
                    undo deletes the reply; redo replies again.
                    \(lostAnswer)
                    """,
                arguments: [row, ArgumentSpec("M", help: "the comment number from comments N"),
                            ArgumentSpec("TEXT", help: "the reply", arity: .oneOrMore)],
                completion: { [unowned self] _ in rowNumbers() },
                handler: { [unowned self] context in
                    let index = try integer(context.arguments["N"], name: "N") ?? 0
                    let comment = try integer(context.arguments["M"], name: "M") ?? 0
                    let text = context.arguments.values("TEXT").joined(separator: " ")
                    try drive(context, input: "SessionViewModel.reply(index: \(index), commentIndex: \(comment), …)") {
                        try await $0.reply(index: index, commentIndex: comment, text: text)
                    }
                }), [("", .reply), ("undo", .deleteComment)]),
            withCalls(CommandSpec(
                name: "repost", abstract: "Repost row N, with optional TEXT; the repost becomes row 1.",
                discussion: """
                    On Mastodon, a boost. undo takes it back by the API's own call (Weibo deletes
                    the repost; Mastodon unboosts the original); redo reposts again (a new id).
                    \(lostAnswer)
                    """,
                arguments: [row, ArgumentSpec("TEXT", help: "what to say with it", arity: .variadic)],
                completion: { [unowned self] _ in rowNumbers() },
                handler: { [unowned self] context in
                    let index = try integer(context.arguments["N"], name: "N") ?? 0
                    let words = context.arguments.values("TEXT")
                    let text = words.isEmpty ? nil : words.joined(separator: " ")
                    if text != nil, let dialect = connection.knownDialect, !dialect.capabilities.repostTakesText {
                        throw LanguageError.usage("TEXT: this API (\(dialect.name)) reposts without text of its own; repost \(index) alone, or comment")
                    }
                    try drive(context, input: "SessionViewModel.repost(index: \(index), …)") {
                        try await $0.repost(index: index, text: text)
                    }
                }), [("", .repost), ("undo", .unrepost)]),
            withCalls(CommandSpec(
                name: "delete", abstract: "Delete row N, one of your own statuses; the row disappears.",
                discussion: """
                    The server refuses others' statuses.
                    Weibo cannot restore a deleted status: undo posts its text again as a NEW
                    status (a new id, a new time, no comments or reposts, not a repost any more)
                    and says so; redo deletes that new status.
                    \(lostAnswer)
                    """,
                arguments: [row],
                completion: { [unowned self] _ in rowNumbers() },
                handler: { [unowned self] context in
                    let index = try integer(context.arguments["N"], name: "N") ?? 0
                    try drive(context, input: "SessionViewModel.delete(index: \(index))") { try await $0.delete(index: index) }
                }), [("", .delete)]),
            withCalls(CommandSpec(
                name: "limits", abstract: "Show the token's rate limits: hits left, and when they reset.",
                discussion: """
                    Not an operation: nothing to undo.
                    With --json: {remaining_user_hits, remaining_ip_hits, user_limit, ip_limit,
                    reset_time, reset_time_in_seconds, limit_time_unit}, null where the server
                    did not say. A rate-limited command (API error 10022, 10023, 10024) says
                    when the limit resets; $errcode holds the API's code.
                    """,
                options: [.json],
                handler: { [unowned self] context in
                    let asJSON = wantsJSON(context)
                    let limits = try drive(context, input: "SessionViewModel.limits()", view: { [console] limits in
                        asJSON ? nil : ("LimitsView", LimitsView(style: console.style).render(limits))
                    }) { try await $0.limits() }
                    if asJSON { context.write(try JSONView.encode(limits.document)) }
                }), [("", .rateLimits)]),
        ] + (StatusToggle.all + configuration.moreStatusToggles).flatMap { [toggleCommand($0, true), toggleCommand($0, false)] }
            + AccountToggle.all.flatMap { [toggleCommand($0, true), toggleCommand($0, false)] }
    }

    /// The command that sets the status toggle `toggle` `on` (or off) for row N.
    private func toggleCommand(_ toggle: StatusToggle, _ on: Bool) -> CommandSpec {
        declared(toggle, on, CommandSpec(
            name: toggle.command(on), abstract: on ? toggle.abstract.on : toggle.abstract.off,
            discussion: """
                undo is `\(toggle.command(!on)) N`; redo sends it again. For undo and redo, a status
                already so (\(toggle.on), or not) counts as done, and the note says so. If the answer
                is lost, wsh reads the status's field named below before it reports.
                """,
            arguments: [ArgumentSpec("N", help: "the row number from list")],
            completion: { [unowned self] _ in rowNumbers() },
            handler: { [unowned self] context in
                try refuseUnlessOffered(toggle)
                let index = try integer(context.arguments["N"], name: "N") ?? 0
                try drive(context, input: "SessionViewModel.set(.\(toggle.name), \(on), index: \(index))") {
                    try await $0.set(toggle, on, index: index)
                }
            }))
    }

    /// The command that sets the account toggle `toggle` `on` (or off) for USER.
    private func toggleCommand(_ toggle: AccountToggle, _ on: Bool) -> CommandSpec {
        declared(toggle, on, CommandSpec(
            name: toggle.command(on), abstract: on ? toggle.abstract.on : toggle.abstract.off,
            discussion: """
                undo is `\(toggle.command(!on)) USER`; redo sends it again. For undo and redo, a user
                already so (\(toggle.on), or not) counts as done, and the note says so. If the answer
                is lost, wsh reads your relationship's field named below before it reports.
                """ + (toggle.note.map { "\n" + $0 } ?? ""),
            arguments: [ArgumentSpec("USER", help: "screen name, @name, or uid")],
            completion: { [unowned self] _ in sessionStorage?.rowAuthors ?? [] },
            handler: { [unowned self] context in
                try refuseUnlessOffered(toggle)
                let user = context.arguments["USER"] ?? ""
                try drive(context, input: "SessionViewModel.set(.\(toggle.name), \(on), name: \"\(user)\")") {
                    try await $0.set(toggle, on, name: user)
                }
            }))
    }

    /// Refused in one line, before any request, where the connected API lacks `toggle`.
    private func refuseUnlessOffered<Flagged>(_ toggle: Toggle<Flagged>) throws(LanguageError) {
        if let dialect = connection.knownDialect, !toggle.isOffered(by: dialect) {
            throw .usage("this API (\(dialect.serverName)) has no \(toggle.feature)")
        }
    }

    /// `spec`, the command that sets `toggle` `on` (or off), with help naming
    /// the call it sends on each API, read from the declaration.
    private func declared<Flagged>(_ toggle: Toggle<Flagged>, _ on: Bool, _ spec: CommandSpec) -> CommandSpec {
        var spec = spec
        let name = spec.name
        // `POST /api/v1/statuses/:id/favourite, field "favourited"; undo: POST …/unfavourite, field "favourited".`
        func calls(_ dialect: any Dialect) -> String {
            guard let call = toggle.call(on, on: dialect), let undo = toggle.call(!on, on: dialect) else {
                return "none: \(dialect.serverName) has no \(toggle.feature)."
            }
            let field = toggle.field[dialect.name].map { ", field \"\($0)\"" } ?? ""
            return "\(call)\(field); undo: \(undo)\(field)."
        }
        spec.currentNotes = { [unowned self] in
            guard let dialect = connection.knownDialect else {
                return "On \(connection.label): the call depends on the API, found out by connect URL or the first request; "
                    + "help \(name) names it then."
            }
            return toggle.isOffered(by: dialect) ? "On this API (\(dialect.name)): " + calls(dialect)
                : "Not on this API: \(dialect.serverName) has no \(toggle.feature)."
        }
        spec.makeManualNotes = { Dialects.all.map { "On \($0.name): " + calls($0) }.joined(separator: "\n\n") }
        spec.unavailable = { [unowned self] in
            guard let dialect = connection.knownDialect, !toggle.isOffered(by: dialect) else { return nil }
            return "not on \(dialect.serverName)"
        }
        return spec
    }

    /// `spec` with help that names the connected API's own `calls` (each
    /// labelled, the command's own first and unlabelled), taken from the
    /// dialect as `help fetch` takes its timelines; the manual page lists each API's.
    func withCalls(_ spec: CommandSpec, _ calls: [(label: String, operation: SharedOperation)]) -> CommandSpec {
        var spec = spec
        let name = spec.name
        spec.currentNotes = { [unowned self] in
            guard let dialect = connection.knownDialect else {
                return "On \(connection.label): the call depends on the API, found out by connect URL or the first request; "
                    + "help \(name) names it then."
            }
            return "On this API (\(dialect.name)): " + Self.callsText(dialect, calls)
        }
        spec.makeManualNotes = { Dialects.all.map { "On \($0.name): " + Self.callsText($0, calls) }.joined(separator: "\n\n") }
        return spec
    }

    /// `POST /api/v1/statuses (status, in_reply_to_id); undo: DELETE /api/v1/statuses/:id.`
    private static func callsText(_ dialect: any Dialect, _ calls: [(label: String, operation: SharedOperation)]) -> String {
        calls.map { label, operation in (label.isEmpty ? "" : "\(label): ") + dialect.call(for: operation).description }
            .joined(separator: "; ") + "."
    }
}
