import FoundationEssentials
import WshArchive
import WshModel
import WshRequest

/// How one source's `archive sync` ended.
public struct ArchiveSyncResult: Sendable {
    /// How it stopped.
    public enum End: Sendable {
        /// Up to date, and the walk back done or going on next time.
        case done
        /// `--limit` statuses arrived; the next sync goes on.
        case limit
        /// Ctrl-C: every page that arrived is kept.
        case interrupted
        /// A request failed; the pages before it are kept.
        case failed(RequestError)
        /// The file could not be written.
        case archiveFailed(ArchiveError)
    }

    /// Statuses fetched, new ones, edited ones (their versions kept), and
    /// ones found deleted on the server (marked, never dropped).
    public var fetched = 0
    public var added = 0
    public var edited = 0
    public var deleted = 0
    public var end = End.done
}

/// What `archive sync` keeps: a timeline, or the account's notifications
/// (the statuses they carry).
public enum ArchiveSyncSource: Sendable, Hashable, CustomStringConvertible {
    case timeline(TimelineSource)
    case notifications

    /// As `fetch` names it, or `notifications`: the source's name in the archive.
    public var description: String {
        switch self {
        case .timeline(let source): source.description
        case .notifications: "notifications"
        }
    }
}

extension TimelineDataController {
    /// Syncs `source` into `store`: first what is new since the last sync
    /// (finishing a catch-up an earlier sync left), then the walk back
    /// through older pages (from where it stopped), each page stored with
    /// the cursors it moves in one transaction, so a sync killed at any point
    /// goes on next time with no gap and no duplicate. The newest page read
    /// back also finds edits (kept as versions) and deletions (marked).
    /// Requests are paced by the rate-limit budget; Ctrl-C (the task
    /// cancelled) keeps what arrived. `progress` hears the total fetched.
    public func syncArchive(_ store: ArchiveStore, source: ArchiveSyncSource, scope: ArchiveScope, count: Int, limit: Int?,
                            progress: (Int) -> Void = { _ in }) async -> ArchiveSyncResult {
        var sync = ArchiveSyncRun(controller: self, store: store, source: source, scope: scope, count: count, limit: limit,
                                  budget: await requestBudget())
        do {
            try await sync.run(progress: progress)
        } catch .limit {
            sync.result.end = .limit
            // A sync stopped by --limit ran all the same: the summary says when.
            do throws(ArchiveError) { try sync.finish() } catch { sync.result.end = .archiveFailed(error) }
        } catch {
            switch error {
            case .cancelled: sync.result.end = .interrupted
            case .request(let failure): sync.result.end = .failed(failure)
            case .archive(let failure): sync.result.end = .archiveFailed(failure)
            case .limit: sync.result.end = .limit
            }
        }
        return sync.result
    }
}

/// Why a sync stopped early.
enum ArchiveSyncStop: Error {
    case cancelled
    case limit
    case request(RequestError)
    case archive(ArchiveError)
}

/// One sync of one source: its cursors, as they move page by page.
struct ArchiveSyncRun {
    let controller: TimelineDataController
    let store: ArchiveStore
    let source: ArchiveSyncSource
    let scope: ArchiveScope
    let count: Int
    let limit: Int?
    var budget: RequestBudget
    var result = ArchiveSyncResult()
    var cursors = ArchiveCursors()
    var requests = 0

    init(controller: TimelineDataController, store: ArchiveStore, source: ArchiveSyncSource, scope: ArchiveScope, count: Int,
         limit: Int?, budget: RequestBudget) {
        self.controller = controller
        self.store = store
        self.source = source
        self.scope = scope
        self.count = count
        self.limit = limit
        self.budget = budget
    }

    /// The server orders the source by status id (not bookmarks, favourites or
    /// notifications, ordered by when each was made): ids then compare.
    private var ordered: Bool {
        if case .timeline(let timeline) = source { return timeline.ordersByStatusID }
        return false
    }

    /// A deletion shows as a gap in the newest page only where pages are cut by status id.
    private var findsDeletions: Bool {
        if case .timeline(let timeline) = source { return ordered && controller.pagesByCursor(timeline) }
        return false
    }

    mutating func run(progress: (Int) -> Void) async throws(ArchiveSyncStop) {
        do throws(ArchiveError) { cursors = try store.cursors(scope) } catch { throw .archive(error) }
        // 1. A catch-up walk an earlier sync left half-way.
        if let gap = cursors.gapCursor {
            try await catchUp(from: gap, progress: progress)
        }
        // 2. What is new since the last sync (or, the first time, the newest page).
        let top = try await page(from: nil)
        let ids = top.statuses.compactMap(\.status.identifier)
        if let newest = cursors.newestID {
            if findsDeletions {
                do throws(ArchiveError) { result.deleted += try store.markMissing(from: ids, scope: scope) } catch { throw .archive(error) }
            }
            let reached = top.next == nil || ids.contains { $0 == newest || (ordered && StatusID.isOlder($0, than: newest)) }
            if reached {
                cursors.newestID = ids.first ?? newest
            } else {
                cursors.gapCursor = top.next
                cursors.gapFloor = newest
                cursors.gapTop = ids.first
            }
            try keep(top, progress: progress)
            if let gap = cursors.gapCursor { try await catchUp(from: gap, progress: progress) }
        } else {
            cursors.newestID = ids.first
            cursors.oldestID = ids.last
            cursors.backCursor = top.next
            cursors.backDone = top.next == nil
            try keep(top, progress: progress)
        }
        // 3. The walk back, from where it stopped.
        while !cursors.backDone {
            // Without a cursor (an older file), the walk goes on below the oldest status.
            let from = cursors.backCursor ?? (ordered ? cursors.oldestID.map { ArchiveCursorText.text(.olderThan(id: $0)) } : nil)
            guard let from else { break }
            let older = try await page(from: from)
            if let last = older.statuses.last?.status.identifier { cursors.oldestID = last }
            cursors.backCursor = older.next
            cursors.backDone = older.next == nil
            try keep(older, progress: progress)
        }
        do throws(ArchiveError) { try finish() } catch { throw .archive(error) }
    }

    /// Notes when the sync ran, with the cursors as they stand.
    mutating func finish() throws(ArchiveError) {
        cursors.lastSync = ArchiveCursorText.now()
        try store.save(cursors, for: scope)
    }

    /// Walks down from `cursor` until the page that reaches `gapFloor` (what
    /// the archive had before), then the source's newest is `gapTop`.
    private mutating func catchUp(from cursor: String, progress: (Int) -> Void) async throws(ArchiveSyncStop) {
        var next: String? = cursor
        while let from = next, let floor = cursors.gapFloor {
            let slice = try await page(from: from)
            let ids = slice.statuses.compactMap(\.status.identifier)
            let reached = slice.next == nil || ids.contains { $0 == floor || (ordered && StatusID.isOlder($0, than: floor)) }
            if reached {
                cursors.newestID = cursors.gapTop ?? cursors.newestID
                cursors.gapCursor = nil
                cursors.gapFloor = nil
                cursors.gapTop = nil
                next = nil
            } else {
                next = slice.next
                cursors.gapCursor = next
            }
            try keep(slice, progress: progress)
        }
    }

    /// One page, after the pause the rate-limit budget asks for; the limit and Ctrl-C are checked first.
    /// `cursor` and the `next` returned are the archive's text of a cursor (`ArchiveCursorText`).
    private mutating func page(from cursor: String?) async throws(ArchiveSyncStop) -> (statuses: [ArchivedStatus], next: String?) {
        if Task.isCancelled { throw .cancelled }
        if let limit, result.fetched >= limit { throw .limit }
        let wait = budget.pauseBeforeNextRequest()
        if requests > 0, wait > .zero {
            do { try await Task.sleep(for: wait) } catch { throw .cancelled }
        }
        requests += 1
        let body = KeptBody()
        let statuses: [Status]
        let next: String?
        do throws(RequestError) {
            switch source {
            case .timeline(let timeline):
                let slice = try await controller.statuses.timeline(timeline, count: count, from: cursor.flatMap(ArchiveCursorText.cursor),
                                                                   body: body)
                statuses = slice.statuses
                next = slice.next.map(ArchiveCursorText.text)
            case .notifications:
                let from = cursor.flatMap { $0.hasPrefix("notifications:") ? String($0.dropFirst(14)) : nil }
                let page = try await controller.notifications(NotificationQuery(count: NotificationQuery.maximumCount, from: from),
                                                              body: body)
                statuses = page.notifications.compactMap(\.status)
                // A page of notifications none of which carries a status still goes on.
                next = page.notifications.isEmpty ? nil : page.next.map { "notifications:" + $0 }
            }
        } catch .cancelled {
            throw .cancelled
        } catch {
            throw .request(error)
        }
        controller.users.remember(authorsOf: statuses)
        let raw = body.data.map(RawStatuses.byID) ?? [:]
        let kept = statuses.map { status in
            if let json = status.identifier.flatMap({ raw[$0] }) { return ArchivedStatus(status: status, json: json) }
            return ArchivedStatus(status: status, json: ArchiveCursorText.modelJSON(status), modelEncoded: true)
        }
        return (kept, next)
    }

    /// Stores a page with the cursors as they now stand (one transaction).
    private mutating func keep(_ page: (statuses: [ArchivedStatus], next: String?), progress: (Int) -> Void)
        throws(ArchiveSyncStop) {
        if cursors.oldestID == nil { cursors.oldestID = page.statuses.last?.status.identifier }
        do throws(ArchiveError) {
            let write = try store.store(page.statuses, scope: scope, cursors: cursors)
            result.added += write.added
            result.edited += write.edited
        } catch {
            throw .archive(error)
        }
        result.fetched += page.statuses.count
        progress(result.fetched)
    }
}

/// A cursor as the archive keeps it: `page:N`, `older:ID` or `link:QUERY`.
enum ArchiveCursorText {
    static func text(_ cursor: TimelineCursor) -> String {
        switch cursor {
        case .page(let page): "page:\(page)"
        case .olderThan(let id): "older:\(id)"
        case .link(let link): "link:\(link.query)"
        }
    }

    static func cursor(_ text: String) -> TimelineCursor? {
        if text.hasPrefix("page:") { return Int(text.dropFirst(5)).map { .page($0) } }
        if text.hasPrefix("older:") { return .olderThan(id: String(text.dropFirst(6))) }
        if text.hasPrefix("link:") { return .link(PageLink(query: String(text.dropFirst(5)))) }
        return nil
    }

    static func now() -> String {
        Timestamp(date: Date(), utcOffset: 0).iso8601Text
    }

    /// A status whose JSON the body did not give (it was not where expected):
    /// the Model's own encoding, which `ArchiveStore.status(api:json:)` reads back.
    static func modelJSON(_ status: Status) -> String {
        (try? JSONEncoder().encode(status)).map { String(decoding: $0, as: UTF8.self) } ?? "{}"
    }
}
