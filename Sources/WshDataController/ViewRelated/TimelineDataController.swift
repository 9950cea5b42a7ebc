import WshArchive
import Synchronization
import WshModel
import WshRequest
import WshText

/// The view-related DataController of the timeline screen: it composes the
/// model-related `StatusDataController` and `UserDataController` into what
/// the screen shows.
///
/// The rows on screen are the "open subjects" of the DataController design:
/// all loaded statuses filtered by the user's own choices, here the statuses
/// whose authors are not muted. The ViewModel talks to this one controller
/// only, as a ViewController talks to its one DataController.
public final class TimelineDataController: Sendable {
    /// Statuses, pages and comments.
    public let statuses: StatusDataController
    /// Users and the muted set.
    public let users: UserDataController
    /// The local archive, when the shell attached one: one more source of pages
    /// (`loadConsultingArchive`, below).
    let archive = Mutex<ArchiveAttachment?>(nil)
    /// The statuses the last `archive search` showed, by id: `detail N` opens them from the archive.
    let archiveAnswered = Mutex<[String: Status]>([:])

    /// A controller composing `statuses` and `users`.
    public init(statuses: StatusDataController, users: UserDataController) {
        self.statuses = statuses
        self.users = users
    }

    /// A controller with model-related controllers of its own, all calling
    /// the API through `client` and tracing to `trace`.
    public convenience init(client: APIClient, dialect: any Dialect, trace: TraceSink? = nil) {
        self.init(statuses: StatusDataController(client: client, dialect: dialect, trace: trace),
                  users: UserDataController(client: client, dialect: dialect, trace: trace))
    }

    /// What the connected API can do beyond what every API has.
    public var capabilities: Capabilities { statuses.dialect.capabilities }

    /// The API's name (`weibo`, `mastodon`), for saying what it lacks.
    public var dialectName: String { statuses.dialect.serverName }

    /// The largest page `source` serves on this API; nil when it has no such timeline.
    /// How a user reads `what` back on this API, for the advice after a lost answer.
    public func readBack(_ what: ReadBack) -> ReadBackHint {
        statuses.dialect.readBack(what)
    }

    public func maximumCount(for source: TimelineSource) -> Int? {
        if case .archive = source { return 200 }  // the archive's own limit, whatever the API
        return statuses.dialect.maximumCount(for: source)
    }

    /// True when `source` pages by cursor on this API (`more` goes on from the last status).
    public func pagesByCursor(_ source: TimelineSource) -> Bool {
        statuses.dialect.pagesByCursor(source)
    }

    // MARK: What the timeline shows

    /// A page of `source` from `cursor` (nil: the newest). Its authors are
    /// cached on the way, so `user NAME` for any of them needs no request.
    public func load(_ source: TimelineSource, count: Int, from cursor: TimelineCursor? = nil)
        async throws(RequestError) -> TimelineSlice {
        var slice = try await loadConsultingArchive(source, count: count, from: cursor)
        users.remember(authorsOf: slice.statuses)
        slice.statuses = slice.statuses.map { $0.filtered(in: source.filterContext) }
        return slice
    }

    /// Statuses of `source` newer than `newestID`, newest first, from `link`
    /// (a slice's `newer`) when the server gave one; with where the next
    /// `newer` starts.
    public func newer(_ source: TimelineSource, count: Int, than newestID: String, from link: TimelineCursor? = nil)
        async throws(RequestError) -> TimelineSlice {
        var loaded = try await statuses.newer(source, count: count, than: newestID, from: link)
        users.remember(authorsOf: loaded.statuses)
        loaded.statuses = loaded.statuses.map { $0.filtered(in: source.filterContext) }
        return loaded
    }

    /// The statuses of `loaded` that the screen shows: those whose authors
    /// `muted` does not name, and that no filter of the server's says to hide
    /// (`filtered` with `hide`). Who is muted is the user's choice, held in the
    /// ViewModel's state (so undo puts it back); this controller only applies it.
    ///
    /// An array, not any collection: a generic over the collection, called from the
    /// ViewModel's module, would find the array's conformances by name at run time.
    public func openStatuses(in loaded: [Status], muting muted: MutedUsers) -> [Status] {
        let hides = loaded.contains { $0.isHiddenByFilter }
        guard !muted.isEmpty || hides else { return loaded }
        return loaded.filter { !$0.isHiddenByFilter && !muted.mutes($0.user) }
    }

    // MARK: Detail-side data

    /// The status with `id`, from the cache when a page brought it (with
    /// every filter it matches: `detail` names them and shows the text).
    public func status(id: String) async throws(RequestError) -> Status {
        if let archived = archivedStatus(id: id) { return archived }
        return try await statuses.status(id: id)
    }

    /// Posts `text` as a new status and returns it, resolving a lost answer
    /// (see `StatusDataController.post(text:)`).
    public func post(text: String) async throws(WriteError) -> WriteOutcome<Status> {
        try await post(StatusDraft(text: text))
    }

    /// Reposts the status `statusID`, with `text` when given; its authors are cached.
    public func repost(statusID: String, text: String?) async throws(WriteError) -> WriteOutcome<Status> {
        let outcome = try await statuses.repost(statusID: statusID, text: text)
        users.remember(authorsOf: [outcome.value])
        return outcome
    }

    /// Posts `draft`, its media uploaded first (`upload(_:)`), resolving a lost answer.
    public func post(_ draft: StatusDraft) async throws(WriteError) -> WriteOutcome<Status> {
        let outcome = try await statuses.post(draft)
        users.remember(authorsOf: [outcome.value])
        return outcome
    }

    /// The account's own statuses, newest first.
    public func ownStatuses(count: Int = 20, page: Int = 1) async throws(RequestError) -> [Status] {
        try await statuses.userTimeline(count: count, page: page).statuses
    }
}

/// How the timeline consults the local archive: where the file is, and
/// whether to answer from it alone (`--offline`) or keep what is read live
/// (`archive on`). Without `offline`, the archive answers only when the
/// server cannot be reached.
public struct ArchiveAttachment: Sendable {
    /// Where the archive file is, asked the first time it is needed (nil:
    /// nowhere to keep one), so a session that never falls back pays nothing for it.
    let locate: @Sendable () -> String?
    /// The server's key in the archive (`ArchiveScope.server`).
    public var server: String
    /// The account, when known; nil: any account's rows on `server`.
    public var account: String?
    /// `mastodon` or `weibo`, for pages kept live.
    public var api: String
    /// Answer every timeline from the archive, sending nothing.
    public var offline: Bool
    /// Keep each page read from the server in the archive as it arrives.
    public var keepsLive: Bool
    /// The most pages the file may grow to (`ArchiveStore`'s `maximumPages`); nil: no limit but the disk's.
    public var maximumPages: Int?
    /// The store, once opened.
    var store: ArchiveStore?

    /// The archive file (nil: nowhere to keep one).
    public var path: String? { store?.path ?? locate() }

    public init(locate: @escaping @Sendable () -> String?, server: String, account: String?, api: String, offline: Bool,
                keepsLive: Bool, maximumPages: Int? = nil) {
        self.locate = locate
        self.server = server
        self.account = account
        self.api = api
        self.offline = offline
        self.keepsLive = keepsLive
        self.maximumPages = maximumPages
    }
}

extension TimelineDataController {
    /// Attaches (or with nil detaches) the local archive as one more source.
    public func attachArchive(_ attachment: ArchiveAttachment?) {
        archive.withLock { $0 = attachment }
    }

    /// The archive attached, if any.
    public var archiveAttachment: ArchiveAttachment? {
        archive.withLock { $0 }
    }

    /// A page of `source`: from the archive when offline; else from the
    /// server (kept in the archive when `archive on`), and from the archive
    /// when the server cannot be reached and the archive has the source.
    /// The trace says which answered; the ViewModel above never knows.
    func loadConsultingArchive(_ source: TimelineSource, count: Int, from cursor: TimelineCursor?)
        async throws(RequestError) -> TimelineSlice {
        if case .archive(let query, let file) = source { return try archiveMatches(query, file: file, count: count, from: cursor) }
        guard let attachment = archiveAttachment else { return try await statuses.timeline(source, count: count, from: cursor) }
        if attachment.offline {
            return try archivedPage(source, count: count, from: cursor, failure: nil)
        }
        let body = attachment.keepsLive ? KeptBody() : nil
        do {
            let slice = try await statuses.timeline(source, count: count, from: cursor, body: body)
            if let body { keepLive(slice, body: body, source: source) }
            return slice
        } catch {
            guard case .transport = error else { throw error }
            return try archivedPage(source, count: count, from: cursor, failure: error)
        }
    }

    /// The page the archive holds for `source`, below `cursor`'s id. With a
    /// `failure` (the server could not be reached), no page there means that failure.
    private func archivedPage(_ source: TimelineSource, count: Int, from cursor: TimelineCursor?, failure: RequestError?)
        throws(RequestError) -> TimelineSlice {
        let call = "ArchiveStore.statuses(\(source), count: \(count)\(cursor.map { ", from: \($0)" } ?? ""))"
        let olderThan: String?
        switch cursor {
        case nil: olderThan = nil
        case .olderThan(let id)?: olderThan = id
        case .page, .link:
            if let failure { throw failure }
            olderThan = nil
        }
        let found: [Status]
        do {
            guard let store = try openArchive() else {
                if let failure { throw failure }
                throw RequestError.configuration("offline, and there is no archive yet (archive sync makes one)")
            }
            found = try store.statuses(server: archiveAttachment?.server ?? "", account: archiveAttachment?.account,
                                       source: source.description, limit: count, olderThan: olderThan)
        } catch let error as RequestError {
            throw error
        } catch {
            if let failure { throw failure }
            throw RequestError.configuration("\(error)")
        }
        if found.isEmpty, cursor == nil, let failure { throw failure }
        statuses.api.archiveHit(call: call, itemCount: found.count)
        statuses.remember(found)
        let next = found.count < count ? nil : found.last?.identifier.map { TimelineCursor.olderThan(id: $0) }
        return TimelineSlice(statuses: found, next: next)
    }

    /// `archive search`: the best `count` matches of `query` in the archive
    /// `file`, as a timeline's rows (one page: the best are all there is).
    /// A status deleted on the server comes marked `deleted`. `detail N`
    /// opens each from here too (`archivedStatus`), with no request.
    private func archiveMatches(_ query: String, file: String, count: Int, from cursor: TimelineCursor?)
        throws(RequestError) -> TimelineSlice {
        guard cursor == nil else { return TimelineSlice(statuses: [], next: nil) }
        let matches: [ArchiveMatch]
        do {
            let store = archiveAttachment?.path == file ? try openArchive() : nil
            matches = try (store ?? ArchiveStore(path: file, create: false)).search(query, limit: count)
        } catch let error as ArchiveError {
            throw RequestError.configuration(error.message)
        } catch {
            throw RequestError.configuration("\(error)")
        }
        let found = matches.map { match in
            var status = match.status
            if match.deletedAt != nil { status.deleted = true }
            return status
        }
        archiveAnswered.withLock { answered in
            answered = Dictionary(found.compactMap { status in status.identifier.map { ($0, status) } },
                                  uniquingKeysWith: { first, _ in first })
        }
        statuses.api.archiveHit(call: "ArchiveStore.search(\(String(reflecting: query)), limit: \(count))", itemCount: found.count)
        statuses.remember(found)
        return TimelineSlice(statuses: found, next: nil)
    }

    /// A status the last `archive search` showed, as the archive keeps it (nil: not one of them).
    func archivedStatus(id: String) -> Status? {
        guard let status = archiveAnswered.withLock({ $0[id] }) else { return nil }
        statuses.api.archiveHit(call: "ArchiveStore.status(id: \(String(reflecting: id)))", itemCount: 1)
        return status
    }

    /// The attached archive's store, opened once; nil when the file does not exist.
    private func openArchive() throws(ArchiveError) -> ArchiveStore? {
        if let store = archiveAttachment?.store { return store }
        guard let path = archiveAttachment?.path else { return nil }
        let store: ArchiveStore
        do {
            store = try ArchiveStore(path: path, create: archiveAttachment?.keepsLive ?? false,
                                     maximumPages: archiveAttachment?.maximumPages)
        } catch where error.message.hasPrefix("no archive") {
            return nil
        }
        archive.withLock { $0?.store = store }
        return store
    }

    /// `archive on`: the page just read, kept (its cursors untouched: a sync walks its own).
    /// A write that fails (a full disk, a read-only file) leaves the page shown as it
    /// arrived: the failure is traced once, as a failed `ArchiveStore.store`, and
    /// keeping stops until `archive on` again.
    private func keepLive(_ slice: TimelineSlice, body: KeptBody, source: TimelineSource) {
        guard let attachment = archiveAttachment else { return }
        let call = "ArchiveStore.store(\(source), count: \(slice.statuses.count))"
        let store: ArchiveStore
        do {
            guard let opened = try openArchive() else { return }
            store = opened
        } catch {
            return pauseKeeping(call: call, error)
        }
        let raw = body.data.map(RawStatuses.byID) ?? [:]
        let page = slice.statuses.map { status in
            if let kept = status.identifier.flatMap({ raw[$0] }) {
                return ArchivedStatus(status: status, json: kept.json, language: kept.language)
            }
            return ArchivedStatus(status: status, json: ArchiveCursorText.modelJSON(status), modelEncoded: true)
        }
        let scope = ArchiveScope(server: attachment.server, account: attachment.account ?? "anonymous", api: attachment.api,
                                 source: source.description)
        do {
            try store.store(page, scope: scope, cursors: nil)
        } catch {
            pauseKeeping(call: call, error)
        }
    }

    private func pauseKeeping(call: String, _ error: ArchiveError) {
        archive.withLock { $0?.keepsLive = false }
        statuses.api.archiveFailed(call: call,
                                   message: "archive on: \(error.message); keeping timelines is paused (archive on starts it again)")
    }
}

// MARK: The timelines it loads

/// Which timeline the list shows. Chosen by the user (`fetch home`), kept in
/// the ViewModel's state, and turned into endpoints and paging only here in
/// the DataControllers: nothing above them knows how a timeline is paged.
public enum TimelineSource: Sendable, Hashable, CustomStringConvertible {
    /// Everyone's latest statuses (paged by page number).
    case `public`
    /// The account's own statuses and those of whom it follows.
    case home
    /// One user's statuses.
    case user(UserReference)
    /// Statuses that mention the account.
    case mentions
    /// The reposts of one status, by its id.
    case reposts(statusID: String)
    /// The server's own users' statuses (Mastodon).
    case local
    /// Statuses with a hashtag (Mastodon).
    case tag(String)
    /// The statuses of a list's members, the list named by title or id (Mastodon).
    case list(String)
    /// The statuses the account bookmarked, newest bookmark first (Mastodon).
    case bookmarks
    /// The statuses the account favourited, newest favourite first.
    case favourites
    /// The best matches of `query` in the local archive `file` (`archive
    /// search`): answered by the archive, never by the server.
    case archive(query: String, file: String)

    /// How `fetch` and the history name it: `public`, `home`, `user @name`, `reposts 123`.
    public var description: String {
        switch self {
        case .public: "public"
        case .home: "home"
        case .user(let reference): "user \(reference)"
        case .mentions: "mentions"
        case .reposts(let id): "reposts of \(id)"
        case .local: "local"
        case .tag(let tag): "tag #\(tag)"
        case .list(let name): "list \(name)"
        case .bookmarks: "bookmarks"
        case .favourites: "favourites"
        case .archive(let query, _): "archive search \(query)"
        }
    }

    /// The filter context its statuses are shown in (Mastodon's `home`,
    /// `public`, `account`, `notifications`): a server's filters apply to a
    /// status here only when they name it. Nil for the account's own
    /// collections (bookmarks, favourites), where Mastodon applies none, and
    /// for what the archive finds.
    public var filterContext: String? {
        switch self {
        case .public, .local, .tag: "public"
        case .home, .list: "home"
        case .user: "account"
        case .mentions: "notifications"
        case .reposts: "thread"
        case .bookmarks, .favourites, .archive: nil
        }
    }

    /// False for a collection ordered by when the account saved each status
    /// (bookmarks, favourites): its cursors are the server's own, never a
    /// status id, and what is newer is what comes before the top row.
    public var ordersByStatusID: Bool {
        self != .bookmarks && self != .favourites
    }
}

/// Where the next older page of a timeline starts. Opaque above the
/// DataControllers: the ViewModel keeps the one a load returned and hands it
/// back for `more`.
public enum TimelineCursor: Sendable, Hashable, CustomStringConvertible {
    /// A page number (the public timeline).
    case page(Int)
    /// Statuses older than this id (a cursor timeline).
    case olderThan(id: String)
    /// The page a server's own link names (Mastodon's `Link` header), followed as sent.
    case link(PageLink)

    /// How the trace names it, as Swift would print the case (`page(2)`,
    /// `olderThan(id: "5")`), without reflection on every page loaded.
    public var description: String {
        switch self {
        case .page(let page): "page(\(page))"
        case .olderThan(let id): "olderThan(id: \(String(reflecting: id)))"
        case .link(let link): "link(\(link))"
        }
    }
}

/// A server's link to a page of a timeline: the query of its `Link`
/// header's `next` or `prev` URL, exactly as sent. Only the API that made
/// it reads it; above the DataControllers it is handed back unopened.
public struct PageLink: Sendable, Hashable, CustomStringConvertible {
    /// The link's query, percent-encoding kept.
    let query: String

    init(query: String) {
        self.query = query
    }

    /// `older than X` for a link with a `max_id` (how a row-built cursor reads), else the query.
    public var description: String {
        Self.maxID(in: query).map { "older than " + $0 } ?? "the server's link ?" + query
    }

    /// The `max_id` a link's `query` asks below, decoded; nil when it has none.
    static func maxID(in query: String) -> String? {
        for parameter in query.split(separator: "&") where parameter.hasPrefix("max_id=") {
            return PercentEncoding.decoded(parameter.dropFirst(7)) ?? String(parameter.dropFirst(7))
        }
        return nil
    }
}

/// What one load of a timeline brought.
public struct TimelineSlice: Sendable, Hashable {
    /// The statuses, newest first, none repeated from the page before.
    public var statuses: [Status]
    /// Where the next older page starts; nil when the timeline has no more.
    public var next: TimelineCursor?
    /// Where statuses newer than these start, when the server said (its
    /// `prev` link); nil: `newer` asks for those newer than the top row.
    public var newer: TimelineCursor?
    /// A status the server sent that is newer than the cursor the page was
    /// asked from (Weibo's inclusive `max_id`): a cursor going the wrong way.
    /// It is not among `statuses`; a walk stops on it (`PageWalk`).
    public var notOlder: String?

    public init(statuses: [Status], next: TimelineCursor?, newer: TimelineCursor? = nil, notOlder: String? = nil) {
        self.statuses = statuses
        self.next = next
        self.newer = newer
        self.notOlder = notOlder
    }
}
