import Foundation
import Synchronization
import Testing
import WshDataController
import WshModel
import WshRequest
import WshTestSupport

/// Where `watch --stream` sends the token: the streaming URL the server's
/// instance names only when it is on the API's own host and no weaker than
/// the API's scheme; else the API's origin.
@Suite("The streaming URL a server names")
struct StreamingURLTests {
    /// Answers `api/v1/instance` with `streaming`, records the stream request, ends the stream at once.
    final class StreamingFake: StreamingHTTPClient, Sendable {
        let streaming: String
        let streamed = Mutex<[String]>([])

        init(streaming: String) { self.streaming = streaming }

        func send(_ request: HTTPRequest) async throws(RequestError) -> HTTPResponse {
            .json(#"{"uri":"m.example","urls":{"streaming_api":"\#(streaming)"}}"#)
        }

        func stream(_ request: HTTPRequest, chunks: @escaping @Sendable (Data) -> Bool) async throws(RequestError) -> HTTPResponse {
            streamed.withLock { $0.append(request.url) }
            return HTTPResponse(status: 200, headers: ["content-type": "text/event-stream"], body: Data())
        }
    }

    @Test("the instance's URL is taken on the same host; another host, or ws:// under https://, falls back to the API's origin",
          arguments: [
              ("wss://m.example", "https://m.example/api/v1/streaming/public"),
              ("wss://m.example:4000", "https://m.example:4000/api/v1/streaming/public"),
              ("wss://evil.example", "https://m.example/api/v1/streaming/public"),
              ("ws://m.example", "https://m.example/api/v1/streaming/public"),
              ("wss://M.EXAMPLE", "https://m.example/api/v1/streaming/public"),
          ])
    func streamingBase(named: String, expected: String) async throws {
        let fake = StreamingFake(streaming: named)
        let client = APIClient(configuration: APIConfiguration(baseURL: "https://m.example/", token: .value(Secret("t0ken"))),
                                 http: fake)
        try await MastodonDialect().streamTimeline(.public, DialectExchange(client: client)) { _ in true }
        let sent = try #require(fake.streamed.withLock { $0 }.first)
        #expect(sent.lowercased() == expected, "\(named) → \(sent)")
    }
}
