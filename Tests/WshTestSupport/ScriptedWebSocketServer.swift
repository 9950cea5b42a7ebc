#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import WshText

/// A WebSocket server on 127.0.0.1 that follows a script, for what a real
/// server rarely does on cue: a ping, a message in fragments, a close, a
/// wrong `Sec-WebSocket-Accept`, a message past the client's limit, bytes
/// that are no frame at all. It serves one connection, which follows `steps`.
public final class ScriptedWebSocketServer: @unchecked Sendable {
    /// How the server answers the upgrade.
    public enum Answer: Sendable {
        /// `101` with the right `Sec-WebSocket-Accept`.
        case accept
        /// `101` with an accept made from another key.
        case wrongAccept
        /// This status line and body instead (`404 Not Found`, a page).
        case refuse(status: String, body: String)
    }

    /// One thing the server does after the handshake.
    public enum Step: Sendable {
        /// Writes these bytes (frames made with `frame`, or garbage).
        case send([UInt8])
        /// Reads one frame from the client and keeps it in `received`.
        case receive
        /// Waits until the client has closed the connection.
        case waitForClose
    }

    /// A frame the client sent: its opcode, whether it was masked (a client's must be), its payload unmasked.
    public struct ClientFrame: Sendable, Hashable {
        public var opcode: UInt8
        public var masked: Bool
        public var payload: [UInt8]

        public init(opcode: UInt8, masked: Bool, payload: [UInt8]) {
            self.opcode = opcode
            self.masked = masked
            self.payload = payload
        }
    }

    public let port: Int
    private let listener: Int32
    private let answer: Answer
    private let steps: [Step]
    private let lock = NSLock()
    private var stopped = false
    private var frames: [ClientFrame] = []
    private var requests: [String] = []
    /// Signalled once the connection has been served (or none came before `stop`).
    private let served = DispatchSemaphore(value: 0)

    public init(answer: Answer = .accept, steps: [Step]) throws {
        let (listener, port) = try listenOnLoopback()
        self.listener = listener
        self.port = port
        self.answer = answer
        self.steps = steps
        // One connection, then the thread ends: a thread looping back to
        // accept() after stop() could take a later server's socket, which may
        // get the same descriptor number.
        Thread.detachNewThread { [self] in
            defer { served.signal() }
            let connection = accept(listener, nil, nil)
            if connection >= 0 { serve(connection) }
        }
    }

    /// Waits until the connection has been served: its steps run, or the
    /// client gone. A client can finish before the server has read its last
    /// frame, so `received` is read after this. False after `seconds`.
    public func waitUntilServed(seconds: Double = 10) -> Bool {
        served.wait(timeout: .now() + seconds) == .success
    }

    /// The streaming URL as wsh asks for it (http://, which the upgrade makes ws://).
    public var url: String { "http://127.0.0.1:\(port)/api/v1/streaming?stream=public" }

    /// The client's frames the `receive` steps read, in order.
    public var received: [ClientFrame] { lock.withLock { frames } }

    /// The upgrade requests' heads, as sent.
    public var upgradeRequests: [String] { lock.withLock { requests } }

    public func stop() {
        lock.lock()
        defer { lock.unlock() }
        guard !stopped else { return }
        stopped = true
        shutdown(listener, Int32(SHUT_RDWR))
        close(listener)
    }

    deinit { stop() }

    /// A server's frame (unmasked): `opcode`, `fin`, and a length in as many bytes as it needs.
    public static func frame(_ opcode: UInt8, _ payload: [UInt8], fin: Bool = true) -> [UInt8] {
        var out: [UInt8] = [(fin ? 0x80 : 0) | opcode]
        if payload.count < 126 {
            out.append(UInt8(payload.count))
        } else if payload.count <= 0xFFFF {
            out += [126, UInt8(payload.count >> 8), UInt8(payload.count & 0xFF)]
        } else {
            out.append(127)
            out += (0..<8).map { UInt8(truncatingIfNeeded: UInt64(payload.count) >> UInt64(56 - $0 * 8)) }
        }
        return out + payload
    }

    /// A text frame of `text`.
    public static func text(_ text: String, fin: Bool = true) -> [UInt8] { frame(0x1, Array(text.utf8), fin: fin) }

    // MARK: Serving

    private func serve(_ connection: Int32) {
        defer { close(connection) }
        var pending: [UInt8] = []
        guard let head = readHead(connection, &pending) else { return }
        lock.withLock { requests.append(head) }
        let key = head.split(separator: "\r\n").first { $0.lowercased().hasPrefix("sec-websocket-key:") }
            .map { String($0.dropFirst("sec-websocket-key:".count)).trimmingCharacters(in: .whitespaces) } ?? ""
        switch answer {
        case .refuse(let status, let body):
            let page = "HTTP/1.1 \(status)\r\nContent-Type: text/html\r\nContent-Length: \(body.utf8.count)\r\n"
                + "Connection: close\r\n\r\n\(body)"
            write(connection, Array(page.utf8))
            return
        case .accept, .wrongAccept:
            let accept = Data(SHA1.digest(Array(((answer.isWrong ? "not" : "") + key + "258EAFA5-E914-47DA-95CA-C5AB0DC85B11").utf8)))
                .base64EncodedString()
            write(connection, Array(("HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                + "Sec-WebSocket-Accept: \(accept)\r\n\r\n").utf8))
        }
        for step in steps {
            switch step {
            case .send(let bytes):
                guard write(connection, bytes) else { return }
            case .receive:
                guard let frame = readFrame(connection, &pending) else { return }
                lock.withLock { frames.append(frame) }
            case .waitForClose:
                var byte: UInt8 = 0
                while read(connection, &byte, 1) > 0 {}
            }
        }
    }

    private func readHead(_ connection: Int32, _ pending: inout [UInt8]) -> String? {
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            if let end = pending.indices.dropLast(3).first(where: { pending[$0...$0 + 3] == [13, 10, 13, 10] }) {
                defer { pending.removeFirst(end + 4) }
                return String(decoding: pending[..<end], as: UTF8.self)
            }
            let count = read(connection, &buffer, buffer.count)
            if count <= 0 { return nil }
            pending += buffer[0..<count]
        }
    }

    private func readFrame(_ connection: Int32, _ pending: inout [UInt8]) -> ClientFrame? {
        func need(_ count: Int) -> Bool {
            var buffer = [UInt8](repeating: 0, count: 4096)
            while pending.count < count {
                let got = read(connection, &buffer, buffer.count)
                if got <= 0 { return false }
                pending += buffer[0..<got]
            }
            return true
        }
        guard need(2) else { return nil }
        let masked = pending[1] & 0x80 != 0
        var length = Int(pending[1] & 0x7F)
        var offset = 2
        if length == 126 {
            guard need(4) else { return nil }
            length = Int(pending[2]) << 8 | Int(pending[3])
            offset = 4
        } else if length == 127 {
            guard need(10) else { return nil }
            length = (0..<8).reduce(0) { $0 << 8 | Int(pending[2 + $1]) }
            offset = 10
        }
        let maskLength = masked ? 4 : 0
        guard need(offset + maskLength + length) else { return nil }
        let mask = Array(pending[offset..<offset + maskLength])
        let body = pending[(offset + maskLength)..<(offset + maskLength + length)]
        let payload = masked ? body.enumerated().map { $0.element ^ mask[$0.offset & 3] } : Array(body)
        let frame = ClientFrame(opcode: pending[0] & 0x0F, masked: masked, payload: payload)
        pending.removeFirst(offset + maskLength + length)
        return frame
    }

    @discardableResult
    private func write(_ connection: Int32, _ bytes: [UInt8]) -> Bool {
        var offset = 0
        while offset < bytes.count {
            #if canImport(Glibc)
            let written = bytes[offset...].withUnsafeBytes { send(connection, $0.baseAddress!, $0.count, Int32(MSG_NOSIGNAL)) }
            #else
            let written = bytes[offset...].withUnsafeBytes { Darwin.write(connection, $0.baseAddress!, $0.count) }
            #endif
            if written <= 0 { return false }
            offset += written
        }
        return true
    }
}

private extension ScriptedWebSocketServer.Answer {
    var isWrong: Bool {
        if case .wrongAccept = self { return true }
        return false
    }
}
