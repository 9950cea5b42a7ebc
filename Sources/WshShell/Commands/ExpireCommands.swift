import FoundationEssentials
import WshArchive
import WshDataController
import WshLanguage
import WshModel
import WshRequest
import WshText
import WshViewModel

/// `expire` (delete your own old statuses, each kept in the archive first)
/// and `redraft` (post an archived status again). The shell only wires:
/// the rules, the listing and the deletions are `TimelineDataController.expire`,
/// the SQL `ArchiveStore+Expire`; `undo`'s honest answer is the ViewModel's
/// `ExpiredStatusesEffect`.
extension Shell {
    func expireCommands() -> [CommandSpec] {
        [
            CommandSpec(
                name: "expire", abstract: "Delete your own statuses older than an age, each kept in the archive first.",
                discussion: """
                    A dry run by default: it syncs your own statuses (boosts too) into the archive,
                    then lists, from the archive's copy, the statuses older than --older-than that
                    would be deleted (id, date, first words) and how many a rule keeps, by reason.
                    The age is a whole number of hours, days or weeks: 36h, 90d, 12w.
                    Rules: --keep-pinned (not on Weibo, which has no pins: it says so),
                    --keep-if-favourites N and --keep-if-boosts N (N or more), --keep-tag TAG
                    (again, or TAG,TAG…, for more), --keep-direct, --boosts-only (delete boosts only).
                    --confirmed writes the list in the archive as one run, then deletes its
                    statuses one by one, oldest first, each marked in the archive (deleted_by_me;
                    the row and its JSON stay) once the server said it is gone. Deletions go at
                    the server's pace (Mastodon: 30 in 30 minutes): on its rate limit, expire waits
                    for the reset and goes on, with a line saying until when and when it should end.
                    Ctrl-C, or a killed wsh, stops it: expire --confirmed again goes on with that
                    run's remaining statuses (each checked again against its rules), and never
                    deletes a status the run did not list. With other options while a run is
                    unfinished it refuses; expire --abandon drops the unfinished run.
                    Media files are not downloaded by expire: the archive keeps the statuses' JSON
                    and media URLs.
                    undo cannot restore deleted statuses on the server, and says so; redraft ID
                    posts an archived status's text again as a new status. --json prints the dry
                    run's list as a document.
                      expire --older-than 90d --keep-pinned --keep-if-favourites 10
                      expire --older-than 90d --keep-pinned --keep-if-favourites 10 --confirmed
                    """,
                options: [
                    .valued("older-than", valueName: "AGE", help: "statuses older than AGE: 36h, 90d, 12w"),
                    .flag("keep-pinned", help: "keep pinned statuses"),
                    .valued("keep-if-favourites", valueName: "N", help: "keep statuses with N or more favourites"),
                    .valued("keep-if-boosts", valueName: "N", help: "keep statuses boosted (reposted) N or more times"),
                    .valued("keep-tag", valueName: "TAG", help: "keep statuses with this hashtag (TAG,TAG… for more)"),
                    .flag("boosts-only", help: "delete only boosts (reposts), keep everything you wrote"),
                    .flag("keep-direct", help: "keep direct messages"),
                    .flag("confirmed", help: "delete (without it, a dry run)"),
                    .flag("abandon", help: "mark the unfinished run finished, deleting nothing more"),
                    .valued("archive", valueName: "FILE", help: "the archive file"),
                    .json,
                ],
                handler: { [unowned self] context in try expire(context) }),
            CommandSpec(
                name: "redraft", abstract: "Post an archived status (yours, deleted or not) again, as a new status.",
                discussion: """
                    Posts the text the archive keeps for status ID, with its content warning,
                    visibility and language where the API takes them: a NEW status (a new id, a
                    new time, no replies, favourites or boosts). undo deletes the new status.
                      redraft 109876543210
                    """,
                arguments: [ArgumentSpec("ID", help: "the status id, as expire lists it")],
                options: [.valued("archive", valueName: "FILE", help: "the archive file")],
                handler: { [unowned self] context in try redraft(context) }),
        ]
    }

    private func expire(_ context: CommandContext) throws(LanguageError) {
        let confirmed = context.arguments.flag("confirmed")
        let abandon = context.arguments.flag("abandon")
        if confirmed && abandon { throw .usage("expire takes --confirmed or --abandon, not both") }
        if abandon && context.arguments.option("older-than") != nil {
            throw .usage("expire --abandon takes no rules: it drops the unfinished run")
        }
        let rules = abandon ? nil : try expireRules(context)
        let dialect = try currentDialect()
        let client = try client()
        guard let identity = archiveIdentity(dialect: dialect) else {
            throw .commandFailed("expire needs a token: it deletes your own statuses")
        }
        let account = "@" + identity.screenName
        let store = try openExpireArchive(context)
        let stream = self.stream
        let controller = TimelineDataController(client: client, dialect: dialect, trace: { stream.publish(.dataController($0)) })
        let server = connection.accountKey
        if abandon {
            let run: Int64?
            do { run = try store.abandonExpireRun(server: server, authorID: identity.uid) } catch {
                throw .commandFailed(error.message)
            }
            context.note(console.diagnosticStyle.dim(run.map { "expire: run \($0) abandoned: nothing more of it is deleted" }
                ?? "expire: no unfinished run to abandon"))
            return
        }
        guard var rules else { return }
        rules.authorID = identity.uid
        let scope = ArchiveScope(server: server, account: account, api: dialect.name, source: "")
        let perPage = dialect.maximumCount(for: .user(.uid(identity.uid))) ?? 20
        if confirmed {
            try expireConfirmed(context, controller: controller, store: store, rules: rules, scope: scope, perPage: perPage)
            return
        }
        let handOver = WaitingHandOver((controller, store))
        let planned = try wait { () async -> Result<ExpirePlan, ExpireStop> in
            do throws(ExpireStop) { return .success(try await handOver.value.0.planExpire(handOver.value.1, rules: rules, scope: scope, perPage: perPage)) } catch {
                return .failure(error)
            }
        }
        let plan: ExpirePlan
        switch planned {
        case .success(let made): plan = made
        case .failure(let stop): throw expireFailure(stop)
        }
        showPlan(context, plan, seconds: controller.expireSeconds(plan.listed.count))
    }

    /// The rules the options say; a usage error in one line for a wrong one.
    private func expireRules(_ context: CommandContext) throws(LanguageError) -> ExpireRules {
        guard let age = context.arguments.option("older-than") else {
            throw .usage("expire needs --older-than AGE (36h, 90d, 12w)")
        }
        guard ExpireRules.seconds(age) != nil else {
            throw .usage("--older-than must be a whole number above 0 of hours, days or weeks (36h, 90d, 12w), not '\(age)'")
        }
        var rules = ExpireRules(olderThan: age)
        rules.keepPinned = context.arguments.flag("keep-pinned")
        rules.boostsOnly = context.arguments.flag("boosts-only")
        rules.keepDirect = context.arguments.flag("keep-direct")
        for (name, path) in [("keep-if-favourites", \ExpireRules.keepIfFavourites), ("keep-if-boosts", \ExpireRules.keepIfBoosts)] {
            guard let number = try integer(context.arguments.option(name), name: "--" + name) else { continue }
            guard number >= 0 else { throw .usage("--\(name) must be 0 or more, not \(number)") }
            rules[keyPath: path] = number
        }
        if context.arguments.option("keep-tag") != nil {
            // Each --keep-tag given (the parsed arguments keep the last one only), each TAG,TAG… split.
            var given: [String] = []
            for (index, word) in context.words.enumerated() {
                if word == "--keep-tag", index + 1 < context.words.count { given.append(context.words[index + 1]) }
                if word.hasPrefix("--keep-tag=") { given.append(String(word.dropFirst(11))) }
            }
            rules.keepTags = given.flatMap { $0.split(separator: ",") }
                .map { $0.hasPrefix("#") ? String($0.dropFirst()).lowercased() : $0.lowercased() }
            if rules.keepTags.isEmpty { throw .usage("--keep-tag needs a TAG") }
        }
        return rules
    }

    private func openExpireArchive(_ context: CommandContext) throws(LanguageError) -> ArchiveStore {
        guard let path = archiveFile(context.arguments.option("archive")) else {
            throw .commandFailed("no data folder for the archive (set HOME or XDG_DATA_HOME, or give --archive FILE)")
        }
        let store: ArchiveStore
        do { store = try ArchiveStore(path: path, create: true, maximumPages: configuration.archiveMaximumPages) } catch {
            throw .commandFailed(error.message)
        }
        if store.isNewer { throw .commandFailed("\(path) was written by a newer wsh: it is read but not written, so expire deletes nothing") }
        return store
    }

    /// The dry run's list, counts and last line (or its document with --json).
    private func showPlan(_ context: CommandContext, _ plan: ExpirePlan, seconds: Int) {
        context.setVariable("count", to: .int(plan.listed.count))
        leaveResult(context, later: { ExpirePlanDocument(plan, seconds: seconds) })
        if wantsJSON(context) {
            if let json = try? JSONView.encode(ExpirePlanDocument(plan, seconds: seconds)) { context.write(json) }
            return
        }
        if plan.noPins { context.note("expire: \(currentAPIName) has no pinned statuses: --keep-pinned keeps nothing") }
        for status in plan.listed { context.writeLine(expireRow(status)) }
        var byReason: [ExpireKeep: Int] = [:]
        for kept in plan.kept { byReason[kept.reason, default: 0] += 1 }
        for reason in ExpireKeep.allCases {
            if let count = byReason[reason] { context.note("kept: \(statusCount(count)), \(reason.description)") }
        }
        let pace = plan.listed.isEmpty ? "" : " (paced: about \(RateLimitReset.duration(seconds)))"
        context.note("\(plan.listed.count) would be deleted, \(plan.kept.count) kept; run again with --confirmed to delete\(pace)")
    }

    /// `123 · 2024-11-01 · the first words…`
    private func expireRow(_ status: ExpireCandidate) -> String {
        let words = TerminalText.sanitize(status.text.split(whereSeparator: \.isNewline).joined(separator: " "))
        let first = words.count > 60 ? words.prefix(59) + "…" : words
        return "\(TerminalText.sanitize(status.id)) · \((status.createdAt ?? "").prefix(10)) · \(status.isBoost ? "(boost) " : "")\(first)"
    }

    private func expireConfirmed(_ context: CommandContext, controller: TimelineDataController, store: ArchiveStore,
                                 rules: ExpireRules, scope: ArchiveScope, perPage: Int) throws(LanguageError) {
        let terminal = console.diagnosticIsTerminal
        let report = WaitingHandOver({ [console] (progress: ExpireProgress) in
            let end = CivilTime.minuteText(progress.estimatedEnd, in: .shown)
            if let until = progress.waitingUntil {
                let line = "expire: \(progress.deleted) of \(progress.total) deleted; the server's rate limit: waiting until "
                    + "\(CivilTime.minuteText(until, in: .shown)), then going on (ends about \(end))"
                console.diagnostic(terminal ? "\r\u{1B}[K" + line : line + "\n")
            } else if terminal {
                console.diagnostic("\r\u{1B}[Kexpire: \(progress.deleted) of \(progress.total) deleted (ends about \(end))")
            }
        })
        let handOver = WaitingHandOver((controller, store, connection.mediaHTTPClients()))
        let finished = try wait { () async -> Result<ExpireOutcome, ExpireStop> in
            do throws(ExpireStop) {
                return .success(try await handOver.value.0.expire(handOver.value.1, rules: rules, scope: scope, perPage: perPage,
                                                                  media: handOver.value.2, progress: { report.value($0) }))
            } catch {
                return .failure(error)
            }
        }
        if terminal { console.diagnostic("\r\u{1B}[K") }
        let outcome: ExpireOutcome
        switch finished {
        case .success(let ended): outcome = ended
        case .failure(let stop): throw expireFailure(stop)
        }
        let document = ExpireOutcomeDocument(outcome)
        leaveResult(context, document)
        if wantsJSON(context) {
            if let json = try? JSONView.encode(document) { context.write(json) }
        } else {
            for status in outcome.deleted { context.writeLine("deleted " + expireRow(status)) }
        }
        context.setVariable("count", to: .int(outcome.deleted.count))
        if outcome.resumed, let listedAs = outcome.listedAs, listedAs != scope.account {
            context.note("expire: run \(outcome.run) was listed as \(TerminalText.sanitize(listedAs)); the account is "
                         + "\(TerminalText.sanitize(scope.account)) now: its statuses are the same (found by the account's id)")
        }
        if outcome.resumed {
            context.note("expire: went on with run \(outcome.run) (listed \(statusCount(outcome.listed)), "
                         + "\(outcome.deletedBefore) deleted before)")
        }
        if outcome.noPins { context.note("expire: \(currentAPIName) has no pinned statuses: --keep-pinned keeps nothing") }
        for kept in outcome.keptNow { context.note("expire: kept now, \(kept.reason.description): \(expireRow(kept.status))") }
        let ids = outcome.deleted.map(\.id)
        if !ids.isEmpty {
            // In the history, so that undo says what it cannot do.
            _ = try? drive(context, input: "SessionViewModel.expired(\(rules.words) --confirmed, deleted: \(ids.count))") {
                try await $0.expired(rules.words + " --confirmed", deleted: ids)
            }
        }
        let gone = outcome.alreadyGone > 0 ? " (\(outcome.alreadyGone) already gone from the server)" : ""
        let summary = "\(statusCount(outcome.deleted.count)) deleted\(gone), each kept in the archive"
        switch outcome.end {
        case .done where outcome.run == 0:
            context.note(console.diagnosticStyle.dim("expire: nothing older than \(rules.olderThan) that the rules do not keep: nothing deleted"))
        case .done:
            context.note(console.diagnosticStyle.dim("expire: \(summary); run \(outcome.run) is finished"))
        case .interrupted:
            throw LanguageError(.interrupted, "interrupted: \(summary); expire --confirmed with the same options goes on")
        case .failed(let id, let reason):
            throw .commandFailed("expire: \(summary); the server refused to delete \(id): \(redact(reason)); "
                                 + "expire --confirmed with the same options goes on from it")
        case .archiveFailed(let error):
            throw .commandFailed("expire: \(summary); then: \(error.message): nothing more is deleted until it can be marked")
        }
    }

    /// One line for an expire that stopped before deleting anything.
    private func expireFailure(_ stop: ExpireStop) -> LanguageError {
        switch stop {
        case .archive(let error): .commandFailed("expire: \(error.message); nothing was deleted")
        case .request(let error): .commandFailed("expire: \(redact(error.description)); nothing was deleted")
        case .media(.interrupted): LanguageError(.interrupted, "interrupted while keeping the statuses' media; nothing was deleted")
        case .media(.failed(let error)): .commandFailed("expire: the media could not be kept (\(error.message)); nothing was deleted")
        case .media(.done): .commandFailed("expire: nothing was deleted")
        case .sync(let end): .commandFailed("expire: the sync of your statuses stopped (\(syncStopReason(end))); nothing was deleted")
        case .unfinished(let run, let rules):
            .commandFailed("expire: run \(run) is unfinished (\(ExpireRules(json: rules)?.words ?? rules)): "
                           + "run expire --confirmed with those options to finish it, or expire --abandon to drop it")
        }
    }

    private func syncStopReason(_ end: ArchiveSyncResult.End) -> String {
        switch end {
        case .done, .limit: "done"
        case .interrupted: "interrupted"
        case .failed(let error): redact(error.description)
        case .archiveFailed(let error): error.message
        case .serverRepeatsItself(let pages): "the server sent \(pages) pages in a row with nothing new"
        case .serverGoesBackwards(let wrongWay): wrongWay.reason
        }
    }

    /// The connected API's name, for a line saying what it lacks.
    private var currentAPIName: String { connection.knownDialect?.serverName ?? "this API" }

    private func redraft(_ context: CommandContext) throws(LanguageError) {
        let id = context.arguments["ID"] ?? ""
        let store = try openExpireArchive(context)
        let kept: ArchivedDraft?
        do { kept = try store.archivedDraft(server: connection.accountKey, id: id) } catch { throw .commandFailed(error.message) }
        guard let kept else { throw .commandFailed("redraft: the archive keeps no status \(id) of this server") }
        let capabilities = try currentDialect().capabilities
        var draft = StatusDraft(text: kept.text)
        if capabilities.postOptions {
            draft.spoiler = kept.cw
            draft.visibility = kept.visibility.flatMap { StatusDraft.Visibility(rawValue: $0) }
            draft.language = kept.language
        }
        try drive(context, input: "SessionViewModel.post(redraft of \(id))") { try await $0.post(draft) }
        context.note(console.diagnosticStyle.dim("redraft: posted the archive's copy of \(id) as a new status"))
    }

    /// The token's owner: its uid and screen name, asked of the server (one request); nil without a token.
    func archiveIdentity(dialect: any Dialect) -> TokenIdentity? {
        guard let token = (try? connection.credential())?.token, let base = try? connection.apiBase() else { return nil }
        let handOver = WaitingHandOver(loginViewModel(base: base, dialect: dialect))
        return try? wait({ try await handOver.value.identify(token) })
    }
}

/// `expire --json`: the dry run as a document.
struct ExpirePlanDocument: Encodable {
    struct Row: Encodable {
        let id: String
        let createdAt: String?
        let text: String
        let boost: Bool
        let keptBecause: String?
    }

    let rules: String
    let cutoff: String
    let wouldDelete: Int
    let kept: Int
    let keptByReason: [String: Int]
    let estimatedSeconds: Int
    let listed: [Row]
    let keptStatuses: [Row]

    init(_ plan: ExpirePlan, seconds: Int) {
        rules = plan.rules.words
        cutoff = plan.cutoff
        wouldDelete = plan.listed.count
        kept = plan.kept.count
        keptByReason = Dictionary(plan.kept.map { ($0.reason.rawValue, 1) }, uniquingKeysWith: +)
        estimatedSeconds = seconds
        listed = plan.listed.map { Row(id: $0.id, createdAt: $0.createdAt, text: $0.text, boost: $0.isBoost, keptBecause: nil) }
        keptStatuses = plan.kept.map {
            Row(id: $0.status.id, createdAt: $0.status.createdAt, text: $0.status.text, boost: $0.status.isBoost,
                keptBecause: $0.reason.rawValue)
        }
    }
}

/// `expire --confirmed --json`: what the run deleted, and how it ended.
struct ExpireOutcomeDocument: Encodable {
    struct Kept: Encodable {
        let id: String
        let keptBecause: String
    }

    /// The run in the archive's `expire_runs` (0: nothing was listed, no run written).
    let run: Int64
    let resumed: Bool
    let listed: Int
    let deletedBefore: Int
    let deleted: [String]
    let alreadyGone: Int
    let keptNow: [Kept]
    let rateLimitWaits: Int
    /// `done`, `interrupted`, `failed` or `archive_failed`.
    let end: String

    init(_ outcome: ExpireOutcome) {
        run = outcome.run
        resumed = outcome.resumed
        listed = outcome.listed
        deletedBefore = outcome.deletedBefore
        deleted = outcome.deleted.map(\.id)
        alreadyGone = outcome.alreadyGone
        keptNow = outcome.keptNow.map { Kept(id: $0.status.id, keptBecause: $0.reason.rawValue) }
        rateLimitWaits = outcome.waits
        switch outcome.end {
        case .done: end = "done"
        case .interrupted: end = "interrupted"
        case .failed: end = "failed"
        case .archiveFailed: end = "archive_failed"
        }
    }
}
