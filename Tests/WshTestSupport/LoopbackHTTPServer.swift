#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import WshRequest

/// An HTTP/1.1 server on 127.0.0.1 that answers each request with what `respond`
/// gives for it (the same closure a `FakeHTTPClient` takes), one connection
/// at a time, each closed after its answer: a fake API the shell reaches
/// over a real socket (`WalkingAPI`).
public final class LoopbackHTTPServer: @unchecked Sendable {
    public let port: Int
    private let listener: Int32
    private let respond: @Sendable (HTTPRequest) -> HTTPResponse
    private let lock = NSLock()
    private var stopped = false

    public init(_ respond: @escaping @Sendable (HTTPRequest) -> HTTPResponse) throws {
        let (listener, port) = try listenOnLoopback()
        self.listener = listener
        self.port = port
        self.respond = respond
        Thread.detachNewThread { [self] in
            while true {
                let connection = accept(listener, nil, nil)
                if connection < 0 { return }
                serve(connection)
            }
        }
    }

    /// `http://127.0.0.1:PORT/` and `path`: a Mastodon base with no path, Weibo's with `2/`.
    public func baseURL(_ path: String = "") -> String { "http://127.0.0.1:\(port)/" + path }

    public func stop() {
        lock.lock()
        defer { lock.unlock() }
        guard !stopped else { return }
        stopped = true
        shutdown(listener, Int32(SHUT_RDWR))
        close(listener)
    }

    deinit { stop() }

    private func serve(_ connection: Int32) {
        defer { close(connection) }
        var request: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        var headEnd: Int?
        while headEnd == nil {
            let count = read(connection, &buffer, buffer.count)
            if count <= 0 { return }
            request += buffer[0..<count]
            headEnd = request.end(of: [13, 10, 13, 10])
        }
        guard let headEnd else { return }
        let head = String(decoding: request[..<headEnd], as: UTF8.self)
        // A body (a POST's form) is read whole before the answer: closing on unread bytes would reset the connection.
        let length = head.split(separator: "\r\n").lazy.compactMap { line -> Int? in
            let parts = line.split(separator: ":", maxSplits: 1)
            guard parts.count == 2, parts[0].lowercased() == "content-length" else { return nil }
            return Int(parts[1].trimmingCharacters(in: .whitespaces))
        }.first ?? 0
        var body = Array(request[headEnd...])
        while body.count < length {
            let count = read(connection, &buffer, min(buffer.count, length - body.count))
            if count <= 0 { return }
            body += buffer[0..<count]
        }
        let words = head.prefix { $0 != "\r" }.split(separator: " ")
        let target = words.dropFirst().first.map(String.init) ?? "/"
        let response = respond(HTTPRequest(method: words.first == "POST" ? .post : .get, url: baseURL() + target.dropFirst(),
                                           body: length > 0 ? Data(body) : nil))
        var answer = "HTTP/1.1 \(response.status) X\r\n"
        for (name, value) in response.headers { answer += "\(name): \(value)\r\n" }
        answer += "Content-Length: \(response.body.count)\r\nConnection: close\r\n\r\n"
        let bytes = Array(answer.utf8) + Array(response.body)
        var offset = 0
        while offset < bytes.count {
            #if canImport(Glibc)
            let written = bytes[offset...].withUnsafeBytes { send(connection, $0.baseAddress!, $0.count, Int32(MSG_NOSIGNAL)) }
            #else
            let written = bytes[offset...].withUnsafeBytes { write(connection, $0.baseAddress!, $0.count) }
            #endif
            if written <= 0 { return }
            offset += written
        }
    }
}

private extension Array where Element == UInt8 {
    /// The index just past the first `marker`, nil when there is none yet.
    func end(of marker: [UInt8]) -> Int? {
        guard count >= marker.count else { return nil }
        return (0...(count - marker.count)).first { self[$0..<($0 + marker.count)].elementsEqual(marker) }.map { $0 + marker.count }
    }
}
