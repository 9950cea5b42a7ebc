/// A value type whose stored fields live in one shared box, copied only when
/// a copy that shares it is changed (copy-on-write, as Swift's own arrays and
/// strings do).
///
/// A status has some sixty fields and a user thirty; kept inline, every copy
/// (into a page's array, the history, the caches) moved a kilobyte and
/// retained each of their strings. Behind a box a copy is one retain.
/// The fields are read and written by name, `status.text`, through
/// `Storage`'s key paths: the type declares its fields in `Storage` and
/// conforms here, and nothing else changes for its users.
@dynamicMemberLookup
public protocol CopyOnWrite: Hashable, Sendable where Storage: Hashable & Sendable {
    associatedtype Storage
    var box: CopyOnWriteBox<Storage> { get set }
}

/// The shared home of a `CopyOnWrite` value's fields. It is only written
/// through a value that holds the one reference to it, so sharing it between
/// threads is as safe as sharing the value.
public final class CopyOnWriteBox<Storage>: @unchecked Sendable {
    @usableFromInline var storage: Storage

    @inlinable public init(_ storage: Storage) {
        self.storage = storage
    }
}

extension CopyOnWrite {
    /// `value.field`: `Storage`'s field of that name.
    @inlinable
    public subscript<Field>(dynamicMember field: WritableKeyPath<Storage, Field>) -> Field {
        get { box.storage[keyPath: field] }
        set {
            if !isKnownUniquelyReferenced(&box) { box = CopyOnWriteBox(box.storage) }
            box.storage[keyPath: field] = newValue
        }
    }

    public static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.box === rhs.box || lhs.box.storage == rhs.box.storage
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(box.storage)
    }
}

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
