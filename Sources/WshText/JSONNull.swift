/// An optional member of a JSON document that is written as `null` when
/// absent, rather than left out as `Encodable` does by default: documents
/// that name all their keys (`--json`, `GET /admin/faults`), so scripts can rely on them.
@propertyWrapper
public struct JSONNull<Value: Encodable & Sendable & Hashable>: Encodable, Sendable, Hashable {
    public var wrappedValue: Value?

    public init(wrappedValue: Value?) {
        self.wrappedValue = wrappedValue
    }

    public func encode(to encoder: Encoder) throws {
        var container = encoder.singleValueContainer()
        if let wrappedValue { try container.encode(wrappedValue) } else { try container.encodeNil() }
    }
}
