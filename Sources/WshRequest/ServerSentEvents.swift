import FoundationEssentials

/// An `HTTPClient` that can also hand a body over as it arrives (server-sent events).
public protocol StreamingHTTPClient: HTTPClient {
    /// Sends `request`; a 2xx body goes to `chunks` piece by piece until the
    /// server ends it, `chunks` returns false, or the task is cancelled.
    func stream(_ request: HTTPRequest, chunks: @escaping @Sendable (Data) -> Bool) async throws(RequestError) -> HTTPResponse
}

/// One server-sent event: its `event:` name (`message` when none) and its `data:` lines joined by newlines.
public struct ServerSentEvent: Sendable, Hashable {
    public var event: String
    public var data: String
    public var id: String?

    public init(event: String, data: String, id: String? = nil) {
        self.event = event
        self.data = data
        self.id = id
    }
}

/// Reads a `text/event-stream` as its bytes arrive, per the HTML standard:
/// lines end with CRLF, LF or CR; `field: value` (one space after the
/// colon dropped); `:` starts a comment (a heartbeat); `data` lines pile up,
/// joined by newlines; a blank line dispatches the event (none when no data
/// came). Bytes are buffered until a line is whole, so a chunk may end
/// anywhere, inside a UTF-8 character included.
public struct ServerSentEventParser: Sendable {
    private var pending: [UInt8] = []
    private var event = ""
    private var data: [String] = []
    private var id: String?
    private var lastWasCR = false
    /// How many comment lines (heartbeats) arrived.
    public private(set) var comments = 0

    public init() {}

    /// Feeds `chunk`; returns the events it completed, in order.
    public mutating func feed(_ chunk: some Sequence<UInt8>) -> [ServerSentEvent] {
        var events: [ServerSentEvent] = []
        for byte in chunk {
            if lastWasCR {
                lastWasCR = false
                if byte == UInt8(ascii: "\n") { continue }
            }
            if byte == UInt8(ascii: "\n") || byte == UInt8(ascii: "\r") {
                lastWasCR = byte == UInt8(ascii: "\r")
                if let event = line(String(decoding: pending, as: UTF8.self)) { events.append(event) }
                pending.removeAll(keepingCapacity: true)
            } else {
                pending.append(byte)
            }
        }
        return events
    }

    private mutating func line(_ line: String) -> ServerSentEvent? {
        if line.isEmpty {
            defer { event = ""; data = [] }
            guard !data.isEmpty else { return nil }
            return ServerSentEvent(event: event.isEmpty ? "message" : event, data: data.joined(separator: "\n"), id: id)
        }
        if line.hasPrefix(":") {
            comments += 1
            return nil
        }
        var field = Substring(line)
        var value: Substring = ""
        if let colon = line.firstIndex(of: ":") {
            field = line[..<colon]
            value = line[line.index(after: colon)...]
            if value.hasPrefix(" ") { value = value.dropFirst() }
        }
        switch field {
        case "event": event = String(value)
        case "data": data.append(String(value))
        case "id": if !value.contains("\0") { id = String(value) }
        default: break   // `retry` and unknown fields are ignored
        }
        return nil
    }
}
