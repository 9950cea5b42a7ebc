import FoundationEssentials
import WshText

/// The client's side of the opening handshake (RFC 6455 §4.1): the upgrade
/// request, and the checks on the server's answer that prove it speaks the
/// protocol (`101`, `Upgrade: websocket`, `Connection: Upgrade`, and
/// `Sec-WebSocket-Accept` made from this request's key).
public struct WebSocketHandshake: Sendable, Hashable {
    /// `Sec-WebSocket-Key`: 16 random bytes in base64, new for each connection.
    public let key: String

    /// The GUID every server appends to the key before hashing it (§1.3).
    static let guid = "258EAFA5-E914-47DA-95CA-C5AB0DC85B11"
    /// The most bytes an answer's head may have before its blank line.
    public static let maxHeadBytes = 16 << 10

    public init(key: String = WebSocketHandshake.randomKey()) {
        self.key = key
    }

    /// 16 random bytes in base64.
    public static func randomKey() -> String {
        var generator = SystemRandomNumberGenerator()
        return Data((0..<16).map { _ in UInt8.random(in: 0...255, using: &generator) }).base64EncodedString()
    }

    /// The `Sec-WebSocket-Accept` a server must answer `key` with.
    public static func accept(forKey key: String) -> String {
        Data(SHA1.digest(Array((key + guid).utf8))).base64EncodedString()
    }

    /// The GET that asks `url`'s server to upgrade, with `headers` added
    /// (the token's). Nil for a URL that is not http:// or https://.
    public func request(url: String, headers: [HTTPHeader]) -> [UInt8]? {
        guard let components = URLComponents(string: url), let host = components.host, !host.isEmpty,
              ["http", "https"].contains(components.scheme?.lowercased() ?? "") else { return nil }
        var target = components.percentEncodedPath.isEmpty ? "/" : components.percentEncodedPath
        if let query = components.percentEncodedQuery { target += "?" + query }
        let hostField = host.contains(":") ? "[\(host)]" : host
        var lines = [
            "GET \(target) HTTP/1.1",
            "Host: \(hostField)\(components.port.map { ":\($0)" } ?? "")",
            "User-Agent: wsh/0.1",
            "Upgrade: websocket",
            "Connection: Upgrade",
            "Sec-WebSocket-Key: \(key)",
            "Sec-WebSocket-Version: 13",
        ]
        // A header may not carry a line break into the request: such a field is not sent.
        lines += headers.map { "\($0.name): \($0.value)" }.filter { !$0.contains("\r") && !$0.contains("\n") }
        return Array((lines.joined(separator: "\r\n") + "\r\n\r\n").utf8)
    }

    /// The answer's head, once its blank line has arrived.
    public struct Head: Sendable, Hashable {
        public var status: Int
        /// Fields by lower-cased name; a repeated field keeps its last value.
        public var headers: [String: String]
        /// Where the bytes after the head begin.
        public var bodyStart: Int
    }

    /// The head at the start of `bytes`, nil while its blank line has not
    /// arrived; throws for a head past `maxHeadBytes` or one that is not HTTP.
    public static func head(_ bytes: [UInt8]) throws(WebSocketProtocolError) -> Head? {
        let end = bytes.indices.dropLast(3).first {
            bytes[$0] == 13 && bytes[$0 + 1] == 10 && bytes[$0 + 2] == 13 && bytes[$0 + 3] == 10
        }
        guard let end else {
            if bytes.count > maxHeadBytes { throw WebSocketProtocolError("the server's answer has a head larger than \(maxHeadBytes) bytes") }
            return nil
        }
        let text = String(decoding: bytes[..<end], as: UTF8.self)
        let lines = text.split(separator: "\r\n", omittingEmptySubsequences: false)
        let statusParts = lines.first?.split(separator: " ", maxSplits: 2) ?? []
        guard statusParts.count >= 2, statusParts[0].hasPrefix("HTTP/1."), let status = Int(statusParts[1]),
              (100...599).contains(status) else {
            throw WebSocketProtocolError("the server did not answer the upgrade in HTTP/1.1")
        }
        let headers = CurlHTTPClient.parseHeaders(lines.dropFirst().joined(separator: "\n"))
        return Head(status: status, headers: headers, bodyStart: end + 4)
    }

    /// Throws unless a `101` `head` accepts this handshake's key.
    public func verify(_ head: Head) throws(WebSocketProtocolError) {
        guard head.headers["upgrade"]?.lowercased() == "websocket" else {
            throw WebSocketProtocolError("the server's 101 answer does not say Upgrade: websocket")
        }
        let connection = (head.headers["connection"] ?? "").lowercased().split(separator: ",")
            .map { $0.filter { $0 != " " && $0 != "\t" } }
        guard connection.contains("upgrade") else {
            throw WebSocketProtocolError("the server's 101 answer does not say Connection: Upgrade")
        }
        guard let accept = head.headers["sec-websocket-accept"], accept == Self.accept(forKey: key) else {
            throw WebSocketProtocolError("the server's Sec-WebSocket-Accept does not match the key wsh sent (not a WebSocket server?)")
        }
        if let extensions = head.headers["sec-websocket-extensions"], !extensions.isEmpty {
            throw WebSocketProtocolError("the server chose a WebSocket extension wsh did not offer")
        }
    }
}
