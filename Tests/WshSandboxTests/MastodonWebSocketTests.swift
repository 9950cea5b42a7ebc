import Foundation
import Synchronization
import Testing
import WshRequest
import WshSandbox
import WshTestSupport

/// The sandbox's WebSocket streaming API (`--streaming`), read by wsh's own WebSocket client.
@Suite("The sandbox's WebSocket streaming API", .serialized)
struct SandboxWebSocketTests {
    @Test("a status posted after the socket opened arrives as Mastodon sends it: stream, event, the Status as a string")
    func update() async throws {
        let server = try await SandboxServer.start(SandboxConfiguration(streamingTransports: .webSocket))
        let client = APIClient(configuration: APIConfiguration(baseURL: server.mastodonBaseURL, token: .value(Secret(server.token))),
                                 http: CurlHTTPClient(secrets: [server.token]))
        let poster = Mutex<Task<Void, Never>?>(nil)
        let received = Mutex<String?>(nil)
        let response = try await client.webSocket(url: server.mastodonBaseURL + "api/v1/streaming?stream=public") { message in
            switch message {
            case .opened:
                poster.withLock { $0 = keepPosting(to: server, as: server.accounts[1]) }
                return true
            case .text(let text):
                received.withLock { $0 = text }
                return false
            }
        }
        poster.withLock { $0?.cancel() }
        #expect(response.status == 101)
        let text = try #require(received.withLock { $0 })
        let object = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
        #expect(object["stream"] as? [String] == ["public"])
        #expect(object["event"] as? String == "update")
        let payload = try #require(object["payload"] as? String)
        let status = try #require(try JSONSerialization.jsonObject(with: Data(payload.utf8)) as? [String: Any])
        #expect((status["content"] as? String)?.contains("streamed") == true, "\(payload)")
        await server.stop()
    }

    @Test("the WebSocket alone: the event-stream paths are 404; a bad token or an unknown stream is refused (400)")
    func webSocketOnly() async throws {
        let server = try await SandboxServer.start(SandboxConfiguration(streamingTransports: .webSocket))
        let http = CurlHTTPClient()
        let sse = try await http.send(HTTPRequest(url: server.mastodonBaseURL + "api/v1/streaming/public"))
        #expect(sse.status == 404)
        for query in ["stream=public&access_token=wrong", "stream=nonsense", "stream=user"] {
            let answer = try await http.webSocket(HTTPRequest(url: server.mastodonBaseURL + "api/v1/streaming?" + query),
                                                  maxMessageBytes: 1000, send: []) { _ in false }
            #expect(answer.status == 400, "\(query)")
        }
        await server.stop()
    }

    @Test("events alone: an upgrade is 404, never an event stream")
    func eventsOnly() async throws {
        let server = try await SandboxServer.start(SandboxConfiguration(streamingTransports: .serverSentEvents))
        let answer = try await CurlHTTPClient().webSocket(HTTPRequest(url: server.mastodonBaseURL + "api/v1/streaming?stream=public"),
                                                          maxMessageBytes: 1000, send: []) { _ in false }
        #expect(answer.status == 404)
        await server.stop()
    }
}
