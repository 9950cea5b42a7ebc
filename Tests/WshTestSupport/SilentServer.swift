#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation

/// A TCP listener on 127.0.0.1 that accepts connections and never answers:
/// the way to make a request hang, for timeout and cancellation tests.
public final class SilentServer: @unchecked Sendable {
    /// The bound port.
    public let port: Int
    private let listener: Int32
    private let lock = NSLock()
    private var accepted: [Int32] = []
    private var stopped = false
    private var acceptedTotal = 0

    public init() throws {
        let (listener, port) = try listenOnLoopback()
        self.listener = listener
        self.port = port
        Thread.detachNewThread { [self] in
            while true {
                lock.lock()
                let done = stopped
                lock.unlock()
                if done { return }
                let connection = accept(listener, nil, nil)
                if connection < 0 { return }
                lock.lock()
                acceptedTotal += 1
                if stopped { close(connection) } else { accepted.append(connection) }
                lock.unlock()
            }
        }
    }

    /// How many connections the server has accepted so far: a client's
    /// request is under way once this goes up, which tests wait on.
    public var acceptedCount: Int {
        lock.lock()
        defer { lock.unlock() }
        return acceptedTotal
    }

    /// The base URL of this server.
    public var baseURL: String { "http://127.0.0.1:\(port)/2/" }

    /// Closes the listener and every accepted connection.
    /// Safe to call more than once: a second close could hit a descriptor
    /// the process has reused since (another server's socket).
    public func stop() {
        lock.lock()
        if stopped {
            lock.unlock()
            return
        }
        stopped = true
        let connections = accepted
        accepted = []
        lock.unlock()
        connections.forEach { close($0) }
        shutdown(listener, Int32(SHUT_RDWR))
        close(listener)
    }

    deinit { stop() }
}

/// A TCP socket listening on a free port of 127.0.0.1, and that port.
func listenOnLoopback() throws -> (socket: Int32, port: Int) {
    let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    address.sin_port = 0
    let bound = withUnsafePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(listener, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
    }
    guard bound == 0, listen(listener, 16) == 0 else {
        close(listener)
        throw POSIXError(.EADDRINUSE)
    }
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    _ = withUnsafeMutablePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(listener, $0, &length) }
    }
    return (listener, Int(UInt16(bigEndian: address.sin_port)))
}

/// A port on 127.0.0.1 where nothing listens (bound, then closed).
public func unusedLocalPort() -> Int {
    let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    defer { close(fd) }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    _ = withUnsafePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
    }
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    _ = withUnsafeMutablePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
    }
    return Int(UInt16(bigEndian: address.sin_port))
}
