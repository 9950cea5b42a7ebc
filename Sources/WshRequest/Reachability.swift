import FoundationEssentials
import WshText

/// Whether an API base answers, and how fast: the demo's reachability check.
public struct Reachability: Sendable, Hashable, CustomStringConvertible {
    /// True when any HTTP response came back, whatever its status.
    public var isReachable: Bool
    /// The status of the answer, when there was one.
    public var status: Int?
    /// Seconds the round trip took.
    public var seconds: Double
    /// Why it is not reachable.
    public var failure: RequestError?

    /// Sends one GET to `baseURL` through `client`.
    public static func check(_ baseURL: String, using client: any HTTPClient) async -> Reachability {
        let start = ContinuousClock.now
        do {
            let response = try await client.send(HTTPRequest(url: baseURL))
            return Reachability(isReachable: true, status: response.status, seconds: elapsed(since: start), failure: nil)
        } catch {
            return Reachability(isReachable: false, status: nil, seconds: elapsed(since: start), failure: error)
        }
    }

    /// What was measured: that the server answered (any status counts, the
    /// base URL itself is not an endpoint) and how fast, or why no answer came.
    public var description: String {
        let ms = Decimals.fixed(seconds * 1000, 1) + " ms"
        if isReachable { return "the server answered in \(ms) (HTTP \(status ?? 0) for GET of the API base)" }
        return "no answer after \(ms): \(failure.map { "\($0)" } ?? "nothing came back")"
    }

    static func elapsed(since start: ContinuousClock.Instant) -> Double {
        let (s, atto) = (ContinuousClock.now - start).components
        return Double(s) + Double(atto) / 1e18
    }
}
