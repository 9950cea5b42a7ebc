import FoundationEssentials
import WshText

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
