import FoundationEssentials
import WshText

/// Decoding that survives the shapes real Weibo responses take: a field that
/// is missing, `null`, a number where a string was expected (or the reverse),
/// `""` where a number was expected. A field that cannot be read is nil; it
/// never fails the whole object.
extension KeyedDecodingContainer {
    /// A string, also from a number or a bool.
    func lenientString(_ key: Key) -> String? {
        if let s = try? decodeIfPresent(String.self, forKey: key) { return s }
        guard holdsValue(key) else { return nil }
        if let i = try? decodeIfPresent(Int64.self, forKey: key) { return String(i) }
        if let u = try? decodeIfPresent(UInt64.self, forKey: key) { return String(u) }
        if let d = try? decodeIfPresent(Double.self, forKey: key) { return String(d) }
        if let b = try? decodeIfPresent(Bool.self, forKey: key) { return String(b) }
        return nil
    }

    /// An integer, also from a numeric string; nil for `""` and other text.
    func lenientInt(_ key: Key) -> Int64? {
        if let i = try? decodeIfPresent(Int64.self, forKey: key) { return i }
        guard holdsValue(key) else { return nil }
        if let s = try? decodeIfPresent(String.self, forKey: key) {
            return Int64(s.trimmingSpaces)
        }
        if let d = try? decodeIfPresent(Double.self, forKey: key), d.isFinite,
           d >= -9.2e18, d <= 9.2e18 {
            return Int64(d)
        }
        return nil
    }

    /// A count: an integer that defaults to nil when absent or unreadable.
    func lenientCount(_ key: Key) -> Int? {
        lenientInt(key).flatMap { Int(exactly: $0) }
    }

    /// A bool, also from 0/1 or "true"/"false".
    func lenientBool(_ key: Key) -> Bool? {
        if let b = try? decodeIfPresent(Bool.self, forKey: key) { return b }
        guard holdsValue(key) else { return nil }
        if let i = try? decodeIfPresent(Int.self, forKey: key) { return i != 0 }
        if let s = try? decodeIfPresent(String.self, forKey: key) {
            switch s.lowercased() {
            case "true", "1": return true
            case "false", "0": return false
            default: return nil
            }
        }
        return nil
    }

    /// Whether `key` is present with a value other than null: the fallbacks
    /// above are tried only then, so an absent field costs two lookups, not five.
    private func holdsValue(_ key: Key) -> Bool {
        contains(key) && (try? decodeNil(forKey: key)) == false
    }

    /// Any decodable value, nil when absent or of another shape.
    func lenient<T: Decodable>(_ type: T.Type, _ key: Key) -> T? {
        (try? decodeIfPresent(T.self, forKey: key)) ?? nil
    }

    /// A Weibo time, nil when absent or unparseable.
    func lenientTime(_ key: Key) -> WeiboTime? {
        lenientString(key).flatMap(WeiboTime.init(weiboText:))
    }

    /// The error for an answer without `key`, the field that makes it what
    /// it is; `what` says so (`a list needs 'id'`).
    func missing(_ key: Key, _ what: String) -> DecodingError {
        .keyNotFound(key, .init(codingPath: codingPath, debugDescription: what))
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
