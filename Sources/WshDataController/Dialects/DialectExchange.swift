import FoundationEssentials
import WshModel
import WshRequest

/// What one operation of a dialect sends, and what the trace shows of it:
/// the API client to send with, and every request really sent, in order (an
/// operation may send several: a lookup, the write, a read of its result).
public final class DialectExchange: @unchecked Sendable {
    /// One request of the operation and its answer.
    public struct Sent: Sendable {
        public var method: HTTPMethod
        public var url: String
        /// nil while in flight, or when it failed.
        public var response: HTTPResponse?
        /// From sending to the answer (or the failure).
        public var milliseconds: Double
    }

    /// The client requests go out through (its base, token and auth scheme).
    public let client: APIClient
    /// Every request sent, oldest first.
    public private(set) var sent: [Sent] = []
    /// The last request sent, for the trace.
    public var method: HTTPMethod? { sent.last?.method }
    public var url: String { sent.last?.url ?? "" }
    public var response: HTTPResponse? { sent.last?.response }

    public init(client: APIClient) {
        self.client = client
    }

    /// Sends `endpoint` and checks the answer (an API error body, a non-2xx status).
    public func send(_ endpoint: Endpoint) async throws(RequestError) -> HTTPResponse {
        try await record(endpoint.method, endpoint.url(base: client.configuration.baseURL)) { () throws(RequestError) in
            try await client.send(endpoint)
        }
    }

    /// Opens the event stream at `url` (see `APIClient.stream`), recorded for the trace like a request.
    public func stream(url: String, chunks: @escaping @Sendable (Data) -> Bool) async throws(RequestError) -> HTTPResponse {
        try await record(.get, url) { () throws(RequestError) in try await client.stream(url: url, chunks: chunks) }
    }

    /// Opens the WebSocket at `url` (see `APIClient.webSocket`), recorded for the trace like a request.
    public func webSocket(url: String, send: [String] = [],
                          messages: @escaping @Sendable (WebSocketMessage) -> Bool) async throws(RequestError) -> HTTPResponse {
        try await record(.get, url) { () throws(RequestError) in try await client.webSocket(url: url, send: send, messages: messages) }
    }

    /// Notes the request, runs it, and keeps its answer and how long it took.
    private func record(_ method: HTTPMethod, _ url: String,
                        _ request: () async throws(RequestError) -> HTTPResponse) async throws(RequestError) -> HTTPResponse {
        let clock = ContinuousClock()
        let start = clock.now
        sent.append(Sent(method: method, url: url, response: nil, milliseconds: 0))
        let index = sent.count - 1
        defer {
            let elapsed = clock.now - start
            sent[index].milliseconds = Double(elapsed.components.seconds) * 1000 + Double(elapsed.components.attoseconds) / 1e15
        }
        let answer = try await request()
        sent[index].response = answer
        return answer
    }

    /// Sends `endpoint` and decodes its body as `T` through the Model's decoding.
    ///
    /// The common answer, a 2xx body the Model's fast path reads whole
    /// without meeting an error field at its top, is read once (see
    /// `APIClient.send(_:readingQuickly:)`); any other is checked first and
    /// then decoded.
    public func fetch<T: Decodable & Sendable>(_ type: T.Type, _ endpoint: Endpoint) async throws(RequestError) -> T {
        var quick: T?
        let answer = try await record(endpoint.method, endpoint.url(base: client.configuration.baseURL)) { () throws(RequestError) in
            let sent = try await client.send(endpoint, readingQuickly: { body in
                ModelDecoding.decodeQuickly(T.self, from: body, declining: client.errors.errorFieldKeys)
            })
            quick = sent.value
            return sent.response
        }
        if let quick { return quick }
        do throws(ModelDecodingError) {
            return try ModelDecoding.decode(T.self, from: answer.body)
        } catch {
            throw RequestError.decoding(what: error.what, where: error.where, detail: error.detail)
        }
    }
}

/// How much of a timeline one request asks for, and from where: `count`
/// statuses, page `page` (a timeline paged by number), or older than `maxID`
/// / newer than `sinceID` (a cursor timeline; the cursor as the API gave it),
/// or the page a server's own link names (`link`: its query as sent, which
/// then says everything: the API sends it to the timeline's path unchanged).
public struct PageQuery: Sendable, Hashable {
    public var count: Int
    public var page: Int?
    public var maxID: String?
    public var sinceID: String?
    public var link: String?
}
