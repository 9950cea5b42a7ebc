import FoundationEssentials
import HTTPTypes
import Hummingbird
import HummingbirdCore
import NIOCore
import WshText

/// A request's context that knows who is asking: the teacher's page is for
/// this machine only.
struct ClassroomRequestContext: RequestContext {
    var coreContext: CoreRequestContextStorage
    let channel: any Channel

    init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
        channel = source.channel
    }

    /// True when the peer is this machine: a loopback address, or the address the server listens on.
    var isThisMachine: Bool {
        guard let peer = channel.remoteAddress?.ipAddress else { return false }
        if peer.hasPrefix("127.") || peer == "::1" || peer == "::ffff:127.0.0.1" { return true }
        return peer == channel.localAddress?.ipAddress
    }
}

/// The routes of `ClassroomServer`; see there for who may do what.
struct ClassroomRoutes: Sendable {
    let configuration: ClassroomServer.Configuration
    let log: ClassroomLog
    let joinKey: String
    let controlKey: String
    /// The nonce the page's own script and style carry (the Content-Security-Policy allows only those).
    let nonce: String
    let control: @Sendable (ClassroomServer.Control) -> Void

    func router() -> Router<ClassroomRequestContext> {
        let router = Router(context: ClassroomRequestContext.self)
        router.get("/") { _, context in
            guard context.isThisMachine else { return forbidden("this page is the teacher's: a student opens the join link") }
            return page(ClassroomPage.Role.teacher(controlKey: configuration.presenting ? controlKey : nil), base: "/")
        }
        router.get("/events") { request, context in
            guard context.isThisMachine else { return forbidden("the teacher's events are for this machine") }
            return events(request)
        }
        router.get("/older") { request, context in
            guard context.isThisMachine else { return forbidden("the teacher's events are for this machine") }
            return older(request)
        }
        router.post("/control") { request, context in
            try await controlRequest(request, context: context)
        }
        // `/join/KEY` and `/join/KEY/` alike: the page's own requests name their paths in full.
        router.get("/join/:key") { _, context in
            guard joined(context) else { return forbidden("wrong or missing join key") }
            return page(.student, base: "/join/\(joinKey)/")
        }
        router.get("/join/:key/events") { request, context in
            guard joined(context) else { return forbidden("wrong or missing join key") }
            return events(request)
        }
        router.get("/join/:key/older") { request, context in
            guard joined(context) else { return forbidden("wrong or missing join key") }
            return older(request)
        }
        router.get("/join") { _, _ in forbidden("wrong or missing join key") }
        return router
    }

    private func joined(_ context: ClassroomRequestContext) -> Bool {
        guard let key = context.parameters.get("key") else { return false }
        // Compared in full whatever the input, so timing says nothing of the key.
        return ConstantTime.equal(key, joinKey)
    }

    private func page(_ role: ClassroomPage.Role, base: String) -> Response {
        let html = ClassroomPage.live(title: configuration.title, role: role, base: base, nonce: nonce)
        var headers = Self.securityHeaders(nonce: nonce)
        headers[.contentType] = "text/html; charset=utf-8"
        return Response(status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(string: html)))
    }

    /// The event stream: what a page missed (after `Last-Event-ID`, or the
    /// newest window for a fresh page), then each event as it comes.
    private func events(_ request: Request) -> Response {
        let lastID = request.headers[HTTPField.Name("Last-Event-ID")!].flatMap { Int($0) }
            ?? request.uri.queryParameters.get("after").flatMap { Int($0) }
        let (backlog, live) = log.listen(after: lastID)
        let oldest = log.oldestID
        var headers = Self.securityHeaders(nonce: nonce)
        headers[.contentType] = "text/event-stream; charset=utf-8"
        headers[.cacheControl] = "no-store"
        return Response(status: .ok, headers: headers, body: ResponseBody { writer in
            // Reconnect after one second; say where the window starts, so a page knows what it can still ask for.
            try await writer.write(ByteBuffer(string: "retry: 1000\nevent: window\ndata: {\"oldest\":\(oldest ?? 0)}\n\n"))
            var chunk = ""
            for event in backlog {
                chunk += Self.frame(event)
                if chunk.utf8.count > 256 << 10 {
                    try await writer.write(ByteBuffer(string: chunk))
                    chunk = ""
                }
            }
            try await writer.write(ByteBuffer(string: chunk + ": live\n\n"))
            for await delivery in live {
                switch delivery {
                case .event(let event): try await writer.write(ByteBuffer(string: Self.frame(event)))
                case .heartbeat: try await writer.write(ByteBuffer(string: ": beat\n\n"))
                }
            }
            try await writer.finish(nil)
        })
    }

    /// `older?before=ID&count=N`: kept events before `ID`, oldest first, as a JSON array.
    private func older(_ request: Request) -> Response {
        let before = request.uri.queryParameters.get("before").flatMap { Int($0) } ?? Int.max
        let count = min(2000, max(1, request.uri.queryParameters.get("count").flatMap { Int($0) } ?? 500))
        let events = log.events(before: before, count: count)
        let body = "[" + events.map(\.json).joined(separator: ",") + "]"
        var headers = Self.securityHeaders(nonce: nonce)
        headers[.contentType] = "application/json"
        headers[.cacheControl] = "no-store"
        return Response(status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(string: body)))
    }

    /// Next or Back from the teacher's page.
    private func controlRequest(_ request: Request, context: ClassroomRequestContext) async throws -> Response {
        guard configuration.presenting else { return forbidden("no lesson is presented: nothing to step") }
        guard context.isThisMachine else { return forbidden("only the teacher's page on this machine steps the lesson") }
        guard let key = request.uri.queryParameters.get("key"), ConstantTime.equal(String(key), controlKey) else {
            return forbidden("wrong or missing control key")
        }
        // A page of another site cannot step the lesson, even on this machine.
        if let origin = request.headers[.origin], !isOwnOrigin(origin) {
            return forbidden("a page of \(origin) cannot step the lesson")
        }
        let body = try await request.body.collect(upTo: 64)
        guard let action = ClassroomServer.Control(rawValue: String(buffer: body).filter { !$0.isWhitespace })
        else { return Response(status: .badRequest, body: .init(byteBuffer: ByteBuffer(string: "next or back\n"))) }
        control(action)
        return Response(status: .noContent)
    }

    private func isOwnOrigin(_ origin: String) -> Bool {
        guard let url = URL(string: origin), url.scheme == "http", let host = url.host else { return false }
        let local = host == "127.0.0.1" || host == "localhost" || host == "[::1]" || host == "::1" || host == configuration.host
        return local
    }

    private func forbidden(_ why: String) -> Response {
        Response(status: .forbidden, headers: [.contentType: "text/plain; charset=utf-8"],
                 body: .init(byteBuffer: ByteBuffer(string: "403 Forbidden: \(why)\n")))
    }

    /// One Server-Sent Event: its id and its JSON on one `data:` line (JSON text has no raw line breaks).
    static func frame(_ event: ClassroomLog.Event) -> String {
        "id: \(event.id)\ndata: \(event.json)\n\n"
    }

    /// The page runs only its own script and style, loads nothing from elsewhere and is never framed.
    static func securityHeaders(nonce: String) -> HTTPFields {
        var headers = HTTPFields()
        headers[HTTPField.Name("Content-Security-Policy")!] = ClassroomPage.contentSecurityPolicy(nonce: nonce)
        headers[HTTPField.Name("X-Content-Type-Options")!] = "nosniff"
        headers[HTTPField.Name("Referrer-Policy")!] = "no-referrer"
        headers[HTTPField.Name("X-Frame-Options")!] = "DENY"
        return headers
    }
}
