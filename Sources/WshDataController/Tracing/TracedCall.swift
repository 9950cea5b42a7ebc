import FoundationEssentials
import WshModel
import WshRequest
import WshText

/// Carries out one operation of the dialect, and reports it to the trace
/// sink with the request it really sent: the one path every model-related
/// DataController takes to the network.
struct TracedCall: Sendable {
    let client: APIClient
    let trace: TraceSink?
    /// The API the operations are carried out on.
    let dialect: any Dialect

    /// Runs `operation` (one typed operation of the dialect); `call` names it
    /// for the trace, and `count` says how many items the result holds.
    /// (The operation's closure is untyped only because closures do not infer
    /// typed throws yet: dialects throw `RequestError` alone.) The event names
    /// the caller's place in the source (`file`, `function`, `line`).
    func run<T: Sendable>(
        _ call: String, count: (T) -> Int,
        file: String = #filePath, function: String = #function, line: Int = #line,
        _ operation: (any Dialect, DialectExchange) async throws -> T
    ) async throws(RequestError) -> T {
        let clock = ContinuousClock()
        let start = clock.now
        // The dialect's operations read error bodies by its own rules, whatever client they were given.
        let exchange = DialectExchange(client: client.reading(dialect.errors))
        do {
            let value = try await operation(dialect, exchange)
            report(call, exchange, since: start, clock, outcome: .success(count(value)), file: file, function: function, line: line)
            return value
        } catch {
            let failure = error as? RequestError ?? .configuration("\(error)")
            report(call, exchange, since: start, clock, outcome: .failure(failure), file: file, function: function, line: line)
            throw await withRateLimitReset(failure, asking: !call.hasPrefix(Self.rateLimitCall))
        }
    }

    /// Tells the trace how `call` went: the requests `exchange` sent and the
    /// items it brought (`outcome`), or its failure. Apart from `run`, which is
    /// specialized for each result type, so that this is compiled once.
    private func report(
        _ call: String, _ exchange: DialectExchange, since start: ContinuousClock.Instant, _ clock: ContinuousClock,
        outcome: Result<Int, RequestError>, file: String, function: String, line: Int
    ) {
        guard let trace else { return }
        let earlier = exchange.sent.dropLast().map { sent in
            TraceEvent.Request(method: sent.method.rawValue, url: Redaction.redact(sent.url), status: sent.response?.status,
                               bytes: sent.response?.metrics.bytesReceived ?? 0, milliseconds: sent.milliseconds,
                               route: sent.response?.sandboxRoute)
        }
        var event: TraceEvent
        switch outcome {
        case .success(let itemCount):
            // The wire the dialect really used: the same operation reads differently on each API.
            let response = exchange.response ?? HTTPResponse(status: 0)
            event = TraceEvent(
                call: call, method: exchange.method?.rawValue ?? "", url: Redaction.redact(exchange.url), status: response.status,
                bytes: response.metrics.bytesReceived, milliseconds: Self.milliseconds(since: start, clock),
                newConnections: response.metrics.newConnections, itemCount: itemCount, replayed: response.metrics.replayed,
                route: response.sandboxRoute)
        case .failure(let error):
            event = TraceEvent(
                call: call, method: exchange.method?.rawValue ?? "", url: Redaction.redact(exchange.url), status: error.httpStatus,
                milliseconds: Self.milliseconds(since: start, clock), source: .failed(error.description))
        }
        event.earlier = earlier
        event.lastRequestMilliseconds = exchange.sent.last?.milliseconds
        event.place = SourcePlace(filePath: file, function: function, line: line)
        event.answer = exchange.response.map(TraceEvent.glimpse)
        trace(event)
    }

    /// A write that takes `id` away on the server (dismiss a notification,
    /// cancel a scheduled status), traced as `call`: done when the server
    /// answers, or says it is already gone; a lost answer is resolved by
    /// reading `id` back (`check`): gone is `.recovered`, still there
    /// `.notApplied`, a read that fails otherwise `.unknown` naming `what`.
    func removal(
        _ id: String, what: String, call: String, check: String,
        file: String = #filePath, function: String = #function, line: Int = #line,
        _ remove: (any Dialect, DialectExchange) async throws -> Void,
        read: (any Dialect, DialectExchange) async throws -> Void
    ) async throws(WriteError) -> WriteOutcome<String> {
        let lost: RequestError
        do {
            try await run(call, count: { _ in 1 }, file: file, function: function, line: line, remove)
            return WriteOutcome(id)
        } catch {
            if error.isNotThere { return WriteOutcome(id, resolution: .alreadyDone(reason: error.description)) }
            guard error.leavesWriteOutcomeUnknown else { throw .rejected(error) }
            lost = error
        }
        do {
            try await run(check, count: { _ in 1 }, file: file, function: function, line: line, read)
        } catch {
            guard error.isNotThere else {
                throw .unknown(lostAnswer: lost, check: "reading \(what) \(id) failed: \(error.description)")
            }
            return WriteOutcome(id, resolution: .recovered(lostAnswer: lost.description))
        }
        throw .notApplied(lostAnswer: lost)
    }

    /// After a write's answer was lost (`lost`): reads the server (`read`,
    /// traced as `call`) and returns what it read when `landed` says the write
    /// took effect; throws `.notApplied` when it says not, and `.unknown` when
    /// the read fails (naming `what` it read) or `landed` is nil (`silence`
    /// says what the server left unsaid).
    func resolveLostAnswer<Read: Sendable>(
        _ lost: RequestError, reading what: String, call: String, silence: String,
        file: String = #filePath, function: String = #function, line: Int = #line,
        _ read: (any Dialect, DialectExchange) async throws -> Read, landed: (Read) -> Bool?
    ) async throws(WriteError) -> Read {
        let answer: Read
        do {
            answer = try await run(call, count: { _ in 1 }, file: file, function: function, line: line, read)
        } catch {
            throw .unknown(lostAnswer: lost, check: "reading \(what) failed: \(error.description)")
        }
        guard let landed = landed(answer) else { throw .unknown(lostAnswer: lost, check: silence) }
        guard landed else { throw .notApplied(lostAnswer: lost) }
        return answer
    }

    /// A rate-limit error whose headers did not say when the limit resets,
    /// with the reset the API's rate-limit status gives (one small request,
    /// which Weibo does not count against the limit); unchanged when that
    /// read fails too.
    private func withRateLimitReset(_ error: RequestError, asking: Bool) async -> RequestError {
        guard asking, case .api(let failure) = error, failure.isRateLimit, failure.rateLimitReset == nil else { return error }
        guard let status = try? await run(Self.rateLimitCall + ": when does it reset?", count: { _ in 1 }, {
            try await $0.rateLimits($1)
        }), let seconds = status.resetTimeInSeconds
        else { return error }
        return error.withRateLimitReset(RateLimitReset(seconds: seconds, serverTime: status.resetTime))
    }

    /// How the trace names the rate-limit read.
    static let rateLimitCall = "rate limit"

    /// Reports a call the cache answered.
    func cacheHit(call: String, itemCount: Int = 1, file: String = #filePath, function: String = #function, line: Int = #line) {
        trace?(TraceEvent(call: call, itemCount: itemCount, source: .cache,
                          place: SourcePlace(filePath: file, function: function, line: line)))
    }

    /// Reports a write to the local archive that failed (`archive on`), in one line a user reads.
    func archiveFailed(call: String, message: String, file: String = #filePath, function: String = #function, line: Int = #line) {
        trace?(TraceEvent(call: call, itemCount: 0, source: .failed(message),
                          place: SourcePlace(filePath: file, function: function, line: line)))
    }

    /// Reports a call the local archive answered.
    func archiveHit(call: String, itemCount: Int, file: String = #filePath, function: String = #function, line: Int = #line) {
        trace?(TraceEvent(call: call, itemCount: itemCount, source: .archive,
                          place: SourcePlace(filePath: file, function: function, line: line)))
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

/// One DataController call as `trace on` shows it: what was asked, which
/// HTTP request answered it (or that the cache did), and what came back.
public struct TraceEvent: Sendable, Hashable {
    /// Where the answer came from.
    public enum Source: Sendable, Hashable {
        /// An HTTP request was sent and answered.
        case network
        /// A DataController's cache answered; no request was sent.
        case cache
        /// The local archive answered (offline, or the server could not be reached); no request was sent.
        case archive
        /// The call failed; the text is the error's one-line description.
        case failed(String)
    }

    /// The DataController call, e.g. `StatusDataController.publicTimeline(count: 20, page: 1)`.
    public var call: String
    /// `GET` or `POST`; nil when the cache answered.
    public var method: String?
    /// The request URL with any secret masked; nil when the cache answered.
    public var url: String?
    /// The HTTP status, when a response arrived.
    public var status: Int?
    /// Body bytes received.
    public var bytes: Int
    /// Wall-clock time of the whole call, request and decoding included.
    public var milliseconds: Double
    /// Connections the request opened: 0 means a kept-alive one was reused.
    public var newConnections: Int
    /// True when a recording answered (`--replay`), not a server.
    public var replayed: Bool
    /// How many Model values the call produced (statuses, comments, users).
    public var itemCount: Int
    /// Network, cache, or failure.
    public var source: Source
    /// The sandbox route that answered the last request (`MastodonAPI GET
    /// /api/v1/timelines/public`), when the server is the sandbox.
    public var route: String?
    /// The requests the call sent before its last one (which the fields
    /// above describe), in order: a lookup before a write, the write before
    /// the read of its result.
    public var earlier: [Request] = []
    /// The time the response lines show: the whole call's when it sent one
    /// request, the last request's own when it sent several (each earlier
    /// one shows its own).
    public var responseMilliseconds: Double {
        earlier.isEmpty ? milliseconds : lastRequestMilliseconds ?? milliseconds
    }
    /// The last request's own time, when the call sent several.
    public var lastRequestMilliseconds: Double?
    /// Where in wsh's source the call was made (the DataController function
    /// that called the traced funnel), for the classroom's code panel.
    public var place: SourcePlace?
    /// The last request's answer as sent, for the classroom's Request lane:
    /// its status and headers, and only the first `glimpseBytes` of its body.
    /// Unmasked: whoever shows it masks it (`HTTPResponse.glimpse`).
    public var answer: HTTPResponse?

    /// How much of an answer's body an event keeps.
    public static let glimpseBytes = 4096

    /// `response` with its body cut to `glimpseBytes`: the events a trace keeps stay small.
    static func glimpse(_ response: HTTPResponse) -> HTTPResponse {
        HTTPResponse(status: response.status, headers: response.headers, body: Data(response.body.prefix(glimpseBytes)),
                     metrics: response.metrics)
    }

    /// One earlier request of a call and its answer.
    public struct Request: Sendable, Hashable {
        public var method: String
        /// With any secret masked.
        public var url: String
        /// nil when no answer came.
        public var status: Int?
        public var bytes: Int
        public var milliseconds: Double
        /// The sandbox route that answered, when the server is the sandbox.
        public var route: String? = nil
    }

    /// How the answer arrived: `kept-alive connection`, `new connection`, or `replayed from the recording`.
    public var connectionText: String {
        TransferMetrics(newConnections: newConnections, replayed: replayed).connectionText
    }

    public init(
        call: String, method: String? = nil, url: String? = nil, status: Int? = nil, bytes: Int = 0,
        milliseconds: Double = 0, newConnections: Int = 0, itemCount: Int = 0, source: Source = .network,
        replayed: Bool = false, route: String? = nil, place: SourcePlace? = nil
    ) {
        self.place = place
        self.replayed = replayed
        self.route = route
        self.call = call
        self.method = method
        self.url = url
        self.status = status
        self.bytes = bytes
        self.milliseconds = milliseconds
        self.newConnections = newConnections
        self.itemCount = itemCount
        self.source = source
    }
}

/// Receives a `TraceEvent` for every DataController call. Inject one to
/// trace; leave it nil and nothing is measured or reported.
public typealias TraceSink = @Sendable (TraceEvent) -> Void
