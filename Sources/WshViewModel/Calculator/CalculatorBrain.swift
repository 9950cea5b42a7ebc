import Foundation

/// The calculator's fat Model: a pocket calculator with immediate execution
/// (`12 + 7 * 2 =` is 38, left to right) and decimal arithmetic (`0.1 + 0.2 =`
/// is 0.3), which shows `Error` after a division by zero until `C`.
///
/// A value: the session snapshots it for undo, and the calculator's own undo
/// replays its entries without the last one.
public struct CalculatorBrain: Sendable, Hashable {
    /// The entries of the current calculation as typed: numbers, operators and `=`.
    public private(set) var entries: [String] = []
    /// What the LED shows: the number being typed, the last result, or `Error`.
    public private(set) var display = "0"
    /// True after a division by zero; only `C` leaves this state.
    public private(set) var isError = false

    private var accumulator: Decimal = 0
    private var pending: CalculatorOperation?
    /// The number being typed, as typed; nil between numbers.
    private var typing: String?
    /// True right after `=`: a digit starts a new calculation, an operator continues from the result.
    private var evaluated = false

    /// Digits shown after the decimal point, at most.
    static let fractionDigits = 10

    /// A calculator showing 0.
    public init() {}

    /// The operation waiting for its second operand (`+` after `12 +`), nil when none.
    public var pendingOperation: String? { pending?.rawValue }

    /// Presses `key`.
    public mutating func press(_ key: CalculatorKey) {
        if isError, key != .clear { return }
        switch key {
        case .digit(let digit): type(String(digit))
        case .point: type(".")
        case .operation(let operation): choose(operation)
        case .equals: evaluate()
        case .clear: self = CalculatorBrain()
        }
    }

    /// Removes the last entry (a number, an operator or `=`); false when
    /// there is none.
    public mutating func undoEntry() -> Bool {
        guard !entries.isEmpty else { return false }
        var replayed = CalculatorBrain()
        for entry in entries.dropLast() { replayed.replay(entry) }
        self = replayed
        return true
    }

    // MARK: Keys

    private mutating func type(_ character: String) {
        if evaluated { self = CalculatorBrain() }
        var number = typing ?? ""
        if character == "." {
            guard !number.contains(".") else { return }
            number = number.isEmpty ? "0." : number + "."
        } else {
            number = number == "0" ? character : number + character
        }
        if typing == nil { entries.append(number) } else { entries[entries.count - 1] = number }
        typing = number
        display = number
    }

    private mutating func choose(_ operation: CalculatorOperation) {
        if let number = typing.flatMap({ Decimal(string: $0) }) {
            guard combine(with: number) else { return }
        } else if evaluated {
            // An operator after `=` goes on from the result.
            entries = [Self.format(accumulator)]
        } else if pending != nil {
            // A second operator in a row replaces the first.
            entries.removeLast()
        } else if entries.isEmpty {
            entries = ["0"]
        }
        typing = nil
        evaluated = false
        pending = operation
        entries.append(operation.rawValue)
        display = Self.format(accumulator)
    }

    private mutating func evaluate() {
        if entries.isEmpty { entries = ["0"] }
        // `5 + =` repeats the shown number, as pocket calculators do.
        let operand = typing.flatMap { Decimal(string: $0) } ?? (pending == nil ? nil : accumulator)
        if let operand { guard combine(with: operand) else { return } }
        typing = nil
        pending = nil
        evaluated = true
        entries.append("=")
        display = Self.format(accumulator)
    }

    /// Applies the pending operation to `operand`; false (and `Error`) on division by zero.
    private mutating func combine(with operand: Decimal) -> Bool {
        switch pending {
        case nil: accumulator = operand
        case .add: accumulator += operand
        case .subtract: accumulator -= operand
        case .multiply: accumulator *= operand
        case .divide:
            guard !operand.isZero else {
                isError = true
                display = "Error"
                return false
            }
            accumulator /= operand
        }
        return true
    }

    /// Feeds back one recorded entry.
    private mutating func replay(_ entry: String) {
        if entry == "=" {
            press(.equals)
        } else if let operation = CalculatorOperation(rawValue: entry) {
            press(.operation(operation))
        } else {
            // A number, possibly a negative result: entered whole, not key by key.
            if evaluated { self = CalculatorBrain() }
            entries.append(entry)
            typing = entry
            display = entry
        }
    }

    /// `38`, `0.3`, `0.6666666667`: rounded, without trailing zeros.
    static func format(_ value: Decimal) -> String {
        var value = value
        var rounded = Decimal()
        NSDecimalRound(&rounded, &value, fractionDigits, .plain)
        return rounded.isZero ? "0" : rounded.description
    }
}
