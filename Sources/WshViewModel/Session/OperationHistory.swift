/// The operation list of the session's Top ViewModel: every state-changing
/// input, with a description and the state it left, so undo and redo are
/// restoring a value.
///
/// States are values that share storage (copy-on-write), so keeping one per
/// operation costs little: a `detail 3` snapshot shares the timeline's
/// statuses with the snapshot before it. Undo and redo move a cursor and
/// take constant time; recording after an undo drops the undone operations.
public struct OperationHistory<State: Sendable>: Sendable {
    /// `descriptions[i]` is operation i; `states[i]` the state before it, so
    /// `states[i + 1]` is the state after it.
    private var descriptions: [String] = []
    private var states: [State]
    /// How many operations are applied; the rest can be redone.
    private var applied = 0

    /// An empty history starting from `initial`.
    public init(initial: State) {
        states = [initial]
    }

    /// The state after the last applied operation.
    public var current: State { states[applied] }

    /// How many operations are applied (undone ones are not counted).
    public var operationCount: Int { applied }

    /// The description of applied operation `index`, from 0, e.g. `fetch 20 → 20 statuses`.
    public func operationText(at index: Int) -> String {
        precondition(index >= 0 && index < applied, "operation \(index) of \(applied)")
        return descriptions[index]
    }

    /// Every applied operation's description, oldest first.
    public var operations: [String] { Array(descriptions[..<applied]) }

    /// True when there is an operation to undo.
    public var canUndo: Bool { applied > 0 }

    /// True when an undone operation can be redone.
    public var canRedo: Bool { applied < descriptions.count }

    /// Records an operation described by `description` that left `state`.
    /// Operations undone before it can no longer be redone.
    public mutating func record(_ description: String, leaving state: State) {
        if canRedo {
            descriptions.removeSubrange(applied...)
            states.removeSubrange((applied + 1)...)
        }
        descriptions.append(description)
        states.append(state)
        applied += 1
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

    /// Forgets every operation; `state` becomes the starting point.
    public mutating func clear(startingFrom state: State) {
        self = OperationHistory(initial: state)
    }
}
