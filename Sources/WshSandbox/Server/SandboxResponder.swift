import FoundationEssentials
import WshText
import Hummingbird
import HTTPTypes
import NIOCore
import NIOHTTPTypes
import WshHAR

/// Serves every request: `/2/` and `/api/` through the fault injector and
/// the API face their path picks (`SandboxAPIFace`: `WeiboAPI`, `MastodonAPI`), `/media/` (the
/// pictures statuses show) through the fault injector and `SandboxMediaFiles`, `/oauth2/` through
/// `WeiboOAuthAPI`, `/oauth/` through `MastodonOAuth`, nodeinfo through `MastodonAPI`, `/admin/` through
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
    private var oauth: WeiboOAuthAPI { WeiboOAuthAPI(tokens: admin.tokens, store: admin.store) }
    private var mastodon: MastodonAPI { MastodonAPI(store: admin.store, tokens: admin.tokens, state: admin.mastodon) }
    private var mastodonOAuth: MastodonOAuth {
        MastodonOAuth(tokens: admin.tokens, store: admin.store, state: admin.mastodon)
    }

    typealias Reply = SandboxReply

    func respond(to request: Request, context: Context) async throws -> Response {
        let started = ContinuousClock.now
        let path = request.uri.path
        // Which face of the sandbox answered, for a trace or the classroom page to show.
        let face: String
        let sent: (response: Response, note: String, bytes: Int)
        if let replay, !path.hasPrefix("/admin/") {
            let weibo = path.hasPrefix("/2/")
            face = "HARReplayer"
            sent = await serveAPI(request, context: context, failure: { fault in
                weibo ? Self.faulted(fault, face: api, path: path) : Self.faulted(fault, face: mastodon, path: path)
            }) {
                Self.replayed(request, from: replay, origin: mastodon.state.origin)
            }
        } else if path.hasPrefix(SandboxMediaFiles.prefix) {
            face = SandboxMediaFiles.name
            sent = await serveAPI(request, context: context, failure: SandboxMediaFiles.faulted) { SandboxMediaFiles.reply(path: path) }
        } else if path.hasPrefix("/2/") {
            face = WeiboAPI.name
            sent = await serve(api, request, context: context)
        } else if path.hasPrefix("/api/") {
            face = MastodonAPI.name
            sent = await serve(mastodon, request, context: context)
        } else {
            let reply: Reply
            if path.hasPrefix("/oauth/") || path == MastodonOAuth.metadataPath {
                face = path.hasPrefix("/oauth/") ? "MastodonOAuth" : MastodonAPI.name
                reply = await mastodonOAuth.respond(to: request)
            } else if MastodonAPI.isNodeInfo(path) {
                // Discovery, as the OAuth metadata: no token, no faults, not counted.
                face = MastodonAPI.name
                reply = mastodon.sent(mastodon.nodeInfo(path: path))
            } else if path.hasPrefix("/oauth2/") {
                face = "WeiboOAuthAPI"
                do {
                    reply = try await oauth.respond(to: request)
                } catch {
                    reply = Reply(error as? WeiboError ?? .systemError, path: path)
                }
            } else if path.hasPrefix("/admin/") {
                face = "AdminAPI"
                reply = adminAccess.permits(peer: context.channel.remoteAddress?.ipAddress,
                                            authorization: request.headers[.authorization])
                    ? await answer(path: path) { try await admin.respond(to: request) }
                    : Reply(.adminForbidden, path: path)
            } else {
                face = path.hasPrefix("/.well-known/") || path.hasPrefix("/nodeinfo") ? MastodonAPI.name : "SandboxResponder"
                reply = Reply(.apiNotFound, path: path)
            }
            sent = (reply.response, String(reply.status.code), reply.body.readableBytes)
        }
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

    /// Serves a request through `face`, the API its path picked, and the
    /// faults, counting what it changed in the statistics.
    private func serve<Face: SandboxAPIFace>(_ face: Face, _ request: Request, context: Context) async -> (Response, String, Int) {
        let path = request.uri.path
        return await serveAPI(request, context: context, failure: { Self.faulted($0, face: face, path: path) }) {
            do {
                let reply = try await face.respond(to: request)
                switch face.effect(of: reply, path: path) {
                case .post: admin.stats.recordPost(); admin.stats.recordWrite()
                case .deletion: admin.stats.recordDeletion(); admin.stats.recordWrite()
                case .write: admin.stats.recordWrite()
                case nil: break
                }
                return face.sent(reply)
            } catch let failure as Face.Failure {
                return face.sent(failure, path: path)
            } catch {
                return face.sent(Face.internalFailure, path: path)
            }
        }
    }

    /// An injected fault in `face`'s words; 502–504 as a proxy's page, which is no API's.
    private static func faulted<Face: SandboxAPIFace>(_ fault: InjectedFault, face: Face, path: String) -> Reply {
        if fault.isProxyPage { return Reply(proxyPage: fault) }
        var reply = face.sent(face.failure(for: fault), path: path)
        if let seconds = fault.retryAfter { reply.headers[HTTPField.Name("Retry-After")!] = String(seconds) }
        return reply
    }

    /// Serves an API request (a face's or a recording's) through the faults:
    /// `failure` renders an injected fault, `serve` the real answer.
    private func serveAPI(_ request: Request, context: Context, failure: (InjectedFault) -> Reply,
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
            response.headers[.contentType] = SandboxReply.weiboJSONType
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
            return Reply(status: .notFound, body: ByteBuffer(bytes: JSONValue(["error": JSONValue(message)]).encoded()))
        }
        return Reply(exchange, origin: origin)
    }

    /// Runs a handler, turning what it throws into a Weibo error reply.
    private func answer(path: String, _ handler: () async throws -> ByteBuffer) async -> Reply {
        do {
            return Reply(body: try await handler())
        } catch let error as WeiboError {
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
