import FoundationEssentials
import Synchronization
import WshText

/// What the Model's fast decoding reads with: the JSON bytes, and the users
/// already decoded in this body and in the body read before it.
///
/// A timeline names the same authors again and again, each time with the
/// same bytes (`{"id": 1404376560, …}`), and decoding is a function of the
/// bytes alone: an object with the bytes of one decoded before is that
/// value again. It is found by a hash of its first bytes and a comparison
/// of all of them, and its strings are shared rather than made anew.
struct ModelReader {
    typealias Declined = JSONBytes.Declined

    var json: JSONBytes
    /// The users of this body, by a hash of their first bytes.
    let users = UserMemo()
    /// Strings that repeat from object to object (see `lenientRepeatedString`).
    let repeated = RepeatedStrings()
    /// The order of each kind's keys in this body (see `object`).
    let orders = KeyOrders()
    /// Those of the body read before (see `RecentUsers`).
    private let earlier: RecentUsers.Body?

    init(_ json: JSONBytes, earlier: RecentUsers.Body? = nil) {
        self.json = json
        self.earlier = earlier
    }

    // The reader's structure, forwarded.
    @inline(__always) mutating func peek() -> UInt8 { json.peek() }
    @inline(__always) mutating func enterObject() throws(Declined) { try json.enterObject() }
    @inline(__always) mutating func enterArray() throws(Declined) { try json.enterArray() }
    @inline(__always) mutating func nextKey(_ first: inout Bool) throws(Declined) -> JSONBytes.Key? { try json.nextKey(&first) }
    @inline(__always) mutating func nextElement(_ first: inout Bool) throws(Declined) -> Bool { try json.nextElement(&first) }
    @inline(__always) func match(_ key: JSONBytes.Key, _ keys: JSONKeys) -> Int? { json.match(key, keys) }
    @inline(__always) func key(_ key: JSONBytes.Key, is name: StaticString) -> Bool { json.key(key, is: name) }
    @inline(__always) mutating func skipValue() throws(Declined) { try json.skipValue() }
    @inline(__always) mutating func string() throws(Declined) -> String { try json.string() }

    /// Reads an object (the reader is at `{`): `field` gets the index in `keys`
    /// of each key it knows, the first time that key appears (JSONDecoder
    /// keeps the first of duplicate keys), and reads its value; every other
    /// value is skipped.
    ///
    /// The first object of a kind in a body is read key by key, and the
    /// order of its keys kept; the next ones are read by that order (see
    /// `JSONBytes.nextKey(_:in:order:…)`): a key where the order has it is
    /// known by comparing its bytes, with no search. An object that breaks
    /// the order in more than a few places (a server that writes each
    /// object its own way) has the next one learnt again.
    @inline(__always)
    mutating func object(_ keys: JSONKeys, _ field: (inout ModelReader, Int) throws(Declined) -> Void) throws(Declined) {
        var seen = 0
        try enterObject()
        var first = true
        guard let order = orders.order(of: keys) else {
            var learnt: [(key: JSONBytes.Key, index: Int)] = []
            while let key = try nextKey(&first) {
                let index = match(key, keys)
                learnt.append((key, index ?? -1))
                guard let index, seen & 1 << index == 0 else {
                    try skipValue()
                    continue
                }
                seen |= 1 << index
                try field(&self, index)
            }
            orders.keep(KeyOrder(learnt, in: json), of: keys)
            return
        }
        var position = 0
        var misses = 0
        while true {
            let index = try json.nextKey(&first, in: keys, order: order, position: &position, misses: &misses)
            if index == JSONBytes.objectEnds { break }
            guard index >= 0, seen & 1 << index == 0 else {
                try skipValue()
                continue
            }
            seen |= 1 << index
            try field(&self, index)
        }
        if misses > 3 { orders.forget(keys) }
    }

    /// A user object (the reader is at `{`): one with the bytes of a user
    /// read before, in this body or the one read before it, is that user;
    /// any other is read by `User.fast`.
    ///
    /// The user read before passed the reader's checks where it was. Here it
    /// may reach deeper than `JSONBytes.maxDepth` (at most twice as deep),
    /// still far from JSONDecoder's own limit (512): its value is JSONDecoder's.
    mutating func user() throws(Declined) -> User {
        let hash = json.prefixHash()
        if let candidates = users.entries[hash] {
            for (span, user) in candidates where json.repeats(span) {
                json.skip(repeating: span)
                return user
            }
        }
        let start = json.position
        let user: User
        if let (count, earlierUser) = earlier?.user(hash: hash, at: json) {
            json.skip(count: count)
            user = earlierUser
        } else {
            user = try User.fast(&self)
        }
        users.entries[hash, default: []].append((JSONBytes.Span(start: start, end: json.position), user))
        return user
    }
}

/// The key order of each kind of object read in a body, by its table's tag.
final class KeyOrders {
    private var orders: [KeyOrder?] = []

    @inline(__always)
    func order(of keys: JSONKeys) -> KeyOrder? {
        keys.tag < orders.count ? orders[keys.tag] : nil
    }

    func keep(_ order: KeyOrder, of keys: JSONKeys) {
        if keys.tag >= orders.count { orders += Array(repeating: nil, count: keys.tag + 1 - orders.count) }
        // A kind read inside one of its own (a repost) may have kept its order first.
        if orders[keys.tag] == nil { orders[keys.tag] = order }
    }

    func forget(_ keys: JSONKeys) {
        orders[keys.tag] = nil
    }
}

/// Users read in a body, by a hash of their first bytes (`JSONBytes.prefixHash`).
final class UserMemo {
    var entries: [UInt64: [(JSONBytes.Span, User)]] = [:]
}

/// The users of the body read last: the next page of a timeline names many
/// of the same authors, with the same bytes while nothing about them changed
/// (a changed count is other bytes, read anew). The body is kept, not copied,
/// until the next one replaces it.
enum RecentUsers {
    /// A body and the users read in it; never changed once published.
    final class Body: @unchecked Sendable {
        let data: Data
        let users: UserMemo

        init(data: Data, users: UserMemo) {
            self.data = data
            self.users = users
        }

        /// The user of this body whose bytes are at `json` (after its
        /// `prefixHash`, `hash`), and how many bytes it has.
        func user(hash: UInt64, at json: JSONBytes) -> (count: Int, user: User)? {
            guard let candidates = users.entries[hash] else { return nil }
            return data.withUnsafeBytes { bytes in
                for (span, user) in candidates
                where json.repeats(UnsafeRawBufferPointer(rebasing: bytes[span.start..<span.end])) {
                    return (span.end - span.start, user)
                }
                return nil
            }
        }
    }

    private static let last = Mutex<Body?>(nil)

    /// The body read last, if its users may be met again.
    static var lastBody: Body? { last.withLock { $0 } }

    /// Keeps `body` as the one read last, when it had users.
    static func publish(_ body: Body) {
        guard !body.users.entries.isEmpty else { return }
        last.withLock { $0 = body }
    }
}

/// The Model's tolerances (LenientDecoding.swift) over JSON bytes: each
/// reads the value the reader is at as `KeyedDecodingContainer.lenient`
/// reads it with JSONDecoder (for `lenientString`, `lenient(String.self, key)`),
/// to the same value, or declines where JSONDecoder's answer takes a subtler path.
extension ModelReader {
    /// `String.lenientValue`: a string; an integer as its
    /// digits; `true`/`false`; nil for null, objects and arrays.
    mutating func lenientString() throws(Declined) -> String? {
        switch peek() {
        case UInt8(ascii: "\""):
            return try string()
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            // JSONDecoder gives Int64's or UInt64's description: for a plain
            // integer in range, the literal itself. Anything else is Double's.
            let n = try json.number()
            guard n.isInteger, !n.overflows, n.int64 != nil || !n.isNegative else { throw Declined() }
            return json.text(of: n)
        case UInt8(ascii: "t"):
            try json.literal("true")
            return "true"
        case UInt8(ascii: "f"):
            try json.literal("false")
            return "false"
        default:
            // null (checked as `skipValue` checks it), an object or an array.
            try skipValue()
            return nil
        }
    }

    /// `lenientString` for a field whose few values come again and again
    /// (a Weibo status's `source`, an anchor with escaped quotes): each is
    /// decoded once a body.
    mutating func lenientRepeatedString() throws(Declined) -> String? {
        guard peek() == UInt8(ascii: "\"") else { return try lenientString() }
        return try json.string(remembering: repeated)
    }

    /// `Int64.lenientValue`: an integer, also from a numeric string; nil for `""`,
    /// other text, bools, null, objects and arrays.
    mutating func lenientInt() throws(Declined) -> Int64? {
        switch peek() {
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            guard let value = try json.number().int64 else { throw Declined() }
            return value
        case UInt8(ascii: "\""):
            let text = try string()
            return Int64(text) ?? Int64(text.trimmingSpaces)
        default:
            try skipValue()
            return nil
        }
    }

    /// `Int.lenientValue`.
    mutating func lenientCount() throws(Declined) -> Int? {
        try lenientInt().flatMap { Int(exactly: $0) }
    }

    /// `Bool.lenientValue`: a bool, also from 0/1 and "true"/"false" (any case), "1"/"0".
    mutating func lenientBool() throws(Declined) -> Bool? {
        switch peek() {
        case UInt8(ascii: "t"):
            try json.literal("true")
            return true
        case UInt8(ascii: "f"):
            try json.literal("false")
            return false
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            guard let value = try json.number().int64, let int = Int(exactly: value) else { throw Declined() }
            return int != 0
        case UInt8(ascii: "\""):
            switch try string().lowercased() {
            case "true", "1": return true
            case "false", "0": return false
            default: return nil
            }
        default:
            try skipValue()
            return nil
        }
    }

    /// `Timestamp.lenientValue`: a Weibo time, nil when absent or unparseable.
    mutating func lenientTime() throws(Declined) -> Timestamp? {
        guard peek() == UInt8(ascii: "\"") else { return try lenientString().flatMap(Timestamp.init(weiboText:)) }
        // The form Weibo always writes is read from the bytes; any other text as `Timestamp(weiboText:)` reads it.
        return try json.string(
            plain: { bytes -> Timestamp?? in Timestamp(canonicalWeiboBytes: bytes).map(Optional.some) },
            decoded: { Timestamp(weiboText: $0) })
    }

    /// `lenient(T.self, key)` for a Model type: an object is read by `read`,
    /// anything else is nil.
    mutating func lenientObject<T>(
        _ read: (inout ModelReader) throws(Declined) -> T
    ) throws(Declined) -> T? {
        guard peek() == UInt8(ascii: "{") else {
            try skipValue()
            return nil
        }
        return try read(&self)
    }

    /// A page envelope, `{"LIST": [...], "total_number": N}`, with `keys`
    /// naming the list first and the count second: the list read as
    /// `lenientArray` reads it (nil or unreadable as empty) and the count.
    /// Without the list key it declines: the error is JSONDecoder's to report.
    mutating func countedList<T>(
        _ keys: JSONKeys, _ read: (inout ModelReader) throws(Declined) -> T
    ) throws(Declined) -> (list: [T], total: Int?) {
        var list: [T]??
        var total: Int?
        try object(keys) { r, field throws(Declined) in
            if field == 0 { list = .some(try r.lenientArray(read)) } else { total = try r.lenientCount() }
        }
        guard let list else { throw Declined() }
        return (list ?? [], total)
    }

    /// `[String].lenientValue`: an array of strings; nil for anything else, an
    /// array with an element that is not a string included (JSONDecoder's answer).
    mutating func lenientStrings() throws(Declined) -> [String]? {
        guard peek() == UInt8(ascii: "[") else {
            try skipValue()
            return nil
        }
        try json.enterArray()
        var values: [String]? = []
        var first = true
        while try nextElement(&first) {
            if peek() == UInt8(ascii: "\""), values != nil {
                values?.append(try string())
            } else {
                try skipValue()
                values = nil
            }
        }
        return values
    }

    /// `lenientArray`: nil unless an array; its objects read by `read`,
    /// other elements dropped.
    mutating func lenientArray<T>(
        _ read: (inout ModelReader) throws(Declined) -> T
    ) throws(Declined) -> [T]? {
        guard peek() == UInt8(ascii: "[") else {
            try skipValue()
            return nil
        }
        try json.enterArray()
        var values: [T] = []
        var first = true
        while try nextElement(&first) {
            if peek() == UInt8(ascii: "{") {
                values.append(try read(&self))
            } else {
                try skipValue()
            }
        }
        return values
    }
}
