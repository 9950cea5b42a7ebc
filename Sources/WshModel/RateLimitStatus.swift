/// How much of its rate limit the token has left, as
/// Weibo's rate-limit call gives it.
///
/// Every field is optional and read leniently: the real service sends the
/// counts as numbers or strings, and `reset_time` as local text
/// (`2011-06-03 18:00:00`).
public struct RateLimitStatus: Hashable, Sendable, Codable {
    /// Requests the token's user may still send in this period.
    public var remainingUserHits: Int?
    /// Requests the client's IP address may still send in this period.
    public var remainingIPHits: Int?
    /// The user's limit per period.
    public var userLimit: Int?
    /// The IP address's limit per period.
    public var ipLimit: Int?
    /// When the period ends, as the server writes it.
    public var resetTime: String?
    /// Seconds until the period ends.
    public var resetTimeInSeconds: Int?
    /// The length of a period, e.g. `HOURS`.
    public var limitTimeUnit: String?

    public init(
        remainingUserHits: Int? = nil, remainingIPHits: Int? = nil, userLimit: Int? = nil, ipLimit: Int? = nil,
        resetTime: String? = nil, resetTimeInSeconds: Int? = nil, limitTimeUnit: String? = nil
    ) {
        self.remainingUserHits = remainingUserHits
        self.remainingIPHits = remainingIPHits
        self.userLimit = userLimit
        self.ipLimit = ipLimit
        self.resetTime = resetTime
        self.resetTimeInSeconds = resetTimeInSeconds
        self.limitTimeUnit = limitTimeUnit
    }

    enum CodingKeys: String, CodingKey {
        case remainingUserHits = "remaining_user_hits"
        case remainingIPHits = "remaining_ip_hits"
        case userLimit = "user_limit"
        case ipLimit = "ip_limit"
        case resetTime = "reset_time"
        case resetTimeInSeconds = "reset_time_in_seconds"
        case limitTimeUnit = "limit_time_unit"
    }

    public init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            remainingUserHits: c.lenient(Int.self, .remainingUserHits), remainingIPHits: c.lenient(Int.self, .remainingIPHits),
            userLimit: c.lenient(Int.self, .userLimit), ipLimit: c.lenient(Int.self, .ipLimit),
            resetTime: c.lenient(String.self, .resetTime), resetTimeInSeconds: c.lenient(Int.self, .resetTimeInSeconds),
            limitTimeUnit: c.lenient(String.self, .limitTimeUnit))
    }

    public func encode(to encoder: Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encodeIfPresent(remainingUserHits, .remainingUserHits)
        try c.encodeIfPresent(remainingIPHits, .remainingIPHits)
        try c.encodeIfPresent(userLimit, .userLimit)
        try c.encodeIfPresent(ipLimit, .ipLimit)
        try c.encodeIfPresent(resetTime, .resetTime)
        try c.encodeIfPresent(resetTimeInSeconds, .resetTimeInSeconds)
        try c.encodeIfPresent(limitTimeUnit, .limitTimeUnit)
    }
}
