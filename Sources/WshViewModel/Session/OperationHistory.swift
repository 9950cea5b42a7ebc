/// The operation list of the session's Top ViewModel: every state-changing
/// input, with a description and the state it left, so undo and redo are
/// restoring a value.
///
/// States are values that share storage (copy-on-write), so keeping one per
/// operation costs little: a `detail 3` snapshot shares the timeline's
/// statuses with the snapshot before it. Undo and redo move a cursor and
/// take constant time; recording after an undo drops the undone operations.
///
/// The history is bounded: it keeps the last `limit` operations (1000 by
/// default) and drops the oldest beyond that, so a polling loop runs in flat
/// memory. `droppedCount` says how many went; undo reaches back to the state
/// before the oldest operation kept.
///
/// An operation that changed something on the server carries a
/// `RemoteEffect`: undoing or redoing it is a request, which the session
/// sends before it moves the cursor here.
public struct OperationHistory<State: Sendable>: Sendable {
    /// How many operations a history keeps unless told otherwise.
    public static var defaultLimit: Int { 1000 }

    /// The most operations kept; older ones are dropped.
    public let limit: Int
    /// `entries[i]` is operation i; `states[i]` the state before it, so
    /// `states[i + 1]` is the state after it.
    private var entries: [RecordedOperation] = []
    private var states: [State]
    /// How many operations are applied; the rest can be redone.
    private var applied = 0
    /// How many of the oldest operations were dropped to stay within `limit`.
    public private(set) var droppedCount = 0

    /// An empty history starting from `initial`, keeping at most `limit` operations (at least 1).
    public init(initial: State, limit: Int = defaultLimit) {
        precondition(limit >= 1, "a history keeps at least one operation")
        self.limit = limit
        states = [initial]
    }

    /// The state after the last applied operation.
    public var current: State { states[applied] }

    /// The state before the last applied operation; nil when none is applied.
    public var beforeLast: State? { applied > 0 ? states[applied - 1] : nil }

    /// How many operations are applied (undone ones are not counted).
    public var operationCount: Int { applied }

    /// The description of applied operation `index`, from 0, e.g. `fetch 20 → 20 statuses`.
    public func operationText(at index: Int) -> String {
        precondition(index >= 0 && index < applied, "operation \(index) of \(applied)")
        return entries[index].description
    }

    /// Every applied operation's description, oldest first.
    public var operations: [String] { entries[..<applied].map(\.description) }

    /// Every applied operation, oldest first, with what it changed on the server.
    public var records: [RecordedOperation] { Array(entries[..<applied]) }

    /// The undone operations `redo` would apply again, next first.
    public var undone: [RecordedOperation] { Array(entries[applied...]) }

    /// The operation `undo` would take back.
    public var lastApplied: RecordedOperation? { applied > 0 ? entries[applied - 1] : nil }

    /// The operation `redo` would reapply.
    public var nextRedo: RecordedOperation? { canRedo ? entries[applied] : nil }

    /// True when there is an operation to undo.
    public var canUndo: Bool { applied > 0 }

    /// True when an undone operation can be redone.
    public var canRedo: Bool { applied < entries.count }

    /// Records an operation described by `description` that left `state`,
    /// with what it changed on the server, if anything, and the command that
    /// reproduces it (`replay`, nil when none does). Operations undone
    /// before it can no longer be redone; beyond `limit`, the oldest is dropped.
    public mutating func record(_ description: String, replay: String? = nil, leaving state: State, remote: (any RemoteEffect)? = nil) {
        if canRedo {
            entries.removeSubrange(applied...)
            states.removeSubrange((applied + 1)...)
        }
        entries.append(RecordedOperation(description: description, remote: remote, replay: replay))
        states.append(state)
        applied += 1
        if entries.count > limit {
            let excess = entries.count - limit
            entries.removeFirst(excess)
            states.removeFirst(excess)
            applied -= excess
            droppedCount += excess
        }
    }

    /// Undoes the last operation; returns the state before it, nil when none.
    public mutating func undo() -> State? {
        guard canUndo else { return nil }
        applied -= 1
        return states[applied]
    }

    /// Redoes the last undone operation; returns the state after it, nil when none.
    public mutating func redo() -> State? {
        guard canRedo else { return nil }
        applied += 1
        return states[applied]
    }

    /// Before redoing a remote operation whose write made something new (a
    /// new status id): gives the next operation `remote`, and passes the
    /// state it left, and every state after it, through `revise`.
    public mutating func reviseRedo(remote: (any RemoteEffect)?, _ revise: (State) -> State) {
        guard canRedo else { return }
        entries[applied].remote = remote
        for index in (applied + 1)..<states.count {
            states[index] = revise(states[index])
        }
    }

    /// Passes every kept operation's remote effect through `revise` and
    /// every kept state through `reviseState`: when undo re-creates
    /// something under a new id (a deleted status posted again), the
    /// operations before and after it must name the new one.
    public mutating func reviseAll(remote revise: (any RemoteEffect) -> any RemoteEffect,
                                   states reviseState: (State) -> State) {
        for index in entries.indices {
            entries[index].remote = entries[index].remote.map(revise)
        }
        states = states.map(reviseState)
    }

    /// Forgets every operation; `state` becomes the starting point. The
    /// limit stays, and so does `droppedCount`.
    public mutating func clear(startingFrom state: State) {
        entries = []
        states = [state]
        applied = 0
    }
}

/// One recorded operation: how `history` describes it and what it changed on the server.
///
/// Equal when the descriptions, replays and effects are (effects compared
/// by type and inputs, `RemoteEffect.isSame(as:)`).
public struct RecordedOperation: Sendable, Hashable {
    /// E.g. `fetch 20 → 20 statuses`, `post "hello"`.
    public let description: String
    /// What the operation changed on the server; nil for one that changed
    /// only what wsh shows (a fetch reads, it changes nothing there).
    public internal(set) var remote: (any RemoteEffect)?
    /// The command that reproduces the operation in a fresh session, e.g.
    /// `fetch home 20`, `mute @bob`, `calc 12 + 7 =`; nil when none can
    /// (`watch`, `fetch reposts N`, whose row is gone).
    public internal(set) var replay: String? = nil

    /// True when undoing or redoing this operation sends a request.
    public var isRemote: Bool { remote != nil }

    /// True when both describe the same operation with the same effect.
    public static func == (lhs: RecordedOperation, rhs: RecordedOperation) -> Bool {
        guard lhs.description == rhs.description, lhs.replay == rhs.replay else { return false }
        guard let effect = lhs.remote else { return rhs.remote == nil }
        return effect.isSame(as: rhs.remote)
    }

    /// Hashes what `==` compares.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(description)
        hasher.combine(replay)
        hasher.combine(remote.map { AnyHashable($0) })
    }
}
