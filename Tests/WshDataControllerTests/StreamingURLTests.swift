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

/// Which transport `watch --stream` takes: server-sent events where the
/// server serves them, the WebSocket where it answers that it has none (a
/// 404, a 400, a page), and neither: one line naming both answers.
@Suite("Streaming over either transport")
struct StreamingTransportTests {
    /// Answers the instance; the event stream with `events`; the WebSocket with `webSocket` (101: one update message).
    final class TransportFake: StreamingHTTPClient, WebSocketHTTPClient, Sendable {
        let events: HTTPResponse
        let webSocketStatus: Int
        let asked = Mutex<[String]>([])

        init(events: HTTPResponse, webSocketStatus: Int) {
            self.events = events
            self.webSocketStatus = webSocketStatus
        }

        func send(_ request: HTTPRequest) async throws(RequestError) -> HTTPResponse {
            .json(#"{"uri":"m.example","urls":{"streaming_api":"wss://m.example"}}"#)
        }

        func stream(_ request: HTTPRequest, chunks: @escaping @Sendable (Data) -> Bool) async throws(RequestError) -> HTTPResponse {
            asked.withLock { $0.append("events " + request.url) }
            guard (200..<300).contains(events.status) else { return events }
            _ = chunks(events.body)
            return HTTPResponse(status: events.status, headers: events.headers)
        }

        func webSocket(_ request: HTTPRequest, maxMessageBytes: Int, send: [String],
                       messages: @escaping @Sendable (WebSocketMessage) -> Bool) async throws(RequestError) -> HTTPResponse {
            asked.withLock { $0.append("socket " + request.url) }
            guard webSocketStatus == 101 else { return .json(#"{"error":"no"}"#, status: webSocketStatus) }
            let status = #"{"id":"7","created_at":"2024-01-01T00:00:00.000Z","content":"<p>over a socket</p>","account":{"id":"1","username":"a","acct":"a","display_name":"A"}}"#
            let message = #"{"stream":["user"],"event":"update","payload":"# + String(decoding: try! JSONEncoder().encode(status), as: UTF8.self) + "}"
            _ = messages(.opened) && messages(.text(#"{"event":"delete","payload":"3"}"#)) && messages(.text(message))
            return HTTPResponse(status: 101)
        }
    }

    private func watch(_ fake: TransportFake) async -> (events: [TimelineStreamEvent], error: RequestError?) {
        let client = APIClient(configuration: APIConfiguration(baseURL: "https://m.example/", token: .value(Secret("t0ken"))),
                                 http: fake)
        let heard = Mutex<[TimelineStreamEvent]>([])
        do {
            try await MastodonDialect().streamTimeline(.home, DialectExchange(client: client)) { event in
                heard.withLock { $0.append(event) }
                return true
            }
            return (heard.withLock { $0 }, nil)
        } catch {
            return (heard.withLock { $0 }, error)
        }
    }

    @Test("server-sent events first: the WebSocket is not asked")
    func eventsFirst() async {
        let fake = TransportFake(events: HTTPResponse(status: 200, body: Data(":)\n".utf8)), webSocketStatus: 101)
        let (events, error) = await watch(fake)
        #expect(error == nil)
        #expect(events == [.opened(.serverSentEvents)])
        #expect(fake.asked.withLock { $0 } == ["events https://m.example/api/v1/streaming/user"])
    }

    @Test("no event stream (404, 400, a page served with 200): the WebSocket on the same origin, and the note says why",
          arguments: [HTTPResponse.json(#"{"error":"Not Found"}"#, status: 404), HTTPResponse(status: 400),
                      HTTPResponse(status: 200, body: Data("<!DOCTYPE html><html>nope</html>".utf8))])
    func webSocketWhereNoEvents(events: HTTPResponse) async throws {
        let fake = TransportFake(events: events, webSocketStatus: 101)
        let (heard, error) = await watch(fake)
        #expect(error == nil, "\(String(describing: error))")
        #expect(heard.first == .opened(.webSocket(why: "the server has no server-sent events")))
        #expect(StreamTransport.webSocket(why: "the server has no server-sent events").description
            == "streaming over a WebSocket (the server has no server-sent events)")
        guard heard.count == 2, case .status(let status) = heard[1] else {
            Issue.record("expected one status after opening: \(heard)")
            return
        }
        #expect(status.text?.contains("over a socket") == true)
        #expect(fake.asked.withLock { $0 }.last == "socket https://m.example/api/v1/streaming?stream=user")
    }

    @Test("neither transport: one line naming both answers, which the ViewModel turns into polling")
    func neither() async {
        let fake = TransportFake(events: HTTPResponse(status: 404), webSocketStatus: 400)
        let (heard, error) = await watch(fake)
        #expect(heard.isEmpty)
        #expect(error?.description == "the server has neither server-sent events (HTTP 404) nor a WebSocket (HTTP 400) at https://m.example/api/v1/streaming",
                "\(String(describing: error))")
    }

    @Test("a refused token on the event stream is not a missing stream: no WebSocket is tried")
    func refusedToken() async {
        let fake = TransportFake(events: .json(#"{"error":"The access token is invalid"}"#, status: 401), webSocketStatus: 101)
        let (_, error) = await watch(fake)
        #expect(error != nil)
        #expect(fake.asked.withLock { $0 }.allSatisfy { $0.hasPrefix("events") })
    }
}
