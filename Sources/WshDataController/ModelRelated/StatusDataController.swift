import FoundationEssentials
import WshText
import Synchronization
import WshModel
import WshRequest

/// The model-related DataController for statuses: public timeline pages, one
/// status by id, the comments of a status, the account's own statuses,
/// posting and deleting.
///
/// The statuses of the pages it brought (the last `seenPageLimit` of them)
/// are cached, so showing the detail of a row a page already brought sends
/// no request.
///
/// Writes (`post`, `destroy`) resolve a lost answer before they report: see
/// `post(text:)` for the rule.
public final class StatusDataController: Sendable {
    let api: TracedCall
    /// The pages it brought, to find a status by id without a request.
    private let seen = Mutex(SeenPages<[Status]>(limit: seenPageLimit))

    /// A controller that calls the API through `client` in `dialect` and reports each call to `trace`.
    public init(client: APIClient, dialect: any Dialect, trace: TraceSink? = nil) {
        api = TracedCall(client: client, trace: trace, dialect: dialect)
    }

    /// The API's dialect, for what depends on it (page sizes, paging).
    public var dialect: any Dialect { api.dialect }

    /// Page `page` (from 1) of the public timeline, `count` statuses a page.
    public func publicTimeline(count: Int, page: Int = 1) async throws(RequestError) -> TimelinePage {
        let timelinePage = try await api.run(
            "StatusDataController.publicTimeline(count: \(count), page: \(page))", count: \.statuses.count) {
            try await $0.timeline(.public, PageQuery(count: count, page: page), $1)
        }
        remember(timelinePage.statuses)
        return timelinePage
    }

    /// A page of `source`, `count` statuses, from `cursor` (nil: the newest).
    ///
    /// Weibo's `max_id` is inclusive: asked for statuses older than X, it
    /// sends X again. The page is asked one larger and X dropped, so `more`
    /// never repeats the boundary and still brings `count` statuses. An API
    /// that says where its next page starts (Mastodon's `Link` header) is
    /// followed exactly: its exclusive cursor, `count` statuses.
    public func timeline(_ source: TimelineSource, count: Int, from cursor: TimelineCursor? = nil)
        async throws(RequestError) -> TimelineSlice {
        try await timeline(source, count: count, from: cursor, body: nil)
    }

    /// `timeline(_:count:from:)`, the answer's body also put in `body` (for
    /// the archive, which keeps each status's JSON as the server sent it).
    func timeline(_ source: TimelineSource, count: Int, from cursor: TimelineCursor?, body: KeptBody?)
        async throws(RequestError) -> TimelineSlice {
        var query = PageQuery(count: count)
        var boundary: String?
        switch cursor {
        case .page(let page)?:
            query.page = page
        case .olderThan(let id)? where dialect.maxIDIsInclusive:
            boundary = id
            query = PageQuery(count: min(count + 1, dialect.maximumCount(for: source) ?? count), maxID: id)
        case .olderThan(let id)?:
            // An exclusive cursor, as the server gave it: ask exactly `count`.
            query.maxID = id
        case .link(let link)?:
            // The server's own link, sent as it wrote it.
            query.link = link.query
        case nil:
            if !dialect.pagesByCursor(source) { query.page = 1 }
        }
        let call = "StatusDataController.timeline(\(source), count: \(count)\(cursor.map { ", from: \($0)" } ?? ""))"
        let page = try await api.run(call, count: \.statuses.count) { [query] in
            let page = try await $0.timeline(source, query, $1)
            body?.data = $1.response?.body
            return page
        }
        var statuses = page.statuses
        var notOlder: String?
        if let boundary {
            // The boundary itself comes again (the cursor is inclusive); anything newer is the server going the wrong way.
            notOlder = statuses.lazy.compactMap(\.identifier).first { StatusID.order($0, boundary) == .newer }
            statuses.removeAll { status in status.identifier.map { !StatusID.isOlder($0, than: boundary) } ?? false }
        }
        if statuses.count > count { statuses.removeLast(statuses.count - count) }
        remember(statuses)
        let next: TimelineCursor?
        switch cursor {
        case _ where statuses.isEmpty: next = nil
        case .page(let page)?: next = .page(page + 1)
        case nil where !dialect.pagesByCursor(source): next = .page(2)
        // The server's own cursor, exactly as sent: never rebuilt from the last row.
        case _ where page.pagedByServer: next = page.serverNext.map { .link(PageLink(query: $0)) }
        default: next = statuses.last?.identifier.map { .olderThan(id: $0) }
        }
        // Only a first page's `prev` link says where newer statuses start.
        let newer = cursor == nil ? page.serverPrevious.map { TimelineCursor.link(PageLink(query: $0)) } : nil
        return TimelineSlice(statuses: statuses, next: next, newer: newer, notOlder: notOlder)
    }

    /// Statuses of `source` newer than the one with `newestID`, newest first,
    /// at most `count`: from `link` when the server said where they start
    /// (the first page's `prev` link, followed as sent); else `since_id` on a
    /// cursor timeline, and on the public one (which has no cursor) its first
    /// page, keeping the newer ones. The slice's `newer` is the answer's own
    /// `prev` link, where the next call starts; nil when it sent none.
    public func newer(_ source: TimelineSource, count: Int, than newestID: String, from link: TimelineCursor? = nil)
        async throws(RequestError) -> TimelineSlice {
        let call = "StatusDataController.newer(\(source), count: \(count), than: \(newestID))"
        var query = dialect.pagesByCursor(source) ? PageQuery(count: count) : PageQuery(count: count, page: 1)
        if case .link(let link)? = link {
            query.link = link.query
        } else if source.ordersByStatusID, dialect.pagesByCursor(source) {
            query.sinceID = newestID
        }
        let page = try await api.run(call, count: \.statuses.count) { [query] in try await $0.timeline(source, query, $1) }
        // The server's link brings only newer ones; bookmarks and favourites are
        // those above the top row (their cursors are not status ids); else by id.
        let newer = query.link != nil || !source.ordersByStatusID
            ? Array(page.statuses.prefix { $0.identifier != newestID })
            : page.statuses.filter { status in status.identifier.map { StatusID.isOlder(newestID, than: $0) } ?? false }
        remember(newer)
        return TimelineSlice(statuses: newer, next: nil,
                             newer: page.serverPrevious.map { .link(PageLink(query: $0)) })
    }

    /// The status with `id`: from the cache when a page brought it, otherwise
    /// from the dialect's `status`.
    public func status(id: String) async throws(RequestError) -> Status {
        let call = "StatusDataController.status(id: \(id))"
        if let cached = cachedStatus(id: id) {
            api.cacheHit(call: call)
            return cached
        }
        let status = try await api.run(call, count: { _ in 1 }) { try await $0.status(id: id, $1) }
        remember([status])
        return status
    }

    /// Page `page` of the comments on the status with `statusID`.
    ///
    /// Not cached: comments keep coming, and each `comments` command should
    /// show the latest.
    public func comments(statusID: String, count: Int = 50, page: Int = 1) async throws(RequestError) -> CommentsPage {
        try await api.run(
            "StatusDataController.comments(statusID: \(statusID), count: \(count), page: \(page))", count: \.comments.count) {
            try await $0.comments(statusID: statusID, PageQuery(count: count, page: page), $1)
        }
    }

    /// The account's own statuses, newest first: the dialect's `ownStatuses`
    /// without `uid`, which Weibo answers for the token's owner. `sinceID`
    /// keeps ids greater than it, `maxID` ids up to and including it.
    public func userTimeline(count: Int = 20, page: Int = 1, sinceID: String? = nil, maxID: String? = nil)
        async throws(RequestError) -> TimelinePage {
        let query = PageQuery(count: count, page: page, maxID: maxID, sinceID: sinceID)
        let since = sinceID.map { ", sinceID: \($0)" } ?? ""
        let timelinePage = try await api.run(
            "StatusDataController.userTimeline(count: \(count), page: \(page)\(since))", count: \.statuses.count) {
            try await $0.ownStatuses(query, $1)
        }
        remember(timelinePage.statuses)
        return timelinePage
    }

    /// How many of the account's statuses `post` reads to find one whose answer was lost.
    static let lostPostSearchCount = 100

    /// Posts a new status with `text` (needs a token) and returns it as the API created it.
    ///
    /// A lost answer is resolved before anything is reported. Clocks are not
    /// compared (the server's may differ from ours, and the sandbox's is
    /// fixed in 2024); ids are: Weibo's status ids grow with time. So before
    /// posting, `post` reads the account's newest status id (one small
    /// request); when the answer to the post is lost, it reads the account's
    /// statuses with ids above that one and decides:
    ///
    /// - one has exactly this text (spaces at the ends aside): the post
    ///   landed, and that is the status (`.recovered`);
    /// - there are none: nothing was posted (`WriteError.notApplied`);
    /// - there are some, none with this text, or the reads failed: unknown
    ///   (`WriteError.unknown`), never a guess either way.
    public func post(text: String) async throws(WriteError) -> WriteOutcome<Status> {
        try await post(StatusDraft(text: text))
    }

    /// Posts `draft` (its media uploaded: see `upload(_:)`), resolving a lost answer as `post(text:)`.
    public func post(_ draft: StatusDraft) async throws(WriteError) -> WriteOutcome<Status> {
        let text = draft.text
        if let refusal = dialect.capabilities.refusal(of: draft, api: dialect.name) { throw .rejected(.configuration(refusal)) }
        let options = draft.optionNames.isEmpty ? "" : ", " + draft.optionNames.joined(separator: " ")
        let wanted = text.trimmingWhitespace
        return try await createOwnStatus(
            "StatusDataController.post(text: \(text.count) characters\(options))", unmatched: "none with this text",
            matches: { $0.text?.trimmingWhitespace == wanted }
        ) { try await $0.post(draft, $1) }
    }

    /// Deletes the status with `id` (the dialect's `delete`; only its
    /// author's token may) and returns it as the API sends it back.
    ///
    /// A status already gone (20101) is `.alreadyDone`: deleting is what was
    /// wanted. A lost answer is resolved by reading the status: gone means
    /// deleted (`.recovered`), still there means not deleted
    /// (`WriteError.notApplied`), a failed read is `WriteError.unknown`.
    ///
    /// With `repostOf` (the original a repost of this session reposted), the
    /// repost is taken back by the API's own compensating call: Weibo
    /// deletes the repost status, Mastodon unboosts the original (`unreblog`).
    public func destroy(id: String, repostOf original: String? = nil) async throws(WriteError) -> WriteOutcome<Status?> {
        let lost: RequestError
        do {
            let call = original.map { "StatusDataController.unrepost(id: \(id), original: \($0))" }
                ?? "StatusDataController.destroy(id: \(id))"
            let status = try await api.run(call, count: { _ in 1 }) { dialect, exchange in
                if let original { return try await dialect.unrepost(id, of: original, exchange) }
                return try await dialect.delete(id: id, exchange)
            }
            forget(id: id)
            return WriteOutcome(status)
        } catch {
            if error.isNotThere {
                forget(id: id)
                return WriteOutcome(nil, resolution: .alreadyDone(reason: error.description))
            }
            guard error.leavesWriteOutcomeUnknown else { throw .rejected(error) }
            lost = error
        }
        do {
            _ = try await api.run("StatusDataController.status(id: \(id)) (was it deleted?)", count: { _ in 1 }) {
                try await $0.status(id: id, $1)
            }
        } catch {
            guard error.isNotThere else {
                throw .unknown(lostAnswer: lost, check: "reading status \(id) failed: \(error.description)")
            }
            forget(id: id)
            return WriteOutcome(nil, resolution: .recovered(lostAnswer: lost.description))
        }
        throw .notApplied(lostAnswer: lost)
    }

    /// Sends a write that creates one of the account's own statuses (a post,
    /// a repost), traced as `call`, and resolves a lost answer. Before
    /// sending it reads the account's newest status id; when the answer is
    /// lost it reads the account's statuses newer than that one: the oldest
    /// that `matches` is the one created (`.recovered`), none newer means
    /// nothing was created (`WriteError.notApplied`), newer ones of which
    /// none matches (`unmatched` says what none of them is) or a failed read
    /// is `WriteError.unknown`. `related` is what the created status brings
    /// into the cache.
    func createOwnStatus(
        _ call: String, unmatched: String, related: (Status) -> [Status] = { [$0] },
        matches: (Status) -> Bool,
        _ send: (any Dialect, DialectExchange) async throws -> Status
    ) async throws(WriteError) -> WriteOutcome<Status> {
        let baseline = await newestOwnStatusID()
        let lost: RequestError
        do {
            let status = try await api.run(call, count: { _ in 1 }, send)
            remember(related(status))
            return WriteOutcome(status)
        } catch {
            guard error.leavesWriteOutcomeUnknown else { throw .rejected(error) }
            lost = error
        }
        guard case .known(let newest) = baseline else {
            throw .unknown(lostAnswer: lost, check: baselineProblem(baseline))
        }
        let newer: [Status]
        do {
            let page = try await userTimeline(count: Self.lostPostSearchCount, sinceID: newest)
            newer = page.statuses.filter { StatusID.isNewer($0.identifier, than: newest) }
        } catch {
            throw .unknown(lostAnswer: lost, check: "reading the account's statuses failed: \(error.description)")
        }
        // Newest first: the last match is the oldest such status created since the baseline.
        if let found = newer.last(where: matches) {
            return WriteOutcome(found, resolution: .recovered(lostAnswer: lost.description))
        }
        guard newer.isEmpty else {
            throw .unknown(lostAnswer: lost, check: "the account has \(newer.count) newer status\(newer.count == 1 ? "" : "es"), \(unmatched)")
        }
        throw .notApplied(lostAnswer: lost)
    }

    /// The account's newest status id before a write, for resolving a lost answer.
    enum Baseline {
        /// The newest own status id, nil when the account has none.
        case known(String?)
        /// The read failed: why.
        case unavailable(String)
    }

    func newestOwnStatusID() async -> Baseline {
        do {
            let page = try await userTimeline(count: 1)
            return .known(StatusID.newest(of: page.statuses.compactMap(\.identifier)))
        } catch {
            return .unavailable(error.description)
        }
    }

    func baselineProblem(_ baseline: Baseline) -> String {
        if case .unavailable(let reason) = baseline {
            return "the account's newest status could not be read before posting (\(reason))"
        }
        return ""
    }

    func forget(id: String) {
        seen.withLock { seen in
            seen.update { page in
                if page.contains(where: { $0.identifier == id }) { page.removeAll { $0.identifier == id } }
            }
        }
    }

    /// The cached status with `id`, without any request.
    public func cachedStatus(id: String) -> Status? {
        seen.withLock { seen in seen.newest { page in page.last { $0.identifier == id } } }
    }

    func remember(_ statuses: [Status]) {
        guard !statuses.isEmpty else { return }
        seen.withLock { $0.append(statuses) }
    }
}

/// The body of the answer a call read, kept for the archive.
final class KeptBody: @unchecked Sendable {
    var data: Data?
}

// MARK: The cache of pages seen (statuses here, users in UserDataController)

/// What a DataController has seen, page by page as it came: the cache behind
/// "a status or user a page already brought needs no request".
///
/// Remembering a page is one append (its array is shared, not copied or
/// indexed), so loading pages costs nothing more for being cached; a lookup
/// reads back from the newest value, so the latest copy of a value wins. A
/// lookup is interactive (one `detail`, one `user`), a walk over what is
/// kept. At most `limit` pages are kept, the oldest dropped first: a session
/// that fetches for hours keeps the same memory, as its history does. A
/// value older than that is asked for again.
struct SeenPages<Page: Sendable>: Sendable {
    private var pages: [Page] = []
    /// Where the kept pages start in `pages` (dropped ones are removed in bulk).
    private var start = 0
    let limit: Int

    init(limit: Int) {
        self.limit = limit
    }

    mutating func append(_ page: Page) {
        pages.append(page)
        if pages.count - start > limit { start += 1 }
        // Drop the dropped pages' slots once they are half the array.
        if start > limit {
            pages.removeFirst(start)
            start = 0
        }
    }

    /// The kept pages, newest first.
    var newestFirst: ReversedCollection<ArraySlice<Page>> { pages[start...].reversed() }

    /// Changes every kept page (to forget a value).
    mutating func update(_ change: (inout Page) -> Void) {
        for index in start..<pages.count { change(&pages[index]) }
    }
}

extension SeenPages {
    /// The first value `find` finds in a kept page, trying the newest page first.
    func newest<Value>(_ find: (Page) -> Value?) -> Value? {
        for page in newestFirst {
            if let value = find(page) { return value }
        }
        return nil
    }
}

/// How many pages (or single values) a DataController keeps seen. A page
/// fetched again is kept again (a value is not looked up to be replaced), so
/// this bounds what a session that fetches the same page for hours keeps
/// beyond its history: at most 100 pages, 20 000 statuses of 200 a page.
public let seenPageLimit = 100
