import FoundationEssentials
import WshText
import Hummingbird
import HTTPTypes
import NIOCore
import NIOHTTPTypes
import WshHAR

/// Serves every request: `/2/` through the fault injector and `WeiboAPI`,
/// `/api/` through the fault injector and `MastodonAPI`, `/oauth2/` through
/// `OAuthAPI`, `/oauth/` through `MastodonOAuth`, nodeinfo through `MastodonAPI`, `/admin/` through
/// `AdminAPI` (for another machine, only with the admin token: `AdminAccess`),
/// anything else as a Weibo 404. Replaying a recording (`--replay`), every
/// request but `/admin/` is answered from it, through the fault injector.
///
/// A hand-written responder rather than a router: there are a few fixed
/// paths, and answering with a prebuilt `ByteBuffer` keeps the sandbox far
/// from being a client's bottleneck.
struct SandboxResponder: HTTPResponder {
    typealias Context = SandboxRequestContext

    /// The routes of `/admin/`, which hold the state every route reads.
    let admin: AdminAPI
    let adminAccess: AdminAccess
    let log: RequestLog?
    /// The recording served instead of the generated data, if any.
    let replay: HARReplayer?

    // The API routes are views of that state, as cheap to make as to keep.
    private var api: WeiboAPI { WeiboAPI(store: admin.store, tokens: admin.tokens, rateLimiter: admin.rateLimiter) }
    private var oauth: OAuthAPI { OAuthAPI(tokens: admin.tokens, store: admin.store) }
    private var mastodon: MastodonAPI { MastodonAPI(store: admin.store, tokens: admin.tokens, state: admin.mastodon) }
    private var mastodonOAuth: MastodonOAuth {
        MastodonOAuth(tokens: admin.tokens, store: admin.store, state: admin.mastodon)
    }

    /// An answer before faults shape how it is sent.
    private struct Reply {
        var status: HTTPResponse.Status
        var contentType: String
        var body: ByteBuffer
        var headers: HTTPFields = [:]
        /// Close the connection instead of answering: a recorded request that got no response.
        var dropsConnection = false
        /// A body written as it comes (the streaming API), instead of `body`.
        var stream: (@Sendable (inout any ResponseBodyWriter) async throws -> Void)?

        init(_ body: ByteBuffer) {
            status = .ok
            contentType = SandboxResponder.jsonType
            self.body = body
        }

        init(_ error: SandboxError, path: String) {
            status = error.status
            contentType = error.contentType
            body = ByteBuffer(bytes: error.body(request: path))
        }

        /// A recorded answer as it was served: its status, headers and body;
        /// its `Link` header's URLs name `origin` (this server) instead of the
        /// recorded one, as a server's links name itself.
        init(_ exchange: HARRecording.Exchange, origin: String) {
            dropsConnection = exchange.failure != nil
            status = exchange.failure == nil ? HTTPResponse.Status(code: exchange.status) : .badGateway
            contentType = exchange.headers["content-type"] ?? SandboxResponder.jsonType
            body = ByteBuffer(bytes: exchange.body)
            for (name, value) in exchange.headers.sorted(by: { $0.key < $1.key })
            where !Self.notReplayed.contains(name) {
                let value = name.lowercased() == "link" ? Self.relinked(value, to: origin) : value
                if let field = HTTPField.Name(name) { headers.append(HTTPField(name: field, value: value)) }
            }
        }

        /// `header` with each `<scheme://authority/…>` link re-rooted at `origin`.
        static func relinked(_ header: String, to origin: String) -> String {
            var result = ""
            var rest = Substring(header)
            while let open = rest.firstIndex(of: "<"), let close = rest[open...].firstIndex(of: ">") {
                result += rest[...open]
                var target = rest[rest.index(after: open)..<close]
                if let scheme = target.firstRange(of: "://") {
                    let path = target[scheme.upperBound...].firstIndex(of: "/") ?? target.endIndex
                    target = Substring(origin) + target[path...]
                }
                result += target
                rest = rest[close...]
            }
            return result + rest
        }

        /// Headers a replayed answer does not repeat: the type is set on its
        /// own, and these describe the recorded connection, not this one.
        private static let notReplayed: Set<String> = [
            "content-type", "content-length", "content-encoding", "transfer-encoding", "connection", "keep-alive",
        ]

        init(_ reply: MastodonAPI.Reply) {
            status = reply.status
            contentType = reply.contentType ?? SandboxResponder.mastodonJSONType
            body = reply.body
            headers = reply.headers
            stream = reply.stream
        }

        /// A fault's error as the Mastodon side answers it (a proxy page stays a page).
        init(mastodon fault: SandboxError, path: String, flavour: SandboxFlavour) {
            if fault.isProxyPage {
                self.init(fault, path: path)
            } else {
                self.init(MastodonError.injected(fault).reply(in: flavour))
            }
        }

        var response: Response {
            var fields: HTTPFields = [.contentType: contentType]
            fields.append(contentsOf: headers)
            if let stream { return Response(status: status, headers: fields, body: ResponseBody(stream)) }
            return Response(status: status, headers: fields, body: .init(byteBuffer: body))
        }
    }

    fileprivate static let jsonType = "application/json;charset=UTF-8"
    fileprivate static let mastodonJSONType = "application/json; charset=utf-8"

    func respond(to request: Request, context: Context) async throws -> Response {
        let started = ContinuousClock.now
        let path = request.uri.path
        let sent: (response: Response, note: String, bytes: Int)
        if let replay, !path.hasPrefix("/admin/") {
            let weibo = path.hasPrefix("/2/")
            sent = await serveAPI(request, context: context,
                                  failure: { weibo ? Reply($0, path: path) : Reply(mastodon: $0, path: path, flavour: mastodon.state.flavour) }) {
                Self.replayed(request, from: replay, origin: mastodon.state.origin)
            }
        } else if path.hasPrefix("/2/") {
            sent = await serveAPI(request, context: context, failure: { Reply($0, path: path) }) {
                await serveWeibo(request)
            }
        } else if path.hasPrefix("/api/") {
            sent = await serveAPI(request, context: context, failure: { Reply(mastodon: $0, path: path, flavour: mastodon.state.flavour) }) {
                await serveMastodon(request)
            }
        } else if path.hasPrefix("/oauth/") || path == MastodonOAuth.metadataPath {
            let reply = await mastodonOAuth.respond(to: request)
            sent = (reply.response, String(reply.status.code), reply.body.readableBytes)
        } else if MastodonAPI.isNodeInfo(path) {
            // Discovery, as the OAuth metadata: no token, no faults, not counted.
            let reply = Reply(mastodon.nodeInfo(path: path))
            sent = (reply.response, String(reply.status.code), reply.body.readableBytes)
        } else if path.hasPrefix("/oauth2/") {
            let reply: OAuthAPI.Reply
            do {
                reply = try await oauth.respond(to: request)
            } catch {
                let failure = Reply(error as? SandboxError ?? .systemError, path: path)
                reply = OAuthAPI.Reply(status: failure.status, contentType: failure.contentType, body: failure.body)
            }
            sent = (reply.response, String(reply.status.code), reply.body.readableBytes)
        } else if path.hasPrefix("/admin/") {
            let reply = adminAccess.permits(peer: context.channel.remoteAddress?.ipAddress,
                                            authorization: request.headers[.authorization])
                ? await answer(path: path) { try await admin.respond(to: request) }
                : Reply(.adminForbidden, path: path)
            sent = (reply.response, String(reply.status.code), reply.body.readableBytes)
        } else {
            let reply = Reply(.apiNotFound, path: path)
            sent = (reply.response, String(reply.status.code), reply.body.readableBytes)
        }
        // Which face of the sandbox answered, for a trace or the classroom page to show.
        let face = if replay != nil && !path.hasPrefix("/admin/") { "HARReplayer" }
            else if path.hasPrefix("/2/") { "WeiboAPI" } else if path.hasPrefix("/api/") { "MastodonAPI" }
            else if path.hasPrefix("/oauth2/") { "OAuthAPI" } else if path.hasPrefix("/oauth/") { "MastodonOAuth" }
            else if path.hasPrefix("/admin/") { "AdminAPI" } else if path.hasPrefix("/.well-known/") || path.hasPrefix("/nodeinfo") { "MastodonAPI" }
            else { "SandboxResponder" }
        var answered = sent.response
        if let field = HTTPField.Name(SandboxRouteHeader.name) {
            answered.headers[field] = "\(face) \(request.method.rawValue) \(SandboxRouteHeader.pattern(of: path))"
        }
        if let log {
            let elapsed = started.duration(to: .now)
            let ms = Double(elapsed.components.seconds) * 1000 + Double(elapsed.components.attoseconds) / 1e15
            log.write(RequestLog.line(method: request.method.rawValue, path: path, query: request.uri.query,
                                      status: sent.note, bytes: sent.bytes, milliseconds: ms))
        }
        return request.method == .head ? answered.createHeadResponse() : answered
    }

    /// Serves an API request (Weibo's or Mastodon's) through the faults:
    /// `failure` renders an injected error, `serve` the real answer.
    private func serveAPI(_ request: Request, context: Context, failure: (SandboxError) -> Reply,
                          serve: () async -> Reply) async -> (Response, String, Int) {
        admin.stats.recordRequest(fromPort: context.channel.remoteAddress?.port ?? 0)
        let plan = admin.faults.plan(path: request.uri.path)
        if plan.latencyMilliseconds > 0 {
            try? await Task.sleep(for: .milliseconds(plan.latencyMilliseconds))
        }
        if plan.body == .drop {
            // Closing first makes Hummingbird's write of the response fail, so
            // the client sees the connection end with no response at all.
            try? await context.channel.close()
            return (Response(status: .ok), "dropped", 0)
        }
        let reply: Reply
        if let fault = plan.failure {
            reply = failure(fault)
        } else {
            // libcurl sends `Expect: 100-continue` before larger bodies and
            // waits a second for the go-ahead, which Hummingbird never gives.
            if request.headers[.expect]?.lowercased() == "100-continue" {
                try? await context.channel.writeAndFlush(HTTPResponsePart.head(HTTPResponse(status: .continue)))
            }
            reply = await serve()
        }
        if reply.dropsConnection {
            try? await context.channel.close()
            return (Response(status: .ok), "dropped as recorded", 0)
        }
        let note = String(reply.status.code)
        let body = reply.body
        var response = reply.response
        switch plan.body {
        case .dropAfter:
            // The request was served (a post made); the answer never leaves.
            try? await context.channel.close()
            return (Response(status: .ok), note + " dropped after", 0)
        case .truncate:
            // Content-Length promises the whole body; half arrives, then the
            // connection closes, which a client reports as a short read.
            let half = Self.firstHalf(of: body)
            response.body = Self.written(half, declaredLength: body.readableBytes, plan: plan, closing: context.channel)
            return (response, note + " truncated", half.readableBytes)
        case .malformed:
            // A correct HTTP 200 whose JSON stops in the middle.
            let half = Self.firstHalf(of: body)
            response.status = .ok
            response.headers[.contentType] = Self.jsonType
            response.body = Self.written(half, declaredLength: half.readableBytes, plan: plan, closing: nil)
            return (response, "200 malformed", half.readableBytes)
        case .none, .drop:
            if plan.dripMilliseconds > 0 {
                response.body = Self.written(body, declaredLength: body.readableBytes, plan: plan, closing: nil)
                return (response, note + " drip", body.readableBytes)
            }
            return (response, note, body.readableBytes)
        }
    }

    /// The recorded answer to `request`, or a 404 naming what the recording lacks.
    private static func replayed(_ request: Request, from replay: HARReplayer, origin: String) -> Reply {
        let method = request.method == .head ? "GET" : request.method.rawValue
        let url = request.uri.path + (request.uri.query.map { "?" + $0 } ?? "")
        guard let exchange = replay.answer(method: method, url: url) else {
            let message = HARReplayer.missing(method: method, url: url)
            let body = JSONValue(["error": JSONValue(message)]).encoded()
            var reply = Reply(ByteBuffer(bytes: body))
            reply.status = .notFound
            return reply
        }
        return Reply(exchange, origin: origin)
    }

    /// The Weibo API's answer, counted in the statistics.
    private func serveWeibo(_ request: Request) async -> Reply {
        let path = request.uri.path
        return await answer(path: path) {
            let body = try await api.respond(to: request)
            if path == WeiboAPI.Endpoint.update.rawValue { admin.stats.recordPost() }
            if path == WeiboAPI.Endpoint.destroy.rawValue { admin.stats.recordDeletion() }
            if WeiboAPI.Endpoint(rawValue: path)?.isWrite == true { admin.stats.recordWrite() }
            return body
        }
    }

    /// The Mastodon API's answer, counted in the statistics.
    private func serveMastodon(_ request: Request) async -> Reply {
        do {
            let reply = try await mastodon.respond(to: request)
            switch reply.effect {
            case .post: admin.stats.recordPost(); admin.stats.recordWrite()
            case .deletion: admin.stats.recordDeletion(); admin.stats.recordWrite()
            case .write: admin.stats.recordWrite()
            case nil: break
            }
            return Reply(reply)
        } catch let error as MastodonError {
            return Reply(error.reply(in: mastodon.state.flavour))
        } catch {
            return Reply(MastodonError(status: .internalServerError, error: "Internal Server Error").reply(in: mastodon.state.flavour))
        }
    }

    /// Runs a handler, turning what it throws into a Weibo error reply.
    private func answer(path: String, _ handler: () async throws -> ByteBuffer) async -> Reply {
        do {
            return Reply(try await handler())
        } catch let error as SandboxError {
            return Reply(error, path: path)
        } catch {
            return Reply(.systemError, path: path)
        }
    }

    /// About half the body, cut between UTF-8 characters so that what is
    /// broken is the JSON, not the text encoding.
    private static func firstHalf(of body: ByteBuffer) -> ByteBuffer {
        var length = body.readableBytes / 2
        while length > 0, let byte = body.getInteger(at: body.readerIndex + length, as: UInt8.self),
              byte & 0xC0 == 0x80 {
            length -= 1
        }
        return body.getSlice(at: body.readerIndex, length: length)!
    }

    /// A body written `dripChunkBytes` at a time with pauses (at once when
    /// not dripping), after which the connection is closed if asked.
    private static func written(_ body: ByteBuffer, declaredLength: Int, plan: FaultInjector.Plan,
                                closing channel: (any Channel)?) -> ResponseBody {
        ResponseBody(contentLength: declaredLength) { writer in
            if plan.dripMilliseconds > 0 {
                var rest = body
                while rest.readableBytes > 0,
                      let chunk = rest.readSlice(length: min(plan.dripChunkBytes, rest.readableBytes)) {
                    try await writer.write(chunk)
                    if rest.readableBytes > 0 { try await Task.sleep(for: .milliseconds(plan.dripMilliseconds)) }
                }
            } else {
                try await writer.write(body)
            }
            if let channel { try? await channel.close() }
        }
    }
}
