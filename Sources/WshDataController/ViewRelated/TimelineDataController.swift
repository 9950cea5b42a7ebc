import Synchronization
import WshModel
import WshRequest

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
    /// (see TimelineDataController+Archive.swift).
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
