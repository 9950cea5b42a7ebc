#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation

/// Text that would drive a terminal: what a hostile server puts in every field.
public enum HostileText {
    private static let esc = "\u{1B}"

    /// Every kind of escape sequence, in 7-bit and C1 forms, plus controls and
    /// bidi overrides, around a little visible text.
    public static let payload = [
        "\(esc)]0;PWNED\u{07}", "\(esc)[2J\(esc)[H", "\(esc)[31mRED\(esc)[0m", "\(esc)]52;c;ZXZpbA==\u{07}",
        "\(esc)P1$qm\(esc)\\", "\(esc)_apc\(esc)\\", "\u{9B}31m", "\u{9D}0;title\u{9C}", "\u{90}dcs\u{9C}",
        "\u{07}\u{08}\u{7F}\u{85}", "\u{202E}evil\u{202C}", "\u{2066}x\u{2069}",
    ].joined()

    /// True when `text` holds a control (other than LF and tab), a bidi control,
    /// or what is left of an escape sequence of `payload`.
    public static func leaks(_ text: String) -> Bool {
        let controls = text.unicodeScalars.contains { scalar in
            let v = scalar.value
            return (v < 0x20 && v != 0x0A && v != 0x09) || (0x7F...0x9F).contains(v) || [0x061C, 0x200E, 0x200F].contains(v)
                || (0x202A...0x202E).contains(v) || (0x2066...0x2069).contains(v)
        }
        let remnants = ["[31m", "[0m", "]0;", "]52;", "[2J", "[H", "PWNED", "ZXZpbA", "1$qm", "title", "apc", "dcs",
                        "\\u001b", "\\u001B", "\\u009b", "\\u202e", "\\u202E"]
        return controls || remnants.contains { text.contains($0) }
    }

    /// `payload` as the inside of a JSON string.
    public static var json: String {
        var escaped = ""
        for scalar in payload.unicodeScalars {
            switch scalar.value {
            case 0x22: escaped += "\\\""
            case 0x5C: escaped += "\\\\"
            case 0..<0x20, 0x7F...0x9F, 0x202A...0x202E, 0x2066...0x2069:
                escaped += String(format: "\\u%04x", scalar.value)
            default: escaped.unicodeScalars.append(scalar)
            }
        }
        return escaped
    }
}

/// A Weibo-like API on 127.0.0.1 whose every text field, error body and error
/// page carries `HostileText.payload`: the fixture that drives every View,
/// every error path, `$error` and the trace in the trust-boundary tests.
///
/// Routes under `/2/`: the four read endpoints wsh uses (hostile data; the
/// public timeline the same full page for every page asked, ten times, then
/// an empty one); `users/show.json?screen_name=apierror` answers 403 with a hostile Weibo
/// error body, `…=htmlerror` 502 with a hostile HTML page; `raw/notjson`
/// answers 200 with hostile text that is not JSON; `raw/hugeheader` sends one
/// header line of 1 MiB, `raw/manyheaders` a thousand header lines of 1 KB;
/// anything else 404 HTML.
public final class HostileServer: @unchecked Sendable {
    public let port: Int
    private let listener: Int32
    private let lock = NSLock()
    private var stopped = false
    /// Public timeline pages answered so far: every one is the same three
    /// statuses, up to `repeatedPages`, then an empty page, so that a client
    /// walking pages without noticing the repeats ends all the same.
    private var timelinePages = 0
    public static let repeatedPages = 10

    public init() throws {
        let (listener, port) = try listenOnLoopback()
        self.listener = listener
        self.port = port
        Thread.detachNewThread { [self] in
            while true {
                let connection = accept(listener, nil, nil)
                if connection < 0 { return }
                serve(connection)
            }
        }
    }

    /// The base URL of this API.
    public var baseURL: String { "http://127.0.0.1:\(port)/2/" }

    public func stop() {
        lock.lock()
        defer { lock.unlock() }
        guard !stopped else { return }
        stopped = true
        shutdown(listener, Int32(SHUT_RDWR))
        close(listener)
    }

    deinit { stop() }

    // MARK: Answers

    private func serve(_ connection: Int32) {
        defer { close(connection) }
        var request: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        // A TLS hello (a record of type 22) never ends in a blank line: it is
        // answered at once, in plain HTTP, as a plain server would.
        while request.first != 22, !request.contains(subsequence: [13, 10, 13, 10]) {
            let count = read(connection, &buffer, buffer.count)
            if count <= 0 { return }
            request += buffer[0..<count]
        }
        let line = String(decoding: request.prefix { $0 != 13 }, as: UTF8.self)
        let target = line.split(separator: " ").dropFirst().first.map(String.init) ?? "/"
        let (status, type, body) = answer(target)
        let head = "HTTP/1.1 \(status) X\r\n\(oversizeHeaders(target))Content-Type: \(type)\r\n"
            + "Content-Length: \(body.utf8.count)\r\nConnection: close\r\n\r\n"
        let bytes = Array((head + body).utf8)
        var offset = 0
        while offset < bytes.count {
            // A client that gives up half-way (an oversize header) must not SIGPIPE the tests.
            #if canImport(Glibc)
            let written = bytes[offset...].withUnsafeBytes { send(connection, $0.baseAddress!, $0.count, Int32(MSG_NOSIGNAL)) }
            #else
            let written = bytes[offset...].withUnsafeBytes { write(connection, $0.baseAddress!, $0.count) }
            #endif
            if written <= 0 { return }
            offset += written
        }
    }

    /// Header lines past libcurl's limits (100 KB a line, 300 KB in all) for
    /// the `raw/…header…` routes, else none.
    private func oversizeHeaders(_ target: String) -> String {
        switch target {
        case "/2/raw/hugeheader": "X-Padding: " + String(repeating: "a", count: 1 << 20) + "\r\n"
        case "/2/raw/manyheaders": (1...1000).map { "X-Padding-\($0): " + String(repeating: "a", count: 1000) + "\r\n" }.joined()
        default: ""
        }
    }

    private func answer(_ target: String) -> (Int, String, String) {
        let h = HostileText.json
        let path = target.split(separator: "?").first.map(String.init) ?? target
        let user = #"{"id":1001,"idstr":"1001\#(h)","screen_name":"evil\#(h)","name":"Name\#(h)","location":"Loc\#(h)","description":"Bio\#(h)","verified":true,"verified_reason":"Why\#(h)","followers_count":1,"friends_count":2,"statuses_count":3,"status":{"id":9,"text":"Latest\#(h)"}}"#
        func status(_ id: Int) -> String {
            #"{"id":\#(id),"idstr":"\#(id)","mid":"\#(id)\#(h)","created_at":"Tue May 31 17:46:55 +0800 2011","text":"Text\#(h)\nline two","source":"<a href=\"x\">App\#(h)</a>","pic_urls":[{"thumbnail_pic":"http://p/\#(h).jpg"}],"user":\#(user),"reposts_count":1,"comments_count":2,"attitudes_count":3,"retweeted_status":{"id":77,"idstr":"77","text":"Reposted\#(h)","user":\#(user)}}"#
        }
        switch path {
        case "/2/statuses/public_timeline.json":
            let page = lock.withLock { () -> Int in
                timelinePages += 1
                return timelinePages
            }
            if page > Self.repeatedPages { return (200, "application/json", #"{"statuses":[],"total_number":3}"#) }
            return (200, "application/json", #"{"statuses":[\#(status(1)),\#(status(2)),\#(status(3))],"total_number":3}"#)
        case "/2/statuses/show.json":
            return (200, "application/json", status(1))
        case "/2/comments/show.json":
            return (200, "application/json", #"{"comments":[{"id":5,"idstr":"5","created_at":"Tue May 31 17:46:55 +0800 2011","text":"Comment\#(h)","user":\#(user)}],"total_number":1}"#)
        case "/2/users/show.json" where target.contains("apierror"):
            return (403, "application/json", #"{"error":"Denied\#(h)","error_code":10023,"request":"/2/users/show.json\#(h)"}"#)
        case "/2/users/show.json" where target.contains("htmlerror"):
            return (502, "text/html", "<html><head><title>Bad\(HostileText.payload)</title></head><body>Gateway\(HostileText.payload)</body></html>")
        case "/2/users/show.json":
            return (200, "application/json", user)
        case "/2/raw/hugeheader", "/2/raw/manyheaders":
            return (200, "text/plain", "headers too large to read")
        case "/2/raw/notjson":
            return (200, "text/plain", "Plain\(HostileText.payload)\nsecond line")
        default:
            return (404, "text/html", "<html><body>Missing\(HostileText.payload)</body></html>")
        }
    }
}

private extension Array where Element == UInt8 {
    func contains(subsequence: [UInt8]) -> Bool {
        guard count >= subsequence.count else { return false }
        return (0...(count - subsequence.count)).contains { Array(self[$0..<($0 + subsequence.count)]) == subsequence }
    }
}
