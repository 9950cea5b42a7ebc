import FoundationEssentials
import WshText

/// When a rate limit resets, as an error tells the user: `the rate limit
/// resets in 12 min (at 18:00:00)`.
public struct RateLimitReset: Sendable, Hashable, CustomStringConvertible {
    /// Seconds from the answer until the reset.
    public var seconds: Int
    /// The reset time as the server wrote it (`reset_time`), if it did.
    public var serverTime: String?

    public init(seconds: Int, serverTime: String? = nil) {
        self.seconds = max(0, seconds)
        self.serverTime = serverTime
    }

    /// Weibo's rate-limit error codes: 10022 IP, 10023 user, 10024 user for one endpoint.
    public static let errorCodes: Set<Int> = [10022, 10023, 10024]

    /// What an error says when nobody told when the limit resets.
    public static let unknownAdvice = "rate limited: try again later (`limits` shows the remaining hits)"

    public var description: String {
        "the rate limit resets in \(Self.duration(seconds))" + (serverTime.map { " (at \($0))" } ?? "")
    }

    /// `45 s`, `12 min`, `1 h 5 min`.
    public static func duration(_ seconds: Int) -> String {
        if seconds < 60 { return "\(seconds) s" }
        let minutes = (seconds + 59) / 60
        if minutes < 60 { return "\(minutes) min" }
        return minutes % 60 == 0 ? "\(minutes / 60) h" : "\(minutes / 60) h \(minutes % 60) min"
    }

    /// The reset a response's headers announce: `Retry-After` (seconds or an
    /// HTTP date), else `X-RateLimit-Reset` (epoch seconds, or seconds from
    /// now when small). `headers` are keyed by lower-cased name.
    public static func fromHeaders(_ headers: [String: String], now: Date = Date()) -> RateLimitReset? {
        if let value = headers["retry-after"]?.trimmingSpaces {
            if let seconds = Int(value) { return RateLimitReset(seconds: seconds) }
            if let date = httpDate(value) { return RateLimitReset(seconds: Int(date.timeIntervalSince(now).rounded(.up))) }
        }
        if let text = headers["x-ratelimit-reset"]?.trimmingSpaces {
            if let value = Double(text) {
                // Epoch seconds are past 10^9; anything smaller is a delay.
                let seconds = value > 1e9 ? value - now.timeIntervalSince1970 : value
                return RateLimitReset(seconds: Int(seconds.rounded(.up)))
            }
            // Mastodon writes an ISO 8601 time: `2026-11-26T03:35:00.000Z`.
            if let date = iso8601(text) {
                return RateLimitReset(seconds: Int(date.timeIntervalSince(now).rounded(.up)), serverTime: text)
            }
        }
        return nil
    }

    private static func iso8601(_ text: String) -> Date? {
        try? Date(text, strategy: .iso8601)
    }

    private static func httpDate(_ text: String) -> Date? {
        CivilTime.httpDate(text)
    }
}

extension RequestError {
    /// True when the API refused because of a rate limit (10022–10024), or
    /// HTTP 429 came without an API body.
    public var isRateLimit: Bool {
        switch self {
        case .api(let failure): failure.isRateLimit
        case .http(let status, _, _): status == 429
        default: false
        }
    }

    /// This error with `reset` attached, when it is a rate-limit API error without one.
    public func withRateLimitReset(_ reset: RateLimitReset) -> RequestError {
        guard case .api(var failure) = self, failure.isRateLimit, failure.rateLimitReset == nil else { return self }
        failure.rateLimitReset = reset
        return .api(failure)
    }
}
