import WshDataController
import WshLanguage
import WshViewModel

/// `fetch`, `more`, `newer`, `watch`, `list`, `detail`, `back`, `comments`,
/// `user`, `mute`, `unmute`, `post`: the timeline commands, each one
/// ViewModel input.
extension Shell {
    func timelineCommands() -> [CommandSpec] {
        var fetch = CommandSpec(
                name: "fetch", abstract: "Load a timeline (public, home, user NAME, mentions, …) replacing the rows.",
                discussion: """
                    SOURCE is public (the default), home (yours and whom you follow), user NAME
                    (@name or uid), mentions (statuses that @ you), reposts N (the reposts of
                    row N), local (the server's own users), tag NAME (a hashtag), list NAME (a
                    list's members, lists shows yours), bookmarks or favourites (Weibo: favorites;
                    both spellings work; they page by the server's own cursor), as the
                    connected API offers them (below). N is how many statuses a page holds
                    (default 20), up to the API's limit. --page P picks a page of a timeline
                    paged by number; the others page with more (older) and newer. --all walks the whole
                    timeline (--limit N stops after N statuses), showing progress on a terminal;
                    Ctrl-C stops it keeping what arrived. As the account's rate limit runs low it
                    spaces the pages so as not to run out, and says so in one line before the
                    first wait of a second or more; a server that sends the same pages again
                    and again is left after three. Sets $count to the number fetched.
                      fetch 50
                      fetch home
                      fetch user @wsh_team 10
                      fetch mentions --all --limit 500
                    """,
                arguments: [ArgumentSpec("SOURCE… N", help: "which timeline, and statuses per page", arity: .variadic)],
                options: [
                    .valued("page", valueName: "P", help: "which page of the public timeline, from 1"),
                    .flag("all", help: "every page, until the timeline ends"),
                    .valued("limit", valueName: "N", help: "with --all: stop after N statuses"),
                ],
                completion: { [unowned self] request in request.argumentIndex == 0 ? offeredTimelines().map(\.word) : [] },
                handler: { [unowned self] context in try self.fetch(context) })
        fetch.currentNotes = { [unowned self] in timelineNotes() }
        fetch.makeManualNotes = { Self.everyAPITimelineNotes }
        return [
            fetch,
            CommandSpec(
                name: "more", abstract: "Append the next older page to the rows (or to the notifications or scheduled screen on top).",
                discussion: """
                    Sets $count to the number of new statuses (0 once the timeline has no more).
                    Over the notifications or scheduled screen, more appends that screen's next
                    page instead (the server's Link header, as sent) and shows the screen.
                    """,
                handler: { [unowned self] context in
                    let screen = sessionStorage.map { $0.notifications != nil || $0.scheduledStatuses != nil } ?? false
                    guard screen else {
                        let loaded = try drive(context, input: "SessionViewModel.more()") { try await $0.more() }
                        announceLoaded(context, verb: "loaded", loaded: loaded)
                        return
                    }
                    let loaded = try drive(context, input: "SessionViewModel.more()", show: .screen) { try await $0.more() }
                    context.setVariable("count", to: .int(loaded))
                    noteLastOperation(context)
                }),
            pageCommand(
                "newer", abstract: "Put the statuses that arrived since the top row on top.",
                discussion: "Sets $count to the number of new statuses.", { try await $0.newer() }),
            CommandSpec(
                name: "watch", abstract: "Poll a timeline and print each new status as it arrives.",
                discussion: """
                    Loads SOURCE (as fetch takes it; default: the timeline the rows come from,
                    or public) unless the list shows it, then every --every SECONDS (default 60)
                    puts what arrived on top and prints the new rows. Interactive sessions watch
                    until Ctrl-C; scripts give --for SECONDS or --until N (new statuses).
                    One operation is recorded for the whole watch. It never polls faster than
                    the account's rate limit allows.
                    --stream uses the server's streaming API instead (server-sent events on
                    /api/v1/streaming, else its WebSocket, at the URL /api/v1/instance names; SOURCE
                    public, local, home, mentions, tag NAME or list NAME): each status prints as
                    it is posted, a dropped stream reconnects after 1, 2, 4… seconds, and where
                    the server has no stream it says so in one line and polls. --timeout SECONDS
                    ends it (as --for does).
                    """,
                arguments: [ArgumentSpec("SOURCE…", help: "which timeline", arity: .variadic)],
                options: [
                    .valued("every", valueName: "SECONDS", help: "seconds between polls (default 60)"),
                    .valued("for", valueName: "SECONDS", help: "stop after this long"),
                    .valued("until", valueName: "N", help: "stop after N new statuses"),
                    .flag("stream", help: "use the streaming API (polls where there is none)"),
                    .valued("timeout", valueName: "SECONDS", help: "stop after this long (as --for)"),
                ],
                completion: { [unowned self] request in request.argumentIndex == 0 ? offeredTimelines().map(\.word) : [] },
                handler: { [unowned self] context in try watch(context) }),
            CommandSpec(
                name: "list", aliases: ["ls"], abstract: "Show the rows, numbered for detail and comments.",
                options: [.json],
                handler: { [unowned self] context in
                    // Made only for --json or a script that reads $result.
                    let documents = sessionStorage?.rowDocumentsOfNow ?? { [] }
                    leaveResult(context, later: documents)
                    if wantsJSON(context) {
                        context.write(try JSONView.encode(documents()))
                    } else {
                        // Before any session there are no rows, and the View says so (to the trace) as well.
                        show(context, reading: "SessionViewModel.rows",
                             TimelineListView(style: console.style, columns: console.columns()).shown(sessionStorage?.rows ?? []))
                    }
                }),
            CommandSpec(
                name: "detail", aliases: ["show"], abstract: "Open row N in full.",
                discussion: "A content warning (Mastodon) keeps the text collapsed; --expand shows it.",
                arguments: [ArgumentSpec("N", help: "the row number from list")],
                options: [.json, .flag("expand", help: "show the text behind a content warning")],
                completion: { [unowned self] _ in rowNumbers() },
                handler: { [unowned self] context in
                    let index = try integer(context.arguments["N"], name: "N") ?? 0
                    // Row N of an account list (followers, favourited-by…) opens a profile: --json prints the user.
                    try driveScreen(context, input: "SessionViewModel.detail(index: \(index))",
                                    document: { $0.detail.map { OpenedRow.status($0.document) } ?? $0.user.map { OpenedRow.user($0.document) } }) {
                        try await $0.detail(index: index)
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
                options: [.json],
                completion: { [unowned self] _ in rowNumbers() },
                handler: { [unowned self] context in
                    let index = try integer(context.arguments["N"], name: "N")
                    try driveScreen(context, input: "SessionViewModel.comments(index: \(index.map(String.init) ?? "nil"))",
                                    document: \.comments?.document) {
                        try await $0.comments(index: index)
                    }
                }),
            CommandSpec(
                name: "user", abstract: "Show a user's profile by screen name (@name) or uid.",
                discussion: "With no NAME, shows the author of the status that is open.",
                arguments: [ArgumentSpec("NAME", help: "screen name, @name, or numeric uid", arity: .optional)],
                options: [.json],
                completion: { [unowned self] _ in authorNames() },
                handler: { [unowned self] context in
                    let name = context.arguments["NAME"]
                    try driveScreen(context, input: "SessionViewModel.user(name: \(name.map { "\"\($0)\"" } ?? "nil"))",
                                    document: \.user?.document) {
                        try await $0.user(name: name)
                    }
                }),
            withServerMuteNotes(CommandSpec(
                name: "mute", abstract: "Hide a user's rows (the view-related DataController's filter).",
                discussion: """
                    With no USER, lists who is muted. With --server, mutes them on the server
                    instead (Mastodon; Weibo has no server-side mute): undo unmutes.
                    """,
                arguments: [ArgumentSpec("USER", help: "screen name, @name, or uid", arity: .optional)],
                options: Self.serverMuteOptions,
                completion: { [unowned self] _ in authorNames() },
                handler: { [unowned self] context in
                    if try serverMute(context, mute: true) { return }
                    guard let name = context.arguments["USER"] else {
                        for muted in sessionStorage?.mutedUsers ?? [] { context.writeLine(muted) }
                        return
                    }
                    try drive(context, input: "SessionViewModel.mute(\"\(name)\")") { try $0.mute(name) }
                    noteLastOperation(context)
                })),
            withServerMuteNotes(CommandSpec(
                name: "unmute", abstract: "Show a muted user's rows again.",
                discussion: "With --server, unmutes them on the server (Mastodon): undo mutes again.",
                arguments: [ArgumentSpec("USER", help: "screen name, @name, or uid")],
                options: [Self.serverMuteOptions[0]],
                completion: { [unowned self] _ in sessionStorage?.mutedUsers ?? [] },
                handler: { [unowned self] context in
                    if try serverMute(context, mute: false) { return }
                    let name = context.arguments["USER"] ?? ""
                    try drive(context, input: "SessionViewModel.unmute(\"\(name)\")") { try $0.unmute(name) }
                    noteLastOperation(context)
                })),
        ]
    }

    private func fetch(_ context: CommandContext) throws(LanguageError) {
        try checkOffered(context.arguments.values("SOURCE… N").first)
        let (source, count) = try timelineWords(context.arguments.values("SOURCE… N"), allowsCount: true)
        let page = try integer(context.arguments.option("page"), name: "--page")
        let limit = try integer(context.arguments.option("limit"), name: "--limit")
        guard context.arguments.flag("all") else {
            if limit != nil { throw .usage("--limit goes with --all") }
            let loaded = try drive(context, input: "SessionViewModel.fetch(source: \(source), count: \(count ?? 20), page: \(page.map(String.init) ?? "nil"))") {
                try await $0.fetch(source: source, count: count ?? 20, page: page)
            }
            announceLoaded(context, verb: "fetched", loaded: loaded)
            return
        }
        if page != nil { throw .usage("--page and --all do not go together") }
        let line = ProgressLine(title: "fetching \(source)", limit: limit)
        let progress = console.diagnosticIsTerminal ? { [console] (total: Int) in console.diagnostic(line.draw(total)) } : nil
        let maximum = try session().maximumCount(for: source)
        let perPage = count ?? maximum ?? 20
        // Called from the input's Task while this thread waits for it (see WaitingHandOver).
        let report = WaitingHandOver(progress)
        // Said whether or not stderr is a terminal: a script's walk may wait minutes a page.
        let slowing = WaitingHandOver { [console] (pacing: TimelineViewModel.RateLimitPacing) in
            if progress != nil { console.diagnostic(line.clear) }
            console.note("fetch: \(pacing.text) (Ctrl-C keeps what arrived)")
        }
        let result = try drive(context, input: "SessionViewModel.fetchAll(source: \(source), count: \(perPage), limit: \(limit.map(String.init) ?? "nil"))") {
            try await $0.fetchAll(source: source, count: perPage, limit: limit, progress: { report.value?($0) },
                                  pacing: { slowing.value($0) })
        }
        if progress != nil { console.diagnostic(line.clear) }
        announceLoaded(context, verb: "fetched", loaded: result.loaded)
        switch result.end {
        case .end, .limit: break
        case .interrupted: throw LanguageError(.interrupted, "interrupted: kept the \(statusCount(result.loaded)) that arrived")
        case .failed(let error):
            throw .commandFailed("stopped after \(statusCount(result.loaded)), kept: \(redact(error.description))")
        }
    }

    /// `1 status`, `3 statuses`: what a walk kept, in its messages.
    func statusCount(_ count: Int) -> String {
        count == 1 ? "1 status" : "\(count) statuses"
    }

    private func watch(_ context: CommandContext) throws(LanguageError) {
        let words = context.arguments.values("SOURCE…")
        let source = words.isEmpty ? (sessionStorage?.source ?? .public) : try timelineWords(words, allowsCount: false).source
        let every = try seconds(context.arguments.option("every"), name: "--every") ?? 60
        var duration = try seconds(context.arguments.option("for"), name: "--for")
        if duration == nil { duration = try seconds(context.arguments.option("timeout"), name: "--timeout") }
        let until = try integer(context.arguments.option("until"), name: "--until")
        if let until, until < 1 { throw .usage("--until must be 1 or more, not \(until)") }
        if !interactive && duration == nil && until == nil {
            throw .usage("a script must say when watch stops: --for SECONDS or --until N")
        }
        if context.arguments.flag("stream") {
            return try watchStream(context, source: source, every: every, duration: duration, until: until)
        }
        let view = TimelineListView(style: console.style, columns: console.columns())
        // New rows are written from the input's Task while this thread waits for it.
        let output = WaitingHandOver(context)
        let total = try drive(context, input: "SessionViewModel.watch(source: \(source), every: \(every) s)") {
            try await $0.watch(source: source, every: .milliseconds(Int(every * 1000)),
                               limit: .init(newStatuses: until, duration: duration.map { .milliseconds(Int($0 * 1000)) })) { rows in
                output.value.write(view.render(rows))
            }
        }
        context.setVariable("count", to: .int(total))
        context.note(console.diagnosticStyle.dim("watched \(source): \(total) new status\(total == 1 ? "" : "es")"))
    }

    /// Reads `SOURCE… [N]`: `public`, `home`, `user NAME`, `mentions`,
    /// `reposts ROW`, or just `N` (the public timeline).
    func timelineWords(_ words: [String], allowsCount: Bool) throws(LanguageError) -> (source: TimelineSource, count: Int?) {
        var rest = words[...]
        let source: TimelineSource
        switch rest.first {
        case nil, "public":
            source = .public
        case "home":
            source = .home
        case "mentions":
            source = .mentions
        case "local":
            source = .local
        case "bookmarks":
            source = .bookmarks
        case "favourites", "favorites":
            source = .favourites
        case "list":
            guard rest.count >= 2 else { throw .usage("list needs a NAME: fetch list NAME [N] (lists shows yours)") }
            source = .list(rest[rest.startIndex + 1])
            rest = rest.dropFirst()
        case "tag":
            guard rest.count >= 2 else { throw .usage("tag needs a NAME: fetch tag NAME [N]") }
            source = .tag(String(rest[rest.startIndex + 1].drop { $0 == "#" }))
            rest = rest.dropFirst()
        case "user":
            guard rest.count >= 2, let reference = UserReference(rest[rest.startIndex + 1]) else {
                throw .usage("user needs a NAME: fetch user @name [N]")
            }
            source = .user(reference)
            rest = rest.dropFirst()
        case "reposts":
            guard rest.count >= 2, let row = Int(rest[rest.startIndex + 1]) else {
                throw .usage("reposts needs a row number: fetch reposts ROW [N]")
            }
            guard let session = sessionStorage else { throw failure(ViewModelError.noRow(index: row, count: 0)) }
            do throws(ViewModelError) {
                source = try session.repostsSource(ofRow: row)
            } catch {
                throw failure(error)
            }
            rest = rest.dropFirst()
        case let word?:
            guard Int(word) != nil else {
                throw .usage("unknown timeline '\(word)': public, local, home, tag NAME, user NAME, mentions, reposts ROW, "
                    + "list NAME, bookmarks or favourites")
            }
            return (.public, try count(word, allowed: allowsCount))
        }
        if !words.isEmpty { rest = rest.dropFirst() }
        guard rest.count <= 1 else { throw .usage("too many words: '\(rest.joined(separator: " "))'") }
        return (source, try rest.first.map { word throws(LanguageError) in try count(word, allowed: allowsCount) })
    }

    private func count(_ word: String, allowed: Bool) throws(LanguageError) -> Int {
        guard allowed else { throw .usage("watch takes no count: '\(word)'") }
        return try integer(word, name: "N") ?? 20
    }

    /// Reads a number of seconds (decimals allowed, at least 0.01).
    func seconds(_ word: String?, name: String) throws(LanguageError) -> Double? {
        guard let word else { return nil }
        guard let value = Double(word), value.isFinite, value >= 0.01 else {
            throw .usage("\(name) takes seconds, such as 30 or 0.5, not '\(word)'")
        }
        return value
    }

    /// Reads a whole-number argument; a word that is not one is a usage error.
    func integer(_ word: String?, name: String) throws(LanguageError) -> Int? {
        guard let word else { return nil }
        guard let value = Int(word) else { throw .usage("\(name) must be a whole number, not '\(word)'") }
        return value
    }

    /// `more` and `newer`: the session input of the same name loads a page beside
    /// the rows; the command says how many statuses came.
    private func pageCommand(
        _ name: String, abstract: String, discussion: String,
        _ load: @escaping @Sendable (SessionViewModel) async throws -> Int
    ) -> CommandSpec {
        CommandSpec(name: name, abstract: abstract, discussion: discussion, handler: { [unowned self] context in
            let loaded = try drive(context, input: "SessionViewModel.\(name)()", load)
            announceLoaded(context, verb: "loaded", loaded: loaded)
        })
    }

    /// After fetch or more: sets `$count` and notes what arrived on stderr.
    private func announceLoaded(_ context: CommandContext, verb: String, loaded: Int) {
        context.setVariable("count", to: .int(loaded))
        context.note(console.diagnosticStyle.dim("\(verb) \(statusCount(loaded)) · \(rowCount) row\(rowCount == 1 ? "" : "s")"))
    }

    /// Notes the operation just recorded, e.g. `mute @name → 3 rows hidden`.
    func noteLastOperation(_ context: CommandContext) {
        if let last = sessionStorage?.operations.last {
            context.note(console.diagnosticStyle.dim(last))
        }
    }

    func rowNumbers() -> [String] {
        (0..<min(sessionStorage?.rowCountOnTop ?? rowCount, 500)).map { String($0 + 1) }
    }

    private func authorNames() -> [String] {
        sessionStorage?.rowAuthors ?? []
    }

    /// The options `mute` and `unmute` take for the server's mute.
    static let serverMuteOptions: [OptionSpec] = [
        .flag("server", help: "mute on the server (Mastodon: POST /api/v1/accounts/:id/mute; undo unmutes)"),
        .valued("duration", valueName: "S", help: "with --server: for S seconds (default: for ever)"),
        .flag("notifications", help: "with --server: hide their notifications too"),
    ]

    /// `spec` (`mute`, `unmute`) with a note of its own when the connected API has no server-side mute.
    func withServerMuteNotes(_ spec: CommandSpec) -> CommandSpec {
        var spec = spec
        spec.currentNotes = { [unowned self] in relationNotes { $0.mutesOnServer ? nil : "no server-side mute (--server)" } }
        return spec
    }
}

/// What `detail N --json` prints: the status opened, or the profile an account row opens.
private enum OpenedRow: Encodable {
    case status(StatusDocument)
    case user(UserDocument)

    func encode(to encoder: Encoder) throws {
        switch self {
        case .status(let document): try document.encode(to: encoder)
        case .user(let document): try document.encode(to: encoder)
        }
    }
}

/// What the connected API offers, as `help fetch` and completion say it:
/// drawn from the dialect's own page limits, so it cannot drift from what
/// `fetch` accepts.
extension Shell {
    /// A timeline `fetch` can name, with an example source to ask the API about.
    struct TimelineWord {
        let word: String
        let synopsis: String
        let source: TimelineSource
    }

    private static let timelineWords = [
        TimelineWord(word: "public", synopsis: "public", source: .public),
        TimelineWord(word: "local", synopsis: "local", source: .local),
        TimelineWord(word: "home", synopsis: "home", source: .home),
        TimelineWord(word: "tag", synopsis: "tag NAME", source: .tag("wsh")),
        TimelineWord(word: "user", synopsis: "user NAME", source: .user(.screenName("wsh"))),
        TimelineWord(word: "mentions", synopsis: "mentions", source: .mentions),
        TimelineWord(word: "reposts", synopsis: "reposts N", source: .reposts(statusID: "1")),
        TimelineWord(word: "list", synopsis: "list NAME", source: .list("wsh")),
        TimelineWord(word: "bookmarks", synopsis: "bookmarks", source: .bookmarks),
        TimelineWord(word: "favourites", synopsis: "favourites", source: .favourites),
    ]

    /// The timelines the connected API offers; every one while the API is not yet known.
    func offeredTimelines() -> [TimelineWord] {
        guard let dialect = connection.knownDialect else { return Self.timelineWords }
        return Self.timelineWords.filter { dialect.maximumCount(for: $0.source) != nil }
    }

    /// `On this API (mastodon): public, local, … — 1 to 40 statuses a page. Not offered: reposts N.`
    func timelineNotes() -> String {
        guard let dialect = connection.knownDialect else {
            return "On \(connection.label): which timelines and page sizes depends on the API, "
                + "found out by connect URL or the first request; help fetch says them then."
        }
        return "On this API (\(dialect.name)): " + Self.timelineLimits(dialect)
    }

    /// What the manual page says for `fetch`, where the API is not known: each API's timelines.
    static var everyAPITimelineNotes: String {
        Dialects.all.map { "On \($0.name): " + timelineLimits($0) }.joined(separator: "\n\n")
    }

    /// `public, local, …: 1 to 40 statuses a page. Not offered here: reposts N.`
    private static func timelineLimits(_ dialect: any Dialect) -> String {
        var byLimit: [(Int, [String])] = []
        var missing: [String] = []
        for word in timelineWords {
            guard let limit = dialect.maximumCount(for: word.source) else {
                missing.append(word.synopsis)
                continue
            }
            if let index = byLimit.firstIndex(where: { $0.0 == limit }) { byLimit[index].1.append(word.synopsis) }
            else { byLimit.append((limit, [word.synopsis])) }
        }
        let offered = byLimit.map { limit, words in "\(words.joined(separator: ", ")): 1 to \(limit) statuses a page" }
        return offered.joined(separator: "; ") + "."
            + (missing.isEmpty ? "" : " Not offered here: \(missing.joined(separator: ", ")).")
    }

    /// `favorites` (Weibo's spelling) is `favourites` (Mastodon's): both are accepted on both APIs.
    static func canonicalTimelineWord(_ word: String) -> String {
        word == "favorites" ? "favourites" : word
    }

    /// Refuses, before any request, a timeline the connected API does not
    /// offer: one line naming the API and what it offers.
    func checkOffered(_ word: String?) throws(LanguageError) {
        guard let word, let dialect = connection.knownDialect,
              let named = Self.timelineWords.first(where: { $0.word == Self.canonicalTimelineWord(word) }),
              dialect.maximumCount(for: named.source) == nil else { return }
        throw .usage("\(named.synopsis): this API (\(dialect.name)) has no such timeline; it offers "
            + offeredTimelines().map(\.synopsis).joined(separator: ", "))
    }
}
