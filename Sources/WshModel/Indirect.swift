/// An optional value kept out of line, which gives a value type that holds
/// one of its own kind (a status its boosted status, a user its latest
/// status) the indirection it needs.
@propertyWrapper
public struct Indirect<Value> {
    // An array's elements are out of line; it holds none or one.
    private var storage: [Value]

    public init(wrappedValue: Value?) {
        storage = wrappedValue.map { [$0] } ?? []
    }

    public var wrappedValue: Value? {
        get { storage.first }
        set { storage = newValue.map { [$0] } ?? [] }
    }
}

extension Indirect: Sendable where Value: Sendable {}
extension Indirect: Equatable where Value: Equatable {}
extension Indirect: Hashable where Value: Hashable {}

/// In a synthesized `init(from:)`: the value as `Value.lenientValue` reads it.
extension Indirect: LenientField, Decodable where Value: LenientValue {
    public init<K>(_ container: KeyedDecodingContainer<K>, _ key: K) {
        self.init(wrappedValue: Value.lenientValue(container, key))
    }

    /// Outside an object (never in the Model): the value, if it is one.
    public init(from decoder: Decoder) throws {
        self.init(wrappedValue: try? decoder.singleValueContainer().decode(Value.self))
    }
}
