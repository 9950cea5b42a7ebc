import FoundationEssentials

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
        rounded(value.description, fractionDigits)
    }

    /// A decimal's exact text (`-0.66666…`) rounded half away from zero to
    /// `digits` decimals, without trailing zeros.
    static func rounded(_ text: String, _ digits: Int) -> String {
        let negative = text.hasPrefix("-")
        let unsigned = negative ? text.dropFirst() : Substring(text)
        let parts = unsigned.split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false)
        var whole = Array(parts[0]).compactMap(\.wholeNumberValue)
        let fraction = parts.count > 1 ? Array(parts[1]).compactMap(\.wholeNumberValue) : []
        var kept = Array(fraction.prefix(digits))
        if fraction.count > digits, fraction[digits] >= 5 {
            // Carry the one through the kept decimals, then the whole part.
            var index = kept.count - 1
            while index >= 0, kept[index] == 9 { kept[index] = 0; index -= 1 }
            if index >= 0 {
                kept[index] += 1
            } else {
                var place = whole.count - 1
                while place >= 0, whole[place] == 9 { whole[place] = 0; place -= 1 }
                if place >= 0 { whole[place] += 1 } else { whole.insert(1, at: 0) }
            }
        }
        while kept.last == 0 { kept.removeLast() }
        let digitsText = { (values: [Int]) in values.map(String.init).joined() }
        let body = (whole.isEmpty ? "0" : digitsText(whole)) + (kept.isEmpty ? "" : "." + digitsText(kept))
        return negative && body != "0" ? "-" + body : body
    }
}
