import WshDataController
import WshModel
import WshText

/// `state --json`: the Top ViewModel's `SessionState` as a document, the
/// value the history records and `undo` puts back.
///
/// Field names are stable (README, "Teaching with wsh"); every key is always
/// present (`null` when there is nothing), and the same state always encodes
/// to the same bytes, so a script can compare `state --json` before an
/// operation with `state --json` after undoing it.
public struct SessionStateDocument: Encodable, Sendable, Hashable {
    /// The screens open over the list, innermost last; empty when the list shows.
    public var screens: [ScreenDocument]
    /// Every loaded status in order, muted authors' included (marked).
    public var rows: [RowDocument]
    /// The timeline the rows come from: `public`, `home`, `user @name`…
    public var source: String
    /// The `count` `more` and `newer` reuse.
    public var pageSize: Int
    /// Where the next older page starts (`page 2`, `older than 123`); nil when none.
    @JSONNull public var next: String?
    /// True once a fetch has loaded the timeline.
    public var fetched: Bool
    /// The muted users, in the order they were muted (`@name`, `uid 123`).
    public var muted: [String]
    /// The calculator brain.
    public var calculator: CalculatorDocument

    enum CodingKeys: String, CodingKey {
        case screens, rows, source, next, fetched, muted, calculator
        case pageSize = "page_size"
    }

    /// The document of `state`.
    public init(_ state: SessionState) {
        let timeline = state.timeline
        screens = timeline.screens.map(ScreenDocument.init)
        var visible = 0
        rows = timeline.statuses.map { status in
            let muted = timeline.muted.mutes(status.user)
            if !muted { visible += 1 }
            return RowDocument(
                index: muted ? nil : visible, id: status.identifier.map(StatusDocument.clean),
                author: status.user?.screenName.map(StatusDocument.clean), muted: muted)
        }
        source = TerminalText.sanitize(timeline.source.description)
        pageSize = timeline.pageSize
        next = switch timeline.next {
        case nil: nil
        case .page(let page): "page \(page)"
        case .olderThan(let id): "older than \(StatusDocument.clean(id))"
        case .link(let link): StatusDocument.clean(link.description)
        }
        fetched = timeline.hasFetched
        muted = timeline.muted.references.map { StatusDocument.clean($0.description) }
        calculator = CalculatorDocument(state.calculator ?? CalculatorBrain())
    }

    /// One screen over the list: `{kind, status_id, user_id, screen_name}`.
    public struct ScreenDocument: Encodable, Sendable, Hashable, CustomStringConvertible {
        /// `detail`, `comments` or `user`.
        public var kind: String
        /// The status a detail or comments screen shows.
        @JSONNull public var statusID: String? = nil
        /// The user a user screen shows.
        @JSONNull public var userID: String? = nil
        /// That user's screen name (the owner of a followers or following list).
        @JSONNull public var screenName: String? = nil
        /// What a search screen searched for; absent for other screens.
        public var query: String?

        enum CodingKeys: String, CodingKey {
            case kind
            case statusID = "status_id"
            case userID = "user_id"
            case screenName = "screen_name"
            case query
        }

        init(_ screen: TimelineState.Screen) {
            switch screen {
            case .detail(let status):
                kind = "detail"
                statusID = status.identifier.map(StatusDocument.clean)
            case .comments(let status, _):
                kind = "comments"
                statusID = status.identifier.map(StatusDocument.clean)
            case .user(let user):
                kind = "user"
                userID = user.identifier.map(StatusDocument.clean)
                screenName = user.screenName.map(StatusDocument.clean)
            case .search(let text, _):
                kind = "search"
                query = StatusDocument.clean(text)
            case .accounts(.user(let list), let owner, _):
                kind = list.rawValue
                screenName = StatusDocument.clean(owner)
            case .accounts(.status(let list), let owner, _):
                kind = list.rawValue
                statusID = StatusDocument.clean(owner)
            case .lists:
                kind = "lists"
            case .edits(let status, _):
                kind = "edits"
                statusID = status.identifier.map(StatusDocument.clean)
            case .scheduled:
                kind = "scheduled"
            case .notifications:
                kind = "notifications"
            case .conversations:
                kind = "conversations"
            }
        }

        /// `detail of status 123`, `user @alice (uid 42)`.
        public var description: String {
            if let statusID { return "\(kind) of status \(statusID)" }
            if let query { return "\(kind) \"\(query)\"" }
            let name = screenName.map { "@\($0)" }
            let uid = userID.map { "uid \($0)" }
            return ([kind] + [name, uid.map { name == nil ? $0 : "(\($0))" }].compactMap { $0 }).joined(separator: " ")
        }
    }

    /// One loaded status: `{index, id, author, muted}`; `index` is its row
    /// number, `null` for a muted author's status, which the list hides.
    public struct RowDocument: Encodable, Sendable, Hashable {
        @JSONNull public var index: Int?
        @JSONNull public var id: String?
        @JSONNull public var author: String?
        public var muted: Bool
    }

    /// The calculator brain: `{led, pending, entries, error}`.
    public struct CalculatorDocument: Encodable, Sendable, Hashable {
        /// What the LED shows.
        public var led: String
        /// The operation waiting for its second operand, e.g. `+`.
        @JSONNull public var pending: String?
        /// The entries of the current calculation as typed.
        public var entries: [String]
        /// True after a division by zero, until `C`.
        public var error: Bool

        init(_ brain: CalculatorBrain) {
            led = brain.display
            pending = brain.pendingOperation
            entries = brain.entries
            error = brain.isError
        }
    }
}

/// `state --diff`: what the last operation changed, comparing the state
/// before it with the state it left.
public struct SessionStateDiff: Encodable, Sendable, Hashable {
    /// The operation, as `history` names it.
    public var operation: String
    /// Ids of the statuses it loaded, in row order.
    public var rowsAdded: [String]
    /// Ids of the statuses it took away.
    public var rowsRemoved: [String]
    /// The screens it opened, innermost last.
    public var screensPushed: [SessionStateDocument.ScreenDocument]
    /// The screens it closed, innermost last.
    public var screensPopped: [SessionStateDocument.ScreenDocument]
    public var mutedAdded: [String]
    public var mutedRemoved: [String]
    /// The timeline source before and after, when it changed.
    public var source: Change?
    /// The LED before and after, when it changed.
    public var led: Change?

    /// A value before and after.
    public struct Change: Encodable, Sendable, Hashable {
        public var before: String
        public var after: String
    }

    public func encode(to encoder: Encoder) throws {
        try encoder.encodeFields([
            "operation": operation, "rows_added": rowsAdded, "rows_removed": rowsRemoved,
            "screens_pushed": screensPushed, "screens_popped": screensPopped,
            "muted_added": mutedAdded, "muted_removed": mutedRemoved, "source": source, "led": led,
        ], absent: .null)
    }

    /// What changed from `before` to `after` in `operation`.
    public init(operation: String, before: SessionStateDocument, after: SessionStateDocument) {
        self.operation = operation
        let beforeIDs = before.rows.compactMap(\.id)
        let afterIDs = after.rows.compactMap(\.id)
        let beforeSet = Set(beforeIDs)
        let afterSet = Set(afterIDs)
        rowsAdded = afterIDs.filter { !beforeSet.contains($0) }
        rowsRemoved = beforeIDs.filter { !afterSet.contains($0) }
        let common = zip(before.screens, after.screens).prefix { $0 == $1 }.count
        screensPushed = Array(after.screens[common...])
        screensPopped = Array(before.screens[common...])
        mutedAdded = after.muted.filter { !before.muted.contains($0) }
        mutedRemoved = before.muted.filter { !after.muted.contains($0) }
        source = before.source == after.source ? nil : Change(before: before.source, after: after.source)
        led = before.calculator.led == after.calculator.led ? nil : Change(before: before.calculator.led, after: after.calculator.led)
    }

    /// True when the operation left the state as it found it.
    public var isEmpty: Bool {
        rowsAdded.isEmpty && rowsRemoved.isEmpty && screensPushed.isEmpty && screensPopped.isEmpty
            && mutedAdded.isEmpty && mutedRemoved.isEmpty && source == nil && led == nil
    }
}
