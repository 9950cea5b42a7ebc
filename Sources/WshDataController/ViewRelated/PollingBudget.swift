import WshModel
import WshRequest

extension TimelineDataController {
    /// The shortest spacing between requests that keeps a loop of them
    /// (`watch`, `fetch --all`) inside the account's remaining rate-limit
    /// budget: the time to the reset spread over the hits left. Zero when the
    /// API does not say (or the question fails): the caller's own pace holds.
    public func requestSpacing() async -> Duration {
        guard let status = try? await rateLimitStatus() else { return .zero }
        return Self.spacing(remaining: status.remainingUserHits, secondsToReset: status.resetTimeInSeconds)
    }

    /// `secondsToReset / remaining`; the whole wait when nothing remains.
    static func spacing(remaining: Int?, secondsToReset: Int?) -> Duration {
        guard let seconds = secondsToReset, seconds > 0, let remaining else { return .zero }
        guard remaining > 0 else { return .seconds(seconds) }
        return .milliseconds(seconds * 1000 / remaining)
    }
}
