import FoundationEssentials
import WshArchive
import WshModel
import WshRequest
import WshText

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
        /// The server sent `pages` pages in a row with nothing it had not sent
        /// in this sync: it repeats itself, and the walk would never end.
        case serverRepeatsItself(pages: Int)
        /// The server's next page was not older than the one before (`PageWalk`):
        /// its cursor goes the wrong way, and the walk would never end. That
        /// page is kept, but the cursors stay before it.
        case serverGoesBackwards(WrongWay)
    }

    /// Statuses fetched, new ones, edited ones (their versions kept), and
    /// ones found deleted on the server (marked, never dropped).
    public var fetched = 0
    public var added = 0
    public var edited = 0
    public var deleted = 0
    /// Earlier versions of your own statuses read from their edit history (`me`).
    public var versions = 0
    public var end = End.done
}

/// What `archive sync` keeps: a timeline, or the account's notifications
/// (the statuses they carry).
public enum ArchiveSyncSource: Sendable, Hashable, CustomStringConvertible {
    case timeline(TimelineSource)
    case notifications
    /// The token owner's own statuses (`user` of the owner, kept as `me`).
    case own(UserReference)

    /// As `fetch` names it, or `notifications`, or `me`: the source's name in the archive.
    public var description: String {
        switch self {
        case .timeline(let source): source.description
        case .notifications: "notifications"
        case .own: "me"
        }
    }

    /// The timeline it reads; nil for notifications.
    public var timelineRead: TimelineSource? {
        switch self {
        case .timeline(let source): source
        case .own(let owner): .user(owner)
        case .notifications: nil
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
                                  budget: await requestBudget(), walk: ArchiveSyncRun.walk(self, source))
        do {
            try await sync.run(progress: progress)
            // Your own statuses keep every version the server has, not only those a sync saw change.
            if case .own = source, capabilities.editsStatuses {
                sync.result.versions = try await keepEditHistories(store, scope: scope, budget: &sync.budget)
            }
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
            case .walk(.repeating(let pages)): sync.result.end = .serverRepeatsItself(pages: pages)
            case .walk(.wrongWay(let wrongWay)): sync.result.end = .serverGoesBackwards(wrongWay)
            }
        }
        // What arrived before Ctrl-C or a failed request is searchable at once.
        switch sync.result.end {
        case .done, .limit, .archiveFailed: break
        default: try? store.indexPending()
        }
        return sync.result
    }
}

/// Why a sync stopped early.
enum ArchiveSyncStop: Error, Sendable {
    case cancelled
    case limit
    case request(RequestError)
    case archive(ArchiveError)
    /// A page of a server that repeats itself or goes the wrong way (`PageWalk`).
    case walk(PageWalk.Stop)

    /// The answer of `request`; its failure as a sync's stop (Ctrl-C as `.cancelled`).
    static func asking<T>(_ request: () async throws(RequestError) -> T) async throws(ArchiveSyncStop) -> T {
        do throws(RequestError) {
            return try await request()
        } catch .cancelled {
            throw .cancelled
        } catch {
            throw .request(error)
        }
    }
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
    /// The ids this sync has fetched, whether or not the archive had them (a
    /// file another sync wrote, or an import, holds what a walk finds).
    var fetchedIDs = Set<String>()
    /// The check of each page of the walk under way: a catch-up, or the
    /// newest page and what follows it (the catch-up below it, or the walk
    /// back the first time), or the walk back from where an earlier sync stopped.
    var walk: PageWalk

    /// The server orders the source by status id (not bookmarks, favourites or
    /// notifications, ordered by when each was made): ids then compare.
    private var ordered: Bool {
        source.timelineRead?.ordersByStatusID ?? false
    }

    /// A deletion shows as a gap in the newest page only where pages are cut by status id.
    private var findsDeletions: Bool {
        guard let timeline = source.timelineRead else { return false }
        return ordered && controller.pagesByCursor(timeline)
    }

    mutating func run(progress: (Int) -> Void) async throws(ArchiveSyncStop) {
        do throws(ArchiveError) { cursors = try store.cursors(scope) } catch { throw .archive(error) }
        // 1. A catch-up walk an earlier sync left half-way.
        if let gap = cursors.gapCursor {
            try await catchUp(from: gap, progress: progress)
        }
        // 2. What is new since the last sync (or, the first time, the newest page).
        walk = Self.walk(controller, source)
        let top = try await page(from: nil)
        let ids = top.statuses.compactMap(\.status.identifier)
        let verdict = judge(top, from: nil)
        if let newest = cursors.newestID {
            if findsDeletions {
                do throws(ArchiveError) { result.deleted += try store.markMissing(from: ids, scope: scope, newest: true) } catch { throw .archive(error) }
            }
            let reached = top.next == nil || ids.contains { $0 == newest || (ordered && StatusID.isOlder($0, than: newest)) }
            try keep(top, verdict, progress: progress) { cursors in
                if reached {
                    cursors.newestID = ids.first ?? newest
                } else {
                    cursors.gapCursor = top.next
                    cursors.gapFloor = newest
                    cursors.gapTop = ids.first
                }
            }
            if let gap = cursors.gapCursor { try await catchUp(from: gap, progress: progress, continuing: true) }
            // The walk back goes on from where an earlier sync stopped, far below this page.
            walk = Self.walk(controller, source)
        } else {
            try keep(top, verdict, progress: progress) { cursors in
                cursors.newestID = ids.first
                cursors.oldestID = ids.last
                cursors.backCursor = top.next
                cursors.backDone = top.next == nil
            }
        }
        // 3. The walk back, from where it stopped; each next page is asked for while the one before is stored.
        var ahead: PrefetchedPage?
        defer { ahead?.task.cancel() }
        while !cursors.backDone {
            // Without a cursor (an older file), the walk goes on below the oldest status.
            let from = cursors.backCursor ?? (ordered ? cursors.oldestID.map { ArchiveCursorText.text(.olderThan(id: $0)) } : nil)
            guard let from else { break }
            let older: ArchivePage
            if let prefetched = ahead, prefetched.cursor == from {
                ahead = nil
                older = try await prefetched.value()
            } else {
                older = try await page(from: from)
            }
            let verdict = judge(older, from: from)
            // Not past a page that stops the walk: the request would be thrown away.
            if verdict == nil, let next = older.next { ahead = prefetch(from: next, arriving: older.statuses.count) }
            try keep(older, verdict, progress: progress) { cursors in
                if let last = older.statuses.last?.status.identifier { cursors.oldestID = last }
                cursors.backCursor = older.next
                cursors.backDone = older.next == nil
            }
        }
        do throws(ArchiveError) { try finish() } catch { throw .archive(error) }
    }

    /// Notes when the sync ran, with the cursors as they stand, and indexes
    /// the statuses that wait for the full-text tables.
    mutating func finish() throws(ArchiveError) {
        cursors.lastSync = ArchiveCursorText.now()
        try store.save(cursors, for: scope)
        try store.indexPending()
    }

    /// Walks down from `cursor` until the page that reaches `gapFloor` (what
    /// the archive had before), then the source's newest is `gapTop`. A walk
    /// of its own, unless `continuing` the one of the newest page above it.
    private mutating func catchUp(from cursor: String, progress: (Int) -> Void, continuing: Bool = false)
        async throws(ArchiveSyncStop) {
        if !continuing { walk = Self.walk(controller, source) }
        var next: String? = cursor
        while let from = next, let floor = cursors.gapFloor {
            let slice = try await page(from: from)
            let ids = slice.statuses.compactMap(\.status.identifier)
            let reached = slice.next == nil || ids.contains { $0 == floor || (ordered && StatusID.isOlder($0, than: floor)) }
            next = reached ? nil : slice.next
            try keep(slice, judge(slice, from: from), progress: progress) { cursors in
                if reached {
                    cursors.newestID = cursors.gapTop ?? cursors.newestID
                    cursors.gapCursor = nil
                    cursors.gapFloor = nil
                    cursors.gapTop = nil
                } else {
                    cursors.gapCursor = slice.next
                }
            }
        }
    }

    /// One page, after the pause the rate-limit budget asks for; the limit and Ctrl-C are checked first.
    /// `cursor` and the `next` returned are the archive's text of a cursor (`ArchiveCursorText`).
    private mutating func page(from cursor: String?) async throws(ArchiveSyncStop) -> ArchivePage {
        let pause = try beforeRequest()
        return try await Self.fetch(controller: controller, source: source, count: count, from: cursor, after: pause)
    }

    /// Ctrl-C and the limit checked, the request counted: the pause the budget asks for before it.
    private mutating func beforeRequest() throws(ArchiveSyncStop) -> Duration {
        if Task.isCancelled { throw .cancelled }
        if let limit, result.fetched >= limit { throw .limit }
        let wait = budget.pauseBeforeNextRequest()
        defer { requests += 1 }
        return requests > 0 ? wait : .zero
    }

    /// Starts the request for the page at `cursor` while the page before is
    /// stored: the server answers and the page is decoded while SQLite writes.
    /// Nil when the limit is reached with the page in hand (`arriving` statuses), or on Ctrl-C.
    private mutating func prefetch(from cursor: String, arriving: Int) -> PrefetchedPage? {
        if let limit, result.fetched + arriving >= limit { return nil }
        guard let pause = try? beforeRequest() else { return nil }
        let (controller, source, count) = (self.controller, self.source, self.count)
        return PrefetchedPage(cursor: cursor, task: Task {
            do throws(ArchiveSyncStop) {
                return .success(try await Self.fetch(controller: controller, source: source, count: count, from: cursor, after: pause))
            } catch {
                return .failure(error)
            }
        })
    }

    /// Sends the request for one page (after `pause`) and keeps each status's JSON as the server wrote it.
    static func fetch(controller: TimelineDataController, source: ArchiveSyncSource, count: Int, from cursor: String?,
                      after pause: Duration) async throws(ArchiveSyncStop) -> ArchivePage {
        if pause > .zero {
            do { try await Task.sleep(for: pause) } catch { throw .cancelled }
        }
        let body = KeptBody()
        let statuses: [Status]
        let next: String?
        var notOlder: String?
        var notifications: [ArchivedNotification] = []
        do throws(RequestError) {
            switch source.timelineRead {
            case let timeline?:
                let slice = try await controller.statuses.timeline(timeline, count: count, from: cursor.flatMap(ArchiveCursorText.cursor),
                                                                   body: body)
                statuses = slice.statuses
                next = slice.next.map(ArchiveCursorText.text)
                notOlder = slice.notOlder
            case nil:
                let from = cursor.flatMap { $0.hasPrefix("notifications:") ? String($0.dropFirst(14)) : nil }
                let page = try await controller.notifications(NotificationQuery(count: NotificationQuery.maximumCount, from: from),
                                                              body: body)
                statuses = page.notifications.compactMap(\.status)
                notifications = page.notifications.map(ArchivedNotification.init)
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
            if let kept = status.identifier.flatMap({ raw[$0] }) {
                return ArchivedStatus(status: status, json: kept.json, language: kept.language)
            }
            return ArchivedStatus(status: status, json: ArchiveCursorText.modelJSON(status), modelEncoded: true)
        }
        return ArchivePage(statuses: kept, next: next, notOlder: notOlder, notifications: notifications)
    }

    /// The check of each page of a walk through `source` (`PageWalk`): the
    /// statuses of notifications are in the order of the notifications, not of their ids.
    static func walk(_ controller: TimelineDataController, _ source: ArchiveSyncSource) -> PageWalk {
        if let timeline = source.timelineRead { return controller.walk(timeline) }
        return PageWalk(ordersByID: false, dialect: controller.statuses.dialect)
    }

    /// Whether `page`, asked `from` a cursor (nil: the newest), stops the
    /// sync (`PageWalk`); its statuses count as fetched from now on.
    private mutating func judge(_ page: ArchivePage, from cursor: String?) -> PageWalk.Stop? {
        var unseen: [String] = []
        for status in page.statuses {
            if let id = status.status.identifier, fetchedIDs.insert(id).inserted { unseen.append(id) }
        }
        let dialect = controller.statuses.dialect
        return walk.stop(afterPageWith: unseen, fromID: cursor.flatMap { ArchiveCursorText.olderThanID($0, dialect) },
                         nextID: page.next.flatMap { ArchiveCursorText.olderThanID($0, dialect) }, more: page.next != nil,
                         notOlder: page.notOlder)
    }

    /// Stores a page with the cursors as `move` moves them (one transaction),
    /// then stops the sync if `verdict` says so. A page that goes the wrong
    /// way is stored with the cursors as they were: what came is kept, and
    /// the next sync asks that page again rather than follow its cursor.
    private mutating func keep(_ page: ArchivePage, _ verdict: PageWalk.Stop?, progress: (Int) -> Void,
                               moving move: (inout ArchiveCursors) -> Void) throws(ArchiveSyncStop) {
        if case .wrongWay? = verdict {} else {
            move(&cursors)
            if cursors.oldestID == nil { cursors.oldestID = page.statuses.last?.status.identifier }
        }
        do throws(ArchiveError) {
            // The notifications first: killed between the two, the page is asked again and they are written over.
            try store.storeNotifications(page.notifications, scope: scope)
            let write = try store.store(page.statuses, scope: scope, cursors: cursors)
            result.added += write.added
            result.edited += write.edited
        } catch {
            throw .archive(error)
        }
        result.fetched += page.statuses.count
        progress(result.fetched)
        if let verdict { throw .walk(verdict) }
    }
}

/// One page of a sync: its statuses with their JSON, and the cursor of the next.
struct ArchivePage: Sendable {
    var statuses: [ArchivedStatus]
    var next: String?
    /// A status newer than the cursor asked from, dropped (`TimelineSlice.notOlder`).
    var notOlder: String?
    /// The notifications of a page of notifications, as the server sent them.
    var notifications: [ArchivedNotification] = []
}

extension ArchivedNotification {
    /// `notification` as the archive keeps it: its JSON as the server sent it, else wsh's own fields.
    init(_ notification: ActivityNotification) {
        let json = notification.serverJSON.map { String(decoding: $0.bytes, as: UTF8.self) }
            ?? String(decoding: JSONValue.object(["id": .string(notification.id), "type": .string(notification.type)]).encoded(), as: UTF8.self)
        self.init(id: notification.id, type: notification.type, createdAt: notification.createdAt?.iso8601Text,
                  fromID: notification.account?.identifier, fromAcct: notification.account?.screenName,
                  statusID: notification.status?.identifier, json: json)
    }
}

/// A page asked for ahead, while the one before is stored.
struct PrefetchedPage {
    /// The cursor it was asked from.
    let cursor: String
    let task: Task<Result<ArchivePage, ArchiveSyncStop>, Never>

    /// The page, once it arrived; Ctrl-C cancels the request.
    func value() async throws(ArchiveSyncStop) -> ArchivePage {
        let result = await withTaskCancellationHandler { await task.value } onCancel: { [task] in task.cancel() }
        return try result.get()
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

    /// The id `text` says the next page is older than (`older:ID`, a link's
    /// `max_id` as the API reads it); nil for a page number or a cursor that carries none.
    static func olderThanID(_ text: String, _ dialect: any Dialect) -> String? {
        if text.hasPrefix("notifications:") { return dialect.olderThanID(inCursor: String(text.dropFirst(14))) }
        switch cursor(text) {
        case .olderThan(let id)?: return id
        case .link(let link)?: return dialect.olderThanID(inCursor: link.query)
        case .page?, nil: return nil
        }
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
