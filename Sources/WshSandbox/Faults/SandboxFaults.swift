import WshText

/// The faults the sandbox injects into `/2/` responses. All are off by default.
///
/// Set them at start (`SandboxConfiguration.faults`, or `wsh-sandbox` flags),
/// in process (`SandboxServer.setFaults(_:)`) or over HTTP
/// (`POST /admin/faults` with this struct's JSON, see docs/SANDBOX.md).
/// Setting faults restarts the rate-limit count and the failure sequence.
public struct SandboxFaults: Sendable, Hashable, Codable {
    /// Delay before every response, in milliseconds.
    public var latencyMilliseconds: Int
    /// The HTTP status sent instead of the answer, at `failRate`.
    /// 500 and other 5xx carry error 10001, 502/503/504 an HTML proxy page,
    /// 400 10008, 401 21327, 403 10023, 404 20101.
    public var failStatus: Int
    /// How often `failStatus` is sent, 0.0 (never) to 1.0 (always); the
    /// sequence of failures is drawn from the seed, so a run repeats.
    public var failRate: Double
    /// After this many `/2/` requests every further one gets 403 with error 10023.
    /// `null` when off in the JSON, as `path`, so `GET /admin/faults` shows every key.
    @JSONNull public var rateLimit: Int?
    /// With `rateLimit`: the refusals carry `Retry-After` with this many seconds (a server saying when to try again).
    @JSONNull public var retryAfter: Int?
    /// Send headers for the full body, half the body, then close the connection.
    public var truncate: Bool
    /// Send HTTP 200 with a body that is not valid JSON (the first half of the real one).
    public var malformed: Bool
    /// Close the connection without any response.
    public var drop: Bool
    /// Serve the request (a post is made, a status deleted), then close the
    /// connection without sending the answer: a write whose answer is lost.
    public var dropAfter: Bool
    /// When set, faults apply only to this endpoint (`statuses/update.json`,
    /// with or without `/2/`); other requests are served normally and are
    /// not counted for `rateLimit` or drawn for `failRate`.
    @JSONNull public var path: String?
    /// Write the body `dripChunkBytes` at a time with this many milliseconds between writes.
    public var dripMilliseconds: Int
    /// The size of each dripped write.
    public var dripChunkBytes: Int

    /// No faults.
    public init(
        latencyMilliseconds: Int = 0, failStatus: Int = 500, failRate: Double = 0,
        rateLimit: Int? = nil, truncate: Bool = false, malformed: Bool = false, drop: Bool = false,
        dripMilliseconds: Int = 0, dripChunkBytes: Int = 64, dropAfter: Bool = false, path: String? = nil,
        retryAfter: Int? = nil
    ) {
        self.latencyMilliseconds = latencyMilliseconds
        self.failStatus = failStatus
        self.failRate = failRate
        self.rateLimit = rateLimit
        self.truncate = truncate
        self.malformed = malformed
        self.drop = drop
        self.dripMilliseconds = dripMilliseconds
        self.dripChunkBytes = dripChunkBytes
        self.dropAfter = dropAfter
        self.path = path
        self.retryAfter = retryAfter
    }

    /// True when the faults apply to a request for `requestPath` (e.g. `/2/statuses/update.json`).
    public func applies(to requestPath: String) -> Bool {
        guard let path else { return true }
        return Self.endpointName(requestPath) == Self.endpointName(path)
    }

    /// `statuses/update.json` from `/2/statuses/update.json`, `/statuses/update.json` or itself.
    private static func endpointName(_ path: String) -> Substring {
        var name = Substring(path)
        if name.hasPrefix("/") { name = name.dropFirst() }
        if name.hasPrefix("2/") { name = name.dropFirst(2) }
        return name
    }

    /// True when any fault is on.
    public var isActive: Bool {
        latencyMilliseconds > 0 || failRate > 0 || rateLimit != nil || truncate || malformed || drop
            || dripMilliseconds > 0 || dropAfter
    }

    enum CodingKeys: String, CodingKey {
        case latencyMilliseconds = "latency_ms"
        case failStatus = "fail_status"
        case failRate = "fail_rate"
        case rateLimit = "rate_limit"
        case truncate, malformed, drop
        case dripMilliseconds = "drip_ms"
        case dripChunkBytes = "drip_bytes"
        case dropAfter = "drop_after"
        case path
        case retryAfter = "retry_after"
    }

    /// Decodes the admin JSON; a missing key means that fault is off.
    public init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            latencyMilliseconds: try c.decodeIfPresent(Int.self, forKey: .latencyMilliseconds) ?? 0,
            failStatus: try c.decodeIfPresent(Int.self, forKey: .failStatus) ?? 500,
            failRate: try c.decodeIfPresent(Double.self, forKey: .failRate) ?? 0,
            rateLimit: try c.decodeIfPresent(Int.self, forKey: .rateLimit),
            truncate: try c.decodeIfPresent(Bool.self, forKey: .truncate) ?? false,
            malformed: try c.decodeIfPresent(Bool.self, forKey: .malformed) ?? false,
            drop: try c.decodeIfPresent(Bool.self, forKey: .drop) ?? false,
            dripMilliseconds: try c.decodeIfPresent(Int.self, forKey: .dripMilliseconds) ?? 0,
            dripChunkBytes: try c.decodeIfPresent(Int.self, forKey: .dripChunkBytes) ?? 64,
            dropAfter: try c.decodeIfPresent(Bool.self, forKey: .dropAfter) ?? false,
            path: try c.decodeIfPresent(String.self, forKey: .path),
            retryAfter: try c.decodeIfPresent(Int.self, forKey: .retryAfter))
        if let problem = validationProblem {
            throw DecodingError.dataCorrupted(.init(codingPath: [], debugDescription: problem))
        }
    }

    /// Why these faults cannot be used, or nil when they can.
    public var validationProblem: String? {
        if latencyMilliseconds < 0 { return "latency_ms must be 0 or more" }
        if !(100...599).contains(failStatus) { return "fail_status must be an HTTP status (100...599)" }
        if !(0...1).contains(failRate) { return "fail_rate must be between 0.0 and 1.0" }
        if let rateLimit, rateLimit < 0 { return "rate_limit must be 0 or more" }
        if let retryAfter, retryAfter < 0 { return "retry_after must be 0 or more" }
        if dripMilliseconds < 0 { return "drip_ms must be 0 or more" }
        if dripChunkBytes < 1 { return "drip_bytes must be 1 or more" }
        if let path, path.isEmpty || path == "/" || path == "/2/" { return "path must name an endpoint, e.g. statuses/update.json" }
        return nil
    }
}
