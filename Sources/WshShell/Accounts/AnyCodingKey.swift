import WshText

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

/// A record of the accounts file that keeps the fields this wsh does not
/// know. Its own coding (Swift's, by `CodingKeys`) reads and writes the
/// fields it names; coded as `KeepingUnknownFields`, the others come along.
protocol KeepsUnknownFields: Codable {
    associatedtype CodingKeys: CodingKey & CaseIterable & RawRepresentable<String>
    /// Fields this wsh does not know, kept as they were.
    var unknownFields: [String: JSONValue] { get set }
}

/// Codes a record together with the fields of it this wsh does not know.
struct KeepingUnknownFields<Record: KeepsUnknownFields>: Codable {
    var record: Record

    init(_ record: Record) {
        self.record = record
    }

    init(from decoder: Decoder) throws {
        record = try Record(from: decoder)
        record.unknownFields = try decoder.container(keyedBy: AnyCodingKey.self)
            .unknownFields(besides: Set(Record.CodingKeys.allCases.map(\.rawValue)))
    }

    func encode(to encoder: Encoder) throws {
        try record.encode(to: encoder)
        var unknown = encoder.container(keyedBy: AnyCodingKey.self)
        try unknown.encodeUnknown(record.unknownFields)
    }
}
