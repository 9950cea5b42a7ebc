import FoundationEssentials
import WshText
import HTTPTypes
import Hummingbird
import HummingbirdCore
import HummingbirdWebSocket
import Logging
import NIOCore
import NIOHTTP1
import ServiceLifecycle

/// The sandbox's HTTP/1.1 server as one `Service`: Hummingbird's server
/// with `SandboxResponder` answering every request, and, when `webSocket` is
/// set, the WebSocket upgrades it accepts (the streaming API's).
///
/// What `Hummingbird.Application` does when it runs, less what the sandbox
/// does not need before its first request can be served: no inner service
/// group (whose start-up describes each service by reflection) and no
/// date-cache service (whose first date goes through `Calendar` and the
/// time-zone database). Each response still carries its `Date` header
/// (RFC 9110's IMF-fixdate, as Hummingbird writes it), written by
/// `CivilTime.httpDateText` from arithmetic alone.
struct SandboxHTTPService: Service {
    let responder: SandboxResponder
    let configuration: ServerConfiguration
    let eventLoopGroup: any EventLoopGroup
    let logger: Logger
    let onServerRunning: @Sendable (any Channel) async -> Void
    /// Decides each upgrade request (`MastodonAPI.webSocketUpgrade`; nil: the
    /// server takes none, and an upgrade request is an ordinary one for `responder`).
    var webSocket: MastodonAPI?

    /// The WebSocket's limits: frames up to 64 KiB (a longer message goes in
    /// several), and a ping every 10 s that a client must answer.
    static let webSocketConfiguration = WebSocketServerConfiguration(
        maxFrameSize: 1 << 16, autoPing: .enabled(timePeriod: .seconds(10)))

    func run() async throws {
        let responder = self.responder
        let logger = self.logger
        var builder = HTTPServerBuilder.http1()
        if let webSocket {
            builder = .http1WebSocketUpgrade(configuration: .init(http1: .init(), ws: Self.webSocketConfiguration)) { head, _, _ in
                webSocket.webSocketUpgrade(head)
            }
        }
        let server = try builder.buildServer(
            configuration: configuration, eventLoopGroup: eventLoopGroup, logger: logger
        ) { (request, responseWriter: consuming ResponseWriter, channel) in
            let context = SandboxRequestContext(source: .init(channel: channel, logger: logger))
            var response: Response
            do {
                response = try await responder.respond(to: request, context: context)
            } catch let error as HTTPParserError {
                throw error
            } catch {
                response = Response(status: .internalServerError, body: .init())
            }
            response.headers[.date] = CivilTime.httpDateText(secondsSince1970: Int(Date().timeIntervalSince1970.rounded(.down)))
            do {
                try await responseWriter.write(response: response.head, body: response.body)
            } catch is HTTPParserError {
                // Not the parser error itself, which would make the channel answer a second time.
                throw ParseErrorWhileWritingResponse()
            }
        } onServerRunning: { channel in
            await onServerRunning(channel)
        }
        try await server.run()
    }

    private struct ParseErrorWhileWritingResponse: Error {}
}
