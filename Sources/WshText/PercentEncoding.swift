/// RFC 3986 percent-encoding, for URLs and forms, written once for the
/// client and the sandbox.
public enum PercentEncoding {
    /// Every byte outside `A-Z a-z 0-9 - . _ ~` as `%XX` of its UTF-8 encoding.
    public static func encoded(_ text: String) -> String {
        var output = [UInt8]()
        output.reserveCapacity(text.utf8.count)
        let hex = Array("0123456789ABCDEF".utf8)
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
                 UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."),
                 UInt8(ascii: "_"), UInt8(ascii: "~"):
                output.append(byte)
            default:
                output.append(UInt8(ascii: "%"))
                output.append(hex[Int(byte >> 4)])
                output.append(hex[Int(byte & 0x0F)])
            }
        }
        return String(decoding: output, as: UTF8.self)
    }

    /// `text` with every `%XX` decoded; nil when a `%` is not followed by two
    /// hex digits or the bytes are not UTF-8 (as Foundation's
    /// `removingPercentEncoding`).
    public static func decoded<S: StringProtocol>(_ text: S) -> String? {
        decode(text.utf8, plusIsSpace: false)
    }

    /// A form value: `+` as a space, then percent-decoded; left as it is
    /// (with its `+` as spaces) when it does not decode.
    public static func formDecoded(_ text: String) -> String {
        decode(text.utf8, plusIsSpace: true) ?? String(text.map { $0 == "+" ? " " : $0 })
    }

    /// The text of percent-encoded bytes (`+` a space when `plusIsSpace`, as
    /// forms send it); nil when an escape is broken or the result is not UTF-8.
    /// (Inlinable, so that each caller's collection gets code of its own: read
    /// generically, the first call of a run looked its associated types up by
    /// name, 0.15 M instructions, in the embedded sandbox's first request.)
    @inlinable
    public static func decode(_ encoded: some Collection<UInt8>, plusIsSpace: Bool) -> String? {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(encoded.count)
        var iterator = encoded.makeIterator()
        while let byte = iterator.next() {
            switch byte {
            case UInt8(ascii: "+") where plusIsSpace: bytes.append(UInt8(ascii: " "))
            case UInt8(ascii: "%"):
                guard let high = iterator.next().flatMap(hexValue), let low = iterator.next().flatMap(hexValue) else {
                    return nil
                }
                bytes.append(high << 4 | low)
            default: bytes.append(byte)
            }
        }
        return String(validating: bytes, as: UTF8.self)
    }

    @usableFromInline
    static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return byte - UInt8(ascii: "A") + 10
        default: return nil
        }
    }
}
