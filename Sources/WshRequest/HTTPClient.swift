import FoundationEssentials
import WshText

/// The HTTP method of a request: Weibo needs GET and POST, Mastodon DELETE too.
public enum HTTPMethod: String, Sendable, Hashable {
    case get = "GET"
    case post = "POST"
    case delete = "DELETE"
    case put = "PUT"
    case patch = "PATCH"

    /// True for the methods whose parameters travel in a body (POST, PUT, PATCH), not in the query.
    public var sendsBody: Bool { self == .post || self == .put || self == .patch }
}

/// One HTTP request, ready to send.
public struct HTTPRequest: Sendable, Hashable {
    public var method: HTTPMethod
    /// The full URL, query included.
    public var url: String
    /// Header fields in the order they are sent.
    public var headers: [HTTPHeader]
    /// The body of a POST, nil for GET.
    public var body: Data?
    /// A `multipart/form-data` body in place of `body`: libcurl builds it,
    /// streaming files from disk (other clients use `MultipartPart.encoded`).
    public var multipart: [MultipartPart]?

    public init(method: HTTPMethod = .get, url: String, headers: [HTTPHeader] = [], body: Data? = nil,
                multipart: [MultipartPart]? = nil) {
        self.method = method
        self.url = url
        self.headers = headers
        self.body = body
        self.multipart = multipart
    }
}

/// One header field.
public struct HTTPHeader: Sendable, Hashable {
    public var name: String
    public var value: String
    public init(_ name: String, _ value: String) {
        self.name = name
        self.value = value
    }
}

/// What came back: status, headers, body, and how the transfer went.
public struct HTTPResponse: Sendable, Hashable {
    public var status: Int
    /// Header fields by lower-cased name; a repeated field keeps its last value.
    public var headers: [String: String]
    public var body: Data
    public var metrics: TransferMetrics

    public init(status: Int, headers: [String: String] = [:], body: Data = Data(), metrics: TransferMetrics = .init()) {
        self.status = status
        self.headers = headers
        self.body = body
        self.metrics = metrics
    }

    /// The sandbox route that answered (its `x-wsh-sandbox-route` header), sanitized; nil from other servers.
    public var sandboxRoute: String? {
        headers[SandboxRouteHeader.name].map { TerminalText.sanitize($0) }
    }
}

/// How one transfer went: what `trace on` shows and what benchmarks count.
public struct TransferMetrics: Sendable, Hashable {
    /// Seconds from start to the last byte.
    public var totalSeconds: Double
    /// Seconds spent connecting; 0 when a kept-alive connection was reused.
    public var connectSeconds: Double
    /// New connections this transfer opened: 0 means keep-alive reuse.
    public var newConnections: Int
    /// Body bytes received (after content decoding).
    public var bytesReceived: Int
    /// True when the answer came from a recording (`--replay`), not from a server.
    public var replayed: Bool

    public init(totalSeconds: Double = 0, connectSeconds: Double = 0, newConnections: Int = 0, bytesReceived: Int = 0,
                replayed: Bool = false) {
        self.totalSeconds = totalSeconds
        self.connectSeconds = connectSeconds
        self.newConnections = newConnections
        self.bytesReceived = bytesReceived
        self.replayed = replayed
    }

    /// How the answer arrived, as the trace says it.
    public var connectionText: String {
        replayed ? "replayed from the recording" : newConnections == 0 ? "kept-alive connection" : "new connection"
    }
}

/// Sends HTTP requests. The Request layer's one seam: tests swap in a fake.
///
/// A transport failure or cancellation throws; any HTTP status, 4xx and 5xx
/// included, is a response. Interpreting statuses is `APIClient`'s job.
public protocol HTTPClient: Sendable {
    /// Sends `request` and waits for the whole response.
    func send(_ request: HTTPRequest) async throws(RequestError) -> HTTPResponse
}

/// An `HTTPClient` whose request in flight can be stopped from another
/// thread (Ctrl-C): what a session's connection holds.
public protocol CancellableHTTPClient: HTTPClient {
    /// Stops the request in flight, if any; a no-op otherwise.
    func cancelCurrentRequest()
}
