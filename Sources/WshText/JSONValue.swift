import FoundationEssentials

/// Any JSON value, for the few places that read or write JSON whose shape no
/// Model type describes: a HAR file, a nodeinfo document, an OAuth token
/// answer, a body to redact. Read and written through Foundation's
/// `JSONDecoder`/`JSONEncoder` (so what one accepts the other writes back);
/// Model types decode through their own `Decodable` conformances instead.
public indirect enum JSONValue: Sendable, Hashable {
    case null
    case bool(Bool)
    /// A whole number that fits 64 bits, kept exactly.
    case integer(Int64)
    /// Any other number.
    case number(Double)
    case string(String)
    case array([JSONValue])
    case object([String: JSONValue])

    /// Decodes `data`; nil when it is not JSON. Top-level scalars are allowed.
    public static func parse(_ data: Data) -> JSONValue? {
        try? JSONDecoder().decode(JSONValue.self, from: data)
    }

    /// The value as JSON text; `pretty` indents it. Keys are sorted and
    /// slashes left as they are, so the same value always writes the same bytes.
    public func encoded(pretty: Bool = false) -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = pretty ? [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
                                          : [.sortedKeys, .withoutEscapingSlashes]
        // Every case encodes (a non-finite double is written as null).
        return (try? encoder.encode(self)) ?? Data("null".utf8)
    }

    /// The member `key` of an object; nil for anything else or a missing key.
    /// Setting it on anything but an object does nothing.
    public subscript(key: String) -> JSONValue? {
        get {
            if case .object(let members) = self { return members[key] }
            return nil
        }
        set {
            guard case .object(var members) = self else { return }
            members[key] = newValue
            self = .object(members)
        }
    }

    public var string: String? {
        if case .string(let text) = self { return text }
        return nil
    }

    /// A number that is whole and fits `Int`.
    public var int: Int? {
        switch self {
        case .integer(let value): return Int(exactly: value)
        case .number(let value): return Int(exactly: value)
        default: return nil
        }
    }

    public var bool: Bool? {
        if case .bool(let value) = self { return value }
        return nil
    }

    public var array: [JSONValue]? {
        if case .array(let elements) = self { return elements }
        return nil
    }

    public var object: [String: JSONValue]? {
        if case .object(let members) = self { return members }
        return nil
    }

    /// A string as it is, a number as JSON writes it; nil for anything else.
    public var scalarText: String? {
        switch self {
        case .string(let text): return text
        case .integer(let value): return String(value)
        case .number(let value): return value.isFinite && value == value.rounded() && abs(value) < 1e15
            ? String(Int64(value)) : String(value)
        default: return nil
        }
    }
}

extension JSONValue: Codable {
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let value = try? container.decode(Bool.self) {
            self = .bool(value)
        } else if let value = try? container.decode(Int64.self) {
            self = .integer(value)
        } else if let value = try? container.decode(Double.self) {
            self = .number(value)
        } else if let value = try? container.decode(String.self) {
            self = .string(value)
        } else if let value = try? container.decode([JSONValue].self) {
            self = .array(value)
        } else {
            self = .object(try container.decode([String: JSONValue].self))
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .null: try container.encodeNil()
        case .bool(let value): try container.encode(value)
        case .integer(let value): try container.encode(value)
        case .number(let value):
            if value.isFinite { try container.encode(value) } else { try container.encodeNil() }
        case .string(let value): try container.encode(value)
        case .array(let value): try container.encode(value)
        case .object(let value): try container.encode(value)
        }
    }
}

extension JSONValue {
    public init(_ value: String) { self = .string(value) }
    public init(_ value: Int) { self = .integer(Int64(value)) }
    public init(_ value: Double) { self = .number(value) }
    public init(_ values: [JSONValue]) { self = .array(values) }
    public init(_ members: [String: JSONValue]) { self = .object(members) }
}

extension JSONValue: ExpressibleByStringInterpolation, ExpressibleByIntegerLiteral, ExpressibleByBooleanLiteral,
    ExpressibleByArrayLiteral, ExpressibleByDictionaryLiteral, ExpressibleByFloatLiteral {
    public init(stringLiteral value: String) { self = .string(value) }
    public init(stringInterpolation: DefaultStringInterpolation) { self = .string(String(stringInterpolation: stringInterpolation)) }
    public init(integerLiteral value: Int64) { self = .integer(value) }
    public init(floatLiteral value: Double) { self = .number(value) }
    public init(booleanLiteral value: Bool) { self = .bool(value) }
    public init(arrayLiteral elements: JSONValue...) { self = .array(elements) }
    public init(dictionaryLiteral members: (String, JSONValue)...) {
        self = .object(Dictionary(members, uniquingKeysWith: { _, last in last }))
    }
}
