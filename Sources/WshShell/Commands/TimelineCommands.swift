import WshLanguage
import WshViewModel

/// `fetch`, `more`, `list`, `detail`, `back`, `comments`, `user`, `mute`,
/// `unmute`, `post`: the timeline commands, each one ViewModel input.
extension Shell {
    func timelineCommands() -> [CommandSpec] {
        let json = OptionSpec.flag("json", help: "as JSON")
        return [
            CommandSpec(
                name: "fetch", abstract: "Load a page of the public timeline (replaces the rows).",
                discussion: "Sets $count to the number of statuses fetched. N is 1 to 200 (default 20).",
                arguments: [ArgumentSpec("N", help: "statuses per page", arity: .optional)],
                options: [.valued("page", valueName: "P", help: "which page, from 1")],
                handler: { [unowned self] context in
                    let count = try integer(context.arguments["N"], name: "N") ?? 20
                    let page = try integer(context.arguments.option("page"), name: "--page") ?? 1
                    let loaded = try drive(context, input: "SessionViewModel.fetch(count: \(count), page: \(page))") {
                        try await $0.fetch(count: count, page: page)
                    }
                    announceLoaded(context, verb: "fetched", loaded: loaded)
                }),
            CommandSpec(
                name: "more", abstract: "Append the next page to the rows.",
                discussion: "Sets $count to the number of new statuses.",
                handler: { [unowned self] context in
                    let loaded = try drive(context, input: "SessionViewModel.more()") { try await $0.more() }
                    announceLoaded(context, verb: "loaded", loaded: loaded)
                }),
            CommandSpec(
                name: "list", aliases: ["ls"], abstract: "Show the rows, numbered for detail and comments.",
                options: [json],
                handler: { [unowned self] context in
                    if wantsJSON(context) {
                        context.write(try JSONView.encode(sessionStorage?.rowDocuments ?? []))
                    } else if let session = sessionStorage {
                        context.write(TimelineListView(style: console.style, columns: console.columns()).render(session.rows))
                    }
                }),
            CommandSpec(
                name: "detail", aliases: ["show"], abstract: "Open row N in full.",
                arguments: [ArgumentSpec("N", help: "the row number from list")],
                options: [json],
                completion: { [unowned self] _ in rowNumbers() },
                handler: { [unowned self] context in
                    let index = try integer(context.arguments["N"], name: "N") ?? 0
                    let asJSON = wantsJSON(context)
                    try drive(context, input: "SessionViewModel.detail(index: \(index))", show: asJSON ? [] : .screen) {
                        try await $0.detail(index: index)
                    }
                    if asJSON, let detail = sessionStorage?.detail {
                        context.write(try JSONView.encode(detail.document))
                    }
                }),
            CommandSpec(
                name: "back", abstract: "Close the screen on top (detail, comments or user).",
                handler: { [unowned self] context in
                    try drive(context, input: "SessionViewModel.back()") { try $0.back() }
                }),
            CommandSpec(
                name: "comments", abstract: "Show the comments on row N, or on the open status.",
                arguments: [ArgumentSpec("N", help: "the row number from list", arity: .optional)],
                options: [json],
                completion: { [unowned self] _ in rowNumbers() },
                handler: { [unowned self] context in
                    let index = try integer(context.arguments["N"], name: "N")
                    let asJSON = wantsJSON(context)
                    try drive(context, input: "SessionViewModel.comments(index: \(index.map(String.init) ?? "nil"))",
                              show: asJSON ? [] : .screen) {
                        try await $0.comments(index: index)
                    }
                    if asJSON, let comments = sessionStorage?.comments {
                        context.write(try JSONView.encode(comments.document))
                    }
                }),
            CommandSpec(
                name: "user", abstract: "Show a user's profile by screen name (@name) or uid.",
                discussion: "With no NAME, shows the author of the status that is open.",
                arguments: [ArgumentSpec("NAME", help: "screen name, @name, or numeric uid", arity: .optional)],
                options: [json],
                completion: { [unowned self] _ in authorNames() },
                handler: { [unowned self] context in
                    let name = context.arguments["NAME"]
                    let asJSON = wantsJSON(context)
                    try drive(context, input: "SessionViewModel.user(name: \(name.map { "\"\($0)\"" } ?? "nil"))",
                              show: asJSON ? [] : .screen) {
                        try await $0.user(name: name)
                    }
                    if asJSON, let user = sessionStorage?.user {
                        context.write(try JSONView.encode(user.document))
                    }
                }),
            CommandSpec(
                name: "mute", abstract: "Hide a user's rows (the view-related DataController's filter).",
                discussion: "With no USER, lists who is muted.",
                arguments: [ArgumentSpec("USER", help: "screen name, @name, or uid", arity: .optional)],
                completion: { [unowned self] _ in authorNames() },
                handler: { [unowned self] context in
                    guard let name = context.arguments["USER"] else {
                        for muted in sessionStorage?.mutedUsers ?? [] { context.writeLine(muted) }
                        return
                    }
                    try drive(context, input: "SessionViewModel.mute(\"\(name)\")") { try $0.mute(name) }
                    noteLastOperation(context)
                }),
            CommandSpec(
                name: "unmute", abstract: "Show a muted user's rows again.",
                arguments: [ArgumentSpec("USER", help: "screen name, @name, or uid")],
                completion: { [unowned self] _ in sessionStorage?.mutedUsers ?? [] },
                handler: { [unowned self] context in
                    let name = context.arguments["USER"] ?? ""
                    try drive(context, input: "SessionViewModel.unmute(\"\(name)\")") { try $0.unmute(name) }
                    noteLastOperation(context)
                }),
            CommandSpec(
                name: "post", abstract: "Post a status (needs a token); it becomes row 1.",
                arguments: [ArgumentSpec("TEXT", help: "the status text", arity: .oneOrMore)],
                handler: { [unowned self] context in
                    let text = context.arguments.values("TEXT").joined(separator: " ")
                    try drive(context, input: "SessionViewModel.post(…)") { try await $0.post(text) }
                    noteLastOperation(context)
                }),
        ]
    }

    /// Reads a whole-number argument; a word that is not one is a usage error.
    func integer(_ word: String?, name: String) throws(LanguageError) -> Int? {
        guard let word else { return nil }
        guard let value = Int(word) else { throw .usage("\(name) must be a whole number, not '\(word)'") }
        return value
    }

    /// After fetch or more: sets `$count` and notes what arrived on stderr.
    private func announceLoaded(_ context: CommandContext, verb: String, loaded: Int) {
        context.setVariable("count", to: .int(loaded))
        context.note(console.diagnosticStyle.dim("\(verb) \(loaded) status\(loaded == 1 ? "" : "es") · \(rowCount) row\(rowCount == 1 ? "" : "s")"))
    }

    /// Notes the operation just recorded, e.g. `mute @name → 3 rows hidden`.
    private func noteLastOperation(_ context: CommandContext) {
        if let last = sessionStorage?.operations.last {
            context.note(console.diagnosticStyle.dim(last))
        }
    }

    func rowNumbers() -> [String] {
        (0..<min(rowCount, 500)).map { String($0 + 1) }
    }

    private func authorNames() -> [String] {
        sessionStorage?.rowAuthors ?? []
    }
}
