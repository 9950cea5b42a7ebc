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

/// Tells when the page's side of an event stream closes. The server lets a
/// peer half-close its connection, so NIO says so with an event instead of
/// closing the channel; without this, a stream would find out only when a
/// write to it fails, a heartbeat or two (15 to 30 s) later, holding its seat.
/// (A client that half-closes and still reads is taken to have gone:
/// browsers and `curl -N` never do.)
final class PageGone: ChannelInboundHandler, RemovableChannelHandler, Sendable {
    typealias InboundIn = ByteBuffer
    private let gone: @Sendable () -> Void

    init(_ gone: @escaping @Sendable () -> Void) { self.gone = gone }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        if case .inputClosed? = event as? ChannelEvent { gone() }
        context.fireUserInboundEventTriggered(event)
    }

    func channelInactive(context: ChannelHandlerContext) {
        gone()
        context.fireChannelInactive()
    }
}

/// The routes of `ClassroomServer`; see there for who may do what.
struct ClassroomRoutes: Sendable {
    let configuration: ClassroomServer.Configuration
    let log: ClassroomLog
    let streams: ClassroomStreams
    let seats: ClassroomSeats
    let joinKey: String
    let controlKey: String
    /// The nonce the page's own script and style carry (the Content-Security-Policy allows only those).
    let nonce: String
    let control: @Sendable (ClassroomServer.Control) -> Void
    let replayRefusal: ClassroomServer.ReplayRefusal

    func router() -> Router<ClassroomRequestContext> {
        let router = Router(context: ClassroomRequestContext.self)
        router.get("/") { _, context in
            guard context.isThisMachine else { return forbidden("this page is the teacher's: a student opens the join link") }
            return page(.teacher(controlKey: controlKey, presenting: configuration.presenting, replay: replayRefusal(nil)),
                        base: "/")
        }
        router.get("/events") { request, context in
            guard context.isThisMachine else { return forbidden("the teacher's events are for this machine") }
            return events(request, context: context)
        }
        router.get("/older") { request, context in
            guard context.isThisMachine else { return forbidden("the teacher's events are for this machine") }
            return older(request)
        }
        router.get("/source") { request, context in
            guard context.isThisMachine else { return forbidden("the teacher's page is for this machine") }
            return source(request)
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
            return events(request, context: context)
        }
        router.get("/join/:key/older") { request, context in
            guard joined(context) else { return forbidden("wrong or missing join key") }
            return older(request)
        }
        router.get("/join/:key/source") { request, context in
            guard joined(context) else { return forbidden("wrong or missing join key") }
            return source(request)
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
    /// newest window for a fresh page), then each event as it comes; or a
    /// refusal when the page's address (or the room) has no seat left.
    ///
    /// What a stream costs is bounded whatever its page does (`ClassroomStreams`
    /// writes it): it holds no events of its own (its reader is a place in the
    /// log), it has one write in flight at a time, and a page that falls
    /// `behindBytes` behind is let go.
    private func events(_ request: Request, context: ClassroomRequestContext) -> Response {
        let seat: ClassroomSeats.Seat
        switch seats.take(from: context.channel.remoteAddress?.ipAddress ?? "?", thisMachine: context.isThisMachine) {
        case .success(let taken): seat = taken
        case .failure(let refusal): return refused(refusal)
        }
        let lastID = request.headers[HTTPField.Name("Last-Event-ID")!].flatMap { Int($0) }
            ?? request.uri.queryParameters.get("after").flatMap { Int($0) }
        let channel = context.channel
        let grace = configuration.limits.dropGrace
        let reader = log.listen(after: lastID, behindLimit: configuration.limits.behindBytes) {
            // Let go while a write to it waits: a page that still reads gets
            // the farewell and the end; one that does not is closed.
            channel.eventLoop.scheduleTask(in: TimeAmount(grace)) { channel.close(promise: nil) }
        }
        let oldest = log.oldestID
        var headers = Self.securityHeaders(nonce: nonce)
        headers[.contentType] = "text/event-stream; charset=utf-8"
        headers[.cacheControl] = "no-store"
        return Response(status: .ok, headers: headers, body: ResponseBody { writer in
            // A page that goes away (a closed tab, a reload) gives its place and its seat back now.
            let gone = PageGone { reader.cancel() }
            defer {
                reader.cancel()
                seat.release()
                channel.pipeline.removeHandler(gone, promise: nil)
            }
            // One turn of the event loop, after the response's head (NIO's writer queued it there):
            // the page's end watched, the kernel's buffer for a page that does not read kept small
            // (Linux grows it to 4 MB), and the stream handed to the fan-out, whose first write
            // says to reconnect after one second and where the window starts (what a page can
            // still ask for). Every write after the head goes straight to the channel, on the loop.
            let window = ByteBuffer(string: "retry: 1000\nevent: window\ndata: {\"oldest\":\(oldest ?? 0)}\n\n")
            let why = await streams.serve(reader, on: channel, first: window) {
                try? channel.pipeline.syncOperations.addHandler(gone, position: .first)
                try? channel.syncOptions?.setOption(ChannelOptions.socketOption(.so_sndbuf), value: Self.socketBuffer)
            }
            if why == .behind {
                try await writer.write(ByteBuffer(string: ClassroomStreams.farewell))
            }
            try await writer.finish(nil)
        })
    }

    /// The socket send buffer of an event stream: room for a few writes.
    static let socketBuffer: SocketOptionValue = 128 << 10

    private func refused(_ refusal: ClassroomSeats.Refusal) -> Response {
        Response(status: .init(code: refusal.status), headers: [.contentType: "text/plain; charset=utf-8", .cacheControl: "no-store"],
                 body: .init(byteBuffer: ByteBuffer(string: seats.explain(refusal) + "\n")))
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

    /// `source?file=Sources/…`: one of wsh's own Swift files, compressed by
    /// gzip, in base64 (`ClassroomSources`); 404 for any other path.
    private func source(_ request: Request) -> Response {
        guard let file = request.uri.queryParameters.get("file"), let text = ClassroomSources.compressed(String(file)) else {
            return Response(status: .notFound, headers: [.contentType: "text/plain; charset=utf-8"],
                            body: .init(byteBuffer: ByteBuffer(string: "no such source file\n")))
        }
        var headers = Self.securityHeaders(nonce: nonce)
        headers[.contentType] = "text/plain; charset=us-ascii"
        // The same binary serves the same file: a page may keep it for the session.
        headers[.cacheControl] = "private, max-age=3600"
        return Response(status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(string: text)))
    }

    /// Next, Back or `replay N` from the teacher's page: 204 for Next and
    /// Back (409 unless a lesson is presented), 202 for a replay handed to the
    /// shell (409 with the reason when this session cannot replay to that
    /// step), 400 for any other body, 403 for anyone but the teacher's page.
    private func controlRequest(_ request: Request, context: ClassroomRequestContext) async throws -> Response {
        guard context.isThisMachine else { return forbidden("only the teacher's page on this machine steps the lesson") }
        guard let key = request.uri.queryParameters.get("key"), ConstantTime.equal(String(key), controlKey) else {
            return forbidden("wrong or missing control key")
        }
        // A page of another site cannot step the lesson, even on this machine.
        if let origin = request.headers[.origin], !isOwnOrigin(origin) {
            return forbidden("a page of \(origin) cannot step the lesson")
        }
        let body = try await request.body.collect(upTo: 64)
        guard let action = ClassroomServer.Control(body: String(buffer: body)) else {
            return plain(.badRequest, "next, back or replay N (N a step from 1)")
        }
        switch action {
        case .next, .back:
            guard configuration.presenting else { return plain(.conflict, "no lesson is presented: nothing to step") }
            control(action)
            return Response(status: .noContent)
        case .replay(let step):
            if let refusal = replayRefusal(step) { return plain(.conflict, refusal) }
            control(action)
            return plain(.accepted, "replaying steps 1–\(step) in a fresh session")
        }
    }

    /// A one-line answer in plain text.
    private func plain(_ status: HTTPResponse.Status, _ text: String) -> Response {
        Response(status: status, headers: [.contentType: "text/plain; charset=utf-8"],
                 body: .init(byteBuffer: ByteBuffer(string: text + "\n")))
    }

    private func isOwnOrigin(_ origin: String) -> Bool {
        guard let url = URL(string: origin), url.scheme == "http", let host = url.host else { return false }
        let local = host == "127.0.0.1" || host == "localhost" || host == "[::1]" || host == "::1" || host == configuration.host
        return local
    }

    private func forbidden(_ why: String) -> Response {
        plain(.forbidden, "403 Forbidden: \(why)")
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
