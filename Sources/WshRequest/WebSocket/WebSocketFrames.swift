import FoundationEssentials

/// What one WebSocket connection delivers to its reader (RFC 6455 §5):
/// whole messages, reassembled from their fragments, and the control frames.
public enum WebSocketEvent: Sendable, Hashable {
    /// A text message, valid UTF-8.
    case text(String)
    /// A binary message, by its length: the streaming API sends none, so it is skipped.
    case binary(Int)
    /// A ping, to be answered with a pong carrying the same bytes.
    case ping([UInt8])
    /// A pong (an answer to a ping wsh never sends, or a heartbeat): ignored.
    case pong
    /// The server is closing: its status code, if it sent one, and its reason.
    case close(code: UInt16?, reason: String)
}

/// What was wrong with the bytes a server sent over a WebSocket, in one line;
/// `closeCode` is the status the client closes with (RFC 6455 §7.4.1).
public struct WebSocketProtocolError: Error, Sendable, Hashable, CustomStringConvertible {
    public var message: String
    public var closeCode: UInt16

    public init(_ message: String, closeCode: UInt16 = 1002) {
        self.message = message
        self.closeCode = closeCode
    }

    public var description: String { message }
}

/// The frame opcodes (RFC 6455 §5.2).
public enum WebSocketOpcode: UInt8, Sendable {
    case continuation = 0x0, text = 0x1, binary = 0x2, close = 0x8, ping = 0x9, pong = 0xA
}

/// Reads frames as their bytes arrive, in any pieces, and hands back whole
/// messages and control frames. A server's frame must not be masked; control
/// frames are at most 125 bytes and never fragmented; a message past
/// `maxMessageBytes` is refused as soon as a frame header announces it, so a
/// hostile length is never allocated.
public struct WebSocketFrameReader: Sendable {
    /// The most bytes one message (all its fragments) may have.
    public let maxMessageBytes: Int
    private var buffer: [UInt8] = []
    /// The message being reassembled from fragments, and its opcode.
    private var message: [UInt8] = []
    private var messageOpcode: WebSocketOpcode?

    public init(maxMessageBytes: Int) {
        self.maxMessageBytes = maxMessageBytes
    }

    /// Feeds `bytes`; returns the events they completed, in order, or throws
    /// at the first thing a server may not send.
    public mutating func feed(_ bytes: some Sequence<UInt8>) throws(WebSocketProtocolError) -> [WebSocketEvent] {
        buffer.append(contentsOf: bytes)
        var events: [WebSocketEvent] = []
        var start = 0
        defer { buffer.removeFirst(start) }
        while let frame = try nextFrame(at: start) {
            start = frame.end
            if let event = try take(frame) { events.append(event) }
        }
        return events
    }

    private struct Frame {
        var fin: Bool
        var opcode: WebSocketOpcode
        var payload: ArraySlice<UInt8>
        var end: Int
    }

    /// The whole frame at `start` in the buffer, or nil while it is incomplete.
    private func nextFrame(at start: Int) throws(WebSocketProtocolError) -> Frame? {
        let available = buffer.count - start
        guard available >= 2 else { return nil }
        let first = buffer[start], second = buffer[start + 1]
        guard first & 0x70 == 0 else { throw WebSocketProtocolError("the server set reserved bits in a frame (no extension was agreed)") }
        guard let opcode = WebSocketOpcode(rawValue: first & 0x0F) else {
            throw WebSocketProtocolError("the server sent a frame of unknown type \(first & 0x0F)")
        }
        guard second & 0x80 == 0 else { throw WebSocketProtocolError("the server sent a masked frame (only clients mask)") }
        let fin = first & 0x80 != 0
        var length = UInt64(second & 0x7F)
        var headerLength = 2
        if length == 126 {
            guard available >= 4 else { return nil }
            length = UInt64(buffer[start + 2]) << 8 | UInt64(buffer[start + 3])
            headerLength = 4
        } else if length == 127 {
            guard available >= 10 else { return nil }
            length = (0..<8).reduce(UInt64(0)) { $0 << 8 | UInt64(buffer[start + 2 + $1]) }
            headerLength = 10
        }
        let isControl = opcode.rawValue >= 0x8
        if isControl {
            guard fin else { throw WebSocketProtocolError("the server fragmented a control frame") }
            guard length <= 125 else { throw WebSocketProtocolError("the server sent a control frame of \(length) bytes (at most 125)") }
        } else if length > UInt64(maxMessageBytes - (opcode == .continuation ? message.count : 0)) {
            throw Self.tooLarge(maxMessageBytes)
        }
        let size = Int(length)
        guard available - headerLength >= size else { return nil }
        let payloadStart = start + headerLength
        return Frame(fin: fin, opcode: opcode, payload: buffer[payloadStart..<payloadStart + size], end: payloadStart + size)
    }

    private static func tooLarge(_ limit: Int) -> WebSocketProtocolError {
        WebSocketProtocolError("the server sent a message larger than the limit of \(CurlHTTPClient.size(limit))", closeCode: 1009)
    }

    /// The event `frame` completes, if any.
    private mutating func take(_ frame: Frame) throws(WebSocketProtocolError) -> WebSocketEvent? {
        switch frame.opcode {
        case .ping: return .ping(Array(frame.payload))
        case .pong: return .pong
        case .close: return try Self.close(frame.payload)
        case .text, .binary:
            guard messageOpcode == nil else {
                throw WebSocketProtocolError("the server began a new message inside a fragmented one")
            }
            guard frame.fin else {
                messageOpcode = frame.opcode
                message = Array(frame.payload)
                return nil
            }
            return try Self.message(frame.opcode, frame.payload)
        case .continuation:
            guard let opcode = messageOpcode else {
                throw WebSocketProtocolError("the server sent a continuation frame with no message to continue")
            }
            message.append(contentsOf: frame.payload)
            guard frame.fin else { return nil }
            defer { message = []; messageOpcode = nil }
            return try Self.message(opcode, message[...])
        }
    }

    private static func message(_ opcode: WebSocketOpcode, _ payload: ArraySlice<UInt8>) throws(WebSocketProtocolError) -> WebSocketEvent {
        guard opcode == .text else { return .binary(payload.count) }
        guard let text = String(validating: payload, as: UTF8.self) else {
            throw WebSocketProtocolError("the server sent a text message that is not UTF-8", closeCode: 1007)
        }
        return .text(text)
    }

    private static func close(_ payload: ArraySlice<UInt8>) throws(WebSocketProtocolError) -> WebSocketEvent {
        guard payload.count >= 2 else {
            guard payload.isEmpty else { throw WebSocketProtocolError("the server sent a close frame of one byte") }
            return .close(code: nil, reason: "")
        }
        let code = UInt16(payload[payload.startIndex]) << 8 | UInt16(payload[payload.startIndex + 1])
        let reason = String(decoding: payload.dropFirst(2), as: UTF8.self)
        return .close(code: code, reason: reason)
    }
}

/// Writes a client's frames: always masked (RFC 6455 §5.3) with a fresh key.
public enum WebSocketFrameWriter {
    /// One unfragmented frame carrying `payload`, masked with `mask` (4 bytes; random unless a test fixes it).
    public static func frame(_ opcode: WebSocketOpcode, _ payload: some Collection<UInt8>,
                             mask: [UInt8] = randomMask()) -> [UInt8] {
        var out: [UInt8] = [0x80 | opcode.rawValue]
        let count = payload.count
        if count < 126 {
            out.append(0x80 | UInt8(count))
        } else if count <= 0xFFFF {
            out.append(0x80 | 126)
            out.append(contentsOf: [UInt8(count >> 8), UInt8(count & 0xFF)])
        } else {
            out.append(0x80 | 127)
            out.append(contentsOf: (0..<8).map { UInt8(truncatingIfNeeded: UInt64(count) >> UInt64(56 - $0 * 8)) })
        }
        out.append(contentsOf: mask)
        for (index, byte) in payload.enumerated() { out.append(byte ^ mask[index & 3]) }
        return out
    }

    /// A close frame with `code` and a short `reason`.
    public static func close(code: UInt16, reason: String = "") -> [UInt8] {
        frame(.close, [UInt8(code >> 8), UInt8(code & 0xFF)] + Array(reason.utf8.prefix(123)))
    }

    /// Four random bytes.
    public static func randomMask() -> [UInt8] {
        var generator = SystemRandomNumberGenerator()
        let value = generator.next() as UInt32
        return (0..<4).map { UInt8(truncatingIfNeeded: value >> UInt32($0 * 8)) }
    }
}
