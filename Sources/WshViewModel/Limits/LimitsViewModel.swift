import WshModel
import WshText

/// What `limits` shows: the token's rate-limit status, as display lines and
/// as the `limits --json` document.
public struct LimitsViewModel: Sendable, Hashable {
    /// One labelled line, e.g. `user hits left` / `148 of 150`.
    public struct Line: Sendable, Hashable {
        public let label: String
        public let value: String
    }

    /// The lines, in the order they show.
    public let lines: [Line]
    /// `limits --json`.
    public let document: RateLimitDocument

    /// The screen for `status`.
    public init(_ status: RateLimitStatus) {
        document = RateLimitDocument(status)
        func hits(_ remaining: Int?, _ limit: Int?) -> String {
            let left = remaining.map(String.init) ?? "?"
            return limit.map { "\(left) of \($0)" } ?? left
        }
        let unit = document.limitTimeUnit.map { " per \($0.lowercased().hasSuffix("s") ? String($0.lowercased().dropLast()) : $0.lowercased())" } ?? ""
        var reset = document.resetTimeInSeconds.map { "in \(Self.duration($0))" } ?? "?"
        if let time = document.resetTime { reset += " (at \(time))" }
        lines = [
            Line(label: "user hits left", value: hits(document.remainingUserHits, document.userLimit) + unit),
            Line(label: "IP hits left", value: hits(document.remainingIPHits, document.ipLimit) + unit),
            Line(label: "resets", value: reset),
        ]
    }

    /// `45 s`, `12 min`, `1 h 5 min`.
    static func duration(_ seconds: Int) -> String {
        if seconds < 60 { return "\(seconds) s" }
        let minutes = (seconds + 59) / 60
        if minutes < 60 { return "\(minutes) min" }
        return minutes % 60 == 0 ? "\(minutes / 60) h" : "\(minutes / 60) h \(minutes % 60) min"
    }
}

/// `limits --json`: `{remaining_user_hits, remaining_ip_hits, user_limit,
/// ip_limit, reset_time, reset_time_in_seconds, limit_time_unit}`. Every key
/// is always present (null when the server did not say), so the names are stable.
/// Its fields read as the status's (`document.remainingUserHits`).
@dynamicMemberLookup
public struct RateLimitDocument: Encodable, Sendable, Hashable {
    /// The status, its texts from the server sanitized.
    let status: RateLimitStatus

    init(_ status: RateLimitStatus) {
        var clean = status
        clean.resetTime = status.resetTime.map { TerminalText.sanitize($0) }
        clean.limitTimeUnit = status.limitTimeUnit.map { TerminalText.sanitize($0) }
        self.status = clean
    }

    /// One field of the status, e.g. `remainingUserHits`.
    public subscript<Value>(dynamicMember field: KeyPath<RateLimitStatus, Value>) -> Value {
        status[keyPath: field]
    }

    public func encode(to encoder: Encoder) throws {
        try encoder.encodeFields([
            "remaining_user_hits": status.remainingUserHits, "remaining_ip_hits": status.remainingIPHits,
            "user_limit": status.userLimit, "ip_limit": status.ipLimit, "reset_time": status.resetTime,
            "reset_time_in_seconds": status.resetTimeInSeconds, "limit_time_unit": status.limitTimeUnit,
        ], absent: .null)
    }
}
