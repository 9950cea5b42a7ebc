import CCurl
import FoundationEssentials
import Glibc
import Synchronization
import WshText

/// What a WebSocket connection hands its reader: that it opened, then each text message.
public enum WebSocketMessage: Sendable, Hashable {
    /// The server accepted the upgrade.
    case opened
    /// One text message.
    case text(String)
}

/// An `HTTPClient` that can also open a WebSocket (the streaming API where a
/// server has no server-sent events).
public protocol WebSocketHTTPClient: HTTPClient {
    /// Asks `request.url` (http:// or https://) to upgrade to a WebSocket and
    /// hands `messages` `.opened`, then each text message, until the server
    /// closes, `messages` returns false, or the task is cancelled; `send`'s
    /// text messages go to the server once it is open. Returns the answer to
    /// the upgrade: `101` once the socket has closed, or the server's other
    /// answer (`404`, a page), with no socket opened.
    func webSocket(_ request: HTTPRequest, maxMessageBytes: Int, send: [String],
                   messages: @escaping @Sendable (WebSocketMessage) -> Bool) async throws(RequestError) -> HTTPResponse
}

/// One WebSocket's cancellation: the flag libcurl's connect reads, and the
/// loop's own, either raised from any thread.
final class WebSocketTicket: @unchecked Sendable {
    // @unchecked: `flag` is written only through wsh_curl_flag_raise (atomic)
    // and read by libcurl's connect (atomic); it lives as long as the ticket.
    let flag: UnsafeMutablePointer<Int32>
    let cancelled = Atomic<Bool>(false)

    init() {
        flag = .allocate(capacity: 1)
        flag.initialize(to: 0)
    }

    deinit { flag.deallocate() }

    func cancel() {
        cancelled.store(true, ordering: .sequentiallyConsistent)
        wsh_curl_flag_raise(flag)
    }

    var isCancelled: Bool { cancelled.load(ordering: .sequentiallyConsistent) }
}

extension CurlHTTPClient: WebSocketHTTPClient {
    /// How long the loop waits on the socket before it looks at the cancel flag again.
    static let webSocketPollMilliseconds: Int32 = 50

    public func webSocket(_ request: HTTPRequest, maxMessageBytes: Int, send: [String],
                          messages: @escaping @Sendable (WebSocketMessage) -> Bool) async throws(RequestError) -> HTTPResponse {
        let ticket = WebSocketTicket()
        // Blocking I/O stays on the client's own thread, as every transfer's does.
        let result: Result<HTTPResponse, RequestError> = await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                queue.async {
                    self.webSocketStarted(ticket)
                    defer { self.webSocketEnded(ticket) }
                    var connection = WebSocketConnection(client: self, request: request, ticket: ticket,
                                                        maxMessageBytes: maxMessageBytes, messages: messages)
                    continuation.resume(returning: connection.run(sending: send))
                }
            }
        } onCancel: {
            ticket.cancel()
        }
        return try result.get()
    }
}

/// One WebSocket on a libcurl connection: the handshake, then frames, on the
/// calling thread, never blocking for more than `webSocketPollMilliseconds`.
struct WebSocketConnection {
    let client: CurlHTTPClient
    let request: HTTPRequest
    let ticket: WebSocketTicket
    let maxMessageBytes: Int
    let messages: @Sendable (WebSocketMessage) -> Bool
    private var socket: OpaquePointer?
    private let started = ContinuousClock.now

    init(client: CurlHTTPClient, request: HTTPRequest, ticket: WebSocketTicket, maxMessageBytes: Int,
         messages: @escaping @Sendable (WebSocketMessage) -> Bool) {
        self.client = client
        self.request = request
        self.ticket = ticket
        self.maxMessageBytes = maxMessageBytes
        self.messages = messages
    }

    /// Why the loop stopped reading, when it was not by an error.
    private enum Stop: Error {
        case cancelled
        case failed(RequestError)
    }

    mutating func run(sending outgoing: [String]) -> Result<HTTPResponse, RequestError> {
        defer { if let socket { wsh_curl_socket_close(socket) } }
        do throws(Stop) {
            try connect()
            let handshake = WebSocketHandshake()
            guard let upgrade = handshake.request(url: request.url, headers: request.headers) else {
                return .failure(.configuration("not an http:// or https:// URL: \(redactedURL)"))
            }
            let deadline = ContinuousClock.now + client.options.timeout
            try write(upgrade, until: deadline)
            var received: [UInt8] = []
            var head: WebSocketHandshake.Head?
            while head == nil {
                guard try read(into: &received, until: deadline) else {
                    throw Stop.failed(dropped("the server closed the connection before answering the upgrade"))
                }
                do { head = try WebSocketHandshake.head(received) } catch { throw Stop.failed(failure(error)) }
            }
            guard let head else { throw Stop.failed(dropped("no answer")) }
            var response = HTTPResponse(status: head.status, headers: head.headers, body: Data(),
                                        metrics: TransferMetrics(newConnections: 1))
            guard head.status == 101 else {
                response.body = try body(after: head, in: received, until: deadline)
                response.metrics.bytesReceived = response.body.count
                response.metrics.totalSeconds = seconds
                return .success(response)
            }
            do { try handshake.verify(head) } catch { throw Stop.failed(failure(error)) }
            try frames(Array(received[head.bodyStart...]), sending: outgoing)
            response.metrics.totalSeconds = seconds
            return .success(response)
        } catch {
            switch error {
            case .cancelled: return .failure(.cancelled)
            case .failed(let failure): return .failure(ticket.isCancelled ? .cancelled : failure)
            }
        }
    }

    private var seconds: Double {
        let elapsed = ContinuousClock.now - started
        return Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
    }

    private var redactedURL: String { Redaction.redact(request.url, secrets: client.secrets) }

    private mutating func connect() throws(Stop) {
        var code: Int32 = 0
        var error = [CChar](repeating: 0, count: 256)
        let errorSize = error.count
        socket = request.url.withCString { url in
            wsh_curl_connect(url, client.options.authorities.bundle, CurlHTTPClient.milliseconds(client.options.connectTimeout),
                             ticket.flag, &code, &error, errorSize)
        }
        if ticket.isCancelled { throw .cancelled }
        guard socket != nil else {
            let message = Redaction.redact(String(decoding: error.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self),
                                           secrets: client.secrets)
            throw .failed(.transport(TransportFailure(curlCode: Int(code), message: message, url: redactedURL,
                                                      authorities: client.options.authorities)))
        }
    }

    /// Reads the frames after the handshake until the server closes, the reader stops, or a cancel.
    private mutating func frames(_ first: [UInt8], sending outgoing: [String]) throws(Stop) {
        guard messages(.opened) else { return try close(1000) }
        for text in outgoing { try write(WebSocketFrameWriter.frame(.text, Array(text.utf8)), until: nil) }
        var reader = WebSocketFrameReader(maxMessageBytes: maxMessageBytes)
        var pending = first
        while true {
            let events: [WebSocketEvent]
            do { events = try reader.feed(pending) } catch {
                try? close(error.closeCode)
                throw .failed(failure(error))
            }
            pending.removeAll(keepingCapacity: true)
            for event in events {
                switch event {
                case .text(let text):
                    guard messages(.text(text)) else { return try close(1000) }
                case .ping(let payload):
                    try write(WebSocketFrameWriter.frame(.pong, payload), until: nil)
                case .close(let code, _):
                    // Answered with the same code (none: 1000), as §5.5.1 asks; then it is over.
                    try? write(WebSocketFrameWriter.close(code: code ?? 1000), until: ContinuousClock.now + .seconds(1))
                    return
                case .binary, .pong:
                    continue
                }
            }
            guard try read(into: &pending, until: nil) else {
                throw .failed(dropped("the server closed the connection without a WebSocket close frame"))
            }
        }
    }

    /// Sends a close frame with `code`, best-effort, then reads (and drops)
    /// what the server still sends until its close, its end of the
    /// connection, or a second: closing a socket with unread bytes would reset
    /// the connection, and the server could lose the close before reading it.
    private func close(_ code: UInt16) throws(Stop) {
        let deadline = ContinuousClock.now + .seconds(1)
        guard (try? write(WebSocketFrameWriter.close(code: code), until: deadline)) != nil else { return }
        var drained: [UInt8] = []
        var reader = WebSocketFrameReader(maxMessageBytes: Int.max)
        while (try? read(into: &drained, until: deadline)) == true {
            let events = (try? reader.feed(drained)) ?? [.close(code: nil, reason: "")]
            drained.removeAll(keepingCapacity: true)
            if events.contains(where: { if case .close = $0 { true } else { false } }) { return }
        }
    }

    /// Appends what arrives to `bytes`: true once some did, false when the
    /// server closed the connection. Throws on a cancel, `deadline` or an error.
    private func read(into bytes: inout [UInt8], until deadline: ContinuousClock.Instant?) throws(Stop) -> Bool {
        var chunk = [UInt8](repeating: 0, count: 16 << 10)
        while true {
            if ticket.isCancelled { throw .cancelled }
            var count = 0
            let code = chunk.withUnsafeMutableBytes { wsh_curl_socket_recv(socket, $0.baseAddress, $0.count, &count) }
            if code == 0 {
                guard count > 0 else { return false }
                bytes.append(contentsOf: chunk[..<count])
                return true
            }
            guard code == 81 else { throw .failed(transport(code, "receiving")) }   // CURLE_AGAIN: nothing yet
            try wait(forWrite: false, until: deadline)
        }
    }

    /// Sends all of `bytes`. Throws on a cancel, `deadline` or an error.
    private func write(_ bytes: [UInt8], until deadline: ContinuousClock.Instant?) throws(Stop) {
        var offset = 0
        while offset < bytes.count {
            if ticket.isCancelled { throw .cancelled }
            var sent = 0
            let code = bytes.withUnsafeBytes { wsh_curl_socket_send(socket, $0.baseAddress! + offset, $0.count - offset, &sent) }
            if code == 0 {
                offset += sent
                continue
            }
            guard code == 81 else { throw .failed(transport(code, "sending")) }
            try wait(forWrite: true, until: deadline)
        }
    }

    private func wait(forWrite: Bool, until deadline: ContinuousClock.Instant?) throws(Stop) {
        if let deadline, ContinuousClock.now >= deadline {
            throw .failed(.transport(TransportFailure(kind: .timeout, curlCode: 28,
                                                      message: "the server did not answer the WebSocket upgrade in time",
                                                      url: redactedURL)))
        }
        if wsh_curl_socket_wait(socket, forWrite ? 1 : 0, CurlHTTPClient.webSocketPollMilliseconds) < 0 {
            throw .failed(dropped("waiting on the connection failed (\(SystemError.message(errno)))"))
        }
    }

    /// The body of an answer that is not `101`, for its excerpt: as long as
    /// the head says (at most 64 KiB, until the server closes or `deadline`);
    /// with no length (chunked, or an event stream that never ends), only
    /// what came with the head, so such an answer cannot hold the caller.
    private func body(after head: WebSocketHandshake.Head, in received: [UInt8],
                      until deadline: ContinuousClock.Instant) throws(Stop) -> Data {
        let limit = 64 << 10
        var bytes = Array(received[head.bodyStart...])
        guard let length = head.headers["content-length"].flatMap({ Int($0) }) else { return Data(bytes.prefix(limit)) }
        let wanted = min(length, limit)
        while bytes.count < wanted {
            do throws(Stop) {
                guard try read(into: &bytes, until: deadline) else { break }
            } catch {
                if case .cancelled = error { throw .cancelled }
                break   // what came is the excerpt
            }
        }
        return Data(bytes.prefix(wanted))
    }

    private func failure(_ error: WebSocketProtocolError) -> RequestError {
        .transport(TransportFailure(kind: .webSocket, curlCode: 0,
                                    message: Redaction.redact(error.message, secrets: client.secrets), url: redactedURL))
    }

    private func dropped(_ message: String) -> RequestError {
        .transport(TransportFailure(kind: .dropped, curlCode: 56, message: message, url: redactedURL))
    }

    private func transport(_ code: Int32, _ doing: String) -> RequestError {
        let message = wsh_curl_strerror(code).map { String(cString: $0) } ?? "failed"
        return .transport(TransportFailure(curlCode: Int(code), message: "\(doing): \(message)", url: redactedURL))
    }
}
