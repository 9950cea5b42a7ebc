import WshRequest

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
        replayed: Bool = false, route: String? = nil
    ) {
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
