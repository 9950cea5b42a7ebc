import Foundation
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

    private static let dayNames = ["Thu", "Fri", "Sat", "Sun", "Mon", "Tue", "Wed"]
    private static let monthNames = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]

    /// An HTTP date (RFC 9110's IMF-fixdate), e.g. `Sun, 06 Nov 1994 08:49:37 GMT`,
    /// as Hummingbird writes it, from arithmetic alone.
    static func httpDate(secondsSince1970 seconds: Int) -> String {
        let days = seconds >= 0 ? seconds / 86_400 : (seconds - 86_399) / 86_400
        let secondOfDay = seconds - days * 86_400
        // Days to a civil date (Howard Hinnant's algorithm; eras of 400 years).
        let shifted = days + 719_468
        let era = (shifted >= 0 ? shifted : shifted - 146_096) / 146_097
        let dayOfEra = shifted - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthIndex = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * monthIndex + 2) / 5 + 1
        let month = monthIndex < 10 ? monthIndex + 3 : monthIndex - 9
        let year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
        let weekday = ((days % 7) + 7) % 7
        func two(_ n: Int) -> String { n < 10 ? "0\(n)" : String(n) }
        return "\(dayNames[weekday]), \(two(day)) \(monthNames[month - 1]) \(year) "
            + "\(two(secondOfDay / 3600)):\(two(secondOfDay / 60 % 60)):\(two(secondOfDay % 60)) GMT"
    }
}
