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

    mutating func objectStart() { separator(); bytes.append(UInt8(ascii: "{")); needsComma = false }
    mutating func objectEnd() { bytes.append(UInt8(ascii: "}")); needsComma = true }
    mutating func arrayStart() { separator(); bytes.append(UInt8(ascii: "[")); needsComma = false }
    mutating func arrayEnd() { bytes.append(UInt8(ascii: "]")); needsComma = true }

    /// Starts a member: the key and the colon; the value follows.
    mutating func key(_ key: StaticString) {
        separator()
        bytes.append(UInt8(ascii: "\""))
        key.withUTF8Buffer { bytes.append(contentsOf: $0) }
        bytes.append(contentsOf: [UInt8(ascii: "\""), UInt8(ascii: ":")])
        needsComma = false
    }

    mutating func string(_ value: String) {
        separator()
        bytes.append(UInt8(ascii: "\""))
        switch escaping {
        case .plain:
            for byte in value.utf8 { appendEscaped(byte) }
        case .php:
            for unit in value.utf16 {
                if unit < 0x80 {
                    if unit == UInt16(UInt8(ascii: "/")) { bytes.append(contentsOf: [0x5C, 0x2F]) }
                    else { appendEscaped(UInt8(unit)) }
                } else {
                    appendUnicodeEscape(unit)
                }
            }
        }
        bytes.append(UInt8(ascii: "\""))
        needsComma = true
    }

    mutating func int<T: BinaryInteger>(_ value: T) { raw(String(value)) }
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
        case UInt8(ascii: "\""): bytes.append(contentsOf: [0x5C, UInt8(ascii: "\"")])
        case UInt8(ascii: "\\"): bytes.append(contentsOf: [0x5C, 0x5C])
        case UInt8(ascii: "\n"): bytes.append(contentsOf: [0x5C, UInt8(ascii: "n")])
        case UInt8(ascii: "\r"): bytes.append(contentsOf: [0x5C, UInt8(ascii: "r")])
        case UInt8(ascii: "\t"): bytes.append(contentsOf: [0x5C, UInt8(ascii: "t")])
        case 0..<0x20: appendUnicodeEscape(UInt16(byte))
        default: bytes.append(byte)
        }
    }

    private mutating func appendUnicodeEscape(_ unit: UInt16) {
        let hex = Array("0123456789abcdef".utf8)
        bytes.append(contentsOf: [0x5C, UInt8(ascii: "u"),
                                  hex[Int(unit >> 12 & 0xF)], hex[Int(unit >> 8 & 0xF)],
                                  hex[Int(unit >> 4 & 0xF)], hex[Int(unit & 0xF)]])
    }
}
