import FoundationEssentials
import WshText
import Hummingbird
import HummingbirdCore
import Logging
import NIOCore
import NIOHTTP1
import ServiceLifecycle

/// The sandbox's HTTP/1.1 server as one `Service`: Hummingbird's server
/// with `SandboxResponder` answering every request.
///
/// What `Hummingbird.Application` does when it runs, less what the sandbox
/// does not need before its first request can be served: no inner service
/// group (whose start-up describes each service by reflection) and no
/// date-cache service (whose first date goes through `Calendar` and the
/// time-zone database). Each response still carries its `Date` header,
/// written by `httpDate(secondsSince1970:)`.
struct SandboxHTTPService: Service {
    let responder: SandboxResponder
    let configuration: ServerConfiguration
    let eventLoopGroup: any EventLoopGroup
    let logger: Logger
    let onServerRunning: @Sendable (any Channel) async -> Void

    func run() async throws {
        let responder = self.responder
        let logger = self.logger
        let server = try HTTPServerBuilder.http1().buildServer(
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
            response.headers[.date] = Self.httpDate(secondsSince1970: Int(Date().timeIntervalSince1970.rounded(.down)))
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

    /// An HTTP date (RFC 9110's IMF-fixdate), e.g. `Sun, 06 Nov 1994 08:49:37 GMT`,
    /// as Hummingbird writes it, from arithmetic alone.
    static func httpDate(secondsSince1970 seconds: Int) -> String {
        CivilTime.httpDateText(secondsSince1970: seconds)
    }
}
