/// Any JSON value, kept as it was read: the fields of `accounts.json` that
/// this wsh does not know (written by a newer one, or by hand) are carried
/// through a rewrite unchanged instead of being dropped.
public indirect enum JSONValue: Codable, Sendable, Equatable {
    case null
    case bool(Bool)
    /// An integer that fits 64 bits, kept exactly.
    case integer(Int64)
    case number(Double)
    case string(String)
    case array([JSONValue])
    case object([String: JSONValue])

    public init(from decoder: Decoder) throws {
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

    public func encode(to encoder: Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .null: try container.encodeNil()
        case .bool(let value): try container.encode(value)
        case .integer(let value): try container.encode(value)
        case .number(let value): try container.encode(value)
        case .string(let value): try container.encode(value)
        case .array(let value): try container.encode(value)
        case .object(let value): try container.encode(value)
        }
    }
}

/// Any key of a JSON object: for reading and writing the fields a type does not name.
struct AnyCodingKey: CodingKey, Hashable {
    let stringValue: String
    var intValue: Int? { nil }

    init(_ string: String) { stringValue = string }
    init?(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { return nil }
}

extension KeyedDecodingContainer where Key == AnyCodingKey {
    /// Every member whose key is not one of `known`, as it was.
    func unknownFields(besides known: Set<String>) throws -> [String: JSONValue] {
        var fields: [String: JSONValue] = [:]
        for key in allKeys where !known.contains(key.stringValue) {
            fields[key.stringValue] = try decode(JSONValue.self, forKey: key)
        }
        return fields
    }
}

extension KeyedEncodingContainer where Key == AnyCodingKey {
    /// Writes back the members a type did not know.
    mutating func encodeUnknown(_ fields: [String: JSONValue]) throws {
        for (key, value) in fields { try encode(value, forKey: AnyCodingKey(key)) }
    }
}
