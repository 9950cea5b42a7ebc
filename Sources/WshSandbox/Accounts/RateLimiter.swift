import FoundationEssentials

/// Counts each token's API calls per window and refuses calls past `limit`
/// when a limit is set (Weibo answers 403 with error 10023, Mastodon 429).
///
/// Each API has its own limiter with its server's window: Weibo's is the clock
/// hour (its `limit_time_unit` is `HOURS`, 150 calls for an unaudited app),
/// Mastodon's five minutes (300 calls per token, as Mastodon's
/// `Rack::Attack` throttles `/api/`), aligned on the clock so the reset is the
/// same for every token. A new window starts every count afresh. This is apart
/// from the `rate_limit` fault, which counts every request whatever the token.
final class RateLimiter: Sendable {
    /// What `account/rate_limit_status.json` reports for one token.
    struct Snapshot: Sendable {
        var userLimit: Int
        var userCalls: Int
        var ipCalls: Int
        var callsByEndpoint: [String: Int]
        var resetTime: Date
        var secondsToReset: Int
    }

    private struct State {
        var window = Int.min
        var callsByToken: [String: Int] = [:]
        var callsByTokenEndpoint: [String: [String: Int]] = [:]
        var ipCalls = 0
    }

    /// What Weibo gives an unaudited app per user and hour, reported when no limit is set.
    static let nominalUserLimit = 150
    /// What Weibo gives one IP per hour.
    static let ipLimit = 10_000
    /// Mastodon's window for `/api/` calls by one token: 300 per 5 minutes.
    static let mastodonWindow: TimeInterval = 300
    /// Mastodon's limit per token and window, reported when no limit is set.
    static let mastodonNominalLimit = 300

    let limit: Int?
    let clock: SandboxClock
    /// Seconds in a window; windows start at multiples of it since the epoch.
    let window: TimeInterval
    /// The limit reported when none is set.
    let nominalLimit: Int
    private let state = Locked(State())

    /// Weibo's limiter by default: the clock hour, 150 nominal.
    init(limit: Int?, clock: SandboxClock, window: TimeInterval = 3600, nominalLimit: Int = RateLimiter.nominalUserLimit) {
        self.limit = limit
        self.clock = clock
        self.window = window
        self.nominalLimit = nominalLimit
    }

    /// Mastodon's limiter: 300 calls per token in each 5 minutes (or `limit`).
    static func mastodon(limit: Int?, clock: SandboxClock) -> RateLimiter {
        RateLimiter(limit: limit, clock: clock, window: mastodonWindow, nominalLimit: mastodonNominalLimit)
    }

    /// Counts a call by `token` to `endpoint` (e.g. `statuses/update`); false
    /// when it is past the limit and must be refused.
    func admit(token: String, endpoint: String) -> Bool {
        let window = window(of: clock.now)
        return state.withLock { state in
            if state.window != window { state = State(window: window) }
            state.ipCalls += 1
            let calls = state.callsByToken[token, default: 0] + 1
            state.callsByToken[token] = calls
            state.callsByTokenEndpoint[token, default: [:]][endpoint, default: 0] += 1
            return limit.map { calls <= $0 } ?? true
        }
    }

    func snapshot(token: String) -> Snapshot {
        let now = clock.now
        let window = window(of: now)
        let reset = Date(timeIntervalSince1970: TimeInterval(window + 1) * self.window)
        return state.withLock { state in
            let current = state.window == window
            return Snapshot(
                userLimit: limit ?? nominalLimit,
                userCalls: current ? state.callsByToken[token, default: 0] : 0,
                ipCalls: current ? state.ipCalls : 0,
                callsByEndpoint: current ? state.callsByTokenEndpoint[token, default: [:]] : [:],
                resetTime: reset, secondsToReset: max(0, Int(reset.timeIntervalSince(now).rounded(.up))))
        }
    }

    func reset() {
        state.withLock { $0 = State() }
    }

    private func window(of date: Date) -> Int {
        Int((date.timeIntervalSince1970 / window).rounded(.down))
    }
}
