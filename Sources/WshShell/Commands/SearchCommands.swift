import WshDataController
import WshLanguage
import WshModel
import WshViewModel

/// `search`, `followers`, `following` (screens of rows: `detail N` opens a
/// status or an account), `block`, `unblock`, and the server side of `mute`
/// and `unmute` (`--server`): each one ViewModel input; what the connected API
/// lacks is refused in one line before any request.
extension Shell {
    func searchCommands() -> [CommandSpec] {
        var search = CommandSpec(
            name: "search", abstract: "Search accounts, statuses and hashtags; the results are rows of their own.",
            discussion: """
                Mastodon: GET /api/v2/search (q, type, limit, resolve). The rows are numbered
                across the sections, accounts first, then statuses, then hashtags: detail N
                opens a status or an account's profile; back returns. @user@host resolves
                an account of another server (resolve=true). N is how many of each kind
                (default 20, at most 40). Weibo: topic search, statuses only.
                Not an operation on the server: undo closes the results.
                  search swift
                  search @wsh_team@mastodon.social
                  search --tags wsh 5
                """,
            arguments: [ArgumentSpec("QUERY", help: "a word, \"several words\" quoted, @name, @name@host or #tag"),
                        ArgumentSpec("N", help: "how many of each kind (default 20)", arity: .optional)],
            options: [.flag("accounts", help: "accounts only"), .flag("statuses", help: "statuses only"),
                      .flag("tags", help: "hashtags only"), .json],
            handler: { [unowned self] context in
                let query = context.arguments["QUERY"] ?? ""
                let limit = try integer(context.arguments["N"], name: "N") ?? 20
                var kinds: Set<SearchKind> = []
                if context.arguments.flag("accounts") { kinds.insert(.accounts) }
                if context.arguments.flag("statuses") { kinds.insert(.statuses) }
                if context.arguments.flag("tags") { kinds.insert(.hashtags) }
                let resolve = query.dropFirst(query.hasPrefix("@") ? 1 : 0).contains("@")
                try driveScreen(context, input: "SessionViewModel.search(\"\(query)\", limit: \(limit))", document: \.search?.document) {
                    try await $0.search(query, kinds: kinds, limit: limit, resolve: resolve)
                }
                if let results = sessionStorage?.search { context.setVariable("count", to: .int(results.rows.count)) }
            })
        search.currentNotes = { [unowned self] in relationNotes { capabilities in
            capabilities.searchFinds.isEmpty ? "no search"
                : "search finds " + capabilities.searchFinds.map(\.rawValue).sorted().joined(separator: ", ")
        } }
        let filters = CommandSpec(
            name: "filters", abstract: "List your filters on the server: what they match, where, and what they do.",
            discussion: """
                Mastodon: GET /api/v2/filters (a server without it: GET /api/v1/filters, each
                phrase a filter; irreversible ones read as hide). Rows: title, action (warn,
                hide, blur), contexts, keywords, expiry. The server applies them to what it
                sends: a status a hide filter matches is not shown (in timelines and
                notifications), one a warn filter matches shows "Filtered: TITLE" in place of
                its text until detail N opens it. Not an operation: nothing to undo.
                With --json: [{index, id, title, context, filter_action, expires_at, keywords}].
                """,
            options: [.json],
            handler: { [unowned self] context in
                try refuseUnless(\.filters, "has no filters")
                let asJSON = wantsJSON(context)
                let filters = try drive(context, input: "SessionViewModel.filters()", view: { [console] filters in
                    asJSON ? nil : ("FiltersView (\(filters.rows.count) rows)", FiltersView(style: console.style).render(filters))
                }) { try await $0.filters() }
                if asJSON { context.write(try JSONView.encode(filters.document)) }
                context.setVariable("count", to: .int(filters.rows.count))
            })
        return [search, accountList(.followers), accountList(.following),
                statusAccounts(.favouritedBy), statusAccounts(.rebloggedBy), filters]
    }

    /// `favourited-by N [COUNT]` / `reblogged-by N [COUNT]`: who favourited or boosted row N, as a screen of accounts.
    private func statusAccounts(_ list: StatusAccountList) -> CommandSpec {
        let favourited = list == .favouritedBy
        return CommandSpec(
            name: list.rawValue, aliases: favourited ? ["favorited-by"] : ["boosted-by", "reposted-by"],
            abstract: favourited ? "List who favourited row N." : "List who boosted (reposted) row N.",
            discussion: """
                Mastodon: GET /api/v1/statuses/:id/\(favourited ? "favourited_by" : "reblogged_by") (paged by Link)\(favourited
                    ? ". Weibo's API does not say who liked a status."
                    : ". Weibo: the authors of its reposts, as fetch reposts N lists them."))
                Row N as detail N reads it (a boost: the status it boosts). A screen of accounts as
                followers shows them: screen name, display name, followers, whether you follow
                them; detail N opens row N's profile, back returns. COUNT is how many (default 40,
                at most 80); --all follows the server's pages to the end, up to 1000. Undo closes it.
                """,
            arguments: [ArgumentSpec("N", help: "the row number from list"),
                        ArgumentSpec("COUNT", help: "how many accounts (default 40)", arity: .optional)],
            options: [.flag("all", help: "every page, up to 1000 accounts"), .json],
            completion: { [unowned self] request in request.argumentIndex == 0 ? rowNumbers() : [] },
            handler: { [unowned self] context in
                try refuseUnless(favourited ? \.listsFavouritedBy : \.listsRebloggedBy,
                                 favourited ? "does not say who favourited a status" : "does not say who boosted a status")
                let index = try integer(context.arguments["N"], name: "N") ?? 0
                let count = try integer(context.arguments["COUNT"], name: "COUNT") ?? 40
                let all = context.arguments.flag("all")
                try driveScreen(context, input: "SessionViewModel.statusAccounts(.\(list), index: \(index), count: \(count), all: \(all))",
                                document: \.accounts?.document) {
                    try await $0.statusAccounts(list, index: index, count: count, all: all)
                }
                if let accounts = sessionStorage?.accounts { context.setVariable("count", to: .int(accounts.rows.count)) }
            })
    }

    /// `followers USER [N]` / `following USER [N]`.
    private func accountList(_ list: AccountList) -> CommandSpec {
        let followers = list == .followers
        return CommandSpec(
            name: list.rawValue, abstract: followers ? "List who follows a user." : "List whom a user follows.",
            discussion: """
                Mastodon: GET /api/v1/accounts/:id/\(list.rawValue) (paged by Link). Weibo: its
                follow graph, paged by cursor. Rows: screen name, display name,
                followers, and whether you follow them. detail N opens row N's profile; back
                returns. N is how many (default 40, at most 80); --all follows the server's
                pages (N a page) to the end, up to 1000 accounts. Undo closes the list.
                """,
            arguments: [ArgumentSpec("USER", help: "screen name, @name, or uid"),
                        ArgumentSpec("N", help: "how many accounts (default 40)", arity: .optional)],
            options: [.flag("all", help: "every page, up to 1000 accounts"), .json],
            completion: { [unowned self] _ in sessionStorage?.rowAuthors ?? [] },
            handler: { [unowned self] context in
                let user = context.arguments["USER"] ?? ""
                let count = try integer(context.arguments["N"], name: "N") ?? 40
                let all = context.arguments.flag("all")
                try driveScreen(context, input: "SessionViewModel.accounts(.\(list.rawValue), name: \"\(user)\", count: \(count), all: \(all))",
                                document: \.accounts?.document) {
                    try await $0.accounts(list, name: user, count: count, all: all)
                }
                if let accounts = sessionStorage?.accounts { context.setVariable("count", to: .int(accounts.rows.count)) }
            })
    }

    /// `mute USER --server …` / `unmute USER --server`: the server-side mute,
    /// when `--server` is given (true: handled); without it, `--duration` and
    /// `--notifications` are refused, and the local filter runs.
    func serverMute(_ context: CommandContext, mute: Bool) throws(LanguageError) -> Bool {
        let arguments = context.arguments
        guard arguments.flag("server") else {
            if arguments.option("duration") != nil || arguments.flag("notifications") {
                throw .usage("--duration and --notifications are for the server's mute: add --server")
            }
            return false
        }
        let user = arguments["USER"] ?? ""
        guard !user.isEmpty else { throw .usage("\(mute ? "mute" : "unmute") --server needs a USER") }
        let duration = try integer(arguments.option("duration"), name: "--duration")
        let notifications = arguments.flag("notifications")
        try drive(context, input: "SessionViewModel.setServerMute(\(mute), name: \"\(user)\")") {
            try await $0.setServerMute(mute, name: user, duration: duration, notifications: notifications)
        }
        return true
    }
    /// `On this API (weibo): no block.`, or nil when `lacking` finds nothing missing.
    func relationNotes(_ lacking: @escaping (Capabilities) -> String?) -> String? {
        guard let dialect = connection.knownDialect else {
            return "On \(connection.label): what the API offers here is found out by connect URL or the first request."
        }
        return lacking(dialect.capabilities).map { "On this API (\(dialect.name)): \($0)." }
    }
}
