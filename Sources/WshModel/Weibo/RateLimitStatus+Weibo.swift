/// Weibo's rate-limit body, read leniently: counts come as numbers or strings,
/// `reset_time` as Weibo's local text (`2011-06-03 18:00:00`).
extension RateLimitStatus: Decodable {
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
}
