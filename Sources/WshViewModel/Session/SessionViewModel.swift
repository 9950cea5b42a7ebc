import WshDataController
import WshModel
import WshText

/// The one ViewModel the shell holds: the Top ViewModel of the whole session.
///
/// It owns the timeline ViewModel, the calculator pair and the
/// `OperationHistory`. Each input is one command: it drives a child
/// ViewModel and, when it succeeds, records one operation with a human
/// description (`fetch 20 → 20 statuses`, `detail 3`, `calc 12 + 7 =`) and
/// the `SessionState` it left. `undo`, `redo` and `clear` put a recorded
/// state back, across screens and the calculator alike.
///
/// Undo means what the user thinks: an operation that wrote to the server
/// (`post`) carries a `RemoteEffect`, and undoing it first sends the
/// compensating request (deleting the status) and restores the view only
/// when that succeeded; redo sends the write again. `clear` never touches
/// the server. The history keeps the last `historyLimit` operations.
///
/// Outputs are read through properties; `onChange` is called once per input
/// with what to re-render (and once before, with `.loading`, when the input
/// goes to the network).
///
/// Errors: an input that fails changes no state and records nothing; it sets
/// `errorMessage`, sends `.error`, and throws the same `ViewModelError`, so a
/// script can stop (exit 1) while an interactive View just shows the message.
/// The next input that succeeds clears `errorMessage`.
///
/// Concurrency: not thread-safe, and not `Sendable`: confine it to one
/// caller at a time. The shell hands it to the task that runs an async input
/// while its main thread waits (its `Bridge` is the one place that vouches
/// for that hand-over). There is deliberately no `@MainActor`: the shell
/// blocks its main thread during an input, so a main-actor ViewModel would
/// deadlock.
public final class SessionViewModel {
    /// Called once per change with what to re-render.
    public var onChange: ((SessionChange) -> Void)?

    /// The timeline and the screens opened over it.
    public let timeline: TimelineViewModel
    /// The calculator's Top ViewModel: LED and entries. Made when first used
    /// (`calc`, or undo back to a state it had): a session that never
    /// presses a key runs none of it.
    public var calculator: CalculatorTopViewModel {
        if let calculatorStorage { return calculatorStorage }
        let calculator = CalculatorTopViewModel()
        calculator.onChange = { [unowned self] change in pending.formUnion(SessionChange(change)) }
        calculatorStorage = calculator
        return calculator
    }
    private var calculatorStorage: CalculatorTopViewModel?
    /// The calculator's Bottom ViewModel: the keypad.
    public var keypad: CalculatorBottomViewModel { CalculatorBottomViewModel(top: calculator) }
    /// Every recorded operation and the state it left.
    public internal(set) var history = OperationHistory(initial: SessionState())
    /// The last input's failure, nil once an input succeeds.
    public private(set) var errorMessage: String?
    /// What the last input wants the user to know besides its result (the
    /// shell prints these on stderr), e.g. `deleted status 4… on the
    /// server`, or, once per session, that old operations were dropped.
    public internal(set) var notes: [String] = []

    // Whether the note about dropped operations was given.
    private var announcedDrop = false

    // Child changes collected during an input, sent as one notification at its end.
    private var pending: SessionChange = []

    /// A session whose timeline is fed by `dataController`, keeping the last
    /// `historyLimit` operations (1000 unless told otherwise).
    public init(dataController: TimelineDataController,
                historyLimit: Int = OperationHistory<SessionState>.defaultLimit) {
        timeline = TimelineViewModel(dataController: dataController)
        history = OperationHistory(initial: state, limit: historyLimit)
        timeline.onChange = { [unowned self] change in
            // A request starting is shown at once; the rest waits for the input's end.
            if change == .loading && timeline.isLoading {
                notify(.loading)
            } else {
                pending.formUnion(SessionChange(change))
            }
        }
    }

    // MARK: Outputs

    /// The whole view state, as the history records it.
    public var state: SessionState {
        SessionState(timeline: timeline.state, calculator: calculatorStorage?.brain)
    }
    /// `state --json`: the current state as a document.
    public var stateDocument: SessionStateDocument { SessionStateDocument(state) }
    /// `state --diff`: what the last applied operation changed; nil when none is applied.
    public var lastChange: SessionStateDiff? {
        guard let before = history.beforeLast, let operation = history.lastApplied else { return nil }
        return SessionStateDiff(operation: operation.description, before: SessionStateDocument(before),
                                after: SessionStateDocument(history.current))
    }
    /// The timeline's rows, numbered from 1.
    public var rows: [StatusCellViewModel] { timeline.rows }
    /// The timeline the list shows (what `watch` with no source follows).
    public var source: TimelineSource { timeline.source }
    /// How many rows the list has, without building them.
    public var rowCount: Int { timeline.rowCount }
    /// How many statuses are loaded, muted authors' included.
    public var loadedCount: Int { timeline.loadedCount }
    /// The rows as `list --json` shows them.
    public var rowDocuments: [StatusDocument] { timeline.rowDocuments }
    /// ``rowDocuments`` as they are now, made when called.
    public var rowDocumentsOfNow: () -> [StatusDocument] { timeline.rowDocumentsOfNow }
    /// The rows' authors' screen names, sorted, each once.
    public var rowAuthors: [String] { timeline.rowAuthors }
    /// What shows on top of the list.
    public var screen: TimelineScreen { timeline.screen }
    /// The detail on top, if that is what shows.
    public var detail: StatusDetailViewModel? { timeline.detail }
    /// The comments on top, if that is what shows.
    public var comments: CommentsViewModel? { timeline.comments }
    /// The user on top, if that is what shows.
    public var user: UserViewModel? { timeline.user }
    /// The search results on top, if that is what shows.
    public var search: SearchViewModel? { timeline.search }
    /// The followers or following list on top, if that is what shows.
    public var accounts: AccountsViewModel? { timeline.accounts }
    /// The rows of the screen on top that `detail N` numbers; nil: the list's.
    public var rowCountOnTop: Int? { timeline.rowCountOnTop }
    /// The muted users, `@name` or `uid 123`.
    public var mutedUsers: [String] { timeline.mutedUsers }
    /// True while a request is on its way.
    public var isLoading: Bool { timeline.isLoading }
    /// What the calculator's LED shows.
    public var ledText: String { calculatorStorage?.ledText ?? CalculatorBrain().display }
    /// The recorded operations, oldest first (undone ones excluded).
    public var operations: [String] { history.operations }
    /// The recorded operations with what each changed on the server, oldest first.
    public var operationRecords: [RecordedOperation] { history.records }
    /// The undone operations `redo` would apply again, next first.
    public var redoableRecords: [RecordedOperation] { history.undone }
    /// How many operations are recorded (undone ones excluded).
    public var operationCount: Int { history.operationCount }
    /// Operation `index`, from 0.
    public func operationText(at index: Int) -> String { history.operationText(at: index) }
    /// True when `undo` has something to undo.
    public var canUndo: Bool { history.canUndo }
    /// True when `redo` has something to redo.
    public var canRedo: Bool { history.canRedo }

    // MARK: Inputs recorded in the history

    /// `fetch [N] [--page P]`: replaces the rows with a page of the public
    /// timeline. Returns how many statuses arrived.
    @discardableResult
    public func fetch(source: TimelineSource = .public, count: Int = 20, page: Int? = nil) async throws(ViewModelError) -> Int {
        var loaded = 0
        let replay = Self.replayWords(source).map { "fetch \($0)\(count)\(page.map { " --page \($0)" } ?? "")" }
        try await record(replay: replay) { () async throws(ViewModelError) -> String in
            loaded = try await timeline.refresh(source: source, count: count, page: page)
            let paging = page.map { " --page \($0)" } ?? ""
            return "fetch \(Self.describe(source))\(count)\(paging) → \(DisplayText.plural(loaded, "status", "statuses"))"
        }
        return loaded
    }

    /// `fetch SOURCE --all [--limit N]`: walks the timeline until it ends,
    /// `limit` statuses arrived, Ctrl-C, or a page fails, keeping what
    /// arrived (see `TimelineViewModel.loadAll`). `progress` hears the total
    /// after each page; `pacing`, once, why the walk slows down (the rate limit).
    public func fetchAll(source: TimelineSource, count: Int, limit: Int?, pause: Duration = .zero,
                         progress: (Int) -> Void = { _ in },
                         pacing: (TimelineViewModel.RateLimitPacing) -> Void = { _ in }) async throws(ViewModelError) -> (loaded: Int, end: TimelineViewModel.LoadAllEnd) {
        var result: (loaded: Int, end: TimelineViewModel.LoadAllEnd) = (0, .end)
        let replay = Self.replayWords(source).map { "fetch \($0)\(count) --all\(limit.map { " --limit \($0)" } ?? "")" }
        try await record(replay: replay) { () async throws(ViewModelError) -> String in
            result = try await timeline.loadAll(source: source, count: count, limit: limit, pause: pause,
                                                progress: progress, pacing: pacing)
            let limited = limit.map { " --limit \($0)" } ?? ""
            let how = switch result.end {
            case .end, .limit: ""
            case .interrupted: " (interrupted)"
            case .failed: " (stopped by an error)"
            }
            return "fetch \(source) --all\(limited) → \(DisplayText.plural(result.loaded, "status", "statuses"))\(how)"
        }
        return result
    }

    /// `more`: appends the next page. Returns how many new statuses it added.
    @discardableResult
    public func more() async throws(ViewModelError) -> Int {
        // Over notifications or scheduled statuses, `more` pages that screen, as it pages the list.
        if timeline.notifications != nil {
            return try await loadPage("more", noun: ("notification", "notifications")) { () async throws(ViewModelError) in
                try await timeline.moreNotifications()
            }
        }
        if timeline.scheduledOnTop {
            return try await loadPage("more", noun: ("scheduled status", "scheduled statuses")) { () async throws(ViewModelError) in
                try await timeline.moreScheduled()
            }
        }
        return try await loadPage("more") { () async throws(ViewModelError) in try await timeline.loadMore() }
    }

    /// `newer`: puts what arrived since the top row on top. Returns how many.
    @discardableResult
    public func newer() async throws(ViewModelError) -> Int {
        try await loadPage("newer") { () async throws(ViewModelError) in try await timeline.loadNewer() }
    }

    /// The command `name` (`more`, `newer`), recorded for replay: `load`
    /// adds a page of statuses and says how many.
    private func loadPage(_ name: String, noun: (String, String) = ("status", "statuses"),
                          _ load: () async throws(ViewModelError) -> Int) async throws(ViewModelError) -> Int {
        var loaded = 0
        try await record(replay: name) { () async throws(ViewModelError) -> String in
            loaded = try await load()
            return "\(name) → \(DisplayText.plural(loaded, noun.0, noun.1))"
        }
        return loaded
    }

    /// When `watch` stops by itself (Ctrl-C always stops it).
    public struct WatchLimit: Sendable, Hashable {
        /// Stop once this many new statuses arrived.
        public var newStatuses: Int?
        /// Stop after this long.
        public var duration: Duration?

        public init(newStatuses: Int? = nil, duration: Duration? = nil) {
            self.newStatuses = newStatuses
            self.duration = duration
        }
    }

    /// `watch [SOURCE]`: every `interval`, puts what arrived since the top
    /// row on top and hands the new rows to `arrived`, until `limit` or
    /// Ctrl-C. The list is first loaded from `source` unless it already
    /// shows it. One operation is recorded for the whole watch, also when it
    /// was interrupted. Returns how many new statuses arrived.
    public func watch(source: TimelineSource, every interval: Duration, limit: WatchLimit,
                      arrived: ([StatusCellViewModel]) -> Void) async throws(ViewModelError) -> Int {
        var total = 0
        try await record(replay: nil) { () async throws(ViewModelError) -> String in
            if !timeline.state.hasFetched || timeline.source != source {
                try await timeline.refresh(source: source, count: 20)
            }
            // Never faster than the rate limit allows.
            let pace = max(interval, await timeline.dataController.requestBudget().steadySpacing)
            total = try await poll(every: pace, limit: limit, arrived: arrived)
            return "watch \(source) → \(DisplayText.plural(total, "new status", "new statuses"))"
        }
        return total
    }

    /// The loop of `watch`: returns how many new statuses arrived before it stopped.
    func poll(every interval: Duration, limit: WatchLimit,
                      arrived: ([StatusCellViewModel]) -> Void) async throws(ViewModelError) -> Int {
        let clock = ContinuousClock()
        let deadline = limit.duration.map { clock.now + $0 }
        var total = 0
        while !Task.isCancelled {
            var wake = clock.now + interval
            if let deadline { wake = min(wake, deadline) }
            do { try await Task.sleep(until: wake, clock: clock) } catch { break }
            let count: Int
            do {
                count = try await timeline.loadNewer()
            } catch {
                if case .requestFailed(.cancelled) = error { break }
                throw error
            }
            if count > 0 { arrived(Array(timeline.rows.prefix(count))) }
            total += count
            if let wanted = limit.newStatuses, total >= wanted { break }
            if let deadline, clock.now >= deadline { break }
        }
        return total
    }

    /// `detail N`: opens the detail of row `index`.
    public func detail(index: Int) async throws(ViewModelError) {
        try await record(replay: "detail \(index)") { () async throws(ViewModelError) -> String in
            try await timeline.showDetail(index: index)
            return "detail \(index)"
        }
    }

    /// `back`: closes the screen on top.
    public func back() throws(ViewModelError) {
        try record(replay: "back") { () throws(ViewModelError) -> String in
            try timeline.back()
            return "back"
        }
    }

    /// `comments [N]`: opens the comments on row `index`, or on the open status.
    public func comments(index: Int? = nil) async throws(ViewModelError) {
        try await record(replay: "comments" + (index.map { " \($0)" } ?? "")) { () async throws(ViewModelError) -> String in
            let count = try await timeline.showComments(index: index)
            return "comments\(index.map { " \($0)" } ?? "") → \(DisplayText.plural(count, "comment"))"
        }
    }

    /// `user [NAME]`: opens a user's profile by screen name or uid; with no
    /// name, the profile of the open status's author.
    public func user(name: String?) async throws(ViewModelError) {
        try await record(replay: "user" + (name.map { " " + Self.replayWord($0) } ?? "")) { () async throws(ViewModelError) -> String in
            try await timeline.showUser(name)
            return name.map { "user \(Self.describeUser($0))" } ?? "user (author)"
        }
    }

    /// `mute USER`: hides that user's rows.
    public func mute(_ name: String) throws(ViewModelError) {
        try record(replay: "mute \(Self.replayWord(name))") { () throws(ViewModelError) -> String in
            let hidden = try timeline.mute(name)
            return "mute \(Self.describeUser(name)) → \(DisplayText.plural(hidden, "row")) hidden"
        }
    }

    /// `unmute USER`: shows that user's rows again.
    public func unmute(_ name: String) throws(ViewModelError) {
        try record(replay: "unmute \(Self.replayWord(name))") { () throws(ViewModelError) -> String in
            let shown = try timeline.unmute(name)
            return "unmute \(Self.describeUser(name)) → \(DisplayText.plural(shown, "row")) shown"
        }
    }

    /// `post TEXT`: posts a status, which becomes the first row. Recorded
    /// with its `RemoteEffect`, so undo deletes it on the server.
    public func post(_ text: String) async throws(ViewModelError) {
        try await recordRemote(replay: "post \(Self.replayWord(text))") { () async throws(ViewModelError) -> (String, (any RemoteEffect)?) in
            let posted = try await timeline.post(text)
            if let note = posted.note { notes.append(note) }
            let line = TerminalText.sanitize(text)
            return ("post \"\(line.count > 40 ? line.prefix(39) + "…" : line)\"", PostedStatusEffect(id: posted.id, text: text))
        }
    }

    /// `calc KEYS…`: presses calculator keys, e.g. `["12", "+", "7", "="]`.
    public func calc(keys: [String]) throws(ViewModelError) {
        try record(replay: (["calc"] + keys.map(Self.replayWord)).joined(separator: " ")) { () throws(ViewModelError) -> String in
            try keypad.press(keys)
            return "calc \(keys.joined(separator: " "))"
        }
    }

    // MARK: History inputs

    /// Restores the state before the last operation. When that operation
    /// wrote to the server, its compensating request goes first (a post is
    /// deleted); if that fails, nothing changes and the error says why.
    public func undo() async throws(ViewModelError) {
        notes = []
        guard let last = history.lastApplied else { throw failed(.nothingToUndo) }
        if let effect = last.remote {
            do {
                notes.append(try await effect.undo(in: self, undoing: last.description))
            } catch {
                throw failed(error)
            }
        }
        guard let previous = history.undo() else { throw failed(.nothingToUndo) }
        show(previous)
        finish(.history)
    }

    /// Reapplies the last undone operation. When it wrote to the server, the
    /// write is sent again first (a new post, with a new id, which takes the
    /// old one's place); if that fails, nothing changes.
    public func redo() async throws(ViewModelError) {
        notes = []
        guard let next = history.nextRedo else { throw failed(.nothingToRedo) }
        if let effect = next.remote {
            do {
                try await effect.redo(in: self, redoing: next.description)
            } catch {
                throw failed(error)
            }
        }
        guard let state = history.redo() else { throw failed(.nothingToRedo) }
        show(state)
        finish(.history)
    }

    /// Empties the history and resets every screen, like the calculator's C
    /// key. Nothing is sent to the server: what was posted stays posted.
    /// Caches stay: a fetch after `clear` may still be answered from them.
    public func clear() {
        notes = []
        let fresh = SessionState()
        history.clear(startingFrom: fresh)
        show(fresh)
        finish(.history)
    }

    // MARK: Recording

    private func record(replay: String?, _ input: () async throws(ViewModelError) -> String) async throws(ViewModelError) {
        try await recordRemote(replay: replay) { () async throws(ViewModelError) -> (String, (any RemoteEffect)?) in (try await input(), nil) }
    }

    func recordRemote(replay: String?, _ input: () async throws(ViewModelError) -> (String, (any RemoteEffect)?)) async throws(ViewModelError) {
        notes = []
        do {
            let (description, remote) = try await input()
            succeeded(description, replay: replay, remote: remote)
        } catch {
            throw failed(error)
        }
    }

    private func record(replay: String?, _ input: () throws(ViewModelError) -> String) throws(ViewModelError) {
        notes = []
        do {
            succeeded(try input(), replay: replay)
        } catch {
            throw failed(error)
        }
    }

    private func succeeded(_ description: String, replay: String?, remote: (any RemoteEffect)? = nil) {
        history.record(description, replay: replay, leaving: state, remote: remote)
        if history.droppedCount > 0 && !announcedDrop {
            announcedDrop = true
            notes.append("history keeps the last \(history.limit) operations; older ones were dropped")
        }
        finish(.history)
    }

    /// Puts `state` on every screen.
    private func show(_ state: SessionState) {
        timeline.restore(state.timeline)
        if calculatorStorage != nil || state.calculator != nil { calculator.restore(state.calculator ?? CalculatorBrain()) }
    }

    /// Sends one notification: the children's changes plus `own`.
    func finish(_ own: SessionChange) {
        var change = pending.union(own)
        pending = []
        if errorMessage != nil {
            errorMessage = nil
            change.insert(.error)
        }
        if !change.isEmpty { notify(change) }
    }

    /// Shows `error`, sends one notification, and returns the error to throw.
    func failed(_ error: ViewModelError) -> ViewModelError {
        errorMessage = error.description
        let change = pending.union(.error)
        pending = []
        notify(change)
        return error
    }

    /// Where in wsh's source the last change notification was sent from: the
    /// classroom page shows that code beside the change.
    public private(set) var changePlace: SourcePlace?

    private func notify(_ change: SessionChange, file: String = #filePath, function: String = #function, line: Int = #line) {
        changePlace = SourcePlace(filePath: file, function: function, line: line)
        onChange?(change)
    }

    /// The largest page `source` serves on this API (what `fetch --all` asks for); nil when it has none.
    public func maximumCount(for source: TimelineSource) -> Int? {
        timeline.dataController.maximumCount(for: source)
    }

    /// The timeline of the reposts of row `index` (from 1), for `fetch reposts N`.
    public func repostsSource(ofRow index: Int) throws(ViewModelError) -> TimelineSource {
        .reposts(statusID: try timeline.statusID(ofRow: index))
    }

    /// How a fetch names its source in the history: nothing for the public
    /// timeline (`fetch 20`), else `home `, `user @name `…
    private static func describe(_ source: TimelineSource) -> String {
        source == .public ? "" : "\(source) "
    }

    /// How a fetch's replay names `source`, with a trailing space (nothing
    /// for the public timeline); nil for reposts, whose row a fresh session lacks.
    static func replayWords(_ source: TimelineSource) -> String? {
        switch source {
        case .public: ""
        case .home: "home "
        case .mentions: "mentions "
        case .local: "local "
        case .tag(let tag): "tag \(replayWord(tag)) "
        case .user(.uid(let uid)): "user \(replayWord(uid)) "
        case .user(.screenName(let name)): "user \(replayWord("@" + name)) "
        case .reposts, .archive: nil
        case .list(let name): "list \(replayWord(name)) "
        case .bookmarks: "bookmarks "
        case .favourites: "favourites "
        }
    }

    /// `word` as the shell language reads it back as one word.
    static func replayWord(_ word: String) -> String { ShellWord.quoted(word) }

    static func describeUser(_ name: String) -> String {
        UserReference(name)?.description ?? name
    }

    /// The note of a screen's walk (`--all`) that a server stopped: it shows
    /// what arrived (`loaded`), as `fetch --all` keeps its rows.
    static func walkStopped(after loaded: String, _ reason: ViewModelError) -> String {
        "stopped after \(loaded), kept: \(reason)"
    }
}

/// The whole view state of a session, as one value: what the timeline
/// screens show (muted users included) and the calculator.
///
/// The history keeps one per operation; undo is putting one back.
public struct SessionState: Sendable, Hashable {
    public var timeline: TimelineState
    /// nil until a calculator key is pressed: a session that never uses it never makes one.
    public var calculator: CalculatorBrain?

    /// A fresh session: nothing loaded, nobody muted, the calculator at 0.
    public init(timeline: TimelineState = TimelineState(), calculator: CalculatorBrain? = nil) {
        self.timeline = timeline
        self.calculator = calculator
    }
}

/// What a `SessionViewModel` change asks the shell's Views to re-render:
/// one bit mask per notification.
extension ViewChange where Subject == SessionViewModel {
    /// `rows` changed.
    public static var rows: Self { Self(bit: 0) }
    /// `screen` changed: detail, comments or user opened or closed.
    public static var screen: Self { Self(bit: 1) }
    /// `ledText` or the calculator's entries changed.
    public static var led: Self { Self(bit: 2) }
    /// `operations`, `canUndo` or `canRedo` changed.
    public static var history: Self { Self(bit: 3) }
    /// `errorMessage` was set or cleared.
    public static var error: Self { Self(bit: 4) }
    /// `isLoading` turned on or off.
    public static var loading: Self { Self(bit: 5) }

    /// The session bits for a timeline change.
    init(_ change: TimelineChange) {
        self = []
        if change.contains(.rows) { insert(.rows) }
        if change.contains(.screen) { insert(.screen) }
        if change.contains(.loading) { insert(.loading) }
        // Errors are the session's to report: it shows one message for any input.
    }

    /// The session bits for a calculator change.
    init(_ change: CalculatorChange) {
        self = change.isDisjoint(with: [.led, .operations]) ? [] : .led
    }
}
