/// The operators of expressions and how they combine values.
///
/// Integers stay integers with overflow-checked arithmetic; a decimal on either side
/// makes the result a decimal; comparisons of two numbers are numeric and anything
/// else compares text.
enum BinaryOperator: UInt8, Sendable {
    case add, subtract, multiply, divide, remainder
    case equal, notEqual, less, lessOrEqual, greater, greaterOrEqual

    init?(symbol: String) {
        switch symbol {
        case "+": self = .add
        case "-": self = .subtract
        case "*": self = .multiply
        case "/": self = .divide
        case "%": self = .remainder
        case "==": self = .equal
        case "!=": self = .notEqual
        case "<": self = .less
        case "<=": self = .lessOrEqual
        case ">": self = .greater
        case ">=": self = .greaterOrEqual
        default: return nil
        }
    }

    var symbol: String {
        switch self {
        case .add: "+"
        case .subtract: "-"
        case .multiply: "*"
        case .divide: "/"
        case .remainder: "%"
        case .equal: "=="
        case .notEqual: "!="
        case .less: "<"
        case .lessOrEqual: "<="
        case .greater: ">"
        case .greaterOrEqual: ">="
        }
    }

    var isComparison: Bool { rawValue >= BinaryOperator.equal.rawValue }

    /// Applies the operator. Errors are plain messages; the machine adds the command
    /// and position.
    @inline(__always)
    func apply(_ left: Value, _ right: Value) throws(LanguageError) -> Value {
        if case .int(let a) = left, case .int(let b) = right {
            return try applyInts(a, b)
        }
        return try applySlow(left, right)
    }

    @inline(__always)
    func applyInts(_ a: Int, _ b: Int) throws(LanguageError) -> Value {
        .int(try intResult(a, b))
    }

    /// The operator on two integers, whose result is always an integer (a
    /// comparison's 1 or 0): the machine keeps it out of a ``Value``.
    @inline(__always)
    func intResult(_ a: Int, _ b: Int) throws(LanguageError) -> Int {
        switch self {
        case .add:
            let (result, overflow) = a.addingReportingOverflow(b)
            if overflow { throw BinaryOperator.overflow(a, self, b) }
            return result
        case .subtract:
            let (result, overflow) = a.subtractingReportingOverflow(b)
            if overflow { throw BinaryOperator.overflow(a, self, b) }
            return result
        case .multiply:
            let (result, overflow) = a.multipliedReportingOverflow(by: b)
            if overflow { throw BinaryOperator.overflow(a, self, b) }
            return result
        case .divide:
            if b == 0 { throw LanguageError.commandFailed("division by zero") }
            let (result, overflow) = a.dividedReportingOverflow(by: b)
            if overflow { throw BinaryOperator.overflow(a, self, b) }
            return result
        case .remainder:
            if b == 0 { throw LanguageError.commandFailed("division by zero") }
            let (result, overflow) = a.remainderReportingOverflow(dividingBy: b)
            if overflow { throw BinaryOperator.overflow(a, self, b) }
            return result
        case .equal, .notEqual, .less, .lessOrEqual, .greater, .greaterOrEqual: return compare(a, b) ? 1 : 0
        }
    }

    /// This comparison of `a` and `b` (numbers or text); only called for comparison operators.
    @inline(__always)
    func compare<T: Comparable>(_ a: T, _ b: T) -> Bool {
        switch self {
        case .equal: a == b
        case .notEqual: a != b
        case .less: a < b
        case .lessOrEqual: a <= b
        case .greater: a > b
        default: a >= b
        }
    }

    private static func overflow(_ a: Int, _ op: BinaryOperator, _ b: Int) -> LanguageError {
        .commandFailed("integer overflow in \(a) \(op.symbol) \(b)")
    }

    private func applySlow(_ left: Value, _ right: Value) throws(LanguageError) -> Value {
        let leftNumber = left.numeric
        let rightNumber = right.numeric
        if isComparison {
            guard let leftNumber, let rightNumber else {
                return .int(compare(left.description, right.description) ? 1 : 0)
            }
            if case .int(let a) = leftNumber, case .int(let b) = rightNumber {
                return try applyInts(a, b)
            }
            return .int(compare(leftNumber.asDouble, rightNumber.asDouble) ? 1 : 0)
        }
        guard let leftNumber else { throw notANumber(left) }
        guard let rightNumber else { throw notANumber(right) }
        if case .int(let a) = leftNumber, case .int(let b) = rightNumber {
            return try applyInts(a, b)
        }
        let a = leftNumber.asDouble
        let b = rightNumber.asDouble
        let result: Double
        switch self {
        case .add: result = a + b
        case .subtract: result = a - b
        case .multiply: result = a * b
        case .divide:
            if b == 0 { throw LanguageError.commandFailed("division by zero") }
            result = a / b
        case .remainder:
            if b == 0 { throw LanguageError.commandFailed("division by zero") }
            result = a.truncatingRemainder(dividingBy: b)
        default: return .int(compare(a, b) ? 1 : 0)
        }
        // Decimal overflow is an error, as integer overflow is: never `inf` or `nan`.
        guard result.isFinite else {
            throw LanguageError.commandFailed("decimal overflow in \(left.description) \(symbol) \(right.description)")
        }
        return .double(result)
    }

    private func notANumber(_ value: Value) -> LanguageError {
        .commandFailed("expected a number for \(symbol) but got \"\(value.description)\"")
    }
}

extension Value {
    var asDouble: Double {
        switch self {
        case .int(let value): Double(value)
        case .double(let value): value
        case .string(let text): Double(text) ?? .nan
        }
    }

    /// Truthiness for conditions: numbers are true when non-zero; the words
    /// true/yes/on and false/no/off and the empty string are booleans too.
    func truth() throws(LanguageError) -> Bool {
        switch self {
        case .int(let value): return value != 0
        case .double(let value): return value != 0
        case .string(let text):
            switch text {
            case "", "false", "no", "off": return false
            case "true", "yes", "on": return true
            default:
                if let number = Value.parseNumber(text) { return try number.truth() }
                throw LanguageError.commandFailed("expected a boolean but got \"\(text)\"")
            }
        }
    }
}
