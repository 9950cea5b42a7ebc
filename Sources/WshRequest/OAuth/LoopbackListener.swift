import FoundationEssentials
import Glibc
import WshText

/// A one-shot HTTP listener on 127.0.0.1 that catches the OAuth redirect.
///
/// It lives in the Request layer because it is network I/O of the OAuth
/// exchange, like the client beside it; the shell opens it for
/// `LoginViewModel` (as its `RedirectListening`), which waits on it. It
/// answers the browser with a short page, hands back `code` and `state`, and
/// serves nothing else (other paths get 404). Waiting is bounded and polls
/// `shouldStop` (Ctrl-C) every 100 ms: it never blocks on a socket.
public final class LoopbackListener {
    /// The port it listens on (the free one picked when asked for 0).
    public let port: Int
    /// The path the redirect arrives on, e.g. `/callback`.
    public let path: String
    private var socketDescriptor: Int32

    /// How waiting ended.
    public enum Outcome: Sendable, Hashable {
        /// The browser arrived with a code and this login's state.
        case redirect(OAuthRedirect)
        /// The browser arrived with this login's state and an error (the user said no).
        case failed(OAuthRedirect.Failure)
        case timedOut
        /// `shouldStop` said so (Ctrl-C).
        case stopped
        /// The watched descriptor (the terminal) has a line to read: a pasted code.
        case inputReady
    }

    /// Listens on 127.0.0.1:`port` (0: a free port) for requests to `path`.
    public init(port: Int = 0, path: String = "/callback") throws(RequestError) {
        self.path = path
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { throw .configuration("cannot open a socket for the login redirect") }
        var reuse: Int32 = 1
        setsockopt(descriptor, SOL_SOCKET, SO_REUSEADDR, &reuse, socklen_t(MemoryLayout<Int32>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = UInt16(port).bigEndian
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard bound == 0, listen(descriptor, 8) == 0 else {
            Glibc.close(descriptor)
            throw .configuration("cannot listen on 127.0.0.1:\(port) for the login redirect (\(String(cString: strerror(errno))))")
        }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(descriptor, $0, &length) }
        }
        self.port = Int(UInt16(bigEndian: address.sin_port))
        self.socketDescriptor = descriptor
    }

    /// The redirect URI this listener answers: `http://127.0.0.1:PORT/callback`.
    public var redirectURI: String { "http://127.0.0.1:\(port)\(path)" }

    /// Waits for the browser's redirect, at most `timeout`.
    ///
    /// - Parameter expectedState: the `state` this login sent. A redirect
    ///   must carry exactly it: one with no state or another (a forged
    ///   redirect with someone else's code — login CSRF — or an `error`
    ///   meant to end this login) gets a plain error page, is reported to
    ///   `refused`, and the wait goes on for the right one until the timeout.
    ///   Only a redirect with the right state ends the wait, with its code
    ///   or as `.failed(.denied)`.
    /// - Parameter watching: a descriptor (stdin) whose input also ends the wait, as `.inputReady`.
    /// - Parameter refused: told of each redirect refused for its state (for one line in the terminal).
    public func waitForRedirect(timeout: Duration, expectedState: String, watching: Int32? = nil,
                                shouldStop: () -> Bool = { false },
                                refused: (OAuthRedirect.Failure) -> Void = { _ in }) -> Outcome {
        let deadline = ContinuousClock.now + timeout
        while true {
            if shouldStop() { return .stopped }
            let left = deadline - ContinuousClock.now
            guard left > .zero else { return .timedOut }
            var descriptors = [pollfd(fd: socketDescriptor, events: Int16(POLLIN), revents: 0)]
            if let watching { descriptors.append(pollfd(fd: watching, events: Int16(POLLIN), revents: 0)) }
            let ready = poll(&descriptors, nfds_t(descriptors.count), Int32(min(100, max(1, left.milliseconds))))
            guard ready > 0 else { continue }
            if descriptors.count > 1, descriptors[1].revents != 0 { return .inputReady }
            guard descriptors[0].revents != 0 else { continue }
            let connection = accept(socketDescriptor, nil, nil)
            guard connection >= 0 else { continue }
            if let outcome = serve(connection, expectedState: expectedState, shouldStop: shouldStop, refused: refused) {
                return outcome
            }
        }
    }

    /// Stops listening; also done on deinit.
    public func close() {
        guard socketDescriptor >= 0 else { return }
        Glibc.close(socketDescriptor)
        socketDescriptor = -1
    }

    deinit { close() }

    /// Answers one connection; the outcome when it was this login's redirect.
    private func serve(_ connection: Int32, expectedState: String, shouldStop: () -> Bool,
                       refused: (OAuthRedirect.Failure) -> Void) -> Outcome? {
        defer { Glibc.close(connection) }
        guard let target = Self.requestTarget(connection, shouldStop: shouldStop) else { return nil }
        let parts = target.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false)
        guard parts.first.map(String.init) == path else {
            Self.answer(connection, status: "404 Not Found", text: "Not found.")
            return nil
        }
        let query = parts.count > 1 ? String(parts[1]) : ""
        do {
            let redirect = try OAuthRedirect.fromQuery(query, expecting: expectedState)
            Self.answer(connection, status: "200 OK", text: "wsh has the authorization. You can close this tab and return to the terminal.")
            return .redirect(redirect)
        } catch .noCode {
            Self.answer(connection, status: "400 Bad Request", text: "This address expects an authorization code.")
            return nil
        } catch let error where error.isForeign {
            Self.answer(connection, status: "400 Bad Request",
                        text: "wsh refused this redirect: it is not the answer to the login wsh started. You can close this tab.")
            refused(error)
            return nil
        } catch {
            Self.answer(connection, status: "400 Bad Request", text: "wsh: \(error). You can close this tab.")
            return .failed(error)
        }
    }

    /// The request target of the request line (`/callback?code=…`), read within 5 seconds.
    private static func requestTarget(_ connection: Int32, shouldStop: () -> Bool) -> String? {
        var request: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        let deadline = ContinuousClock.now + .seconds(5)
        while !request.contains(headerEnd), request.count < 16 << 10 {
            if shouldStop() || ContinuousClock.now > deadline { return nil }
            var descriptor = pollfd(fd: connection, events: Int16(POLLIN), revents: 0)
            guard poll(&descriptor, 1, 100) > 0 else { continue }
            let count = read(connection, &buffer, buffer.count)
            if count <= 0 { break }
            request += buffer[0..<count]
        }
        let line = String(decoding: request.prefix { $0 != 13 && $0 != 10 }, as: UTF8.self)
        let words = line.split(separator: " ")
        guard words.count >= 2, words[0] == "GET" else { return nil }
        return String(words[1])
    }

    private static let headerEnd: [UInt8] = [13, 10, 13, 10]

    private static func answer(_ connection: Int32, status: String, text: String) {
        let escaped = HTMLText.escaped(text)
        let body = "<!doctype html><meta charset=utf-8><title>wsh login</title><p>\(escaped)</p>\n"
        let head = "HTTP/1.1 \(status)\r\nContent-Type: text/html; charset=utf-8\r\nContent-Length: \(body.utf8.count)\r\n"
            + "Cache-Control: no-store\r\nConnection: close\r\n\r\n"
        let bytes = Array((head + body).utf8)
        var offset = 0
        while offset < bytes.count {
            let written = bytes[offset...].withUnsafeBytes { write(connection, $0.baseAddress!, $0.count) }
            if written <= 0 { return }
            offset += written
        }
    }
}

private extension Array where Element == UInt8 {
    func contains(_ needle: [UInt8]) -> Bool {
        guard count >= needle.count else { return false }
        return (0...(count - needle.count)).contains { self[$0..<($0 + needle.count)].elementsEqual(needle) }
    }
}

private extension Duration {
    var milliseconds: Int {
        let (seconds, attoseconds) = components
        return Int(seconds) * 1000 + Int(attoseconds / 1_000_000_000_000_000)
    }
}
