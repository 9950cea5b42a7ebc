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
}
