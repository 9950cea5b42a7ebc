import Foundation

/// Counts each token's API calls per hour, as Weibo limits them, and refuses
/// calls past `limit` (403, error 10023) when a limit is set.
///
/// The window is the clock hour (Weibo's `limit_time_unit` is `HOURS`); a new
/// hour starts every count afresh. This is apart from the `rate_limit` fault,
/// which counts every request to the server whatever the token.
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

    let limit: Int?
    let clock: SandboxClock
    private let state = Locked(State())

    init(limit: Int?, clock: SandboxClock) {
        self.limit = limit
        self.clock = clock
    }

    /// Counts a call by `token` to `endpoint` (e.g. `statuses/update`); false
    /// when it is past the limit and must be refused.
    func admit(token: String, endpoint: String) -> Bool {
        let window = Self.window(of: clock.now)
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
        let window = Self.window(of: now)
        let reset = Date(timeIntervalSince1970: TimeInterval((window + 1) * 3600))
        return state.withLock { state in
            let current = state.window == window
            return Snapshot(
                userLimit: limit ?? Self.nominalUserLimit,
                userCalls: current ? state.callsByToken[token, default: 0] : 0,
                ipCalls: current ? state.ipCalls : 0,
                callsByEndpoint: current ? state.callsByTokenEndpoint[token, default: [:]] : [:],
                resetTime: reset, secondsToReset: max(0, Int(reset.timeIntervalSince(now).rounded(.up))))
        }
    }

    func reset() {
        state.withLock { $0 = State() }
    }

    private static func window(of date: Date) -> Int {
        Int((date.timeIntervalSince1970 / 3600).rounded(.down))
    }
}
