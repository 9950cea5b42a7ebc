/// JSON strings at the byte level: where one ends, what it says, how to write one.
enum JSONText {
    /// Where a JSON text stops being valid, with the byte offset for the message.
    struct SyntaxError: Error, Equatable {
        var problem: String
        var offset: Int
    }

    /// The index just past the string literal that starts at `start` (a `"`),
    /// checking its escapes and that it holds no raw control characters.
    static func endOfString<Bytes: RandomAccessCollection>(
        _ bytes: Bytes, at start: Int
    ) throws(SyntaxError) -> Int where Bytes.Element == UInt8, Bytes.Index == Int {
        var index = start + 1
        let end = bytes.endIndex
        while index < end {
            let byte = bytes[index]
            if byte == UInt8(ascii: "\"") { return index + 1 }
            if byte < 0x20 { throw SyntaxError(problem: "a control character inside a string", offset: index) }
            if byte == UInt8(ascii: "\\") {
                guard index + 1 < end else { break }
                switch bytes[index + 1] {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"), UInt8(ascii: "b"),
                    UInt8(ascii: "f"), UInt8(ascii: "n"), UInt8(ascii: "r"), UInt8(ascii: "t"):
                    index += 2
                case UInt8(ascii: "u"):
                    guard index + 6 <= end, (index + 2..<index + 6).allSatisfy({ hexValue(bytes[$0]) != nil }) else {
                        throw SyntaxError(problem: "a bad \\u escape", offset: index)
                    }
                    index += 6
                default:
                    throw SyntaxError(problem: "a bad escape", offset: index)
                }
                continue
            }
            index += 1
        }
        throw SyntaxError(problem: "an unterminated string", offset: start)
    }

    /// The text of a valid string literal (quotes included in `literal`), escapes
    /// decoded; a lone surrogate becomes U+FFFD.
    static func decodeString<Bytes: RandomAccessCollection>(
        _ literal: Bytes
    ) -> String where Bytes.Element == UInt8, Bytes.Index == Int {
        let inner = literal.index(after: literal.startIndex)..<literal.index(before: literal.endIndex)
        guard literal[inner].contains(UInt8(ascii: "\\")) else {
            return String(decoding: literal[inner], as: UTF8.self)
        }
        var output: [UInt8] = []
        output.reserveCapacity(inner.count)
        var index = inner.lowerBound
        func hex4(_ at: Int) -> UInt32 {
            (at..<at + 4).reduce(0) { $0 << 4 | UInt32(hexValue(literal[$1]) ?? 0) }
        }
        func append(_ scalar: Unicode.Scalar) {
            if let encoded = UTF8.encode(scalar) { output.append(contentsOf: encoded) }
        }
        while index < inner.upperBound {
            let byte = literal[index]
            guard byte == UInt8(ascii: "\\") else {
                output.append(byte)
                index += 1
                continue
            }
            let escape = literal[index + 1]
            index += 2
            switch escape {
            case UInt8(ascii: "b"): output.append(0x08)
            case UInt8(ascii: "f"): output.append(0x0C)
            case UInt8(ascii: "n"): output.append(0x0A)
            case UInt8(ascii: "r"): output.append(0x0D)
            case UInt8(ascii: "t"): output.append(0x09)
            case UInt8(ascii: "u"):
                var code = hex4(index)
                index += 4
                if (0xD800..<0xDC00).contains(code), index + 6 <= inner.upperBound,
                    literal[index] == UInt8(ascii: "\\"), literal[index + 1] == UInt8(ascii: "u")
                {
                    let low = hex4(index + 2)
                    if (0xDC00..<0xE000).contains(low) {
                        code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00)
                        index += 6
                    }
                }
                append(Unicode.Scalar(code) ?? "\u{FFFD}")
            default: output.append(escape)  // \" \\ \/
            }
        }
        return String(decoding: output, as: UTF8.self)
    }

    /// `text` as a JSON string literal: quotes, backslashes and control
    /// characters escaped, everything else as it is.
    static func quoted(_ text: String) -> String {
        var output = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": output += "\\\""
            case "\\": output += "\\\\"
            case "\n": output += "\\n"
            case "\r": output += "\\r"
            case "\t": output += "\\t"
            case _ where scalar.value < 0x20:
                let hex = String(scalar.value, radix: 16)
                output += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: output.unicodeScalars.append(scalar)
            }
        }
        return output + "\""
    }

    static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}
