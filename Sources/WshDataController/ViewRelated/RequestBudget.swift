import WshModel
import WshRequest

/// What is left of the account's rate limit, for loops of requests
/// (`watch`, `fetch --all`) that must not use it up.
public struct RequestBudget: Sendable, Hashable {
    /// Hits left before the reset; nil when the API did not say.
    public var remaining: Int?
    /// Seconds to the reset; nil when the API did not say.
    public var secondsToReset: Int?

    /// A budget nothing is known of: no request ever waits.
    public static let unknown = RequestBudget(remaining: nil, secondsToReset: nil)

    public init(remaining: Int?, secondsToReset: Int?) {
        self.remaining = remaining
        self.secondsToReset = secondsToReset
    }

    /// The steady spacing of a loop without end (`watch`): the time to the
    /// reset spread over the hits left, so the loop never runs the budget dry.
    public var steadySpacing: Duration {
        guard let seconds = secondsToReset, seconds > 0, let remaining else { return .zero }
        guard remaining > 0 else { return .seconds(seconds) }
        return .milliseconds(seconds * 1000 / remaining)
    }

    /// The wait before the next request of a bounded walk (`fetch --all`),
    /// counting that request: none while more than `reserve` hits remain,
    /// then the steady spacing of what is left, so the walk slows down
    /// instead of running into the limit.
    public mutating func pauseBeforeNextRequest(reserve: Int = 10) -> Duration {
        guard let left = remaining else { return .zero }
        defer { remaining = left - 1 }
        return left > reserve ? .zero : steadySpacing
    }
}

extension TimelineDataController {
    /// The account's budget from the API's rate limits; `.unknown` when
    /// the API does not answer it (the caller's own pace then holds).
    public func requestBudget() async -> RequestBudget {
        guard let status = try? await users.rateLimitStatus() else { return .unknown }
        return RequestBudget(remaining: status.remainingUserHits, secondsToReset: status.resetTimeInSeconds)
    }
}
