/// Weibo's rate-limit body (`account/rate_limit_status.json`), every field
/// read leniently: the real service sends the counts as numbers or strings,
/// and `reset_time` as its local text (`2011-06-03 18:00:00`).
extension RateLimitStatus: Codable {
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
