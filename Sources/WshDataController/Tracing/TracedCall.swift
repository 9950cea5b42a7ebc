import Foundation
import WshModel
import WshRequest
import WshText

/// Sends one `Endpoint`, decodes its body into a Model value and reports
/// the call to the trace sink: the one path every model-related
/// DataController takes to the network.
struct TracedCall: Sendable {
    let client: WeiboClient
    let trace: TraceSink?
    /// The API the calls are carried out on.
    let dialect: any Dialect

    /// Fetches `endpoint` and decodes `T`; `count` says how many items the
    /// result holds, for the trace.
    func fetch<T: Decodable & Sendable>(
        _ type: T.Type, _ endpoint: Endpoint, call: String, count: (T) -> Int
    ) async throws(RequestError) -> T {
        let clock = ContinuousClock()
        let start = clock.now
        let url = Redaction.redact(endpoint.url(base: client.configuration.baseURL))
        do {
            let answer = try await dialect.perform(T.self, endpoint, on: client)
            let value = answer.value
            // The wire the dialect really used: the same call reads differently on each API.
            trace?(TraceEvent(
                call: call, method: answer.method.rawValue, url: Redaction.redact(answer.url), status: answer.response.status,
                bytes: answer.response.metrics.bytesReceived, milliseconds: Self.milliseconds(since: start, clock),
                newConnections: answer.response.metrics.newConnections, itemCount: count(value)))
            return value
        } catch {
            trace?(TraceEvent(
                call: call, method: endpoint.method.rawValue, url: url, status: error.httpStatus,
                milliseconds: Self.milliseconds(since: start, clock), source: .failed(error.description)))
            throw await withRateLimitReset(error, after: endpoint)
        }
    }

    /// A rate-limit error whose headers did not say when the limit resets,
    /// with the reset `account/rate_limit_status.json` gives (one small
    /// request, which Weibo does not count against the limit); unchanged
    /// when that read fails too.
    private func withRateLimitReset(_ error: RequestError, after endpoint: Endpoint) async -> RequestError {
        guard case .api(let failure) = error, failure.isRateLimit, failure.rateLimitReset == nil,
              endpoint.path != Self.rateLimitStatusPath else { return error }
        guard let status = try? await fetch(
            RateLimitStatus.self, Endpoint(.get, Self.rateLimitStatusPath),
            call: "rate limit: when does it reset?", count: { _ in 1 }),
            let seconds = status.resetTimeInSeconds
        else { return error }
        return error.withRateLimitReset(RateLimitReset(seconds: seconds, serverTime: status.resetTime))
    }

    /// Where the API serves the token's rate-limit status.
    static let rateLimitStatusPath = "account/rate_limit_status.json"

    /// Reports a call the cache answered.
    func cacheHit(call: String, itemCount: Int = 1) {
        trace?(TraceEvent(call: call, itemCount: itemCount, source: .cache))
    }

    /// A body decoder that turns the Model's decoding error into the
    /// Request layer's, so callers handle one error type.
    static func decoder<T: Decodable & Sendable>(for type: T.Type) -> @Sendable (Data) throws(RequestError) -> T {
        { data throws(RequestError) in
            do throws(ModelDecodingError) {
                return try ModelDecoding.decode(T.self, from: data)
            } catch {
                throw RequestError.decoding(what: error.what, where: error.where, detail: error.detail)
            }
        }
    }

    private static func milliseconds(since start: ContinuousClock.Instant, _ clock: ContinuousClock) -> Double {
        let elapsed = (clock.now - start).components
        return Double(elapsed.seconds) * 1000 + Double(elapsed.attoseconds) / 1e15
    }
}

extension RequestError {
    /// The HTTP status this error came with, if a response arrived.
    var httpStatus: Int? {
        switch self {
        case .api(let failure): failure.httpStatus
        case .http(let status, _, _): status
        default: nil
        }
    }
}
