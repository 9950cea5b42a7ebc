import CCurl
import Dispatch
import FoundationEssentials
import Glibc
import Synchronization
import WshText

/// An `HTTPClient` on libcurl.
///
/// One easy handle (and its multi handle's connection cache) is reused for
/// every request, so consecutive requests to one host share a keep-alive
/// connection. Requests run one at a time on the client's own thread, never
/// on Swift's concurrency pool, which a blocking transfer would starve.
/// Cancelling the calling task, or `cancelCurrentRequest()` from any thread,
/// stops a transfer within a few milliseconds.
public final class CurlHTTPClient: CancellableHTTPClient, StreamingHTTPClient, @unchecked Sendable {
    /// Limits for every request this client sends.
    public struct Options: Sendable, Hashable {
        public var connectTimeout: Duration
        public var timeout: Duration
        /// Bodies larger than this fail instead of exhausting memory.
        public var maxBodyBytes: Int
        /// Whom an https server's certificate must be signed by.
        public var authorities: CertificateAuthorities

        public init(connectTimeout: Duration = .seconds(10), timeout: Duration = .seconds(30), maxBodyBytes: Int = 64 << 20,
                    authorities: CertificateAuthorities = .system) {
            self.connectTimeout = connectTimeout
            self.timeout = timeout
            self.maxBodyBytes = maxBodyBytes
            self.authorities = authorities
        }
    }

    public let options: Options
    /// Secrets to blank out of any message this client produces.
    let secrets: [String]
    /// The client's own thread: every transfer, a WebSocket's too, runs here.
    let queue = RequestThread()
    // @unchecked Sendable: `handle` is used only on `queue`, except for
    // wsh_curl_cancel, which is documented as safe from any thread.
    private let handle: OpaquePointer?
    /// The curl code of trusting `options.authorities.bundle`, when libcurl
    /// refused it: every request then fails rather than trust the default.
    private let bundleRefused: Int32?
    private let state = Mutex(State())

    private struct State {
        var running: Ticket?
        /// The WebSocket open on `queue`, if any (it has its own connection, not `handle`).
        var webSocket: WebSocketTicket?
    }

    /// Identifies one request, so a late cancel cannot stop the next one.
    private final class Ticket: Sendable {
        let cancelled = Atomic<Bool>(false)
    }

    /// A client; libcurl is loaded now if it was not yet (or the load
    /// `preload()` began is waited for).
    public init(options: Options = Options(), secrets: [String] = []) {
        self.options = options
        self.secrets = secrets.filter { !$0.isEmpty }
        self.handle = wsh_curl_new()
        var refused: Int32?
        if let handle, let bundle = options.authorities.bundle {
            let code = wsh_curl_set_ca_file(handle, bundle)
            if code != 0 { refused = code }
        }
        self.bundleRefused = refused
    }

    deinit {
        queue.stop()
        if let handle { wsh_curl_free(handle) }
    }

    /// Starts loading libcurl on a thread of its own and returns at once, for
    /// when a request is sure to come but other work comes first (starting
    /// the embedded sandbox). While it loads, creating a thread waits for it
    /// (glibc's pthread_create takes the loader's TLS lock, which dlopen
    /// holds), so call it once the threads that work needs exist.
    public static func preload() {
        wsh_curl_preload()
    }

    /// The libcurl version in use, or nil when it could not be loaded.
    public static var libraryVersion: String? {
        wsh_curl_version().map { String(cString: $0) }
    }

    /// Stops the request in flight, if any, from any thread.
    public func cancelCurrentRequest() {
        state.withLock { state in
            state.webSocket?.cancel()
            guard let ticket = state.running else { return }
            ticket.cancelled.store(true, ordering: .sequentiallyConsistent)
            if let handle { wsh_curl_cancel(handle) }
        }
    }

    public func send(_ request: HTTPRequest) async throws(RequestError) -> HTTPResponse {
        try await run(request, chunks: nil)
    }

    /// Sends `request` and hands a 2xx body to `chunks` piece by piece as it
    /// arrives (server-sent events), with no overall timeout, until the server
    /// ends it, `chunks` returns false, or the task is cancelled; the response
    /// then holds the headers (and, for another status, the body).
    public func stream(_ request: HTTPRequest, chunks: @escaping @Sendable (Data) -> Bool) async throws(RequestError) -> HTTPResponse {
        try await run(request, chunks: ChunkSink(chunks))
    }

    /// Where a streamed body goes, passed through C as the chunk callback's context.
    private final class ChunkSink: Sendable {
        let deliver: @Sendable (Data) -> Bool
        init(_ deliver: @escaping @Sendable (Data) -> Bool) { self.deliver = deliver }
    }

    private func run(_ request: HTTPRequest, chunks: ChunkSink?) async throws(RequestError) -> HTTPResponse {
        let ticket = Ticket()
        let result: Result<HTTPResponse, RequestError> = await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                queue.async {
                    continuation.resume(returning: self.perform(request, ticket: ticket, chunks: chunks))
                }
            }
        } onCancel: {
            ticket.cancelled.store(true, ordering: .sequentiallyConsistent)
            state.withLock { state in
                if state.running === ticket, let handle { wsh_curl_cancel(handle) }
            }
        }
        return try result.get()
    }

    /// Runs on `queue`.
    private func perform(_ request: HTTPRequest, ticket: Ticket, chunks: ChunkSink?) -> Result<HTTPResponse, RequestError> {
        guard let handle else {
            let reason = wsh_curl_load().map { String(cString: $0) } ?? "cannot initialise libcurl"
            return .failure(.transport(TransportFailure(kind: .other, curlCode: 2, message: reason, url: redact(request.url))))
        }
        let started = state.withLock { state -> Bool in
            wsh_curl_reset_cancel(handle)
            guard !ticket.cancelled.load(ordering: .sequentiallyConsistent) else { return false }
            state.running = ticket
            return true
        }
        guard started else { return .failure(.cancelled) }
        defer { state.withLock { $0.running = nil } }
        if let bundleRefused {
            let message = wsh_curl_strerror(bundleRefused).map { String(cString: $0) } ?? "refused"
            return .failure(.transport(TransportFailure(kind: .tls, curlCode: 77, message: message, url: redact(request.url),
                                                        authorities: options.authorities)))
        }

        var response = wsh_curl_response()
        let headerLines = request.headers.map { "\($0.name): \($0.value)" }
        let body = request.body ?? Data()
        let parts = request.multipart ?? []
        // Every string a part names, copied: [name, value or path, filename, type] a part.
        let partStrings = parts.flatMap { part -> [String] in
            switch part.content {
            case .text(let text): [part.name, text, "", ""]
            case .file(let path, let filename, let contentType): [part.name, path, filename, contentType]
            }
        }
        withCStrings(headerLines + partStrings) { pointers in
            let headerPointers = Array(pointers.prefix(headerLines.count))
            let strings = Array(pointers.dropFirst(headerLines.count))
            let curlParts = parts.enumerated().map { index, part -> wsh_curl_part in
                let base = index * 4
                switch part.content {
                case .text(let text):
                    return wsh_curl_part(name: strings[base], data: strings[base + 1], data_length: text.utf8.count,
                                         file_path: nil, filename: nil, content_type: nil)
                case .file:
                    return wsh_curl_part(name: strings[base], data: nil, data_length: 0, file_path: strings[base + 1],
                                         filename: strings[base + 2], content_type: strings[base + 3])
                }
            }
            request.url.withCString { url in
                body.withUnsafeBytes { bodyBytes in
                    headerPointers.withUnsafeBufferPointer { headers in
                        curlParts.withUnsafeBufferPointer { partsPointer in
                            var curlRequest = wsh_curl_request(
                                is_post: Self.curlMethod(request.method),
                                url: url,
                                headers: headers.baseAddress,
                                header_count: headers.count,
                                body: bodyBytes.baseAddress?.assumingMemoryBound(to: CChar.self),
                                body_length: bodyBytes.count,
                                connect_timeout_ms: Self.milliseconds(options.connectTimeout),
                                timeout_ms: chunks == nil ? Self.milliseconds(options.timeout) : 0,
                                max_body_bytes: options.maxBodyBytes,
                                on_chunk: nil, chunk_context: nil,
                                parts: partsPointer.baseAddress,
                                part_count: request.method == .post ? partsPointer.count : 0)
                            if let chunks {
                                curlRequest.on_chunk = { context, bytes, length in
                                    guard let context, let bytes else { return 1 }
                                    let sink = Unmanaged<ChunkSink>.fromOpaque(context).takeUnretainedValue()
                                    return sink.deliver(Data(bytes: bytes, count: length)) ? 1 : 0
                                }
                                withExtendedLifetime(chunks) {
                                    curlRequest.chunk_context = Unmanaged.passUnretained(chunks).toOpaque()
                                    _ = wsh_curl_perform(handle, &curlRequest, &response)
                                }
                            } else {
                                _ = wsh_curl_perform(handle, &curlRequest, &response)
                            }
                        }
                    }
                }
            }
        }

        if response.cancelled != 0 || ticket.cancelled.load(ordering: .sequentiallyConsistent) {
            return .failure(.cancelled)
        }
        if response.curl_code != 0 {
            var message = redact(response.error_message.map { String(cString: $0) } ?? "transfer failed")
            if response.curl_code == 63 { message = "the body passed the limit of \(Self.size(options.maxBodyBytes))" }
            return .failure(.transport(TransportFailure(
                curlCode: Int(response.curl_code), message: message, url: redact(request.url),
                inHeaders: response.in_headers != 0, authorities: options.authorities)))
        }
        // The handle's buffer becomes the response's, not copied: a page of a
        // timeline is hundreds of kilobytes.
        let bodyData = response.body_length > 0
            ? wsh_curl_take_body(handle).map { Data(bytesNoCopy: $0, count: response.body_length, deallocator: .free) } ?? Data()
            : Data()
        let headerText = String(decoding: UnsafeRawBufferPointer(start: response.headers, count: response.headers_length), as: UTF8.self)
        return .success(HTTPResponse(
            status: response.status,
            headers: Self.parseHeaders(headerText),
            body: bodyData,
            metrics: TransferMetrics(
                totalSeconds: response.total_seconds,
                connectSeconds: response.connect_seconds,
                newConnections: response.new_connections,
                bytesReceived: bodyData.count)))
    }

    /// Marks `ticket`'s WebSocket as the one `cancelCurrentRequest` stops (on `queue`).
    func webSocketStarted(_ ticket: WebSocketTicket) {
        state.withLock { $0.webSocket = ticket }
    }

    func webSocketEnded(_ ticket: WebSocketTicket) {
        state.withLock { if $0.webSocket === ticket { $0.webSocket = nil } }
    }

    private func redact(_ text: String) -> String {
        Redaction.redact(text, secrets: secrets)
    }

    static func parseHeaders(_ block: String) -> [String: String] {
        if let headers = parseASCIIHeaders(block) { return headers }
        var headers: [String: String] = [:]
        for line in block.split(whereSeparator: \.isNewline) {
            guard let colon = line.firstIndex(of: ":") else { continue }
            let name = trimmed(line[..<colon]).lowercased()
            headers[name] = String(trimmed(line[line.index(after: colon)...]))
        }
        return headers
    }

    /// `parseHeaders` for a block of ASCII (every server's, nearly), on its bytes:
    /// lines end at CR, LF, VT or FF (ASCII's newlines), names are lowercased and
    /// values trimmed of spaces and tabs, as the general way does; nil for any other block.
    /// Splitting by Character was a tenth of a 100-status page's own work.
    private static func parseASCIIHeaders(_ block: String) -> [String: String]? {
        var block = block
        return block.withUTF8 { bytes -> [String: String]? in
            var headers: [String: String] = [:]
            var start = 0
            let count = bytes.count
            while start < count {
                var end = start
                while end < count, !(0x0A...0x0D).contains(bytes[end]) {
                    if bytes[end] >= 0x80 { return nil }
                    end += 1
                }
                defer { start = end + 1 }
                guard let colon = (start..<end).first(where: { bytes[$0] == UInt8(ascii: ":") }) else { continue }
                func trimmed(_ range: Range<Int>) -> Range<Int> {
                    var (low, high) = (range.lowerBound, range.upperBound)
                    while low < high, bytes[low] == 0x20 || bytes[low] == 0x09 { low += 1 }
                    while high > low, bytes[high - 1] == 0x20 || bytes[high - 1] == 0x09 { high -= 1 }
                    return low..<high
                }
                let name = trimmed(start..<colon).map { (0x41...0x5A).contains(bytes[$0]) ? bytes[$0] | 0x20 : bytes[$0] }
                headers[String(decoding: name, as: UTF8.self)] =
                    String(decoding: UnsafeBufferPointer(rebasing: bytes[trimmed(colon + 1..<end)]), as: UTF8.self)
            }
            return headers
        }
    }

    /// `text` without the spaces and tabs at either end (`CharacterSet.whitespaces`:
    /// tab and the space separators), without going through Foundation.
    private static func trimmed(_ text: Substring) -> Substring {
        func isSpace(_ scalar: Unicode.Scalar) -> Bool {
            scalar == "\t" || scalar == " " || (scalar.value > 0x7F && scalar.properties.generalCategory == .spaceSeparator)
        }
        let scalars = text.unicodeScalars
        guard let first = scalars.firstIndex(where: { !isSpace($0) }) else { return "" }
        let last = scalars.lastIndex(where: { !isSpace($0) })!
        return Substring(scalars[first...last])
    }

    /// `bytes` for a message: `64 MiB`, `1000 bytes`.
    static func size(_ bytes: Int) -> String {
        bytes >= 1 << 20 && bytes % (1 << 20) == 0 ? "\(bytes >> 20) MiB" : "\(bytes) bytes"
    }

    static func milliseconds(_ duration: Duration) -> Int {
        let (seconds, attoseconds) = duration.components
        return max(1, Int(seconds) * 1000 + Int(attoseconds / 1_000_000_000_000_000))
    }
}

/// Calls `body` with NUL-terminated copies of `strings`, valid during the call.
/// A copy that could not be made is nil; wsh_curl_perform fails the request for it.
private func withCStrings<R>(_ strings: [String], _ body: ([UnsafePointer<CChar>?]) -> R) -> R {
    let copies = strings.map { strdup($0) }
    defer { copies.forEach { free($0) } }
    return body(copies.map { $0.map { UnsafePointer($0) } })
}

extension CurlHTTPClient {
    /// The method as `wsh_curl_perform` takes it: 0 GET, 1 POST, 2 DELETE, 3 PUT, 4 PATCH.
    static func curlMethod(_ method: HTTPMethod) -> Int32 {
        switch method {
        case .get: 0
        case .post: 1
        case .delete: 2
        case .put: 3
        case .patch: 4
        }
    }
}

/// A thread of its own that runs blocks one at a time, in order: where an
/// HTTP client's blocking transfers run (never on Swift's concurrency pool).
///
/// Once it runs out of work it watches for more for a moment before it
/// sleeps (`patience`), giving way to any other thread that wants its core,
/// while requests have been coming that quickly: a script's next request
/// usually comes within a millisecond of the last answer, and a sleeping
/// thread takes tens of microseconds to wake (more on a virtual machine),
/// twice a request. A thread that watches after a single request only costs
/// (the process's exit, or the loader's mappings, interrupt the core it
/// watches on). The thread starts with the first block and ends when the
/// owner lets go of it.
final class RequestThread: @unchecked Sendable {
    /// How long an idle thread watches for work before it sleeps.
    static let patience: UInt64 = 1_000_000

    private let lock = ThreadLock()
    private var blocks: [() -> Void] = []
    private var started = false
    private var stopping = false
    /// Rung for each block queued and for the stop.
    private let doorbell = Doorbell()

    /// Runs `block` on the thread, after the blocks queued before it.
    func async(_ block: @escaping () -> Void) {
        let start = lock.withLock { () -> Bool in
            blocks.append(block)
            defer { started = true }
            return !started
        }
        doorbell.ring()
        if start { Self.spawn(self) }
    }

    /// Lets the thread end once the blocks queued have run.
    func stop() {
        lock.withLock { stopping = true }
        doorbell.ring()
    }

    private static func spawn(_ thread: RequestThread) {
        var id = pthread_t()
        let context = Unmanaged.passRetained(thread).toOpaque()
        let created = pthread_create(&id, nil, { context in
            let thread = Unmanaged<RequestThread>.fromOpaque(context!).takeRetainedValue()
            thread.loop()
            return nil
        }, context)
        if created == 0 {
            pthread_detach(id)
        } else {
            // No thread to be had: the blocks run on a dispatch queue's instead.
            Unmanaged<RequestThread>.fromOpaque(context).release()
            DispatchQueue.global().async { thread.loop() }
        }
    }

    private func loop() {
        var drained = 0
        // Whether the last block came within `patience` of the one before.
        var quick = false
        while true {
            if doorbell.count == drained {
                let idle = DispatchTime.now().uptimeNanoseconds
                doorbell.wait(past: drained, watchingFor: quick ? Self.patience : 0)
                // Only a block that came is quick: a wait can also return on the wake
                // a ring left behind (the first block's, rung before the thread began),
                // and taking that for a quick block would watch a core after one request.
                quick = doorbell.count != drained && DispatchTime.now().uptimeNanoseconds - idle < Self.patience
            }
            drained = doorbell.count
            while let block = lock.withLock({ blocks.isEmpty ? nil : blocks.removeFirst() }) {
                block()
            }
            if lock.withLock({ stopping && blocks.isEmpty }) { return }
        }
    }
}
