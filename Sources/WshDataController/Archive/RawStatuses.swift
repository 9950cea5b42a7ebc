import FoundationEssentials
import WshText

/// Each status of a page's body as the server wrote it, found by its id:
/// what the archive keeps whole. Reads the bytes once (`JSONBytes`), so
/// keeping the JSON costs no second decoding of the page.
enum RawStatuses {
    /// The JSON text of each status in `body`, by id, with its `language` (Mastodon's): the elements of a
    /// top-level array (Mastodon), or of the first array inside a top-level
    /// object (Weibo's `statuses`, `favorites`); an element with a `status`
    /// object inside (a notification, a favourite) gives that status.
    static func byID(_ body: Data) -> [String: (json: String, language: String?)] {
        body.withUnsafeBytes { bytes in
            var spans: [(id: String, start: Int, end: Int, language: String?)] = []
            _ = JSONBytes.read(bytes) { (reader: inout JSONBytes) throws(JSONBytes.Declined) in
                if reader.peek() == UInt8(ascii: "{") {
                    try reader.enterObject()
                    var first = true
                    while let _ = try reader.nextKey(&first) {
                        if reader.peek() == UInt8(ascii: "[") {
                            try elements(&reader, into: &spans)
                        } else {
                            try reader.skipValue()
                        }
                    }
                } else {
                    try elements(&reader, into: &spans)
                }
            }
            var found: [String: (json: String, language: String?)] = [:]
            let base = bytes.bindMemory(to: UInt8.self)
            for span in spans {
                found[span.id] = (String(decoding: UnsafeBufferPointer(rebasing: base[span.start..<span.end]), as: UTF8.self),
                                  span.language)
            }
            return found
        }
    }

    private static func elements(_ reader: inout JSONBytes, into spans: inout [(id: String, start: Int, end: Int, language: String?)])
        throws(JSONBytes.Declined) {
        try reader.enterArray()
        var first = true
        while try reader.nextElement(&first) {
            try status(&reader, into: &spans)
        }
    }

    /// Reads one object: its id and span, or the span of the `status` object inside it.
    private static func status(_ reader: inout JSONBytes, into spans: inout [(id: String, start: Int, end: Int, language: String?)])
        throws(JSONBytes.Declined) {
        let start = reader.valueStart()
        guard reader.peek() == UInt8(ascii: "{") else { return try reader.skipValue() }
        try reader.enterObject()
        var first = true
        var id: String?
        var idstr: String?
        var language: String?
        var inner: [(id: String, start: Int, end: Int, language: String?)] = []
        while let key = try reader.nextKey(&first) {
            if reader.key(key, is: "id") {
                id = try scalar(&reader)
            } else if reader.key(key, is: "idstr") {
                idstr = try scalar(&reader)
            } else if reader.key(key, is: "language"), reader.peek() == UInt8(ascii: "\"") {
                language = try reader.string()
            } else if reader.key(key, is: "status"), reader.peek() == UInt8(ascii: "{") {
                try status(&reader, into: &inner)
            } else {
                try reader.skipValue()
            }
        }
        if let wrapped = inner.first {
            spans.append(wrapped)
        } else if let identifier = idstr ?? id {
            spans.append((identifier, start, reader.position, language))
        }
    }

    private static func scalar(_ reader: inout JSONBytes) throws(JSONBytes.Declined) -> String? {
        switch reader.peek() {
        case UInt8(ascii: "\""): return try reader.string()
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            let number = try reader.number()
            return reader.text(of: number)
        default:
            try reader.skipValue()
            return nil
        }
    }
}
