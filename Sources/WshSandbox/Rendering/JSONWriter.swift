/// Writes JSON bytes directly, with a fixed key order, so that the same data
/// always gives the same bytes (Foundation's encoder promises neither order
/// nor speed).
struct JSONWriter {
    /// How strings are escaped.
    enum Escaping {
        /// UTF-8 as is; only what JSON requires is escaped.
        case plain
        /// As PHP's `json_encode` writes (and so do some Weibo responses):
        /// `\uXXXX` for every non-ASCII UTF-16 unit, `\/` for slashes.
        case php
    }

    private(set) var bytes: [UInt8] = []
    var escaping: Escaping = .plain
    // Whether the next member or element needs a comma before it.
    private var needsComma = false

    init(capacity: Int = 1024) {
        bytes.reserveCapacity(capacity)
    }

    /// What `write` writes, into storage reserved once for about `capacity` bytes.
    static func bytes(capacity: Int = 1024, _ write: (inout JSONWriter) -> Void) -> [UInt8] {
        var json = JSONWriter(capacity: capacity)
        write(&json)
        return json.bytes
    }

    /// `{…}`, its members written by `members`.
    static func object(capacity: Int = 1024, _ members: (inout JSONWriter) -> Void) -> [UInt8] {
        bytes(capacity: capacity) { json in
            json.objectStart()
            members(&json)
            json.objectEnd()
        }
    }

    mutating func objectStart() { separator(); bytes.append(UInt8(ascii: "{")); needsComma = false }
    mutating func objectEnd() { bytes.append(UInt8(ascii: "}")); needsComma = true }
    mutating func arrayStart() { separator(); bytes.append(UInt8(ascii: "[")); needsComma = false }
    mutating func arrayEnd() { bytes.append(UInt8(ascii: "]")); needsComma = true }

    /// Starts a member: the key and the colon; the value follows.
    mutating func key(_ key: StaticString) {
        separator()
        bytes.append(UInt8(ascii: "\""))
        key.withUTF8Buffer { bytes.append(contentsOf: $0) }
        bytes.append(UInt8(ascii: "\""))
        bytes.append(UInt8(ascii: ":"))
        needsComma = false
    }

    mutating func string(_ value: String) {
        separator()
        bytes.append(UInt8(ascii: "\""))
        switch escaping {
        case .plain:
            // The runs between bytes that need escaping go in at once.
            var value = value
            value.withUTF8 { utf8 in
                var run = 0
                for (index, byte) in utf8.enumerated() where byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") {
                    bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[run..<index]))
                    appendEscaped(byte)
                    run = index + 1
                }
                bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[run...]))
            }
        case .php:
            for unit in value.utf16 {
                if unit < 0x80 {
                    if unit == UInt16(UInt8(ascii: "/")) { bytes.append(0x5C); bytes.append(0x2F) }
                    else { appendEscaped(UInt8(unit)) }
                } else {
                    appendUnicodeEscape(unit)
                }
            }
        }
        bytes.append(UInt8(ascii: "\""))
        needsComma = true
    }

    mutating func int<T: BinaryInteger>(_ value: T) {
        guard let value = Int64(exactly: value) else { return raw(String(value)) }
        separator()
        // Written digit by digit, from the last (no String made on the way).
        var magnitude = value.magnitude
        var digits: (UInt64, UInt64, UInt64) = (0, 0, 0)  // 24 bytes: room for 20 digits
        let count = withUnsafeMutableBytes(of: &digits) { buffer in
            var end = buffer.count
            repeat {
                end -= 1
                buffer[end] = UInt8(ascii: "0") + UInt8(magnitude % 10)
                magnitude /= 10
            } while magnitude > 0
            return buffer.count - end
        }
        if value < 0 { bytes.append(UInt8(ascii: "-")) }
        withUnsafeBytes(of: &digits) { bytes.append(contentsOf: $0.suffix(count)) }
        needsComma = true
    }
    mutating func bool(_ value: Bool) { raw(value ? "true" : "false") }
    mutating func null() { raw("null") }
    /// `"name": null`.
    mutating func null(_ name: StaticString) { key(name); null() }

    mutating func member(_ name: StaticString, _ value: String) { key(name); string(value) }
    mutating func member<T: BinaryInteger>(_ name: StaticString, _ value: T) { key(name); int(value) }
    mutating func member(_ name: StaticString, _ value: Bool) { key(name); bool(value) }
    mutating func member(_ name: StaticString, _ values: [String]) {
        key(name)
        arrayStart()
        for value in values { string(value) }
        arrayEnd()
    }

    /// `"name":{…}`, its members written by `members`.
    mutating func object(_ name: StaticString, _ members: (inout JSONWriter) -> Void) {
        key(name)
        objectStart()
        members(&self)
        objectEnd()
    }

    /// Bytes that are already JSON (a cached fragment).
    mutating func json(_ fragment: [UInt8]) {
        separator()
        bytes.append(contentsOf: fragment)
        needsComma = true
    }

    private mutating func raw(_ text: String) {
        separator()
        bytes.append(contentsOf: text.utf8)
        needsComma = true
    }

    private mutating func separator() {
        if needsComma { bytes.append(UInt8(ascii: ",")) }
    }

    private mutating func appendEscaped(_ byte: UInt8) {
        switch byte {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"): bytes.append(0x5C); bytes.append(byte)
        case UInt8(ascii: "\n"): bytes.append(0x5C); bytes.append(UInt8(ascii: "n"))
        case UInt8(ascii: "\r"): bytes.append(0x5C); bytes.append(UInt8(ascii: "r"))
        case UInt8(ascii: "\t"): bytes.append(0x5C); bytes.append(UInt8(ascii: "t"))
        case 0..<0x20: appendUnicodeEscape(UInt16(byte))
        default: bytes.append(byte)
        }
    }

    /// `\uXXXX`, in lowercase hex.
    private mutating func appendUnicodeEscape(_ unit: UInt16) {
        bytes.append(0x5C)
        bytes.append(UInt8(ascii: "u"))
        for shift in stride(from: 12, through: 0, by: -4) {
            let digit = UInt8(truncatingIfNeeded: unit >> UInt16(shift)) & 0xF
            bytes.append(digit < 10 ? UInt8(ascii: "0") + digit : UInt8(ascii: "a") + digit - 10)
        }
    }
}
