import Foundation
import Synchronization
import WshRequest

/// An `HTTPClient` that answers from a closure and records every request.
///
/// ```swift
/// let fake = FakeHTTPClient { request in .json(#"{"statuses": []}"#) }
/// ```
public final class FakeHTTPClient: HTTPClient, Sendable {
    public typealias Handler = @Sendable (HTTPRequest) throws(RequestError) -> HTTPResponse

    private let handler: Mutex<Handler>
    private let recorded = Mutex<[HTTPRequest]>([])

    public init(_ handler: @escaping Handler) {
        self.handler = Mutex(handler)
    }

    /// Every request sent so far, oldest first.
    public var requests: [HTTPRequest] { recorded.withLock { $0 } }

    /// Replaces how the fake answers from now on (e.g. to make the next call fail).
    public func answer(with handler: @escaping Handler) {
        self.handler.withLock { $0 = handler }
    }

    public func send(_ request: HTTPRequest) async throws(RequestError) -> HTTPResponse {
        recorded.withLock { $0.append(request) }
        let handler = self.handler.withLock { $0 }
        return try handler(request)
    }
}

extension HTTPResponse {
    /// A JSON response with `body` as its text.
    public static func json(_ body: String, status: Int = 200) -> HTTPResponse {
        HTTPResponse(status: status, headers: ["content-type": "application/json"], body: Data(body.utf8),
                     metrics: TransferMetrics(totalSeconds: 0.001, bytesReceived: body.utf8.count))
    }
}

extension HTTPRequest {
    /// The query parameters of the URL, percent-decoded.
    public var queryItems: [String: String] {
        guard let query = url.split(separator: "?", maxSplits: 1).dropFirst().first else { return [:] }
        var items: [String: String] = [:]
        for pair in query.split(separator: "&") {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let key = String(parts[0]).removingPercentEncoding ?? String(parts[0])
            let value = parts.count > 1 ? (String(parts[1]).removingPercentEncoding ?? String(parts[1])) : ""
            items[key] = value
        }
        return items
    }

    /// The URL's path, without scheme, host and query.
    public var path: String {
        let withoutQuery = url.split(separator: "?", maxSplits: 1).first.map(String.init) ?? url
        guard let schemeEnd = withoutQuery.range(of: "://") else { return withoutQuery }
        let rest = withoutQuery[schemeEnd.upperBound...]
        return rest.firstIndex(of: "/").map { String(rest[$0...]) } ?? "/"
    }
}
