import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// What a raw HTTP/1.1 exchange gave: the response, or how it failed.
struct HTTPResult: Sendable {
    /// How the exchange failed, if it did.
    enum Failure: Sendable, Equatable {
        /// The server closed the connection before any response byte.
        case closedWithoutResponse
        /// Fewer body bytes arrived than Content-Length promised.
        case shortBody(expected: Int, received: Int)
        /// Nothing arrived for longer than the timeout.
        case timedOut
        case connectFailed
    }

    var status = 0
    var headers: [String: String] = [:]
    /// The header names as the server wrote them (`headers` has them in lower case).
    var headerNames: [String] = []
    var body: [UInt8] = []
    var failure: Failure?
    /// From sending the request to the end of the body (or the failure).
    var seconds: Double = 0

    var text: String { String(decoding: body, as: UTF8.self) }
    var data: Data { Data(body) }
    /// The body as a JSON object, or nil.
    var json: [String: Any]? { (try? JSONSerialization.jsonObject(with: data)) as? [String: Any] }
    var errorCode: Int? { json?["error_code"] as? Int }
}

/// A deliberately small blocking HTTP/1.1 client over a POSIX socket, so the
/// sandbox's tests depend on no HTTP library and see exactly what arrives
/// (short bodies, dropped connections) instead of a library's reading of it.
///
/// It runs on its own thread (`perform`), never on Swift's cooperative
/// pool, so blocking reads cannot starve the server under test.
final class TestHTTPConnection: @unchecked Sendable {
    private var socketFD: Int32 = -1
    private let port: Int
    private let timeout: Double
    private var buffered: [UInt8] = []

    init(port: Int, timeout: Double = 10) {
        self.port = port
        self.timeout = timeout
    }

    deinit {
        if socketFD >= 0 { close(socketFD) }
    }

    /// Sends one request on this (kept-alive) connection, on a fresh thread.
    func send(_ method: String, _ target: String, headers: [String: String] = [:], body: String? = nil)
        async -> HTTPResult {
        await withCheckedContinuation { continuation in
            let thread = Thread { continuation.resume(returning: self.exchange(method, target, headers, body)) }
            thread.start()
        }
    }

    private func exchange(_ method: String, _ target: String, _ headers: [String: String], _ body: String?)
        -> HTTPResult {
        let started = Date()
        var result = untimedExchange(method, target, headers, body)
        result.seconds = Date().timeIntervalSince(started)
        return result
    }

    private func untimedExchange(_ method: String, _ target: String, _ headers: [String: String], _ body: String?)
        -> HTTPResult {
        var result = HTTPResult()
        if socketFD < 0 && !connectSocket() {
            result.failure = .connectFailed
            return result
        }
        var request = "\(method) \(target) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\n"
        for (name, value) in headers { request += "\(name): \(value)\r\n" }
        if let body {
            if !headers.keys.contains(where: { $0.lowercased() == "content-type" }) {
                request += "Content-Type: application/x-www-form-urlencoded\r\n"
            }
            request += "Content-Length: \(body.utf8.count)\r\n"
        }
        request += "\r\n"
        // With `Expect: 100-continue` the body waits for the server's go-ahead, as libcurl does.
        let waitsForContinue = headers["Expect"]?.lowercased() == "100-continue"
        if !waitsForContinue { request += body ?? "" }
        guard write(request) else { result.failure = .closedWithoutResponse; return result }
        if waitsForContinue {
            while find([13, 10, 13, 10], in: buffered) == nil {
                switch fill() {
                case .data: continue
                case .closed: result.failure = .closedWithoutResponse; return finish(result)
                case .timedOut: result.failure = .timedOut; return finish(result)
                }
            }
            // A final answer instead of the go-ahead (an error) is read below, body unsent.
            if buffered.starts(with: Array("HTTP/1.1 100".utf8)), !write(body ?? "") {
                result.failure = .closedWithoutResponse
                return result
            }
        }
        // The head, after any interim 1xx heads (100 Continue).
        var head: [UInt8] = []
        while true {
            if let end = find([13, 10, 13, 10], in: buffered) {
                head = Array(buffered[..<end])
                buffered.removeFirst(end + 4)
                if head.starts(with: Array("HTTP/1.1 1".utf8)) { continue }
                break
            }
            switch fill() {
            case .data: continue
            case .closed: result.failure = .closedWithoutResponse; return finish(result)
            case .timedOut: result.failure = .timedOut; return finish(result)
            }
        }
        let lines = String(decoding: head, as: UTF8.self).components(separatedBy: "\r\n")
        result.status = Int(lines[0].split(separator: " ")[1]) ?? 0
        for line in lines.dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            result.headerNames.append(String(line[..<colon]))
            result.headers[line[..<colon].lowercased()] = line[line.index(after: colon)...]
                .trimmingCharacters(in: .whitespaces)
        }
        let expected = Int(result.headers["content-length"] ?? "") ?? Int.max
        if method == "HEAD" { return result }
        while buffered.count < expected {
            switch fill() {
            case .data: continue
            case .closed:
                if expected != Int.max { result.failure = .shortBody(expected: expected, received: buffered.count) }
                result.body = buffered
                return finish(result)
            case .timedOut:
                result.body = buffered
                result.failure = .timedOut
                return finish(result)
            }
        }
        result.body = Array(buffered.prefix(expected))
        buffered.removeFirst(result.body.count)
        if result.headers["connection"]?.lowercased() == "close" { reset() }
        return result
    }

    private func write(_ text: String) -> Bool {
        let bytes = Array(text.utf8)
        var sent = 0
        while sent < bytes.count {
            let n = bytes[sent...].withUnsafeBytes { Glibc.send(socketFD, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if n <= 0 { return false }
            sent += n
        }
        return true
    }

    private func finish(_ result: HTTPResult) -> HTTPResult {
        reset()
        return result
    }

    private func reset() {
        if socketFD >= 0 { close(socketFD) }
        socketFD = -1
        buffered = []
    }

    private enum Fill { case data, closed, timedOut }

    private func fill() -> Fill {
        var chunk = [UInt8](repeating: 0, count: 65_536)
        let n = chunk.withUnsafeMutableBytes { recv(socketFD, $0.baseAddress, $0.count, 0) }
        if n > 0 {
            buffered.append(contentsOf: chunk[..<n])
            return .data
        }
        if n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK) { return .timedOut }
        return .closed
    }

    private func connectSocket() -> Bool {
        socketFD = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard socketFD >= 0 else { return false }
        var tv = timeval(tv_sec: Int(timeout), tv_usec: Int((timeout - timeout.rounded(.down)) * 1_000_000))
        setsockopt(socketFD, SOL_SOCKET, SO_RCVTIMEO, &tv, socklen_t(MemoryLayout<timeval>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(socketFD, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        if connected != 0 { reset() }
        return connected == 0
    }

    private func find(_ needle: [UInt8], in haystack: [UInt8]) -> Int? {
        guard haystack.count >= needle.count else { return nil }
        for i in 0...(haystack.count - needle.count) where haystack[i] == needle[0] {
            if Array(haystack[i..<(i + needle.count)]) == needle { return i }
        }
        return nil
    }
}
