import Foundation

/// A small Weibo-compatible OAuth2 server over real HTTP, for login round
/// trips until the sandbox serves OAuth: `oauth2/authorize` (POST approve
/// form → 302 to the redirect URI with `code` and `state`),
/// `oauth2/access_token`, `oauth2/get_token_info`, `oauth2/revokeoauth2`,
/// and under `/2/` `users/show.json` and `statuses/update.json`, which
/// answer only a live token (else Weibo's 21332 body).
public final class FakeOAuthServer: @unchecked Sendable {
    public let port: Int
    public static let appKey = "fake-app"
    public static let appSecret = "fake-app-secret-123"
    /// The users who can approve, by uid.
    public static let users = ["2001": "alice_oauth", "2002": "bob_oauth"]

    private let listener: Int32
    private let lock = NSLock()
    private var stopped = false
    private var codes: [String: (uid: String, redirectURI: String)] = [:]
    private var tokens: [String: String] = [:]       // token → uid
    private var counter = 0
    /// Statuses posted, as (uid, text).
    public private(set) var posts: [(uid: String, text: String)] = []

    public init() throws {
        let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        self.listener = listener
        var reuse: Int32 = 1
        setsockopt(listener, SOL_SOCKET, SO_REUSEADDR, &reuse, socklen_t(MemoryLayout<Int32>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(listener, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard bound == 0, listen(listener, 16) == 0 else { throw POSIXError(.EADDRINUSE) }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(listener, $0, &length) }
        }
        port = Int(UInt16(bigEndian: address.sin_port))
        Thread.detachNewThread { [self] in
            while true {
                let connection = accept(listener, nil, nil)
                // Closed here, not in stop(): a descriptor closed while this
                // thread may still call accept could be reused by the next
                // server's socket, and this thread would steal its requests.
                if connection < 0 {
                    close(listener)
                    return
                }
                Thread.detachNewThread { self.serve(connection) }
            }
        }
    }

    /// The API base (`/2/` under the OAuth base).
    public var baseURL: String { "http://127.0.0.1:\(port)/2/" }

    public func stop() {
        lock.lock()
        defer { lock.unlock() }
        guard !stopped else { return }
        stopped = true
        shutdown(listener, Int32(SHUT_RDWR))
    }

    deinit { stop() }

    /// Whether `token` still works.
    public func isLive(_ token: String) -> Bool { lock.withLock { tokens[token] != nil } }

    /// The tokens issued and not revoked.
    public var liveTokens: [String] { lock.withLock { Array(tokens.keys) } }

    /// What the approve form does: a code for `user`, and where the browser goes next.
    public func approve(clientID: String, redirectURI: String, state: String, user: String) -> String {
        lock.withLock {
            counter += 1
            let code = "code\(counter)x\(UInt32.random(in: 0...UInt32.max))"
            codes[code] = (user, redirectURI)
            return redirectURI + (redirectURI.contains("?") ? "&" : "?") + "code=\(code)&state=\(state)"
        }
    }

    // MARK: HTTP

    private func serve(_ connection: Int32) {
        defer { close(connection) }
        var request: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        var headerEnd: Int?
        while headerEnd == nil {
            let count = read(connection, &buffer, buffer.count)
            if count <= 0 { return }
            request += buffer[0..<count]
            headerEnd = Self.find([13, 10, 13, 10], in: request)
        }
        let head = String(decoding: request[..<headerEnd!], as: UTF8.self)
        let lines = head.components(separatedBy: "\r\n")
        var headers: [String: String] = [:]
        for line in lines.dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        let length = Int(headers["content-length"] ?? "0") ?? 0
        var body = Array(request[(headerEnd! + 4)...])
        while body.count < length {
            let count = read(connection, &buffer, buffer.count)
            if count <= 0 { break }
            body += buffer[0..<count]
        }
        let words = lines[0].split(separator: " ")
        guard words.count >= 2 else { return }
        let target = String(words[1])
        let path = target.split(separator: "?").first.map(String.init) ?? target
        let query = target.split(separator: "?", maxSplits: 1).dropFirst().first.map(String.init) ?? ""
        var fields = Self.form(query)
        fields.merge(Self.form(String(decoding: body, as: UTF8.self))) { $1 }
        let auth = headers["authorization"].flatMap { $0.hasPrefix("OAuth2 ") ? String($0.dropFirst(7)) : nil }
        let (status, extra, text) = answer(String(words[0]), path, fields, token: auth ?? fields["access_token"])
        var response = "HTTP/1.1 \(status) X\r\nContent-Length: \(text.utf8.count)\r\nConnection: close\r\n"
        for (name, value) in extra { response += "\(name): \(value)\r\n" }
        if extra["Content-Type"] == nil { response += "Content-Type: application/json\r\n" }
        let bytes = Array((response + "\r\n" + text).utf8)
        var offset = 0
        while offset < bytes.count {
            let written = bytes[offset...].withUnsafeBytes { write(connection, $0.baseAddress!, $0.count) }
            if written <= 0 { return }
            offset += written
        }
    }

    private func error(_ code: Int, _ message: String, _ path: String, status: Int = 400) -> (Int, [String: String], String) {
        (status, [:], #"{"error":"\#(message)","error_code":\#(code),"request":"\#(path)"}"#)
    }

    private func answer(_ method: String, _ path: String, _ fields: [String: String], token: String?) -> (Int, [String: String], String) {
        switch path {
        case "/oauth2/authorize":
            guard method == "POST", fields["approve"] == "1", let redirect = fields["redirect_uri"], let state = fields["state"],
                  let user = fields["user"], Self.users[user] != nil, fields["client_id"] == Self.appKey else {
                return (200, ["Content-Type": "text/html"], "<form method=post>approve</form>")
            }
            return (302, ["Location": approve(clientID: Self.appKey, redirectURI: redirect, state: state, user: user)], "")
        case "/oauth2/access_token":
            guard fields["client_id"] == Self.appKey, fields["client_secret"] == Self.appSecret else {
                return error(21323, "invalid_client", path)
            }
            return lock.withLock {
                guard fields["grant_type"] == "authorization_code", let code = fields["code"], let grant = codes.removeValue(forKey: code),
                      grant.redirectURI == fields["redirect_uri"] else {
                    return error(21325, "invalid_grant", path)
                }
                counter += 1
                let token = "2.00tok\(counter)\(UInt32.random(in: 0...UInt32.max))"
                tokens[token] = grant.uid
                return (200, [:], #"{"access_token":"\#(token)","expires_in":157679999,"remind_in":"157679999","uid":"\#(grant.uid)"}"#)
            }
        case "/oauth2/get_token_info":
            guard let token, let uid = lock.withLock({ tokens[token] }) else { return error(21332, "invalid_access_token", path, status: 403) }
            return (200, [:], #"{"uid":\#(uid),"appkey":"\#(Self.appKey)","scope":"","create_at":1700000000,"expire_in":157679000}"#)
        case "/oauth2/revokeoauth2":
            guard let token, lock.withLock({ tokens.removeValue(forKey: token) }) != nil else {
                return error(21332, "invalid_access_token", path, status: 403)
            }
            return (200, [:], #"{"result":"true"}"#)
        case "/2/users/show.json":
            guard let token, lock.withLock({ tokens[token] }) != nil else { return error(21332, "invalid_access_token", path, status: 403) }
            let uid = fields["uid"] ?? ""
            guard let name = Self.users[uid] else { return error(20003, "User does not exists!", path) }
            return (200, [:], Self.user(uid, name))
        case "/2/statuses/update.json":
            guard let token, let uid = lock.withLock({ tokens[token] }) else { return error(21332, "invalid_access_token", path, status: 403) }
            let text = fields["status"] ?? ""
            let id = lock.withLock { () -> Int in
                posts.append((uid, text))
                return 4_900_000_000_000_000 + posts.count
            }
            return (200, [:], #"{"id":\#(id),"idstr":"\#(id)","mid":"\#(id)","created_at":"Tue May 31 17:46:55 +0800 2011","text":"\#(text)","source":"wsh","reposts_count":0,"comments_count":0,"attitudes_count":0,"user":\#(Self.user(uid, Self.users[uid] ?? ""))}"#)
        default:
            return error(10001, "not found", path, status: 404)
        }
    }

    private static func user(_ uid: String, _ name: String) -> String {
        #"{"id":\#(uid),"idstr":"\#(uid)","screen_name":"\#(name)","name":"\#(name)","followers_count":1,"friends_count":1,"statuses_count":1}"#
    }

    private static func form(_ text: String) -> [String: String] {
        var fields: [String: String] = [:]
        for pair in text.split(separator: "&") {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let decode = { (s: Substring) in String(s).replacingOccurrences(of: "+", with: " ").removingPercentEncoding ?? String(s) }
            fields[decode(parts[0])] = parts.count > 1 ? decode(parts[1]) : ""
        }
        return fields
    }

    private static func find(_ needle: [UInt8], in bytes: [UInt8]) -> Int? {
        guard bytes.count >= needle.count else { return nil }
        return (0...(bytes.count - needle.count)).first { bytes[$0..<($0 + needle.count)].elementsEqual(needle) }
    }
}
