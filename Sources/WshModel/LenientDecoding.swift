import FoundationEssentials
import WshText

/// Decoding that survives the shapes real Weibo responses take: a field that
/// is missing, `null`, a number where a string was expected (or the reverse),
/// `""` where a number was expected. A field that cannot be read is nil; it
/// never fails the whole object.
extension KeyedDecodingContainer {
    /// The value of `key` as `T.lenientValue` reads it: nil when absent, null
    /// or unreadable.
    func lenient<T: LenientValue>(_ type: T.Type, _ key: Key) -> T? {
        T.lenientValue(self, key)
    }

    /// Whether `key` is present with a value other than null: the fallbacks
    /// of the readers below are tried only then, so an absent field costs two
    /// lookups, not five.
    fileprivate func holdsValue(_ key: Key) -> Bool {
        contains(key) && (try? decodeNil(forKey: key)) == false
    }

    /// The error for an answer without `key`, the field that makes it what
    /// it is; `what` says so (`a list needs 'id'`).
    func missing(_ key: Key, _ what: String) -> DecodingError {
        .keyNotFound(key, .init(codingPath: codingPath, debugDescription: what))
    }

    /// A page's list (`statuses`, `comments`…), its unreadable elements
    /// dropped, nil or not an array as empty; an answer without `key` is not
    /// such a page (`what` says so: `a comments page needs 'comments'`).
    func pageList<T: Decodable>(_ type: T.Type, _ key: Key, _ what: String) throws -> [T] {
        guard contains(key) else { throw missing(key, what) }
        return lenientArray(T.self, key) ?? []
    }

    /// An array whose unreadable elements are dropped rather than failing it.
    func lenientArray<T: Decodable>(_ type: T.Type, _ key: Key) -> [T]? {
        guard let wrapped = try? decodeIfPresent([Lossy<T>].self, forKey: key) else { return nil }
        return wrapped.compactMap(\.value)
    }
}

extension Decoder {
    /// The whole answer as a bare array (what some endpoints and older
    /// clients send) with its unreadable elements dropped; nil when it is not an array.
    func lenientBareArray<T: Decodable>(_ type: T.Type) -> [T]? {
        guard let wrapped = try? singleValueContainer().decode([Lossy<T>].self) else { return nil }
        return wrapped.compactMap(\.value)
    }
}

/// One element of a lossy array: the value, or nil if it did not decode.
struct Lossy<T: Decodable>: Decodable {
    let value: T?
    init(from decoder: Decoder) throws {
        value = try? T(from: decoder)
    }
}

extension KeyedEncodingContainer {
    /// Encodes only present values, keeping the output close to the API's.
    mutating func encodeIfPresent<T: Encodable>(_ value: T?, _ key: Key) throws {
        if let value { try encode(value, forKey: key) }
    }
}

/// A value that decodes leniently, as `KeyedDecodingContainer.lenient`
/// and `@Lenient` read it: nil when absent, null or unreadable; it never fails
/// the whole object. Any `Decodable` type: the value if it decodes; a string,
/// an integer and a bool also from the shapes real Weibo responses take.
public protocol LenientValue: Decodable {
    static func lenientValue<K>(_ container: KeyedDecodingContainer<K>, _ key: K) -> Self?
}

extension LenientValue {
    /// The value, nil when absent or of another shape.
    public static func lenientValue<K>(_ container: KeyedDecodingContainer<K>, _ key: K) -> Self? {
        (try? container.decodeIfPresent(Self.self, forKey: key)) ?? nil
    }
}

extension String: LenientValue {
    /// A string, also from a number or a bool.
    public static func lenientValue<K>(_ c: KeyedDecodingContainer<K>, _ key: K) -> String? {
        if let s = try? c.decodeIfPresent(String.self, forKey: key) { return s }
        guard c.holdsValue(key) else { return nil }
        if let i = try? c.decodeIfPresent(Int64.self, forKey: key) { return String(i) }
        if let u = try? c.decodeIfPresent(UInt64.self, forKey: key) { return String(u) }
        if let d = try? c.decodeIfPresent(Double.self, forKey: key) { return String(d) }
        if let b = try? c.decodeIfPresent(Bool.self, forKey: key) { return String(b) }
        return nil
    }
}

extension Int64: LenientValue {
    /// An integer, also from a numeric string; nil for `""` and other text.
    public static func lenientValue<K>(_ c: KeyedDecodingContainer<K>, _ key: K) -> Int64? {
        if let i = try? c.decodeIfPresent(Int64.self, forKey: key) { return i }
        guard c.holdsValue(key) else { return nil }
        if let s = try? c.decodeIfPresent(String.self, forKey: key) {
            return Int64(s.trimmingSpaces)
        }
        if let d = try? c.decodeIfPresent(Double.self, forKey: key), d.isFinite,
           d >= -9.2e18, d <= 9.2e18 {
            return Int64(d)
        }
        return nil
    }
}

extension Int: LenientValue {
    /// A count: an `Int64` as above that fits.
    public static func lenientValue<K>(_ c: KeyedDecodingContainer<K>, _ key: K) -> Int? {
        Int64.lenientValue(c, key).flatMap { Int(exactly: $0) }
    }
}

extension Bool: LenientValue {
    /// A bool, also from 0/1 or "true"/"false".
    public static func lenientValue<K>(_ c: KeyedDecodingContainer<K>, _ key: K) -> Bool? {
        if let b = try? c.decodeIfPresent(Bool.self, forKey: key) { return b }
        guard c.holdsValue(key) else { return nil }
        if let i = try? c.decodeIfPresent(Int.self, forKey: key) { return i != 0 }
        if let s = try? c.decodeIfPresent(String.self, forKey: key) {
            switch s.lowercased() {
            case "true", "1": return true
            case "false", "0": return false
            default: return nil
            }
        }
        return nil
    }
}

/// A Weibo time: nil when absent, not text or not in Weibo's form (its text
/// alone can be one: a number or a bool never is).
extension Timestamp: LenientValue {}

/// An optional array as a whole, by `lenient(_:_:)`: nil unless every element
/// reads (a non-optional array field drops the unreadable elements instead).
extension Array: LenientValue where Element: Decodable {}

// MARK: - Lenient fields the synthesized `init(from:)` reads

/// What a `@Lenient` field can hold: an optional `LenientValue` (nil when the
/// field is absent, null or unreadable), or an array read as `lenientArray`
/// reads it (unreadable elements dropped; empty when absent or not an array).
public protocol LenientDecodable: Decodable {
    static func lenientField<K>(_ container: KeyedDecodingContainer<K>, _ key: K) -> Self
    /// The value of an absent field, and of one read outside an object.
    static var absent: Self { get }
}

extension Optional: LenientDecodable where Wrapped: LenientValue {
    public static func lenientField<K>(_ container: KeyedDecodingContainer<K>, _ key: K) -> Self {
        Wrapped.lenientValue(container, key)
    }

    public static var absent: Self { nil }
}

extension Array: LenientDecodable where Element: Decodable {
    public static func lenientField<K>(_ container: KeyedDecodingContainer<K>, _ key: K) -> Self {
        container.lenientArray(Element.self, key) ?? []
    }

    public static var absent: Self { [] }
}

/// A field of a Model type that a synthesized `init(from:)` reads leniently
/// (through the `KeyedDecodingContainer.decode` overload below): it never
/// fails the object it is in.
public protocol LenientField: Decodable {
    init<K>(_ container: KeyedDecodingContainer<K>, _ key: K)
}

extension KeyedDecodingContainer {
    /// A lenient field, for the synthesized `init(from:)`: chosen over the
    /// standard `decode` because it is more specific, so that an absent key,
    /// null or a value of another shape reads as the field's lenient value
    /// instead of throwing.
    func decode<F: LenientField>(_ type: F.Type, forKey key: Key) -> F {
        F(self, key)
    }
}

/// A Model field read leniently (see `LenientDecodable`).
@propertyWrapper
public struct Lenient<Value: LenientDecodable>: LenientField {
    public var wrappedValue: Value

    public init(wrappedValue: Value) {
        self.wrappedValue = wrappedValue
    }

    public init<K>(_ container: KeyedDecodingContainer<K>, _ key: K) {
        wrappedValue = Value.lenientField(container, key)
    }

    /// Outside an object (never in the Model): the value only if it is one.
    public init(from decoder: Decoder) throws {
        wrappedValue = (try? decoder.singleValueContainer().decode(Value.self)) ?? Value.absent
    }
}

/// Encoded as its value.
extension Lenient: Encodable where Value: Encodable {
    public func encode(to encoder: Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(wrappedValue)
    }
}

extension KeyedEncodingContainer {
    /// A lenient optional field, for the synthesized `encode(to:)`: left out
    /// when nil, as a plain optional field is.
    mutating func encode<V: LenientValue & Encodable>(_ field: Lenient<V?>, forKey key: Key) throws {
        try encodeIfPresent(field.wrappedValue, key)
    }
}

extension Lenient: Sendable where Value: Sendable {}
extension Lenient: Equatable where Value: Equatable {}
extension Lenient: Hashable where Value: Hashable {}
