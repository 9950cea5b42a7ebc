/// The calculator demo's Top ViewModel: the LED and the list of entries of
/// the current calculation, with undo and clear.
///
/// It owns the `CalculatorBrain`; the Bottom ViewModel (the keypad) feeds it
/// keys. Not thread-safe: confine it to one caller at a time.
public final class CalculatorTopViewModel {
    /// Called once per change with what to re-render.
    public var onChange: ((CalculatorChange) -> Void)?

    /// The brain every output is derived from; `restore(_:)` replaces it.
    public private(set) var brain = CalculatorBrain()
    /// The last input's failure, nil once an input succeeds.
    public private(set) var errorMessage: String?

    /// A calculator showing 0.
    public init() {}

    // MARK: Outputs

    /// What the LED shows: `0`, `12`, `38`, `0.3`, `Error`.
    public var ledText: String { brain.display }

    /// How many entries the current calculation has.
    public var operationCount: Int { brain.entries.count }

    /// Entry `index` (from 0) of the current calculation: a number, an operator or `=`.
    public func operationText(at index: Int) -> String { brain.entries[index] }

    /// The current calculation as one line, e.g. `12 + 7 * 2 =`.
    public var expressionText: String { brain.entries.joined(separator: " ") }

    // MARK: Inputs

    /// Removes the last entry of the current calculation.
    public func undo() throws(ViewModelError) {
        var next = brain
        guard next.undoEntry() else { throw fail(.nothingToUndo) }
        commit(next)
    }

    /// Back to 0 with no entries, like the C key.
    public func clear() {
        commit(CalculatorBrain())
    }

    /// Shows `brain` (a snapshot from the history).
    public func restore(_ brain: CalculatorBrain) {
        commit(brain)
    }

    /// Presses `keys` in order and notifies once; the keypad's way in.
    func press(_ keys: [CalculatorKey]) {
        var next = brain
        for key in keys { next.press(key) }
        commit(next)
    }

    /// Shows `error` without touching the brain, and returns it to throw.
    func fail(_ error: ViewModelError) -> ViewModelError {
        errorMessage = error.description
        onChange?(.error)
        return error
    }

    private func commit(_ next: CalculatorBrain) {
        var change: CalculatorChange = []
        if next.display != brain.display { change.insert(.led) }
        if next.entries != brain.entries { change.insert(.operations) }
        brain = next
        if errorMessage != nil {
            errorMessage = nil
            change.insert(.error)
        }
        if !change.isEmpty { onChange?(change) }
    }
}
