import WshDataController
import WshModel
import WshRequest
import WshText

/// The ViewModel of the timeline and the screens opened over it (detail,
/// comments, user).
///
/// Inputs are methods named for what the user asked (`refresh`, `loadMore`,
/// `showDetail`, `back`, `mute`…); outputs are properties holding what a
/// View shows (`rows`, `screen`, `errorMessage`, `isLoading`). After every
/// change, `onChange` is called once with the parts to re-render. An input
/// that needs the network sends `.loading` first, then one notification with
/// everything that changed, `.loading` included.
///
/// An input that fails changes nothing but `errorMessage`: it sends `.error`
/// (with `.loading` if it had started loading) and throws the same error.
///
/// Not thread-safe: confine it to one caller at a time, as the shell's one
/// command loop does.
public final class TimelineViewModel {
    /// Called once per change with what to re-render.
    public var onChange: ((TimelineChange) -> Void)?

    /// The state every output is derived from; `restore(_:)` replaces it.
    public private(set) var state = TimelineState()
    /// The last input's failure, nil once an input succeeds.
    public private(set) var errorMessage: String?
    /// True while a request is on its way.
    public private(set) var isLoading = false

    let dataController: TimelineDataController
    // Derived from `state` when first read after a change, so inputs that
    // do not touch the list (detail, back, undo of those) stay O(1).
    private var openStatusesCache: [Status]?
    private var rowsCache: [StatusCellViewModel]?
    /// How many identifiers the last `loadAll` hashed to drop repeated
    /// statuses: one per status when de-duplication is linear. Tests read
    /// it to catch a quadratic walk without timing one.
    private(set) var deduplicationWork = 0

    /// The timeline the rows come from.
    public var source: TimelineSource { state.source }

    /// A ViewModel fed by `dataController`.
    public init(dataController: TimelineDataController) {
        self.dataController = dataController
    }

    // MARK: Outputs

    /// The rows of the list: loaded statuses minus muted authors, numbered from 1.
    public var rows: [StatusCellViewModel] {
        if let rowsCache { return rowsCache }
        let rows = openStatuses.enumerated().map { StatusCellViewModel(status: $1, index: $0 + 1) }
        rowsCache = rows
        return rows
    }

    /// How many rows the list has.
    public var rowCount: Int { openStatuses.count }

    /// What shows on top: the list, or the innermost screen opened over it.
    public var screen: TimelineScreen { TimelineScreen(state.screens.last) }

    /// The detail on top, if that is what shows.
    public var detail: StatusDetailViewModel? { screen.detail }

    /// The comments on top, if that is what shows.
    public var comments: CommentsViewModel? { screen.comments }

    /// The user on top, if that is what shows.
    public var user: UserViewModel? { screen.user }

    /// The muted users, `@name` or `uid 123`, in the order they were muted.
    public var mutedUsers: [String] { state.muted.references.map(\.description) }

    /// The rows as `list --json` shows them.
    public var rowDocuments: [StatusDocument] { rowDocumentsOfNow() }

    /// The rows as they are now, as `list --json` shows them, made when called:
    /// `list` leaves them in `$result`, which most scripts never read.
    public var rowDocumentsOfNow: () -> [StatusDocument] {
        let statuses = openStatuses
        return { statuses.enumerated().map { StatusDocument($1, index: $0 + 1) } }
    }

    /// The screen names of the rows' authors, sorted, each once: what `user`
    /// and `mute` complete.
    public var rowAuthors: [String] {
        Array(Set(openStatuses.compactMap { $0.user?.screenName.map { TerminalText.sanitize($0) } })).sorted()
    }

    /// How many statuses are loaded, muted authors' included.
    public var loadedCount: Int { state.statuses.count }

    // MARK: Inputs

    /// Replaces the rows with the newest `count` statuses of `source` (or
    /// page `page` of the public timeline) and shows the list. Returns how
    /// many statuses arrived.
    @discardableResult
    public func refresh(source: TimelineSource = .public, count: Int = 20, page: Int? = nil) async throws(ViewModelError) -> Int {
        try validate(source: source, count: count, page: page)
        let slice = try await request { () async throws(RequestError) in
            try await dataController.load(source, count: count, from: page.map { .page($0) })
        }
        commit(loaded: slice, source: source, count: count)
        return slice.statuses.count
    }

    /// Appends the next older page of the timeline, skipping statuses already
    /// listed, and shows the list. Returns how many new statuses it added (0
    /// once the timeline has no more).
    @discardableResult
    public func loadMore() async throws(ViewModelError) -> Int {
        guard state.hasFetched else { throw fail(.nothingFetched) }
        guard let cursor = state.next else { return 0 }
        let (source, count) = (state.source, state.pageSize)
        let slice = try await request { () async throws(RequestError) in
            try await dataController.load(source, count: count, from: cursor)
        }
        var next = state
        let fresh = next.appendUnseen(slice.statuses)
        next.next = slice.next
        next.screens = []
        commit(next)
        return fresh
    }

    /// Puts the statuses that arrived since the top row on top, and shows
    /// the list. Returns how many there were.
    @discardableResult
    public func loadNewer() async throws(ViewModelError) -> Int {
        guard state.hasFetched else { throw fail(.nothingFetched) }
        guard let newest = state.statuses.first?.identifier else {
            return try await refresh(source: state.source, count: state.pageSize)
        }
        let (source, count, link) = (state.source, state.pageSize, state.newer)
        let arrived = try await request { () async throws(RequestError) in
            try await dataController.newer(source, count: count, than: newest, from: link)
        }
        var next = state
        let fresh = next.prependUnseen(arrived.statuses)
        if let newer = arrived.newer { next.newer = newer }
        next.screens = []
        commit(next)
        return fresh.count
    }

    /// Why a walk (`loadAll`) slows down: the rate limit's requests left,
    /// spread over the time to its reset.
    public struct RateLimitPacing: Sendable, Hashable {
        /// The requests the account has left in the window, the next one counted.
        public var requestsLeft: Int
        /// When the window resets, as far as the API said at the walk's start.
        public var secondsToReset: Int
        /// The wait before each page from now on.
        public var wait: Duration

        public init(requestsLeft: Int, secondsToReset: Int, wait: Duration) {
            self.requestsLeft = requestsLeft
            self.secondsToReset = secondsToReset
            self.wait = wait
        }

        /// `10 requests left in the rate limit, reset in 52 min: a page every 5 min 12 s from now`.
        public var text: String {
            let seconds = Int(wait.components.seconds)
            let every = seconds < 60 ? "\(seconds) s" : seconds % 60 == 0 ? "\(seconds / 60) min" : "\(seconds / 60) min \(seconds % 60) s"
            return "\(DisplayText.plural(requestsLeft, "request")) left in the rate limit, "
                + "reset in \(LimitsViewModel.duration(secondsToReset)): a page every \(every) from now"
        }
    }

    /// How `loadAll` ended.
    public enum LoadAllEnd: Sendable, Hashable {
        /// The timeline had no more.
        case end
        /// The limit was reached.
        case limit
        /// Ctrl-C (the task was cancelled); what arrived is kept.
        case interrupted
        /// A page failed; what arrived before it is kept.
        case failed(ViewModelError)
    }

    /// Walks `source` page by page (`count` a page) until it ends, `limit`
    /// statuses arrived, Ctrl-C, a page fails, or the server repeats itself
    /// or its cursor goes the wrong way (`PageWalk`), and shows what arrived
    /// as the rows. `progress` is told the total after each page. Unlike other
    /// inputs, a failure after the first page keeps what arrived: it says
    /// so in the result instead of throwing.
    ///
    /// As the account's rate limit runs low, the walk spaces its pages so as
    /// not to run out (see `RequestBudget`); `pacing` is told, once, when that
    /// first makes it wait a second or more before a page.
    public func loadAll(source: TimelineSource, count: Int, limit: Int?, pause: Duration = .zero,
                        progress: (Int) -> Void = { _ in },
                        pacing: (RateLimitPacing) -> Void = { _ in }) async throws(ViewModelError) -> (loaded: Int, end: LoadAllEnd) {
        try validate(source: source, count: count, page: nil)
        if let limit, limit < 1 { throw fail(.invalidPaging(name: "limit", value: limit, allowed: 1...Int(Int32.max))) }
        var arrived = TimelineState()
        arrived.muted = state.muted
        // One set for the whole walk: each page is checked in its own length.
        var seen = SeenStatuses(arrived.statuses)
        defer { deduplicationWork = seen.hashed }
        // Stay inside the remaining rate-limit budget: slow down as it runs low.
        var budget = await dataController.requestBudget()
        let budgetRead = ContinuousClock.now
        var toldPacing = false
        // A server that repeats itself, or whose cursor goes the wrong way, would keep the walk going for ever.
        var walk = dataController.walk(source)
        var cursor: TimelineCursor?
        var newer: TimelineCursor?
        var end = LoadAllEnd.end
        isLoading = true
        onChange?(.loading)
        repeat {
            if Task.isCancelled { end = .interrupted; break }
            let added: Int
            let stop: PageWalk.Stop?
            do {
                let slice = try await dataController.load(source, count: count, from: cursor)
                let fresh = arrived.appendUnseen(slice.statuses, seen: &seen)
                added = fresh.count
                stop = walk.stop(afterPageWith: fresh.compactMap(\.identifier), from: cursor, next: slice.next,
                                 notOlder: slice.notOlder)
                if cursor == nil { newer = slice.newer }
                // A page that goes the wrong way is kept, but `more` asks it again rather than follow its cursor.
                if case .wrongWay? = stop {} else { cursor = slice.next }
            } catch .cancelled {
                end = .interrupted
                break
            } catch {
                guard arrived.statuses.isEmpty else { end = .failed(.requestFailed(error)); break }
                throw fail(.requestFailed(error))
            }
            if let limit, arrived.statuses.count >= limit {
                end = .limit
                break
            }
            if let stop {
                end = .failed(ViewModelError(walkStopped: stop))
                break
            }
            if added > 0 { progress(arrived.statuses.count) }
            let left = budget.remaining
            let paced = budget.pauseBeforeNextRequest()
            let wait = max(pause, paced)
            if cursor != nil, !toldPacing, paced >= .seconds(1), paced > pause, let left {
                toldPacing = true
                let elapsed = Int((ContinuousClock.now - budgetRead).components.seconds)
                pacing(RateLimitPacing(requestsLeft: left, secondsToReset: max(0, (budget.secondsToReset ?? 0) - elapsed),
                                       wait: paced))
            }
            if cursor != nil, wait > .zero {
                do { try await Task.sleep(for: wait) } catch { end = .interrupted; break }
            }
        } while cursor != nil
        var statuses = Array(arrived.statuses)
        if let limit, statuses.count > limit {
            statuses.removeLast(statuses.count - limit)
            // `more` goes on after the last status kept, not after the last one fetched.
            if dataController.pagesByCursor(source), let last = statuses.last?.identifier { cursor = .olderThan(id: last) }
        }
        commit(loaded: TimelineSlice(statuses: statuses, next: cursor, newer: newer), source: source, count: count)
        return (statuses.count, end)
    }

    /// Opens the detail of row `index` (from 1).
    public func showDetail(index: Int) async throws(ViewModelError) {
        let row: Status
        switch try rowOnTop(index) {
        case nil: row = try openStatus(at: index)
        case .status(let status)?: row = status
        case .user(let user)?:
            var next = state
            next.screens.append(.user(user))
            commit(next)
            return
        }
        let status = try await request { () async throws(RequestError) -> Status in
            guard let id = row.identifier else { return row }
            return try await dataController.status(id: id)
        }
        var next = state
        next.screens.append(.detail(status))
        commit(next)
    }

    /// Closes the screen on top, back to the one below or to the list.
    public func back() throws(ViewModelError) {
        guard !state.screens.isEmpty else { throw fail(.nothingToGoBackTo) }
        var next = state
        next.screens.removeLast()
        commit(next)
    }

    /// Opens the comments on row `index`, or with nil on the status open on
    /// top (a detail, or comments already shown). Returns how many arrived.
    @discardableResult
    public func showComments(index: Int? = nil) async throws(ViewModelError) -> Int {
        let status: Status
        if let index {
            status = try openStatus(at: index)
        } else if let open = openStatusOnTop {
            status = open
        } else {
            throw fail(.noStatusOpen)
        }
        let page = try await request { () async throws(RequestError) in try await dataController.statuses.comments(statusID: status.identifier ?? "") }
        var next = state
        next.screens.append(.comments(status, page))
        commit(next)
        return page.comments.count
    }

    /// Opens the profile of the user `name` names: a screen name (`@` optional)
    /// or a uid; with nil, the author of the status open on top.
    public func showUser(_ name: String?) async throws(ViewModelError) {
        let reference: UserReference
        if let name {
            guard let named = UserReference(name) else { throw fail(.noUserGiven) }
            reference = named
        } else {
            guard let status = openStatusOnTop else { throw fail(.noStatusOpenForUser) }
            guard let author = status.user.flatMap({ UserReference(author: $0) }) else { throw fail(.noAuthor) }
            reference = author
        }
        let user = try await request { () async throws(RequestError) in try await dataController.users.user(reference) }
        var next = state
        next.screens.append(.user(user))
        commit(next)
    }

    /// Hides the rows of the user `name` names. Returns how many rows it hid.
    @discardableResult
    public func mute(_ name: String) throws(ViewModelError) -> Int {
        try setMuted(name, true)
    }

    /// Shows again the rows of the user `name` names. Returns how many rows came back.
    @discardableResult
    public func unmute(_ name: String) throws(ViewModelError) -> Int {
        try setMuted(name, false)
    }

    /// Mutes or unmutes the user `name` names; returns how many rows that hid or showed again.
    private func setMuted(_ name: String, _ muted: Bool) throws(ViewModelError) -> Int {
        guard let reference = UserReference(name) else { throw fail(.noUserGiven) }
        let before = rowCount
        var next = state
        guard muted ? next.muted.insert(reference) : next.muted.remove(reference) else {
            throw fail(muted ? .alreadyMuted(reference.description) : .notMuted(reference.description))
        }
        commit(next)
        return abs(rowCount - before)
    }

    /// A status `post` or `postAgain` left on the server.
    public struct Posted: Sendable, Hashable {
        /// The status as the server has it.
        public let status: Status
        /// Its id, for deleting it again.
        public let id: String
        /// Something the user should know, e.g. that the answer was lost and
        /// the status was found on the server; nil for a plain success.
        public let note: String?
    }

    /// How to check by hand whether a post landed.
    var postCheckAdvice: String {
        "the status may or may not have been posted; \(dataController.readBack(.ownRecentStatuses).advice) before posting again"
    }

    /// Posts `text` as a new status; it becomes the first row, and the list shows.
    ///
    /// A lost answer is resolved before this returns (see
    /// `StatusDataController.post(text:)`): a status found on the server is
    /// a success with a `note`; none is `.writeNotApplied`; a check that
    /// cannot tell is `.writeOutcomeUnknown`. wsh's verdict and the server agree.
    @discardableResult
    public func post(_ text: String) async throws(ViewModelError) -> Posted {
        guard !text.allSatisfy(\.isWhitespace) else { throw fail(.emptyPost) }
        let posted = try await publish(StatusDraft(text: text))
        var next = state
        next.statuses.prepend(posted.status)
        next.screens = []
        commit(next)
        return posted
    }

    /// Posts `text` again, for `redo` of `operation`, and returns the new
    /// status. The state is not changed: the caller restores the snapshot
    /// after the post (with the new status in place of the old), which ends
    /// the loading. A failure is `.redoFailed`.
    public func postAgain(_ text: String, redoing operation: String) async throws(ViewModelError) -> Posted {
        try await postAgain(StatusDraft(text: text), redoing: operation)
    }

    /// Posts `draft` again (its media as uploaded the first time), for `redo` of `operation`.
    public func postAgain(_ draft: StatusDraft, redoing operation: String) async throws(ViewModelError) -> Posted {
        do {
            return try await publish(draft)
        } catch {
            throw fail(.redoFailed(operation: operation, reason: error.description))
        }
    }

    /// Deletes the status `id` this session posted, for `undo` of
    /// `operation`, and returns a note saying what happened on the server.
    /// The state is not changed: the caller restores the snapshot from
    /// before the post, which ends the loading. A failure is `.undoFailed`.
    /// With `repostOf`, `id` is a repost of that status: the API's own call takes it back.
    public func deletePost(id: String, repostOf original: String? = nil, undoing operation: String) async throws(ViewModelError) -> String {
        let outcome = try await send(refusalFails: false) { () async throws(WriteError) in
            try await dataController.statuses.destroy(id: id, repostOf: original)
        }
        switch outcome {
        case .success(let deleted):
            let what = original == nil ? "status \(id)" : "repost \(id) (of status \(original ?? ""))"
            switch deleted.resolution {
            case .answered: return original == nil ? "deleted status \(id) on the server" : "took back \(what) on the server"
            case .recovered: return "the answer was lost; the server shows \(what) gone"
            case .alreadyDone: return "\(what) was already gone from the server"
            }
        case .failure(.rejected(let error)):
            throw fail(.undoFailed(operation: operation, reason: "deleting status \(id) failed: \(error.description)"))
        case .failure(.notApplied(let error)):
            throw fail(.undoFailed(operation: operation, reason: "deleting status \(id) failed: \(error.description); "
                + "the answer was lost, and the status is still on the server"))
        case .failure(.unknown(let error, let check)):
            throw fail(.undoFailed(operation: operation, reason: "deleting status \(id) failed: \(error.description); "
                + "the answer was lost and checking the server failed (\(check)): the status may or may not be deleted; "
                + dataController.readBack(.status(id: id)).advice))
        }
    }

    /// Sends the post as a write: a refusal is any request failure, and a
    /// lost answer becomes what the server showed.
    func publish(_ draft: StatusDraft) async throws(ViewModelError) -> Posted {
        let written = try await write(nothing: "nothing was posted", advice: postCheckAdvice) { () async throws(WriteError) in
            try await dataController.post(draft)
        }
        var note: String?
        if case .recovered = written.resolution { note = "the answer was lost; found the status on the server" }
        return Posted(status: written.value, id: written.value.identifier ?? "", note: note)
    }

    /// Checks `count` and `page` against what `source` serves.
    private func validate(source: TimelineSource, count: Int, page: Int?) throws(ViewModelError) {
        guard let maximum = dataController.maximumCount(for: source) else {
            throw fail(.timelineNotOffered(source: source.description))
        }
        guard count <= maximum else { throw fail(.pageTooLarge(count: count, maximum: maximum, api: dataController.dialectName)) }
        guard count >= 1 else { throw fail(.invalidPaging(name: "count", value: count, allowed: 1...maximum)) }
        if let page {
            guard !dataController.pagesByCursor(source) else { throw fail(.pageNeedsPublicTimeline(source: source.description)) }
            guard page >= 1 else { throw fail(.invalidPaging(name: "page", value: page, allowed: 1...Int(Int32.max))) }
        }
    }

    /// Makes `slice` of `source` the rows and shows the list.
    private func commit(loaded slice: TimelineSlice, source: TimelineSource, count: Int) {
        var next = state
        next.statuses = LoadedStatuses(slice.statuses)
        next.source = source
        next.pageSize = count
        next.next = slice.next
        next.newer = slice.newer
        next.hasFetched = true
        next.screens = []
        commit(next)
    }

    /// Shows `state` (a snapshot from the history) as if it had never changed.
    public func restore(_ state: TimelineState) {
        commit(state)
    }

    // MARK: Changing state

    /// The statuses the list shows, from the view-related DataController.
    private var openStatuses: [Status] {
        if let openStatusesCache { return openStatusesCache }
        let open = dataController.openStatuses(in: state.statuses.array, muting: state.muted)
        openStatusesCache = open
        return open
    }

    /// The id of the status behind row `index` (from 1).
    public func statusID(ofRow index: Int) throws(ViewModelError) -> String {
        try openStatus(at: index).identifier ?? ""
    }

    /// The status behind row `index`, or the error that names the rows there are.
    func openStatus(at index: Int) throws(ViewModelError) -> Status {
        let open = openStatuses
        guard index >= 1, index <= open.count else { throw fail(.noRow(index: index, count: open.count)) }
        return open[index - 1]
    }

    /// A row of the screen on top that `detail N` opens.
    enum ScreenRow {
        case status(Status)
        case user(User)
    }

    /// How many rows the screen on top has of its own (notifications,
    /// conversations, search results, an account list), which `detail N`
    /// numbers; nil when `detail N` means the list's rows.
    public var rowCountOnTop: Int? {
        switch screen {
        case .search(let search): search.rows.count
        case .accounts(let accounts): accounts.rows.count
        case .notifications(let notifications): notifications.rows.count
        case .conversations(let conversations): conversations.rows.count
        case .list, .detail, .comments, .user, .edits, .scheduled, .lists: nil
        }
    }

    /// What `detail N` opens: row N of the screen on top when that screen
    /// has numbered rows of its own (one case per such screen); nil when the
    /// list's rows are meant.
    func rowOnTop(_ index: Int) throws(ViewModelError) -> ScreenRow? {
        do throws(ViewModelError) {
            switch state.screens.last {
            case .notifications(let page, _)?: return .status(try NotificationsViewModel.status(in: page, row: index))
            case .conversations(let conversations)?: return .status(try ConversationsViewModel.status(in: conversations, row: index))
            case .search(_, let results)?: return try SearchViewModel.row(in: results, index: index)
            case .accounts(_, _, let page)?:
                guard index >= 1, index <= page.users.count else { throw ViewModelError.noRow(index: index, count: page.users.count) }
                return .user(page.users[index - 1])
            case .detail?, .comments?, .user?, .edits?, .scheduled?, .lists?, nil: return nil
            }
        } catch {
            throw fail(error)
        }
    }

    /// The status row `index` names, as `detail N` reads it: row N of the
    /// screen on top when that screen has rows of its own, else of the list.
    /// `post --reply N` and `vote N` take their status so.
    func statusOfRow(_ index: Int) throws(ViewModelError) -> Status {
        switch try rowOnTop(index) {
        case nil: return try openStatus(at: index)
        case .status(let status)?: return status
        case .user?: throw fail(.noStatusInRow(index: index, what: "an account"))
        }
    }

    /// The status of the detail or comments screen on top, if one is.
    var openStatusOnTop: Status? {
        switch state.screens.last {
        case .detail(let status), .comments(let status, _), .edits(let status, _): status
        case .user, .scheduled, .notifications, .conversations, .search, .accounts, .lists, nil: nil
        }
    }

    /// Runs one DataController call with `isLoading` on; a failure becomes a
    /// `ViewModelError` that has already been shown.
    func request<T>(_ call: () async throws(RequestError) -> T) async throws(ViewModelError) -> T {
        isLoading = true
        onChange?(.loading)
        do {
            return try await call()
        } catch {
            throw fail(.requestFailed(error))
        }
    }

    /// Makes `next` the state and sends one notification naming what changed.
    func commit(_ next: TimelineState) {
        var change: TimelineChange = []
        if next.statuses != state.statuses || next.muted != state.muted {
            change.insert(.rows)
            openStatusesCache = nil
            rowsCache = nil
        }
        if next.screens != state.screens { change.insert(.screen) }
        state = next
        if errorMessage != nil {
            errorMessage = nil
            change.insert(.error)
        }
        if isLoading {
            isLoading = false
            change.insert(.loading)
        }
        if !change.isEmpty { onChange?(change) }
    }

    /// Shows `error` without touching the state, and returns it to throw.
    func fail(_ error: ViewModelError) -> ViewModelError {
        var change: TimelineChange = .error
        errorMessage = error.description
        if isLoading {
            isLoading = false
            change.insert(.loading)
        }
        onChange?(change)
        return error
    }
}
