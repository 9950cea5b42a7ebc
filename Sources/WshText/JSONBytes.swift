import Synchronization
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A reader over the bytes of a JSON document, for the fast paths that read
/// API bodies near the wire (the Model's decoding, the Request layer's
/// error check): values are read where a caller wants them and everything
/// else is skipped without being materialised.
///
/// It accepts only strict RFC 8259 JSON (UTF-8 without a BOM, nothing after
/// the value, at most `maxDepth` levels), a subset of what Foundation's
/// JSONDecoder accepts, so that a body read here is one JSONDecoder would
/// read too; it throws `Declined` at anything else, and the caller then
/// leaves the body to JSONDecoder. Like JSONDecoder's scanner, it checks
/// the syntax of values it skips but does not decode them: what is in a
/// string nobody reads (its text, not its escapes) does not matter, nor is
/// an object's key decoded unless the object is read.
///
/// Besides: `skipContainerLoosely` for a caller that only needs what lies
/// outside a container, and `repeats`/`skip(repeating:)` for one that
/// meets a value it has read before, byte for byte.
///
/// The reader points into memory it does not own: use it inside
/// `withUnsafeBytes`.
public struct JSONBytes {
    /// The reader met something its caller must leave to JSONDecoder.
    public struct Declined: Error {
        @inlinable public init() {}
    }

    /// An object key: where its bytes are. Keys are plain (see `nextKey`).
    public struct Key {
        public let start: Int
        public let count: Int
        /// The first (up to) eight bytes, little-endian, zero-padded: for `match`.
        @usableFromInline let prefix: UInt64
        @inlinable init(start: Int, count: Int, prefix: UInt64) {
            self.start = start
            self.count = count
            self.prefix = prefix
        }
    }

    /// A number token in strict JSON syntax.
    public struct Number {
        public var start: Int
        public var count: Int
        /// No fraction, no exponent.
        public var isInteger: Bool
        public var isNegative: Bool
        /// The integer digits' value, when `isInteger` and not `overflows`.
        public var magnitude: UInt64
        /// The digits exceed UInt64.
        public var overflows: Bool

        @inlinable init(start: Int) {
            self.start = start
            count = 0
            isInteger = true
            isNegative = false
            magnitude = 0
            overflows = false
        }

        /// The value of a plain integer that fits Int64; nil for a fraction,
        /// an exponent, `-0` or a value out of range (where JSONDecoder
        /// takes slower, subtler paths).
        @inlinable public var int64: Int64? {
            guard isInteger, !overflows else { return nil }
            if isNegative {
                guard magnitude != 0, magnitude <= UInt64(Int64.max) + 1 else { return nil }
                return magnitude == UInt64(Int64.max) + 1 ? Int64.min : -Int64(magnitude)
            }
            return magnitude <= UInt64(Int64.max) ? Int64(magnitude) : nil
        }
    }

    @usableFromInline let base: UnsafePointer<UInt8>
    @usableFromInline let end: Int
    @usableFromInline var index = 0
    @usableFromInline var depth = 0
    /// Keys the document's own object must not have: meeting one there
    /// declines, as a reader that must not take such a body for its value
    /// wants (an API error body, `APIErrors.errorFieldKeys`).
    public var declinedTopLevelKeys: JSONKeys?
    /// Deeper documents are left to JSONDecoder (whose limit is 512).
    @inlinable public static var maxDepth: Int { 100 }

    /// A reader over `count` bytes at `base`.
    @inlinable public init(_ base: UnsafePointer<UInt8>, count: Int) {
        self.base = base
        self.end = count
    }

    /// Runs `read` over `bytes`: its result when it read the whole document
    /// (only whitespace after it), nil when it declined or left more.
    @inlinable
    public static func read<T>(_ bytes: UnsafeRawBufferPointer, _ read: (inout JSONBytes) throws(Declined) -> T) -> T? {
        guard let base = bytes.baseAddress?.assumingMemoryBound(to: UInt8.self) else { return nil }
        var reader = JSONBytes(base, count: bytes.count)
        do {
            let value = try read(&reader)
            return reader.atEnd() ? value : nil
        } catch {
            return nil
        }
    }

    // MARK: Structure

    /// Skips whitespace and returns the next byte without consuming it: 0 at the end.
    @inlinable @inline(__always)
    public mutating func peek() -> UInt8 {
        while index < end {
            let byte = base[index]
            guard byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09 else { return byte }
            index += 1
        }
        return 0
    }

    /// Whether only whitespace remains.
    @inlinable
    public mutating func atEnd() -> Bool {
        _ = peek()
        return index == end
    }

    @inlinable
    public mutating func enterObject() throws(Declined) {
        guard peek() == UInt8(ascii: "{") else { throw Declined() }
        try enter()
    }

    @inlinable
    public mutating func enterArray() throws(Declined) {
        guard peek() == UInt8(ascii: "[") else { throw Declined() }
        try enter()
    }

    @inlinable @inline(__always)
    mutating func enter() throws(Declined) {
        index += 1
        depth += 1
        guard depth <= Self.maxDepth else { throw Declined() }
    }

    /// The next key of the object entered, the reader then at its value;
    /// nil when the object ends. `first` is true before the first key.
    ///
    /// Keys must be plain: an escape, a control character or invalid UTF-8
    /// in a key declines (JSONDecoder decodes every key of an object it
    /// reads, and fails the object on a bad one).
    @inlinable
    public mutating func nextKey(_ first: inout Bool) throws(Declined) -> Key? {
        guard try atKey(&first) else { return nil }
        return try key()
    }

    /// Steps to the next key of the object entered (its opening quote): false
    /// when the object ends instead, the reader then past it.
    @inlinable @inline(__always)
    mutating func atKey(_ first: inout Bool) throws(Declined) -> Bool {
        var byte = peek()
        if first {
            first = false
            if byte == UInt8(ascii: "}") {
                index += 1
                depth -= 1
                return false
            }
        } else if byte == UInt8(ascii: ",") {
            index += 1
            byte = peek()
        } else if byte == UInt8(ascii: "}") {
            index += 1
            depth -= 1
            return false
        } else {
            throw Declined()
        }
        guard byte == UInt8(ascii: "\"") else { throw Declined() }
        return true
    }

    /// Reads the key at the reader (at its opening quote) and the colon after it.
    @inlinable @inline(__always)
    mutating func key() throws(Declined) -> Key {
        index += 1
        let start = index
        var high: UInt64 = 0
        var prefix: UInt64?
        while true {
            if index + 8 <= end {
                // Eight bytes at a time: the first eight are the key's prefix.
                let word = self.word(at: index)
                let hits = Self.zeroByte(word ^ Self.quotes) | Self.zeroByte(word ^ Self.backslashes) | Self.byteBelow0x20(word)
                if hits == 0 {
                    if prefix == nil { prefix = word }
                    high |= word
                    index += 8
                    continue
                }
                // The lowest flagged byte is a true one: the end quote, or what declines.
                let skip = hits.trailingZeroBitCount >> 3
                let before = word & ((1 << (UInt64(skip) << 3)) &- 1)
                if prefix == nil { prefix = before }
                high |= before
                index += skip
                guard base[index] == UInt8(ascii: "\"") else { throw Declined() }
                break
            }
            guard index < end else { throw Declined() }
            let b = base[index]
            if b == UInt8(ascii: "\"") { break }
            if b == UInt8(ascii: "\\") || b < 0x20 { throw Declined() }
            high |= UInt64(b)
            index += 1
        }
        let count = index - start
        let key = Key(start: start, count: count, prefix: prefix ?? JSONKeys.prefix(base + start, count))
        index += 1
        if high & 0x8080_8080_8080_8080 != 0, !Self.isValidUTF8(base + start, key.count) { throw Declined() }
        guard peek() == UInt8(ascii: ":") else { throw Declined() }
        index += 1
        if depth == 1, let declined = declinedTopLevelKeys, match(key, declined) != nil { throw Declined() }
        return key
    }

    /// What `nextKey(_:in:order:)` returns when the object ends.
    @inlinable public static var objectEnds: Int { Int.min }

    /// The next key of the object entered, as `nextKey` reads it, by its
    /// index in `keys` (-1 for a key not in them; `objectEnds` when the
    /// object ends), trying first the key `order` has at `position`: when
    /// the bytes there are that key's, quotes and all, it is that key, and
    /// nothing else is read or looked up. A server writes every object of a
    /// kind with its keys in the same order; where this one has a key more
    /// or fewer, the reader finds its place in `order` again. `misses`
    /// counts the keys `order` did not predict.
    @inlinable
    public mutating func nextKey(
        _ first: inout Bool, in keys: JSONKeys, order: KeyOrder, position: inout Int, misses: inout Int
    ) throws(Declined) -> Int {
        guard try atKey(&first) else { return Self.objectEnds }
        if position < order.entries.count {
            let entry = order.entries[position]
            let count = Int(entry.count)
            // The reader's own keys are checked where `order` learnt them; a key the top level must not have is not.
            if index + count + 8 <= end, depth > 1 || declinedTopLevelKeys == nil,
               Self.equal(base + index, order.bytes + Int(entry.offset), count) {
                index += count
                position += 1
                guard peek() == UInt8(ascii: ":") else { throw Declined() }
                index += 1
                return Int(entry.index)
            }
        }
        let key = try self.key()
        misses += 1
        // A key left out moves the rest up; a key put in leaves the place as it was.
        var next = position
        while next < order.entries.count, next < position + 4 {
            let entry = order.entries[next]
            if Int(entry.count) == key.count + 2,
               memcmp(base + key.start, order.bytes + Int(entry.offset) + 1, key.count) == 0 {
                position = next + 1
                break
            }
            next += 1
        }
        return match(key, keys) ?? -1
    }

    /// Whether the `count` bytes at `a` and `b` are the same, read eight
    /// at a time (both may be read up to eight bytes past `count`).
    @inlinable @inline(__always)
    static func equal(_ a: UnsafePointer<UInt8>, _ b: UnsafePointer<UInt8>, _ count: Int) -> Bool {
        var i = 0
        while i + 8 <= count {
            if UnsafeRawPointer(a + i).loadUnaligned(as: UInt64.self) != UnsafeRawPointer(b + i).loadUnaligned(as: UInt64.self) {
                return false
            }
            i += 8
        }
        guard i < count else { return true }
        let mask: UInt64 = (1 << (UInt64(count - i) << 3)) &- 1
        let x = UInt64(littleEndian: UnsafeRawPointer(a + i).loadUnaligned(as: UInt64.self))
        let y = UInt64(littleEndian: UnsafeRawPointer(b + i).loadUnaligned(as: UInt64.self))
        return (x ^ y) & mask == 0
    }

    /// Whether another element of the array entered follows (the reader is
    /// then at it); false when the array ends. `first` is true before the first.
    @inlinable
    public mutating func nextElement(_ first: inout Bool) throws(Declined) -> Bool {
        let byte = peek()
        if first {
            first = false
            if byte == UInt8(ascii: "]") {
                index += 1
                depth -= 1
                return false
            }
            return true
        }
        if byte == UInt8(ascii: ",") {
            index += 1
            return true
        }
        if byte == UInt8(ascii: "]") {
            index += 1
            depth -= 1
            return false
        }
        throw Declined()
    }

    /// Where the next value starts, whitespace skipped: with `position` after
    /// `skipValue`, the bytes of a value, for a caller that keeps it as sent.
    @inlinable
    public mutating func valueStart() -> Int {
        _ = peek()
        return index
    }
    /// Whether `key` is `name`.
    @inlinable @inline(__always)
    public func key(_ key: Key, is name: StaticString) -> Bool {
        guard name.utf8CodeUnitCount == key.count else { return false }
        let bytes = name.utf8Start
        for i in 0..<key.count where base[key.start + i] != bytes[i] { return false }
        return true
    }

    /// Which of `keys` `key` is, by index.
    @inlinable
    public func match(_ key: Key, _ keys: JSONKeys) -> Int? {
        var slot = keys.slot(key.prefix, key.count)
        while true {
            let entry = keys.slots[slot]
            if entry.index < 0 { return nil }
            // The first eight bytes are the prefix: only the rest is compared.
            if entry.prefix == key.prefix, Int(entry.count) == key.count,
               key.count <= 8 || memcmp(base + key.start + 8, keys.names[Int(entry.index)].utf8Start + 8, key.count - 8) == 0 {
                return Int(entry.index)
            }
            slot = (slot + 1) & (keys.slots.count - 1)
        }
    }

    // MARK: Skipping

    /// Skips one value of any shape, checking its syntax.
    @inlinable
    public mutating func skipValue() throws(Declined) {
        switch peek() {
        case UInt8(ascii: "\""):
            try skipString()
        case UInt8(ascii: "{"):
            try enter()
            // Keys of an object nobody reads are not decoded either: any valid string will do.
            guard peek() != UInt8(ascii: "}") else {
                index += 1
                depth -= 1
                return
            }
            while true {
                guard peek() == UInt8(ascii: "\"") else { throw Declined() }
                try skipString()
                guard peek() == UInt8(ascii: ":") else { throw Declined() }
                index += 1
                try skipValue()
                let next = peek()
                index += 1
                if next == UInt8(ascii: "}") { break }
                guard next == UInt8(ascii: ",") else { throw Declined() }
            }
            depth -= 1
        case UInt8(ascii: "["):
            try enter()
            var first = true
            while try nextElement(&first) { try skipValue() }
        case UInt8(ascii: "t"):
            try literal("true")
        case UInt8(ascii: "f"):
            try literal("false")
        case UInt8(ascii: "n"):
            try literal("null")
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            _ = try number()
        default:
            throw Declined()
        }
    }

    /// Skips the object or array the reader is at by its brackets and
    /// strings alone, not checking the syntax between them: for a caller
    /// that reads only what lies outside it, and whose answer would be the
    /// same for a body that is not valid JSON (JSONDecoder rejecting such a
    /// body). In a valid document the brackets outside strings are exactly
    /// its structure, so what follows is found where a strict reader finds it.
    @inlinable
    public mutating func skipContainerLoosely() throws(Declined) {
        let open = peek()
        guard open == UInt8(ascii: "{") || open == UInt8(ascii: "[") else { throw Declined() }
        var level = 0
        while index < end {
            switch base[index] {
            case UInt8(ascii: "\""):
                try skipStringLoosely()
                continue
            case UInt8(ascii: "{"), UInt8(ascii: "["):
                level += 1
            case UInt8(ascii: "}"), UInt8(ascii: "]"):
                level -= 1
                if level == 0 {
                    index += 1
                    return
                }
            default:
                break
            }
            index += 1
        }
        throw Declined()
    }

    // MARK: Values met again

    /// The bytes of a value read before: where they start and end.
    public struct Span {
        public let start: Int
        public let end: Int
        @inlinable public init(start: Int, end: Int) {
            self.start = start
            self.end = end
        }
    }

    /// A hash of the next (up to) 64 bytes, to find a value read before
    /// that may be the one the reader is at.
    @inlinable
    public mutating func prefixHash() -> UInt64 {
        _ = peek()
        let stop = min(index + 64, end)
        var hash = 0x9E37_79B9_7F4A_7C15 as UInt64
        var i = index
        while i + 8 <= stop {
            hash = (hash ^ word(at: i)) &* 0xFF51_AFD7_ED55_8CCD
            hash ^= hash >> 32
            i += 8
        }
        while i < stop {
            hash = (hash ^ UInt64(base[i])) &* 0xC4CE_B9FE_1A85_EC53
            i += 1
        }
        return hash
    }

    /// Whether the bytes at the reader are those of `span`, a whole object
    /// or array read before: then the value here is that one (a container's
    /// bytes say where it ends), and `skip(repeating:)` steps over it.
    @inlinable
    public mutating func repeats(_ span: Span) -> Bool {
        _ = peek()
        let count = span.end - span.start
        return count <= end - index && memcmp(base + index, base + span.start, count) == 0
    }

    /// Steps over a repeat of `span` (see `repeats`).
    @inlinable
    public mutating func skip(repeating span: Span) {
        index += span.end - span.start
    }

    /// Whether the bytes at the reader (after `prefixHash`, at the value)
    /// are `bytes`, a whole object or array read before in another body:
    /// then the value here is that one, and `skip(count:)` steps over it.
    public func repeats(_ bytes: UnsafeRawBufferPointer) -> Bool {
        bytes.count <= end - index && memcmp(base + index, bytes.baseAddress!, bytes.count) == 0
    }

    /// Steps over a repeat of `count` bytes (see `repeats(_:)`).
    public mutating func skip(count: Int) {
        index += count
    }

    /// Where the reader is, in bytes from the start.
    @inlinable public var position: Int { index }

    /// Moves eight bytes at a time to the next quote or backslash, or to the
    /// last eight bytes of the body, whichever comes first.
    @inlinable @inline(__always)
    mutating func skipToQuoteOrBackslash() {
        while index + 8 <= end {
            let word = self.word(at: index)
            let hits = Self.zeroByte(word ^ Self.quotes) | Self.zeroByte(word ^ Self.backslashes)
            if hits != 0 {
                index += hits.trailingZeroBitCount >> 3
                return
            }
            index += 8
        }
    }

    /// The eight bytes from `offset` as one word, the first byte lowest
    /// (the caller checked that they are in the body).
    @inlinable @inline(__always)
    func word(at offset: Int) -> UInt64 {
        UInt64(littleEndian: UnsafeRawPointer(base + offset).loadUnaligned(as: UInt64.self))
    }

    /// Steps over a string: to the quote that ends it, stepping over
    /// whatever follows a backslash.
    @inlinable
    mutating func skipStringLoosely() throws(Declined) {
        index += 1
        while index < end {
            skipToQuoteOrBackslash()
            guard index < end else { break }
            if base[index] == UInt8(ascii: "\"") {
                index += 1
                return
            }
            index += base[index] == UInt8(ascii: "\\") ? 2 : 1
        }
        throw Declined()
    }

    /// Skips a string nobody reads: only its end is found, as JSONDecoder's
    /// scanner finds it (escapes checked, the text not decoded).
    @inlinable
    mutating func skipString() throws(Declined) {
        index += 1
        while index < end {
            skipToQuoteOrBackslash()
            guard index < end else { break }
            let b = base[index]
            if b == UInt8(ascii: "\"") {
                index += 1
                return
            }
            if b == UInt8(ascii: "\\") {
                guard index + 1 < end else { throw Declined() }
                switch base[index + 1] {
                case UInt8(ascii: "u"):
                    guard hex4(at: index + 2) != nil else { throw Declined() }
                    index += 6
                case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"), UInt8(ascii: "b"),
                     UInt8(ascii: "f"), UInt8(ascii: "n"), UInt8(ascii: "r"), UInt8(ascii: "t"):
                    index += 2
                default:
                    throw Declined()
                }
                continue
            }
            index += 1
        }
        throw Declined()
    }

    /// Reads `text` (`true`, `false`, `null`) exactly.
    @inlinable
    public mutating func literal(_ text: StaticString) throws(Declined) {
        _ = peek()
        let count = text.utf8CodeUnitCount
        guard end - index >= count else { throw Declined() }
        let bytes = text.utf8Start
        for i in 0..<count where base[index + i] != bytes[i] { throw Declined() }
        index += count
    }

    // MARK: Scalars

    /// Reads a number in strict JSON syntax.
    @inlinable
    public mutating func number() throws(Declined) -> Number {
        _ = peek()
        var token = Number(start: index)
        if index < end, base[index] == UInt8(ascii: "-") {
            token.isNegative = true
            index += 1
        }
        guard index < end else { throw Declined() }
        let first = base[index]
        if first == UInt8(ascii: "0") {
            index += 1
        } else if first >= UInt8(ascii: "1"), first <= UInt8(ascii: "9") {
            // Eight digits at a time while the value stays far from overflowing (an id's sixteen in two steps).
            while index + 8 <= end, token.magnitude < 100_000_000_000 {
                let chunk = word(at: index)
                guard chunk & 0xF0F0_F0F0_F0F0_F0F0 == 0x3030_3030_3030_3030,
                      (chunk &+ 0x0606_0606_0606_0606) & 0xF0F0_F0F0_F0F0_F0F0 == 0x3030_3030_3030_3030 else { break }
                // The first digit is the lowest byte: pairs, then fours, then all eight.
                var value = chunk & 0x0F0F_0F0F_0F0F_0F0F
                value = (value &* 2561) >> 8 & 0x00FF_00FF_00FF_00FF
                value = (value &* 6_553_601) >> 16 & 0x0000_FFFF_0000_FFFF
                value = (value &* 42_949_672_960_001) >> 32
                token.magnitude = token.magnitude &* 100_000_000 &+ value
                index += 8
            }
            while index < end {
                let digit = base[index] &- UInt8(ascii: "0")
                guard digit < 10 else { break }
                let (times10, o1) = token.magnitude.multipliedReportingOverflow(by: 10)
                let (sum, o2) = times10.addingReportingOverflow(UInt64(digit))
                token.magnitude = sum
                if o1 || o2 { token.overflows = true }
                index += 1
            }
        } else {
            throw Declined()
        }
        if index < end, base[index] == UInt8(ascii: ".") {
            token.isInteger = false
            index += 1
            try digits()
        }
        if index < end, base[index] == UInt8(ascii: "e") || base[index] == UInt8(ascii: "E") {
            token.isInteger = false
            index += 1
            if index < end, base[index] == UInt8(ascii: "+") || base[index] == UInt8(ascii: "-") { index += 1 }
            try digits()
        }
        token.count = index - token.start
        return token
    }

    /// One or more digits.
    @inlinable
    mutating func digits() throws(Declined) {
        let start = index
        while index < end, base[index] &- UInt8(ascii: "0") < 10 { index += 1 }
        guard index > start else { throw Declined() }
    }

    /// The bytes of a number read earlier, as text.
    @inlinable
    public func text(of number: Number) -> String {
        String(decoding: UnsafeBufferPointer(start: base + number.start, count: number.count), as: UTF8.self)
    }

    /// Reads a string, decoding its escapes. Declines what JSONDecoder
    /// would fail to decode: control characters, invalid escapes, lone
    /// surrogates, invalid UTF-8.
    @inlinable
    public mutating func string() throws(Declined) -> String {
        let (start, count, plain, ascii) = try scanString()
        if plain { return try plainString(start, count, ascii: ascii) }
        return try unescape(start, count)
    }

    /// The string of `count` bytes at `start`, which hold no escape: declined
    /// when they are not valid UTF-8. `String(decoding:)` checks them once
    /// (and would repair what is invalid, where JSONDecoder fails): the same
    /// bytes back means nothing was repaired, as U+FFFD is valid itself.
    @inlinable @inline(__always)
    func plainString(_ start: Int, _ count: Int, ascii: Bool) throws(Declined) -> String {
        var text = String(decoding: UnsafeBufferPointer(start: base + start, count: count), as: UTF8.self)
        if ascii { return text }
        let same = text.withUTF8 { $0.count == count && memcmp($0.baseAddress!, base + start, count) == 0 }
        guard same else { throw Declined() }
        return text
    }

    /// Reads a string as `string()` does, answering from `memo` when the same
    /// bytes (as sent, escapes and all) were read into it before: a value
    /// that comes again and again in a body, as a Weibo status's `source`
    /// does, is decoded once.
    @inlinable
    public mutating func string(remembering memo: RepeatedStrings) throws(Declined) -> String {
        let (start, count, plain, ascii) = try scanString()
        for entry in memo.entries where entry.count == count && memcmp(base + entry.start, base + start, count) == 0 {
            return entry.value
        }
        let value: String
        if plain {
            value = try plainString(start, count, ascii: ascii)
        } else {
            value = try unescape(start, count)
        }
        if memo.entries.count < RepeatedStrings.capacity { memo.entries.append((start, count, value)) }
        return value
    }

    /// Reads a string: `plain` gets its bytes when they are ASCII without
    /// escapes and may answer from them; otherwise (or when it gives nil)
    /// `decoded` gets the string.
    @inlinable
    public mutating func string<R>(
        plain: (UnsafeBufferPointer<UInt8>) -> R?, decoded: (String) -> R
    ) throws(Declined) -> R {
        let (start, count, isPlain, ascii) = try scanString()
        if isPlain, ascii, let result = plain(UnsafeBufferPointer(start: base + start, count: count)) {
            return result
        }
        if isPlain { return decoded(try plainString(start, count, ascii: ascii)) }
        return decoded(try unescape(start, count))
    }

    /// Finds a string's end: where its bytes are, whether they hold no
    /// escape, and whether they are all ASCII.
    @inlinable @inline(__always)
    mutating func scanString() throws(Declined) -> (start: Int, count: Int, plain: Bool, ascii: Bool) {
        guard peek() == UInt8(ascii: "\"") else { throw Declined() }
        index += 1
        let start = index
        var plain = true
        var ascii = true
        var high: UInt64 = 0
        while true {
            // Eight bytes at a time up to a quote, a backslash or a control character.
            while index + 8 <= end {
                let word = self.word(at: index)
                let hits = Self.zeroByte(word ^ Self.quotes) | Self.zeroByte(word ^ Self.backslashes) | Self.byteBelow0x20(word)
                if hits != 0 {
                    // Straight to the first of them (the lowest flagged byte is a true one).
                    let skip = hits.trailingZeroBitCount >> 3
                    high |= word & ((1 << (UInt64(skip) << 3)) &- 1)
                    index += skip
                    break
                }
                high |= word
                index += 8
            }
            guard index < end else { throw Declined() }
            let b = base[index]
            if b == UInt8(ascii: "\"") { break }
            if b < 0x20 { throw Declined() }
            if b >= 0x80 {
                ascii = false
            } else if b == UInt8(ascii: "\\") {
                plain = false
                // Step over the escaped byte, so an escaped quote does not end the string.
                index += 1
                guard index < end else { throw Declined() }
            }
            index += 1
        }
        let count = index - start
        index += 1
        return (start, count, plain, ascii && high & 0x8080_8080_8080_8080 == 0)
    }

    @inlinable static var quotes: UInt64 { 0x2222_2222_2222_2222 }
    @inlinable static var backslashes: UInt64 { 0x5C5C_5C5C_5C5C_5C5C }

    /// A word whose high bit is set in (at least) the lowest byte of `word`
    /// that is zero; 0 when none is. The lowest flagged byte is always a
    /// true one; bytes above it may be flagged falsely (a borrow), which
    /// does not matter to callers that stop at the lowest.
    @inlinable @inline(__always)
    static func zeroByte(_ word: UInt64) -> UInt64 {
        (word &- 0x0101_0101_0101_0101) & ~word & 0x8080_8080_8080_8080
    }

    /// Nonzero when a byte of `word` is below 0x20 (as `zeroByte`).
    @inlinable @inline(__always)
    static func byteBelow0x20(_ word: UInt64) -> UInt64 {
        (word &- 0x2020_2020_2020_2020) & ~word & 0x8080_8080_8080_8080
    }

    /// Decodes a string with escapes, as JSONDecoder does.
    @usableFromInline
    func unescape(_ start: Int, _ count: Int) throws(Declined) -> String {
        // The text between escapes must be valid UTF-8 (what escapes give is).
        var valid = true
        var failed = false
        // The decoded text is never longer than the escaped.
        let text = String(unsafeUninitializedCapacity: count) { out -> Int in
            var i = start
            var n = 0
            let stop = start + count
            var chunk = start
            while i < stop {
                guard base[i] == UInt8(ascii: "\\") else {
                    // The run up to the next escape, copied at once (a byte at a time, a status's
                    // `source`, whose quotes are escaped, cost two thousand instructions).
                    let next = memchr(base + i, 0x5C, stop - i).map { UnsafeRawPointer(base).distance(to: $0) } ?? stop
                    (out.baseAddress! + n).update(from: base + i, count: next - i)
                    n += next - i
                    i = next
                    continue
                }
                if chunk < i, !Self.isValidUTF8(base + chunk, i - chunk) { valid = false }
                let escape = base[i + 1]
                i += 2
                switch escape {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): out[n] = escape
                case UInt8(ascii: "b"): out[n] = 0x08
                case UInt8(ascii: "f"): out[n] = 0x0C
                case UInt8(ascii: "n"): out[n] = 0x0A
                case UInt8(ascii: "r"): out[n] = 0x0D
                case UInt8(ascii: "t"): out[n] = 0x09
                case UInt8(ascii: "u"):
                    guard i + 4 <= stop, let unit = hex4(at: i) else {
                        failed = true
                        return 0
                    }
                    i += 4
                    var scalar = UInt32(unit)
                    if (0xD800...0xDBFF).contains(unit) {
                        // A high surrogate must have its low one next.
                        guard i + 6 <= stop, base[i] == UInt8(ascii: "\\"), base[i + 1] == UInt8(ascii: "u"),
                              let low = hex4(at: i + 2), (0xDC00...0xDFFF).contains(low)
                        else {
                            failed = true
                            return 0
                        }
                        i += 6
                        scalar = 0x10000 + ((UInt32(unit) - 0xD800) << 10) + (UInt32(low) - 0xDC00)
                    } else if (0xDC00...0xDFFF).contains(unit) {
                        failed = true
                        return 0
                    }
                    // At most 4 bytes for the 6 or 12 of the escape.
                    guard let value = Unicode.Scalar(scalar), let encoded = UTF8.encode(value) else {
                        failed = true
                        return 0
                    }
                    for byte in encoded {
                        out[n] = byte
                        n += 1
                    }
                    chunk = i
                    continue
                default:
                    failed = true
                    return 0
                }
                n += 1
                chunk = i
            }
            if chunk < stop, !Self.isValidUTF8(base + chunk, stop - chunk) { valid = false }
            return n
        }
        guard !failed, valid else { throw Declined() }
        return text
    }

    /// Whether `count` bytes at `bytes` are valid UTF-8 (RFC 3629: no
    /// overlong forms, no surrogates, nothing above U+10FFFF), as Swift's
    /// own validation has it.
    @usableFromInline
    static func isValidUTF8(_ bytes: UnsafePointer<UInt8>, _ count: Int) -> Bool {
        var i = 0
        while i < count {
            let b0 = bytes[i]
            if b0 < 0x80 {
                i += 1
                continue
            }
            func continuation(_ offset: Int, _ low: UInt8 = 0x80, _ high: UInt8 = 0xBF) -> Bool {
                i + offset < count && bytes[i + offset] >= low && bytes[i + offset] <= high
            }
            switch b0 {
            case 0xC2...0xDF:
                guard continuation(1) else { return false }
                i += 2
            case 0xE0:
                guard continuation(1, 0xA0), continuation(2) else { return false }
                i += 3
            case 0xE1...0xEC, 0xEE...0xEF:
                guard continuation(1), continuation(2) else { return false }
                i += 3
            case 0xED:
                guard continuation(1, 0x80, 0x9F), continuation(2) else { return false }
                i += 3
            case 0xF0:
                guard continuation(1, 0x90), continuation(2), continuation(3) else { return false }
                i += 4
            case 0xF1...0xF3:
                guard continuation(1), continuation(2), continuation(3) else { return false }
                i += 4
            case 0xF4:
                guard continuation(1, 0x80, 0x8F), continuation(2), continuation(3) else { return false }
                i += 4
            default:
                return false
            }
        }
        return true
    }

    /// Four hex digits at `at`, as JSON's `\u` escape has them.
    @inlinable
    func hex4(at: Int) -> UInt16? {
        guard at + 4 <= end else { return nil }
        var value: UInt16 = 0
        for i in at..<(at + 4) {
            let b = base[i]
            let digit: UInt8
            switch b {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = b - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = b - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = b - UInt8(ascii: "A") + 10
            default: return nil
            }
            value = value << 4 | UInt16(digit)
        }
        return value
    }
}

/// The keys of an object of one kind in the order a body gave them, with
/// each one's index in the kind's `JSONKeys` (-1 for one it does not read),
/// to read the next object of the kind by (`JSONBytes.nextKey(_:in:order:…)`).
public final class KeyOrder {
    @usableFromInline struct Entry {
        /// Where the key is in `bytes`, its quotes included.
        @usableFromInline let offset: Int32
        @usableFromInline let count: Int32
        @usableFromInline let index: Int32
    }

    /// Each key with its quotes, one after another, and eight zero bytes.
    @usableFromInline let bytes: UnsafeMutablePointer<UInt8>
    @usableFromInline let entries: [Entry]

    /// The keys `keys` (where each is in `json`'s body, and its index) in order.
    public init(_ keys: [(key: JSONBytes.Key, index: Int)], in json: JSONBytes) {
        let size = keys.reduce(8) { $0 + $1.key.count + 2 }
        bytes = .allocate(capacity: size)
        bytes.initialize(repeating: 0, count: size)
        var entries: [Entry] = []
        entries.reserveCapacity(keys.count)
        var offset = 0
        for (key, index) in keys {
            bytes[offset] = UInt8(ascii: "\"")
            (bytes + offset + 1).update(from: json.base + key.start, count: key.count)
            bytes[offset + 1 + key.count] = UInt8(ascii: "\"")
            entries.append(Entry(offset: Int32(offset), count: Int32(key.count + 2), index: Int32(index)))
            offset += key.count + 2
        }
        self.entries = entries
    }

    deinit { bytes.deallocate() }
}

/// Strings read in one body, by where their bytes are in it, for
/// `JSONBytes.string(remembering:)`. Only the first `capacity` distinct
/// values are kept: the values worth remembering are few (a handful of
/// posting apps on a page), and a body of distinct ones costs one
/// comparison of lengths each.
public final class RepeatedStrings {
    @usableFromInline static var capacity: Int { 16 }
    @usableFromInline var entries: [(start: Int, count: Int, value: String)] = []

    public init() {}
}

private let jsonKeysMade = Atomic<Int>(0)

/// The keys a Model type reads, for `JSONBytes.match`: a small open-addressing
/// table on each key's length and first eight bytes.
public struct JSONKeys: Sendable {
    @usableFromInline struct Slot: Sendable {
        @usableFromInline let prefix: UInt64
        @usableFromInline let count: Int32
        /// The name's index, -1 for an empty slot.
        @usableFromInline let index: Int32
    }

    @usableFromInline let slots: [Slot]
    @usableFromInline let names: [StaticString]
    @usableFromInline let shift: UInt64
    /// A number no other table has, from 0 up: for a reader that keeps something per table.
    public let tag: Int

    public init(_ names: [StaticString]) {
        tag = jsonKeysMade.add(1, ordering: .relaxed).oldValue
        var size = 8
        while size < names.count * 4 { size *= 2 }
        shift = UInt64(64 - size.trailingZeroBitCount)
        var slots = Array(repeating: Slot(prefix: 0, count: 0, index: -1), count: size)
        for (i, name) in names.enumerated() {
            let count = name.utf8CodeUnitCount
            let prefix = Self.prefix(name.utf8Start, count)
            var slot = Self.slot(prefix, count, shift: shift)
            while slots[slot].index >= 0 { slot = (slot + 1) & (size - 1) }
            slots[slot] = Slot(prefix: prefix, count: Int32(count), index: Int32(i))
        }
        self.slots = slots
        self.names = names
    }

    @inlinable @inline(__always)
    func slot(_ prefix: UInt64, _ count: Int) -> Int {
        Self.slot(prefix, count, shift: shift)
    }

    @inlinable @inline(__always)
    static func slot(_ prefix: UInt64, _ count: Int, shift: UInt64) -> Int {
        Int(truncatingIfNeeded: ((prefix ^ UInt64(truncatingIfNeeded: count)) &* 0x9E37_79B9_7F4A_7C15) >> shift)
    }

    /// The first (up to) 8 bytes at `bytes`, little-endian, zero-padded.
    @inlinable
    static func prefix(_ bytes: UnsafePointer<UInt8>, _ count: Int) -> UInt64 {
        var value: UInt64 = 0
        for i in 0..<min(count, 8) { value |= UInt64(bytes[i]) << (8 * UInt64(i)) }
        return value
    }
}
