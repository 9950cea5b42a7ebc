#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import WshRequest

/// An HTTP/1.1 server on 127.0.0.1 that answers each GET with what `respond`
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
        while !request.ends(with: [13, 10, 13, 10]) {
            let count = read(connection, &buffer, buffer.count)
            if count <= 0 { return }
            request += buffer[0..<count]
        }
        let line = String(decoding: request.prefix { $0 != 13 }, as: UTF8.self)
        let target = line.split(separator: " ").dropFirst().first.map(String.init) ?? "/"
        let response = respond(HTTPRequest(url: baseURL() + target.dropFirst()))
        var head = "HTTP/1.1 \(response.status) X\r\n"
        for (name, value) in response.headers { head += "\(name): \(value)\r\n" }
        head += "Content-Length: \(response.body.count)\r\nConnection: close\r\n\r\n"
        let bytes = Array(head.utf8) + Array(response.body)
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
    func ends(with suffix: [UInt8]) -> Bool {
        count >= suffix.count && Array(self[(count - suffix.count)...]) == suffix
    }
}
