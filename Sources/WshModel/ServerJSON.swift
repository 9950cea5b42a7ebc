import FoundationEssentials
import WshText

/// An entity exactly as the server sent it (a status, an account, a
/// notification): its bytes, a slice of the answer's body that shares the
/// body's storage, so a page of statuses keeps one body rather than a copy
/// per status. `--json` parses it only when asked, and merges wsh's typed
/// fields over it, so fields wsh does not model (`pinned`, Pleroma's
/// `pleroma: {…}`, Akkoma's `akkoma`) are kept under the server's names.
public struct ServerJSON: Sendable, Hashable {
    /// The object's bytes (a slice: its indices are the body's).
    public let bytes: Data

    /// The whole of `body` as one entity.
    public init(_ body: Data) {
        bytes = body
    }

    /// The object as a value; nil when it is not JSON.
    public var value: JSONValue? { JSONValue.parse(Data(bytes)) }

    /// Each element of `body`, a JSON array, as its own slice; nil when
    /// `body` is not an array of well-formed JSON.
    public static func elements(of body: Data) -> [ServerJSON]? {
        let ranges: [Range<Int>]? = body.withUnsafeBytes { bytes in
            JSONBytes.read(bytes) { json throws(JSONBytes.Declined) in
                guard json.peek() == UInt8(ascii: "[") else { throw JSONBytes.Declined() }
                try json.enterArray()
                var ranges: [Range<Int>] = []
                var first = true
                while try json.nextElement(&first) {
                    _ = json.peek()
                    let start = json.position
                    try json.skipValue()
                    ranges.append(start..<json.position)
                }
                return ranges
            }
        }
        return ranges?.map { ServerJSON(body[(body.startIndex + $0.lowerBound)..<(body.startIndex + $0.upperBound)]) }
    }

    /// The value of member `key` of `body`, a JSON object, as its own slice
    /// (a search's `statuses`, a conversation's `last_status`); nil when
    /// `body` is not a well-formed object, or the member is absent or null.
    public static func member(_ key: StaticString, of body: Data) -> ServerJSON? {
        let range: Range<Int>?? = body.withUnsafeBytes { bytes in
            JSONBytes.read(bytes) { json throws(JSONBytes.Declined) -> Range<Int>? in
                try json.enterObject()
                var found: Range<Int>?
                var first = true
                while let name = try json.nextKey(&first) {
                    let start = json.valueStart()
                    let isNull = json.peek() == UInt8(ascii: "n")
                    try json.skipValue()
                    if found == nil, !isNull, json.key(name, is: key) { found = start..<json.position }
                }
                return found
            }
        }
        guard let range = range ?? nil else { return nil }
        return ServerJSON(body[(body.startIndex + range.lowerBound)..<(body.startIndex + range.upperBound)])
    }

    /// Each element of the array at member `key` of `body`, a JSON object
    /// (a search's `accounts`, a thread's `descendants`), as its own slice; nil
    /// when there is no such array.
    public static func elements(of body: Data, member key: StaticString) -> [ServerJSON]? {
        member(key, of: body).flatMap { elements(of: $0.bytes) }
    }

    /// For `body`, an array of objects, each element's member `key` (each
    /// mention notification's `status`), nil where an element has none.
    public static func members(_ key: StaticString, ofElementsOf body: Data) -> [ServerJSON?]? {
        elements(of: body)?.map { member(key, of: $0.bytes) }
    }
}
