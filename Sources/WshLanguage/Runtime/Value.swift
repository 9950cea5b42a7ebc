import FoundationEssentials

/// A value in the language: an integer, a decimal or a string.
///
/// Words are strings; arithmetic reads numbers out of strings when it needs them and
/// produces typed numbers, so loops keep integers as integers.
public enum Value: Sendable, Hashable, CustomStringConvertible, ExpressibleByStringLiteral,
    ExpressibleByIntegerLiteral
{
    /// A 64-bit signed integer; overflow is an error.
    case int(Int)
    /// A double-precision decimal.
    case double(Double)
    /// Text.
    case string(String)

    /// Creates a string value.
    public init(stringLiteral value: String) { self = .string(value) }
    /// Creates an integer value.
    public init(integerLiteral value: Int) { self = .int(value) }

    /// The value as a word: integers in decimal, decimals in their shortest form that
    /// reads back the same (`2.5`, `3.0`), strings as they are.
    public var description: String {
        switch self {
        case .int(let value): String(value)
        case .double(let value): Value.format(value)
        case .string(let value): value
        }
    }

    static func format(_ value: Double) -> String {
        if value.isNaN { return "NaN" }
        if value.isInfinite { return value < 0 ? "-Inf" : "Inf" }
        return String(value)
    }

    /// The value as a number if it is one or reads as one (`"42"`, `" 2.5"` is not).
    var numeric: Value? {
        switch self {
        case .int, .double: return self
        case .string(let text): return Value.parseNumber(text)
        }
    }

    /// Reads a decimal integer or a decimal number; nil for anything else.
    static func parseNumber(_ text: String) -> Value? {
        if let int = Int(text) { return .int(int) }
        guard let first = text.utf8.first,
            first == UInt8(ascii: "-") || first == UInt8(ascii: "+") || first == UInt8(ascii: ".")
                || (first >= UInt8(ascii: "0") && first <= UInt8(ascii: "9"))
        else { return nil }
        // Double() also accepts "nan" and "inf"; the language only reads digits.
        guard text.utf8.allSatisfy({ byte in
            (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")) || byte == UInt8(ascii: ".")
                || byte == UInt8(ascii: "e") || byte == UInt8(ascii: "E")
                || byte == UInt8(ascii: "-") || byte == UInt8(ascii: "+")
        }) else { return nil }
        return Double(text).map(Value.double)
    }

    /// The value as an integer, if it is one or reads as one.
    public var intValue: Int? {
        switch self {
        case .int(let value): value
        case .double: nil
        case .string(let text): Int(text)
        }
    }
}
