/// How much of its rate limit the token has left, as Weibo's rate-limit call
/// (Weibo/RateLimitStatus+Weibo.swift) or Mastodon's headers say; every field optional.
public struct RateLimitStatus: Hashable, Sendable {
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
}
