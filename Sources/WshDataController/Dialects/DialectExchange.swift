import FoundationEssentials
import WshModel
import WshRequest

/// What one operation of a dialect sends, and what the trace shows of it:
/// the API client to send with, and the last request really sent (its
/// method, URL and answer; an operation may send two, e.g. a lookup first).
public final class DialectExchange: @unchecked Sendable {
    /// The client requests go out through (its base, token and auth scheme).
    public let client: WeiboClient
    /// The last request sent, for the trace.
    public private(set) var method: HTTPMethod?
    public private(set) var url = ""
    public private(set) var response: HTTPResponse?

    public init(client: WeiboClient) {
        self.client = client
    }

    /// Sends `endpoint` and checks the answer (an API error body, a non-2xx status).
    public func send(_ endpoint: Endpoint) async throws(RequestError) -> HTTPResponse {
        method = endpoint.method
        url = endpoint.url(base: client.configuration.baseURL)
        response = nil
        let answer = try await client.send(endpoint)
        response = answer
        return answer
    }

    /// Opens the event stream at `url` (see `WeiboClient.stream`), recorded for the trace like a request.
    public func stream(url: String, chunks: @escaping @Sendable (Data) -> Bool) async throws(RequestError) -> HTTPResponse {
        method = .get
        self.url = url
        response = nil
        let answer = try await client.stream(url: url, chunks: chunks)
        response = answer
        return answer
    }

    /// Sends `endpoint` and decodes its body as `T` through the Model's decoding.
    public func fetch<T: Decodable & Sendable>(_ type: T.Type, _ endpoint: Endpoint) async throws(RequestError) -> T {
        let answer = try await send(endpoint)
        do throws(ModelDecodingError) {
            return try ModelDecoding.decode(T.self, from: answer.body)
        } catch {
            throw RequestError.decoding(what: error.what, where: error.where, detail: error.detail)
        }
    }
}

/// How much of a timeline one request asks for, and from where: `count`
/// statuses, page `page` (a timeline paged by number), or older than `maxID`
/// / newer than `sinceID` (a cursor timeline; the cursor as the API gave it).
public struct PageQuery: Sendable, Hashable {
    public var count: Int
    public var page: Int?
    public var maxID: String?
    public var sinceID: String?
}
