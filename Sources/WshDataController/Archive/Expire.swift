import FoundationEssentials
import WshArchive
import WshModel
import WshRequest

/// What `expire` deletes and keeps: statuses older than `olderThan`, less
/// those a rule keeps. Written into `expire_runs.rules` as JSON (with the
/// account's id, so a renamed account finds its unfinished run).
public struct ExpireRules: Sendable, Hashable, Codable {
    /// The age, as typed: `90d`, `12w`, `36h`.
    public var olderThan: String
    public var keepPinned = false
    public var keepIfFavourites: Int?
    public var keepIfBoosts: Int?
    /// Hashtags (without `#`, lower-cased) whose statuses are kept.
    public var keepTags: [String] = []
    public var boostsOnly = false
    public var keepDirect = false
    /// The account's id on the server: its statuses are the ones listed.
    public var authorID = ""

    enum CodingKeys: String, CodingKey {
        case olderThan = "older_than", keepPinned = "keep_pinned", keepIfFavourites = "keep_if_favourites"
        case keepIfBoosts = "keep_if_boosts", keepTags = "keep_tags", boostsOnly = "boosts_only", keepDirect = "keep_direct"
        case authorID = "author_id"
    }

    /// Rules for statuses older than `olderThan` (checked by `seconds(_:)`).
    public init(olderThan: String) {
        self.olderThan = olderThan
    }

    /// `90d`, `12w`, `36h` in seconds; nil for anything else, zero or negative.
    public static func seconds(_ text: String) -> Int? {
        guard let unit = text.last, let number = Int(text.dropLast()), number > 0 else { return nil }
        let each = ["h": 3600, "d": 86_400, "w": 604_800][String(unit)]
        guard let each, number <= Int.max / each else { return nil }
        return number * each
    }

    /// The rules as the archive keeps them: JSON with its keys sorted.
    public var json: String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return (try? encoder.encode(self)).map { String(decoding: $0, as: UTF8.self) } ?? "{}"
    }

    /// The rules `json` wrote; nil when they do not read.
    public init?(json: String) {
        guard let rules = try? JSONDecoder().decode(ExpireRules.self, from: Data(json.utf8)) else { return nil }
        self = rules
    }

    /// The options that make these rules, as typed: `--older-than 90d --keep-pinned`.
    public var words: String {
        var words = ["--older-than \(olderThan)"]
        if keepPinned { words.append("--keep-pinned") }
        if let keepIfFavourites { words.append("--keep-if-favourites \(keepIfFavourites)") }
        if let keepIfBoosts { words.append("--keep-if-boosts \(keepIfBoosts)") }
        for tag in keepTags { words.append("--keep-tag \(tag)") }
        if boostsOnly { words.append("--boosts-only") }
        if keepDirect { words.append("--keep-direct") }
        return words.joined(separator: " ")
    }

    /// The moment before which a status is old enough, as the archive writes times.
    func cutoff(now: Date = Date()) -> String {
        Timestamp(date: now.addingTimeInterval(-TimeInterval(Self.seconds(olderThan) ?? 0)), utcOffset: 0).iso8601Text
    }

    /// Why `status` is kept, or nil when these rules delete it (its age aside). `pinned`: nil where the API has none.
    func keeps(_ status: ExpireCandidate, pinned: Set<String>?) -> ExpireKeep? {
        if keepPinned, pinned?.contains(status.id) == true { return .pinned }
        if boostsOnly, !status.isBoost { return .notBoost }
        if keepDirect, status.visibility == "direct" { return .direct }
        if let keepIfFavourites, status.favourites >= keepIfFavourites { return .favourites }
        if let keepIfBoosts, status.boosts >= keepIfBoosts { return .boosts }
        if !keepTags.isEmpty, status.tags.contains(where: { keepTags.contains($0.lowercased()) }) { return .tag }
        return nil
    }
}

/// Why a status old enough is kept.
public enum ExpireKeep: String, Sendable, Hashable, CaseIterable, Codable {
    case pinned
    case favourites
    case boosts
    case tag
    case notBoost = "not_a_boost"
    case direct
    /// Its media could not be kept in the archive (`archive media`): it is not deleted without them.
    case mediaNotKept = "media_not_kept"

    /// As the dry run names it: `pinned`, `enough favourites`.
    public var description: String {
        switch self {
        case .pinned: "pinned"
        case .favourites: "enough favourites"
        case .boosts: "enough boosts"
        case .tag: "a kept tag"
        case .notBoost: "not a boost"
        case .direct: "direct"
        case .mediaNotKept: "its media could not be kept"
        }
    }
}

/// A status a rule keeps, and which rule.
public struct ExpireKept: Sendable, Hashable {
    public var status: ExpireCandidate
    public var reason: ExpireKeep
}

/// What `expire` would delete and what it keeps, from the archive's copy
/// of the account's statuses, just synced.
public struct ExpirePlan: Sendable {
    public var rules: ExpireRules
    /// Statuses created before this are old enough (ISO 8601).
    public var cutoff: String
    /// What would go, oldest first.
    public var listed: [ExpireCandidate]
    /// What a rule keeps.
    public var kept: [ExpireKept]
    /// `--keep-pinned` on an API without pins: nothing is kept for it.
    public var noPins: Bool
    /// The sync of the account's statuses before listing.
    public var synced: ArchiveSyncResult
}

/// How far a confirmed run is, for its progress line.
public struct ExpireProgress: Sendable {
    /// Deleted so far (this run and the earlier ones of the same run).
    public var deleted: Int
    public var total: Int
    /// While waiting for the server's limit to reset: until when.
    public var waitingUntil: Date?
    /// When the run should end at the server's pace.
    public var estimatedEnd: Date
}

/// How a confirmed run ended.
public struct ExpireOutcome: Sendable {
    /// How it stopped.
    public enum End: Sendable {
        /// Every listed status is deleted (or kept now); the run is finished.
        case done
        /// Ctrl-C: what was deleted is marked; a second run goes on.
        case interrupted
        /// The server refused a deletion (not a rate limit); a second run goes on from it.
        case failed(id: String, reason: String)
        /// The archive could not be written: nothing more is deleted, since nothing could be marked.
        case archiveFailed(ArchiveError)
    }

    /// The run in `expire_runs`; 0 when nothing was listed (no run is written).
    public var run: Int64
    /// True when it went on with an unfinished run.
    public var resumed = false
    /// The account (`@name`) the run was listed under: another name than now when the account was renamed.
    public var listedAs: String?
    /// Statuses the run listed.
    public var listed = 0
    /// Deleted by an earlier, interrupted attempt of the run.
    public var deletedBefore = 0
    /// Deleted now, oldest first.
    public var deleted: [ExpireCandidate] = []
    /// Of those, already gone from the server (deleted elsewhere): marked all the same.
    public var alreadyGone = 0
    /// Listed, but kept now (a resumed run: a rule of its own keeps them now).
    public var keptNow: [ExpireKept] = []
    /// Times the server's limit was met and waited for.
    public var waits = 0
    /// `--keep-pinned` on an API without pins: nothing was kept for it.
    public var noPins = false
    public var end = End.done
}

/// Why `expire` stopped before deleting anything.
public enum ExpireStop: Error, Sendable {
    /// The sync of the account's statuses did not finish: nothing is listed from a partial copy.
    case sync(ArchiveSyncResult.End)
    case archive(ArchiveError)
    case request(RequestError)
    /// An unfinished run of other rules: it must be finished (same options) or abandoned first.
    case unfinished(run: Int64, rules: String)
    /// Keeping the statuses' media stopped (Ctrl-C, a folder that cannot be written): nothing is deleted.
    case media(ArchiveMediaResult.End)
}

extension TimelineDataController {
    /// The dry run: syncs the account's own statuses into `store` (as `archive
    /// sync` does, under `scope`'s server and account), then lists from the
    /// archive's copy what `rules` delete and what they keep, and why.
    public func planExpire(_ store: ArchiveStore, rules: ExpireRules, scope: ArchiveScope, perPage: Int)
        async throws(ExpireStop) -> ExpirePlan {
        let synced = try await syncOwnStatuses(store, rules: rules, scope: scope, perPage: perPage)
        let pinned = try await pinnedIDs(rules)
        let cutoff = rules.cutoff()
        let candidates: [ExpireCandidate]
        do {
            candidates = try store.expireCandidates(server: scope.server, account: scope.account, authorID: rules.authorID,
                                                    createdBefore: cutoff)
        } catch {
            throw .archive(error)
        }
        var plan = ExpirePlan(rules: rules, cutoff: cutoff, listed: [], kept: [], noPins: rules.keepPinned && pinned == nil,
                              synced: synced)
        for candidate in candidates {
            if let reason = rules.keeps(candidate, pinned: pinned) {
                plan.kept.append(ExpireKept(status: candidate, reason: reason))
            } else {
                plan.listed.append(candidate)
            }
        }
        return plan
    }

    /// `expire --confirmed`: goes on with the account's unfinished run when
    /// there is one with the same rules (each of its statuses checked again
    /// against them), else lists afresh (`planExpire`) and writes the run and
    /// its items in one transaction before the first deletion. Then deletes
    /// the run's statuses one by one, oldest first, each marked in the
    /// archive (one transaction) once the server said it is gone; a status
    /// not in the run is never deleted. A rate limit is waited for (its
    /// reset), Ctrl-C stops between deletions.
    public func expire(_ store: ArchiveStore, rules: ExpireRules, scope: ArchiveScope, perPage: Int,
                       media: (@Sendable () -> any MediaHTTPClient)? = nil,
                       progress: @escaping (ExpireProgress) -> Void = { _ in }) async throws(ExpireStop) -> ExpireOutcome {
        let unfinished: ExpireRunRecord?
        do { unfinished = try store.unfinishedExpireRun(server: scope.server, authorID: rules.authorID) } catch { throw .archive(error) }
        var outcome: ExpireOutcome
        var work: [ExpireCandidate]
        if let unfinished {
            guard ExpireRules(json: unfinished.rules) == rules else { throw .unfinished(run: unfinished.id, rules: unfinished.rules) }
            // The counts the rules read are brought up to date first.
            try await syncOwnStatuses(store, rules: rules, scope: scope, perPage: perPage)
            let pinned = try await pinnedIDs(rules)
            outcome = ExpireOutcome(run: unfinished.id, resumed: true, listedAs: unfinished.account, listed: unfinished.items.count)
            outcome.noPins = rules.keepPinned && pinned == nil
            outcome.deletedBefore = unfinished.items.filter { $0.deletedAt != nil }.count
            let fresh = freshCopies(store, unfinished.items.filter { $0.deletedAt == nil }.map(\.status))
            let unkept = try await keepMedia(of: fresh, store, media)
            work = []
            let cutoff = rules.cutoff()
            for status in fresh {
                if let reason = unkept.contains(status.rowid) ? .mediaNotKept : rules.keeps(status, pinned: pinned) {
                    outcome.keptNow.append(ExpireKept(status: status, reason: reason))
                    try? store.noteExpireFailure(run: unfinished.id, status: status.rowid, failure: "kept now: \(reason.description)")
                } else if let created = status.createdAt, created < cutoff {
                    work.append(status)
                }
            }
        } else {
            var plan = try await planExpire(store, rules: rules, scope: scope, perPage: perPage)
            // Every status is kept with its media before it is deleted; one whose media could not be kept stays.
            let unkept = try await keepMedia(of: plan.listed, store, media)
            let heldBack = plan.listed.filter { unkept.contains($0.rowid) }.map { ExpireKept(status: $0, reason: .mediaNotKept) }
            plan.listed.removeAll { unkept.contains($0.rowid) }
            // Nothing to delete: no run is written.
            guard !plan.listed.isEmpty else {
                var none = ExpireOutcome(run: 0, noPins: plan.noPins)
                none.keptNow = heldBack
                return none
            }
            let run: Int64
            do {
                run = try store.startExpireRun(server: scope.server, account: scope.account, rules: rules.json,
                                               statuses: plan.listed.map(\.rowid))
            } catch {
                throw .archive(error)
            }
            // What the dry run lists, those held back for their media among them.
            outcome = ExpireOutcome(run: run, listed: plan.listed.count + heldBack.count)
            outcome.noPins = plan.noPins
            outcome.keptNow = heldBack
            work = plan.listed
        }
        await delete(work, store: store, scope: scope, outcome: &outcome, progress: progress)
        if case .done = outcome.end {
            do { try store.finishExpireRun(outcome.run) } catch { outcome.end = .archiveFailed(error) }
        }
        return outcome
    }

    /// Keeps the files of the media of `statuses` (`archive media` of them, through `client`'s
    /// lanes); the rowids of those whose attachments are still not all kept. Without a client,
    /// nothing is fetched and none is held back.
    private func keepMedia(of statuses: [ExpireCandidate], _ store: ArchiveStore,
                           _ client: (@Sendable () -> any MediaHTTPClient)?) async throws(ExpireStop) -> Set<Int64> {
        guard let client, !statuses.isEmpty else { return [] }
        let rowids = statuses.map(\.rowid)
        let result = await fetchArchiveMedia(store, sources: nil, ofStatuses: rowids, limits: ArchiveMediaLimits(), client: client)
        switch result.end {
        case .done: break
        case .interrupted, .failed: throw .media(result.end)
        }
        do { return try store.statusesMissingMedia(rowids) } catch { throw .archive(error) }
    }

    /// Seconds `count` deletions take at the server's pace: a second each, and a
    /// window's wait for each full window of its own limit on deletions where it has one.
    public func expireSeconds(_ count: Int) -> Int {
        guard count > 0 else { return 0 }
        guard let pace = statuses.dialect.deletionPace, pace.count > 0 else { return count }
        return (count - 1) / pace.count * pace.seconds + count
    }

    // MARK: The steps

    /// Syncs the account's own statuses (boosts included) into the archive, as `archive sync me`
    /// keeps them (source `me`); a sync that did not finish
    /// stops `expire`: nothing is listed from a copy that may be behind the server.
    @discardableResult
    private func syncOwnStatuses(_ store: ArchiveStore, rules: ExpireRules, scope: ArchiveScope, perPage: Int)
        async throws(ExpireStop) -> ArchiveSyncResult {
        let source = ArchiveSyncSource.own(.uid(rules.authorID))
        var own = scope
        own.source = source.description
        let synced = await syncArchive(store, source: source, scope: own, count: perPage, limit: nil)
        switch synced.end {
        case .done, .limit: return synced
        default: throw .sync(synced.end)
        }
    }

    /// The account's pinned statuses when `rules` keep them; nil where the API has no pins.
    private func pinnedIDs(_ rules: ExpireRules) async throws(ExpireStop) -> Set<String>? {
        guard rules.keepPinned else { return [] }
        do {
            return try await statuses.api.run("StatusDataController.pinnedStatusIDs()", count: { $0?.count ?? 0 }) {
                try await $0.pinnedStatusIDs($1)
            }
        } catch {
            throw .request(error)
        }
    }

    /// `items` as the archive keeps them now (their counts synced again); an item whose row is gone stays as listed.
    private func freshCopies(_ store: ArchiveStore, _ items: [ExpireCandidate]) -> [ExpireCandidate] {
        guard let current = try? store.expireCopies(items.map(\.rowid)) else { return items }
        return items.map { current[$0.rowid] ?? $0 }
    }

    /// Deletes `work` one by one, marking each in the archive once the server said it is gone.
    private func delete(_ work: [ExpireCandidate], store: ArchiveStore, scope: ArchiveScope, outcome: inout ExpireOutcome,
                        progress: (ExpireProgress) -> Void) async {
        var budget = await requestBudget()
        let total = outcome.listed - outcome.keptNow.count
        func report(_ waiting: Date? = nil) {
            let done = outcome.deletedBefore + outcome.deleted.count
            let left = work.count - outcome.deleted.count
            progress(ExpireProgress(deleted: done, total: total, waitingUntil: waiting,
                                    estimatedEnd: (waiting ?? Date()).addingTimeInterval(TimeInterval(expireSeconds(left)))))
        }
        report()
        var index = 0
        while index < work.count {
            let status = work[index]
            if Task.isCancelled {
                outcome.end = .interrupted
                return
            }
            let pause = budget.pauseBeforeNextRequest()
            if pause > .zero {
                do { try await Task.sleep(for: pause) } catch {
                    outcome.end = .interrupted
                    return
                }
            }
            let gone: Bool
            do {
                let deleted = try await statuses.destroy(id: status.id)
                if case .alreadyDone = deleted.resolution { gone = true } else { gone = false }
            } catch .rejected(let error) where error.isRateLimitError {
                // The server's limit: wait for its reset (at least a second), then ask again for the same status.
                let seconds = max(1, error.rateLimitSeconds ?? 60)
                let until = Date().addingTimeInterval(TimeInterval(seconds))
                outcome.waits += 1
                try? store.noteExpireFailure(run: outcome.run, status: status.rowid,
                                             failure: "rate limited: waited \(RateLimitReset.duration(seconds)) for the reset")
                report(until)
                do { try await Task.sleep(for: .seconds(seconds)) } catch {
                    outcome.end = .interrupted
                    return
                }
                budget = .unknown
                continue
            } catch {
                try? store.noteExpireFailure(run: outcome.run, status: status.rowid, failure: error.description)
                if case .rejected(.cancelled) = error { outcome.end = .interrupted } else {
                    outcome.end = .failed(id: status.id, reason: error.description)
                }
                return
            }
            do {
                try store.markExpired(run: outcome.run, status: status, server: scope.server)
            } catch {
                // Deleted on the server, not marked: the next run finds it gone (404) and marks it.
                outcome.end = .archiveFailed(error)
                return
            }
            outcome.deleted.append(status)
            if gone { outcome.alreadyGone += 1 }
            index += 1
            report()
        }
    }
}

extension RequestError {
    /// True for the server's rate limit (Mastodon's 429, Weibo's 10022–10024).
    var isRateLimitError: Bool {
        if case .api(let failure) = self { return failure.isRateLimit }
        return false
    }

    /// Seconds until the rate limit resets, when the answer (or the API's rate-limit call) said.
    var rateLimitSeconds: Int? {
        if case .api(let failure) = self { return failure.rateLimitReset?.seconds }
        return nil
    }
}
