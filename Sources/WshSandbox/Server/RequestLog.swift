import FoundationEssentials
import WshText

/// One line per request on stderr: method, path and query with the token
/// redacted, status, body bytes and milliseconds.
struct RequestLog: Sendable {
    /// `GET /2/statuses/public_timeline.json?count=5&access_token=*** 200 3911 B 0.4 ms`.
    static func line(method: String, path: String, query: String?, status: String, bytes: Int,
                     milliseconds: Double) -> String {
        let shown = query.map { "?" + redacted($0) } ?? ""
        return "\(method) \(path)\(shown) \(status) \(bytes) B \(Decimals.fixed(milliseconds, 1)) ms"
    }

    /// The query with the value of every `access_token` replaced by `***`.
    static func redacted(_ query: String) -> String {
        query.split(separator: "&", omittingEmptySubsequences: false).map { pair in
            pair.hasPrefix("access_token=") ? "access_token=***" : String(pair)
        }.joined(separator: "&")
    }

    func write(_ line: String) {
        StandardStreams.writeError(line + "\n")
    }
}
