import FoundationEssentials
import Glibc
import WshArchive
import WshDataController
import WshLanguage
import WshModel
import WshRequest
import WshText
import WshViewModel

/// `archive` (sync, search, the file's summary) and `sql`: the local archive,
/// one SQLite file the DataControllers fill and read (see docs/ARCHIVE.md).
/// The shell only wires them: the store is `WshArchive`, the sync
/// `TimelineDataController.syncArchive`.
extension Shell {
    func archiveCommands() -> [CommandSpec] {
        [
            CommandSpec(
                name: "archive", abstract: "Keep what you fetch in a local SQLite file, and search it offline.",
                discussion: """
                    `archive` alone shows the file, its size, and each source's count and last sync.
                    `archive sync SOURCE…` keeps statuses of each SOURCE (as fetch names them: home,
                    public, user NAME, mentions, local, tag NAME, list NAME, bookmarks, favourites;
                    me, your own; or notifications, kept with the statuses they carry), and the
                    account's data: following, followers, mutes, blocks, lists (with members), each
                    read whole and kept with when each account was first and last seen.
                    Weibo's API has no bookmarks (its favorites are favourites), lists, mutes,
                    blocks or notifications: there, each of those is one line and the rest syncs.
                    `archive changes followers` (following, mutes, blocks) shows who came (+) and
                    who left (-) between the last two syncs of it.
                    The first sync walks back through the timeline, later ones fetch what is new
                    and finish a walk back that was interrupted (--limit N: stop after N statuses).
                    On a terminal a line shows how far it is (a bar toward --limit N). Requests
                    are paced by the server's rate-limit headers. Each page is one transaction:
                    Ctrl-C, or a killed wsh, keeps what arrived.
                    Edits seen on the newest page are kept as versions, deletions marked.
                    `archive import FILE` reads Mastodon's own account export (the outbox.json of
                    the archive Mastodon makes: Create activities of Note objects), so years of
                    posts are searched the same way.
                    `archive on` keeps every timeline read from the server (fetch, more) in the
                    archive as it arrives; `archive off` stops. A page that cannot be written (a
                    full disk) is shown all the same, one line says why, and keeping pauses until
                    `archive on` again. When the server cannot be reached, or with wsh --offline,
                    fetch and more answer from the archive and say so.
                    `archive search QUERY [N]` shows the N best matches (default 20, at most 200)
                    with the matching words marked: any part of a word from three characters, a
                    Chinese word of one or two characters inside a sentence, the start of a word
                    for one or two Latin letters; a word found in more than 5000 statuses is ranked
                    among the 5000 kept last. The matches become the rows: detail N opens one
                    from the archive; --json prints them instead.
                    `archive media [SOURCE…]` downloads the attachments, avatars and custom emojis
                    of the kept statuses (of each SOURCE, or all) into the folder beside the file
                    (archive.sqlite: archive-media/), each named by the SHA-256 of its bytes. A
                    file is kept only when the server answered 200 with all the bytes it announced,
                    as a picture, video or sound type its first bytes agree with: an HTML page is
                    refused. --max-size SIZE (default 100M) and --timeout SECONDS (default 30: a
                    file whose bytes stop for that long is cut) bound each file; --limit N stops
                    after N files. It goes on where it stopped: a file is written under a
                    temporary name until checked, so Ctrl-C or a killed wsh leaves no half file.
                    Files on the API's host are paced by its rate limit, others fetched 4 at once.
                    `archive export html DIR` writes a site to read offline (threads, pages of at
                    most 1000, the kept media, a search box that works from file://); `jsonl FILE`
                    one JSON document a status; `csv FILE` RFC 4180 rows; `mastodon DIR` the files
                    Mastodon's import page reads (following, mutes, blocks, lists, bookmarks). Each
                    file is written whole or not at all.
                    The file is $XDG_DATA_HOME/wsh/archive.sqlite (else
                    ~/.local/share/wsh/archive.sqlite); --archive FILE picks another. Any SQLite
                    tool reads it; sql queries it from here.
                      archive sync home --limit 2000
                      archive search 天气
                      detail 1
                      archive media home
                      archive sync followers
                      archive changes followers
                      archive export html ~/archive-site
                      archive
                    """,
                arguments: [
                    ArgumentSpec("sync|search|changes|export|import|media|on|off",
                                 help: "sync sources, search, who came and left, export, import an export, download media, or keep timelines as read",
                                 arity: .optional),
                    ArgumentSpec("SOURCE…|QUERY N|FILE", help: "with sync and media: the sources; with changes: the kind; with export: the format and where; with search: the query and how many; with import: outbox.json",
                                 arity: .variadic),
                ],
                options: [
                    .valued("limit", valueName: "N", help: "with sync: stop after N statuses; with media: after N files"),
                    .valued("max-size", valueName: "SIZE", help: "with media: the largest file kept (default 100M)"),
                    .valued("timeout", valueName: "SECONDS", help: "with media: cut a file whose bytes stop for this long (default 30)"),
                    .valued("archive", valueName: "FILE", help: "the archive file (default: see above)"),
                    .json,
                ],
                completion: { [unowned self] request in
                    if request.argumentIndex == 0 { return ["sync", "search", "changes", "export", "import", "media", "on", "off"] }
                    if request.previousWords.first == "export" { return request.argumentIndex == 1 ? ["html", "jsonl", "csv", "mastodon"] : [] }
                    let kinds = ArchiveAccountKind.allCases.map(\.rawValue)
                    if request.previousWords.first == "changes" { return kinds.filter { $0 != "lists" } }
                    return offeredTimelines().map(\.word) + ["me", "notifications"] + kinds
                },
                handler: { [unowned self] context in try archive(context) }),
            CommandSpec(
                name: "sql", abstract: "Run a read-only SQL query on the archive and show the rows.",
                discussion: """
                    The connection is read-only (SQLITE_OPEN_READONLY and PRAGMA query_only), and a
                    statement that would write (VACUUM INTO too) is refused before it runs; ATTACH,
                    extensions and fts3_tokenizer are off. Rows are printed as they come, a
                    thousand at a time, aligned within each thousand. A value may be at most
                    16 MB (--max-value SIZE raises it, as 64M or 1G) and a result at most a million
                    rows (--max-rows N); Ctrl-C stops a query that runs too long. docs/ARCHIVE.md
                    lists the tables, with queries to copy. --json prints the rows as JSON objects.
                      sql "SELECT author, count(*) FROM statuses GROUP BY author ORDER BY 2 DESC LIMIT 5"
                    """,
                arguments: [ArgumentSpec("QUERY", help: "one SQL statement, quoted")],
                options: [.valued("archive", valueName: "FILE", help: "the archive file"),
                          .valued("max-value", valueName: "SIZE", help: "the largest value, in bytes or as 64M (default 16M)"),
                          .valued("max-rows", valueName: "N", help: "the most rows printed (default 1000000)"),
                          .json],
                handler: { [unowned self] context in try sql(context) }),
        ]
    }

    /// The archive file this command uses: `--archive FILE`, else wsh's, else the default.
    private func archivePath(_ context: CommandContext) throws(LanguageError) -> String {
        guard let path = archiveFile(context.arguments.option("archive")) else {
            throw .commandFailed("no data folder for the archive (set HOME or XDG_DATA_HOME, or give --archive FILE)")
        }
        return path
    }

    private func archive(_ context: CommandContext) throws(LanguageError) {
        let words = context.arguments.values("SOURCE…|QUERY N|FILE")
        switch context.arguments["sync|search|changes|export|import|media|on|off"] {
        case nil:
            if !words.isEmpty {
                throw .usage("archive takes sync SOURCE…, search QUERY [N], changes KIND, export FORMAT PATH, import FILE, media [SOURCE…], on or off")
            }
            try archiveSummary(context)
        case "sync":
            try archiveSync(context, words: words)
        case "changes":
            try archiveChanges(context, words: words)
        case "export":
            try archiveExport(context, words: words)
        case "search":
            try archiveSearch(context, words: words)
        case "media":
            try archiveMedia(context, words: words)
        case "import":
            guard words.count == 1 else { throw .usage("archive import takes one FILE: the outbox.json of Mastodon's export") }
            let store = try openArchive(context, create: true)
            do {
                let result = try OutboxImport.run(path: words[0], into: store)
                context.setVariable("count", to: .int(result.notes))
                context.note(console.diagnosticStyle.dim(
                    "imported \(result.notes) \(result.notes == 1 ? "post" : "posts") of \(result.account) on \(result.server): \(result.added) new"))
            } catch {
                throw .commandFailed(error.message)
            }
        case "on", "off":
            if !words.isEmpty { throw .usage("archive on and archive off take nothing more") }
            archiveKeepsLive = context.arguments["sync|search|changes|export|import|media|on|off"] == "on"
            if let dataController = timelineDataController {
                let dialect = try currentDialect()
                attachArchive(to: dataController, dialect: dialect, account: archiveKeepsLive ? try archiveAccount(dialect: dialect) : nil)
            }
            context.note(console.diagnosticStyle.dim(archiveKeepsLive
                ? "timelines read from the server are kept in \(try archivePath(context)) as they arrive"
                : "timelines are no longer kept as they arrive"))
        case let other?:
            throw .usage("archive takes sync, search, changes, export, import, media, on or off, not '\(other)'")
        }
    }

    func openArchive(_ context: CommandContext, create: Bool) throws(LanguageError) -> ArchiveStore {
        let path = try archivePath(context)
        do { return try ArchiveStore(path: path, create: create) } catch { throw .commandFailed(error.message) }
    }

    private func archiveSummary(_ context: CommandContext) throws(LanguageError) {
        let path = try archivePath(context)
        let connection: SQLiteConnection
        do { connection = try ArchiveStore.readOnlyConnection(path: path) } catch { throw .commandFailed(error.message) }
        var sources: [ArchiveSourceSummary] = []
        var kinds: [ArchiveKindSummary] = []
        var total = 0
        do {
            sources = try ArchiveStore.summary(connection)
            kinds = try ArchiveStore.kindSummary(connection)
            if case .integer(let count)? = try connection.scalar("SELECT count(*) FROM statuses") { total = Int(count) }
        } catch {
            throw .commandFailed(error.message)
        }
        var size = stat()
        let bytes = stat(path, &size) == 0 ? Int(size.st_size) : 0
        let media = try? ArchiveStore.mediaCount(connection)
        if wantsJSON(context) {
            context.write(try JSONView.encode(ArchiveSummaryDocument(
                file: path, bytes: bytes, statuses: total, media: media,
                sources: sources.map { .init(server: $0.server, account: $0.account, source: $0.source, statuses: $0.count,
                                             lastSync: $0.lastSync, complete: $0.complete) },
                accountData: kinds.map { .init(server: $0.server, account: $0.account, kind: $0.kind, count: $0.count,
                                               lastSync: $0.lastSync) })))
            return
        }
        context.writeLine("\(path) · \(total) status\(total == 1 ? "" : "es") · \(bytes / 1024) KiB")
        if let media, media.keptFiles + media.missing > 0 {
            context.writeLine("  media: \(media.keptFiles) file\(media.keptFiles == 1 ? "" : "s") kept (\(Self.mediaSize(media.keptBytes)))"
                              + " · \(media.missing) missing" + (media.missing > 0 ? " (archive media fetches them)" : ""))
        }
        for source in sources {
            let walk = source.complete ? "complete" : "walk back goes on"
            context.writeLine("  \(source.server) \(source.account) \(source.source): \(source.count) · "
                              + "last sync \(source.lastSync ?? "never") · \(walk)")
        }
        for kind in kinds {
            let what = kind.kind == "lists" ? (kind.count == 1 ? "list" : "lists") : (kind.count == 1 ? "account" : "accounts")
            context.writeLine("  \(kind.server) \(kind.account) \(kind.kind): \(kind.count) \(what) · last sync \(kind.lastSync)")
        }
        context.setVariable("count", to: .int(total))
    }

    /// What one word (or two) of `archive sync` keeps: a stream of statuses, or a kind of the account's data.
    enum ArchiveSyncWord: CustomStringConvertible {
        case statuses(ArchiveSyncSource)
        case account(ArchiveAccountKind)

        var description: String {
            switch self {
            case .statuses(let source): source.description
            case .account(let kind): kind.rawValue
            }
        }
    }

    /// Splits `home user @a tag swift me followers` into one source each; `me` and the account's
    /// data need the token's owner, `owner`.
    func archiveSources(_ words: [String], owner: UserReference?) throws(LanguageError) -> [ArchiveSyncWord] {
        var sources: [ArchiveSyncWord] = []
        var index = 0
        while index < words.count {
            let word = words[index]
            // `list NAME` is a timeline; `lists` is the account's lists with their members.
            let takesName = ["user", "tag", "list"].contains(word)
            let group = Array(words[index..<min(words.count, index + (takesName ? 2 : 1))])
            if word == "reposts" { throw .usage("archive sync does not keep reposts N (a row's reposts): name a timeline") }
            if Int(word) != nil { throw .usage("archive sync takes sources, not a count: --limit N stops it") }
            if word == "me" || ArchiveAccountKind(rawValue: word) != nil, owner == nil {
                throw .usage("archive sync \(word) needs a signed-in account (login)")
            }
            if word == "notifications" {
                sources.append(.statuses(.notifications))
            } else if word == "me", let owner {
                sources.append(.statuses(.own(owner)))
            } else if let kind = ArchiveAccountKind(rawValue: word) {
                sources.append(.account(kind))
            } else {
                sources.append(.statuses(.timeline(try timelineWords(group, allowsCount: false).source)))
            }
            index += group.count
        }
        return sources
    }

    private func archiveSync(_ context: CommandContext, words: [String]) throws(LanguageError) {
        guard !words.isEmpty else { throw .usage("archive sync needs a SOURCE: archive sync home") }
        let limit = try integer(context.arguments.option("limit"), name: "--limit")
        if let limit, limit < 1 { throw .usage("--limit must be 1 or more, not \(limit)") }
        let store = try openArchive(context, create: true)
        if store.isNewer {
            throw .commandFailed("\(store.path) was written by a newer wsh: it is read but not written")
        }
        let dialect = try currentDialect()
        let client = try client()
        let stream = self.stream
        let controller = TimelineDataController(client: client, dialect: dialect, trace: { stream.publish(.dataController($0)) })
        let account = try archiveAccount(dialect: dialect)
        let owner = account == "anonymous" ? nil : UserReference(account)
        var sources = try archiveSources(words, owner: owner)
        // What this API does not have is one line, and the rest syncs.
        let lacking = sources.filter { !offers($0, dialect.capabilities) }
        if !lacking.isEmpty {
            let names = lacking.map(\.description).joined(separator: ", ")
            if lacking.count == sources.count { throw .commandFailed("this API (\(dialect.name)) has no \(names) to sync") }
            context.note("not on this API (\(dialect.name)): \(names); syncing the rest")
            sources.removeAll { !offers($0, dialect.capabilities) }
        }
        var failures: [String] = []
        var totalFetched = 0
        for word in sources {
            let scope = ArchiveScope(server: connection.accountKey, account: account, api: dialect.name, source: word.description)
            guard case .statuses(let source) = word else {
                if case .account(let kind) = word, let owner {
                    if let failure = try syncAccountData(context, kind: kind, owner: owner, scope: scope, controller: controller, store: store) {
                        failures.append(failure)
                    }
                }
                continue
            }
            if case .timeline = source { try checkOffered(source.description.split(separator: " ").first.map(String.init)) }
            let perPage: Int
            switch source.timelineRead {
            case let timeline?: perPage = dialect.maximumCount(for: timeline) ?? 20
            // The sync reads notifications a full page at a time, whatever this says.
            case nil: perPage = 80
            }
            let bar = ProgressLine(title: "syncing \(source)", limit: limit)
            let progress = console.diagnosticIsTerminal ? { [console] (total: Int) in console.diagnostic(bar.draw(total)) } : nil
            let report = WaitingHandOver(progress)
            let handOver = WaitingHandOver((controller, store))
            let result = try wait {
                await handOver.value.0.syncArchive(handOver.value.1, source: source, scope: scope, count: perPage, limit: limit,
                                                   progress: { report.value?($0) })
            }
            if progress != nil { console.diagnostic(bar.clear) }
            totalFetched += result.fetched
            var line = "synced \(source): \(result.fetched) fetched, \(result.added) new"
            if result.edited > 0 { line += ", \(result.edited) edited" }
            if result.versions > 0 { line += ", \(result.versions) earlier \(result.versions == 1 ? "version" : "versions") from edit histories" }
            if result.deleted > 0 { line += ", \(result.deleted) deleted on the server" }
            context.note(console.diagnosticStyle.dim(line))
            switch result.end {
            case .done, .limit: break
            case .interrupted:
                context.setVariable("count", to: .int(totalFetched))
                throw LanguageError(.interrupted, "interrupted: kept the \(statusCount(result.fetched)) of \(source) that arrived")
            case .failed(let error):
                failures.append("\(source): stopped after \(statusCount(result.fetched)), kept: \(redact(error.description))")
            case .archiveFailed(let error):
                throw .commandFailed(error.message)
            case .serverRepeatsItself(let pages):
                failures.append("\(source): stopped after \(statusCount(result.fetched)), kept: the server sent \(pages) pages"
                                + " in a row with nothing new: it repeats itself, so the sync stopped")
            case .serverGoesBackwards(let wrongWay):
                failures.append("\(source): stopped after \(statusCount(result.fetched)), kept: \(wrongWay.reason), so the sync stopped")
            }
        }
        context.setVariable("count", to: .int(totalFetched))
        if !failures.isEmpty { throw .commandFailed(failures.joined(separator: "; ")) }
    }

    /// Whether the connected API has what `word` syncs.
    private func offers(_ word: ArchiveSyncWord, _ capabilities: Capabilities) -> Bool {
        switch word {
        case .account(.mutes): capabilities.mutesOnServer
        case .account(.blocks): capabilities.blocksAccounts
        case .account(.lists): capabilities.lists
        case .account(.following), .account(.followers): true
        case .statuses(.notifications): capabilities.notifications
        case .statuses(.timeline(let timeline)):
            (try? checkOffered(timeline.description.split(separator: " ").first.map(String.init))) != nil
        case .statuses(.own): true
        }
    }

    /// `archive sync following` (followers, mutes, blocks, lists): one kind read whole and kept;
    /// the line that says why it stopped, if it did.
    private func syncAccountData(_ context: CommandContext, kind: ArchiveAccountKind, owner: UserReference, scope: ArchiveScope,
                                 controller: TimelineDataController, store: ArchiveStore) throws(LanguageError) -> String? {
        let bar = ProgressLine(title: "syncing \(kind.rawValue)", limit: nil)
        let progress = console.diagnosticIsTerminal ? { [console] (total: Int) in console.diagnostic(bar.draw(total)) } : nil
        let report = WaitingHandOver(progress)
        let handOver = WaitingHandOver((controller, store))
        let result = try wait {
            await handOver.value.0.syncAccountData(handOver.value.1, kind: kind, owner: owner, scope: scope,
                                                   progress: { report.value?($0) })
        }
        if progress != nil { console.diagnostic(bar.clear) }
        switch result.end {
        case .done:
            let what = kind == .lists ? (result.read == 1 ? "list" : "lists") : (result.read == 1 ? "account" : "accounts")
            var line = "synced \(kind.rawValue): \(result.read) \(what)"
            if kind != .lists { line += ", \(result.came) new, \(result.left) gone since the last sync" }
            context.note(console.diagnosticStyle.dim(line))
            return nil
        case .interrupted:
            throw LanguageError(.interrupted, "interrupted: \(kind.rawValue) not kept (read \(result.read)); the last sync's stand")
        case .failed(let error):
            return "\(kind.rawValue): \(redact(error.description)) (nothing of it kept this time)"
        case .archiveFailed(let error):
            throw .commandFailed(error.message)
        case .serverRepeatsItself:
            return "\(kind.rawValue): the server gave a page it had given before, so the read stopped (nothing of it kept)"
        }
    }

    /// `archive changes KIND`: who came and who left between the last two syncs of it.
    private func archiveChanges(_ context: CommandContext, words: [String]) throws(LanguageError) {
        guard words.count == 1, let kind = ArchiveAccountKind(rawValue: words[0]), kind != .lists else {
            throw .usage("archive changes takes one of following, followers, mutes, blocks")
        }
        let path = try archivePath(context)
        let dialect = try currentDialect()
        let account = try archiveAccount(dialect: dialect)
        let changes: ArchiveChanges
        do {
            let connection = try ArchiveStore.readOnlyConnection(path: path)
            changes = try ArchiveStore.changes(connection, kind: kind.rawValue, server: self.connection.accountKey, account: account)
        } catch {
            throw .commandFailed(error.message)
        }
        context.setVariable("count", to: .int(changes.came.count + changes.left.count))
        if wantsJSON(context) {
            context.write(try JSONView.encode(ArchiveChangesDocument(kind: kind.rawValue, changes: changes)))
            return
        }
        guard let after = changes.after else {
            throw .commandFailed("no sync of \(kind.rawValue) in \(path) for \(account): archive sync \(kind.rawValue) keeps one")
        }
        guard let before = changes.before else {
            context.note("one sync of \(kind.rawValue) so far (\(after)); the next one shows who came and who left")
            return
        }
        context.writeLine("\(kind.rawValue) of \(TerminalText.sanitize(account)) between \(before) and \(after):")
        for edge in changes.came { context.writeLine(console.style.green("+ @" + TerminalText.sanitize(edge.acct ?? edge.targetID))) }
        for edge in changes.left { context.writeLine(console.style.red("- @" + TerminalText.sanitize(edge.acct ?? edge.targetID))) }
        if changes.came.isEmpty && changes.left.isEmpty { context.writeLine("no change") }
    }

    /// `archive export FORMAT PATH`: jsonl or csv to a file, mastodon or html to a folder.
    private func archiveExport(_ context: CommandContext, words: [String]) throws(LanguageError) {
        let formats = "html DIR, jsonl FILE, csv FILE or mastodon DIR"
        guard words.count == 2 else { throw .usage("archive export takes a format and where: \(formats)") }
        let (format, target) = (words[0], words[1])
        let path = try archivePath(context)
        let written: ArchiveExport.Written
        do {
            let connection = try ArchiveStore.readOnlyConnection(path: path)
            switch format {
            case "jsonl": written = try ArchiveExport.jsonLines(connection, to: target)
            case "csv": written = try ArchiveExport.csv(connection, to: target)
            case "mastodon":
                let (server, account) = try exportedAccount(connection)
                written = try ArchiveExport.mastodon(connection, server: server, account: account, to: target)
            case "html":
                written = try ArchiveExport.html(connection, media: ArchiveMediaFolder(archivePath: path), to: target)
            default:
                throw LanguageError.usage("archive export takes \(formats), not '\(format)'")
            }
        } catch let error as LanguageError {
            throw error
        } catch let error as ArchiveError {
            throw .commandFailed(error.message)
        } catch {
            throw .commandFailed("\(error)")
        }
        context.setVariable("count", to: .int(written.files.reduce(0) { $0 + $1.rows }))
        for file in written.files {
            context.note(console.diagnosticStyle.dim("wrote \(file.name): \(file.rows) \(file.rows == 1 ? "row" : "rows")"))
        }
    }

    /// Whose data `archive export mastodon` writes: the signed-in account's where the archive has
    /// it, else the one account the archive has data of.
    private func exportedAccount(_ connection: SQLiteConnection) throws(LanguageError) -> (server: String, account: String) {
        var pairs: [(String, String)] = []
        do {
            try connection.run("SELECT DISTINCT server, account FROM relation_syncs UNION SELECT DISTINCT server, account "
                               + "FROM source_statuses WHERE source = 'bookmarks'") { row in
                pairs.append((row.string(0) ?? "", row.string(1) ?? ""))
            }
        } catch {
            throw .commandFailed(error.message)
        }
        let server = self.connection.accountKey
        if let dialect = try? currentDialect(), let account = try? archiveAccount(dialect: dialect),
           pairs.contains(where: { $0 == (server, account) }) {
            return (server, account)
        }
        guard pairs.count == 1, let only = pairs.first else {
            throw .commandFailed(pairs.isEmpty
                ? "the archive keeps no following, mutes, blocks, lists or bookmarks: archive sync following mutes blocks lists bookmarks"
                : "the archive keeps the data of \(pairs.count) accounts: sign in as the one to export")
        }
        return only
    }

    /// Who the rows are kept for: the account's screen name, asked of the server
    /// (one request), else the connection's account key.
    private func archiveAccount(dialect: any Dialect) throws(LanguageError) -> String {
        archiveIdentity(dialect: dialect).map { "@" + $0.screenName } ?? "anonymous"
    }

    /// `archive search QUERY [N]`: the matches become the timeline's rows
    /// (the DataController answers `.archive` from the file), so `detail N`,
    /// `favorite N` and the rest work on them as on any timeline; each is
    /// shown with its matching words marked. `--json` prints the matches.
    private func archiveSearch(_ context: CommandContext, words: [String]) throws(LanguageError) {
        var terms = words
        var count = 20
        if terms.count > 1, let last = terms.last, let number = Int(last) {
            count = number
            terms.removeLast()
        }
        guard (1...200).contains(count) else { throw .usage("N must be from 1 to 200, not \(count)") }
        let query = terms.joined(separator: " ")
        guard !query.isEmpty else { throw .usage("archive search needs a QUERY: archive search 天气") }
        let path = try archivePath(context)
        let store: ArchiveStore
        do { store = try ArchiveStore(path: path, create: false) } catch { throw .commandFailed(error.message) }
        // Without a session (no account to read with), or for --json, the matches are printed, not made rows.
        guard !wantsJSON(context), let session = try? session() else {
            let matches: [ArchiveMatch]
            do { matches = try store.search(query, limit: count) } catch { throw .commandFailed(error.message) }
            context.setVariable("count", to: .int(matches.count))
            if wantsJSON(context) {
                context.write(try JSONView.encode(matches.map(ArchiveMatchDocument.init)))
            } else {
                showMatches(context, query: query, matches.map { ($0.status, $0.marked, $0.deletedAt != nil) })
            }
            return
        }
        let loaded = try drive(context, input: "SessionViewModel.fetch(source: archive search \(query), count: \(count))") {
            try await $0.fetch(source: .archive(query: query, file: path), count: count)
        }
        context.setVariable("count", to: .int(loaded))
        let byID = Dictionary(session.state.timeline.statuses.compactMap { status in status.identifier.map { ($0, status) } },
                              uniquingKeysWith: { first, _ in first })
        let queryWords = query.split(whereSeparator: \.isWhitespace).map(String.init)
        showMatches(context, query: query, session.rows.compactMap { row in
            byID[row.id].map { ($0, ArchiveStore.mark(queryWords, in: $0.text ?? ""), $0.deleted == true) }
        })
    }

    /// The matches, numbered as the rows: author, time, and the text with the matching words marked.
    private func showMatches(_ context: CommandContext, query: String, _ matches: [(status: Status, marked: String, deleted: Bool)]) {
        if matches.isEmpty {
            context.note("no status in the archive matches \(query)")
            return
        }
        for (offset, match) in matches.enumerated() {
            let author = TerminalText.sanitize(match.status.user?.screenName ?? "?")
            let time = match.status.createdAt.map { CivilTime.minuteText($0.date, in: .shown) } ?? ""
            let deleted = match.deleted ? console.style.red(" (deleted on the server)") : ""
            context.writeLine("\(offset + 1). @\(author) · \(time)\(deleted)")
            context.writeLine("   " + marked(match.marked))
        }
    }

    /// The text with the archive's marks turned into bold (or «» without colour),
    /// each part sanitized on its own, so no server text can forge a mark.
    private func marked(_ text: String) -> String {
        var result = ""
        var inside = false
        var part = ""
        func flush() {
            let clean = TerminalText.sanitize(part)
            if inside {
                let bold = console.style.bold(clean)
                result += bold == clean ? "«" + clean + "»" : bold
            } else {
                result += clean
            }
            part = ""
        }
        for character in text {
            if character == ArchiveMatch.markStart || character == ArchiveMatch.markEnd {
                flush()
                inside = character == ArchiveMatch.markStart
            } else {
                part.append(character)
            }
        }
        flush()
        return result
    }

    private func sql(_ context: CommandContext) throws(LanguageError) {
        let query = context.arguments["QUERY"] ?? ""
        let path = try archivePath(context)
        let limits = try queryLimits(context)
        var printer = wantsJSON(context) ? SQLRowPrinter.json(context) : SQLRowPrinter.table(context, style: console.style)
        let end: (rows: Int, overBudget: Bool)
        do {
            let connection = try ArchiveStore.readOnlyConnection(path: path)
            end = try connection.stream(query, limits: limits, stop: { context.isInterruptRequested },
                                        columns: { printer.start($0) }, row: { printer.add($0) })
        } catch {
            printer.finish(failed: true)
            switch error.code & 0xff {
            case 8: throw .commandFailed("read-only: \(error.message)")
            case 9: throw LanguageError(.interrupted, "interrupted: the query stopped, the archive is as it was")
            case 18:
                throw .commandFailed("a value is larger than the limit of \(Self.size(limits.valueBytes)) "
                                     + "(sql --max-value SIZE raises it, up to 1G)")
            default: throw .commandFailed(error.message)
            }
        }
        printer.finish()
        context.setVariable("count", to: .int(end.rows))
        if end.overBudget {
            throw .commandFailed("stopped after \(end.rows) rows, the limit of one result (sql --max-rows N raises it)")
        }
        if !wantsJSON(context) { context.note(console.diagnosticStyle.dim("\(end.rows) row\(end.rows == 1 ? "" : "s")")) }
    }

    /// `--max-value SIZE` and `--max-rows N`, else the standard limits.
    private func queryLimits(_ context: CommandContext) throws(LanguageError) -> QueryLimits {
        var limits = QueryLimits.standard
        if let word = context.arguments.option("max-value") {
            guard let bytes = Self.bytes(word), (1...QueryLimits.largestValue).contains(bytes) else {
                throw .usage("--max-value must be a size from 1 to 1G (bytes, or with K, M or G), not '\(word)'")
            }
            limits.valueBytes = bytes
        }
        if let rows = try integer(context.arguments.option("max-rows"), name: "--max-rows") {
            guard rows > 0 else { throw .usage("--max-rows must be 1 or more, not \(rows)") }
            limits.rows = rows
        }
        return limits
    }

    /// `64M` as 67108864: a whole number of bytes, or of K, M or G (1024s).
    static func bytes(_ word: String) -> Int? {
        let units: [Character: Int] = ["K": 1 << 10, "M": 1 << 20, "G": 1 << 30]
        if let last = word.last?.uppercased().first, let unit = units[last] {
            return Int(word.dropLast()).flatMap { $0.multipliedReportingOverflow(by: unit).overflow ? nil : $0 * unit }
        }
        return Int(word)
    }

    /// A size as `--max-value` takes it: `16 MB`, `512 KB`, or bytes.
    static func size(_ bytes: Int) -> String {
        if bytes % (1 << 20) == 0 { return "\(bytes >> 20) MB" }
        if bytes % (1 << 10) == 0 { return "\(bytes >> 10) KB" }
        return "\(bytes) bytes"
    }

    static func jsonValue(_ value: SQLiteValue) -> JSONValue {
        switch value {
        case .null: .null
        case .integer(let number): .integer(number)
        case .real(let number): .number(number)
        case .text(let text): .string(text)
        }
    }
}

private extension String {
    func trimmingTrailingSpaces() -> String {
        var text = self
        while text.last == " " { text.removeLast() }
        return text
    }
}

/// How `sql` prints rows as they come: a table aligned a thousand rows at a
/// time (psql's FETCH_COUNT does the same; the widths only grow, so columns
/// stay put), or one JSON array written object by object.
struct SQLRowPrinter {
    private let context: CommandContext
    /// The table's style; nil prints JSON.
    private let style: Style?
    /// The column names; nil until the statement was prepared (nothing is printed before).
    private var columns: [String]?
    private var widths: [Int] = []
    /// The rows not printed yet: each cell sanitized, with its width on a terminal.
    private var batch: [[(text: String, width: Int)]] = []
    private var rowsPrinted = 0
    private var headerPrinted = false

    static func table(_ context: CommandContext, style: Style) -> SQLRowPrinter { SQLRowPrinter(context: context, style: style) }
    static func json(_ context: CommandContext) -> SQLRowPrinter { SQLRowPrinter(context: context, style: nil) }

    private init(context: CommandContext, style: Style?) {
        self.context = context
        self.style = style
    }

    /// The rows aligned together.
    private static let batchSize = 1000

    mutating func start(_ columns: [String]) {
        self.columns = columns
        if style != nil { self.columns = columns.map { TerminalText.sanitize($0) } }
        widths = (self.columns ?? []).map { DisplayWidth.of($0) }
    }

    mutating func add(_ row: [SQLiteValue]) {
        guard style != nil else {
            let object = JSONValue(Dictionary(zip(columns ?? [], row.map(Shell.jsonValue)), uniquingKeysWith: { first, _ in first }))
            let text = String(decoding: object.encoded(pretty: true), as: UTF8.self)
            context.write((rowsPrinted == 0 ? "[\n" : ",\n") + text.split(separator: "\n", omittingEmptySubsequences: false)
                .map { "  " + $0 }.joined(separator: "\n"))
            rowsPrinted += 1
            return
        }
        batch.append(row.map { value in
            let text = TerminalText.sanitize(value.text)
            return (text, DisplayWidth.of(text))
        })
        if batch.count == Self.batchSize { flush() }
    }

    /// Prints what is held: the last rows, the header of an empty table, the
    /// end of the JSON array. After a failure what was printed is made whole,
    /// and nothing is printed when no row came.
    mutating func finish(failed: Bool = false) {
        guard let columns, !(failed && rowsPrinted + batch.count == 0) else { return }
        if style == nil {
            context.write(rowsPrinted == 0 ? "[]\n" : "\n]\n")
        } else {
            flush()
            if !headerPrinted && !columns.isEmpty { context.writeLine(header) }
        }
        self.columns = nil
    }

    private var header: String {
        style.map { $0.bold(line((columns ?? []).map { ($0, DisplayWidth.of($0)) })) } ?? ""
    }

    private mutating func flush() {
        guard !batch.isEmpty else { return }
        for row in batch { for (index, cell) in row.enumerated() { widths[index] = max(widths[index], cell.width) } }
        var text = headerPrinted ? "" : header + "\n"
        headerPrinted = true
        for row in batch { text += line(row) + "\n" }
        context.write(text)
        rowsPrinted += batch.count
        batch.removeAll(keepingCapacity: true)
    }

    private func line(_ cells: [(text: String, width: Int)]) -> String {
        zip(cells, widths).map { cell, width in cell.text + String(repeating: " ", count: max(0, width - cell.width)) }
            .joined(separator: "  ").trimmingTrailingSpaces()
    }
}

/// `archive --json`: the file and each source.
struct ArchiveSummaryDocument: Encodable {
    struct Source: Encodable {
        let server: String
        let account: String
        let source: String
        let statuses: Int
        let lastSync: String?
        let complete: Bool
    }

    /// A kind of the account's data (following, followers, mutes, blocks, lists) as its last sync saw it.
    struct Kind: Encodable {
        let server: String
        let account: String
        let kind: String
        let count: Int
        let lastSync: String
    }

    let file: String
    let bytes: Int
    let statuses: Int
    /// The files `archive media` kept, and how many the statuses show that it did not.
    let media: ArchiveMediaCount?
    let sources: [Source]
    let accountData: [Kind]
}

/// `archive changes KIND --json`: the two syncs compared, who came and who left.
struct ArchiveChangesDocument: Encodable {
    struct Edge: Encodable {
        let id: String
        let acct: String?
    }
    let kind: String
    let before: String?
    let after: String?
    let came: [Edge]
    let left: [Edge]

    init(kind: String, changes: ArchiveChanges) {
        self.kind = kind
        before = changes.before
        after = changes.after
        came = changes.came.map { Edge(id: $0.targetID, acct: $0.acct) }
        left = changes.left.map { Edge(id: $0.targetID, acct: $0.acct) }
    }
}

/// One match of `archive search --json`: the text with the matching parts in «».
struct ArchiveMatchDocument: Encodable {
    let id: String?
    let author: String?
    let createdAt: String?
    let text: String
    let marked: String
    let server: String
    let account: String
    let deletedAt: String?

    init(_ match: ArchiveMatch) {
        id = match.status.identifier
        author = match.status.user?.screenName
        createdAt = match.status.createdAt?.iso8601Text
        text = match.status.text ?? ""
        marked = String(match.marked.map { $0 == ArchiveMatch.markStart ? "«" : $0 == ArchiveMatch.markEnd ? "»" : $0 })
        server = match.server
        account = match.account
        deletedAt = match.deletedAt
    }
}

extension Shell {
    /// The archive file: `--archive FILE` on the command (`archive`, `sql`), else
    /// wsh's own `--archive FILE`, else the default; nil without a data folder.
    func archiveFile(_ option: String? = nil) -> String? {
        option ?? Self.archiveFile(configured: configuration.archivePath)
    }

    /// wsh's own `--archive FILE`, else the default in the data folder.
    static func archiveFile(configured: String?) -> String? {
        if let configured { return configured }
        // Only the two variables the path needs (getenv): ProcessInfo's dictionary of
        // every variable cost a third of a warm `fetch 20`'s own work when each fetch asked.
        let variable = ShellPaths.lookup(nil)
        var environment: [String: String] = [:]
        for name in ["XDG_DATA_HOME", "HOME"] { environment[name] = variable(name) }
        guard !environment.isEmpty else { return nil }
        return ArchiveStore.defaultPath(environment: environment)
    }
}
