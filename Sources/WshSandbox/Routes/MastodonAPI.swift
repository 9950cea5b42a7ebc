import FoundationEssentials
import WshText
import Hummingbird
import HTTPTypes
import NIOCore

/// The Mastodon API the sandbox serves under `/api/v1/` (and `/api/v2/instance`),
/// over the same timeline as the Weibo API: the same users, statuses, comments
/// (as replies), follows, favourites and tokens.
///
/// Every route is a row of `routes` (MastodonAPI+Routes.swift); answers are
/// rendered per request by `MastodonRenderer`; errors are thrown as `MastodonError`.
struct MastodonAPI: Sendable {
    let store: SandboxStore
    let tokens: TokenStore
    let state: MastodonState

    /// An answer: a status, JSON, and the headers Mastodon adds (`Link`, `X-RateLimit-*`).
    struct Reply: Sendable {
        var status: HTTPResponse.Status = .ok
        var body: ByteBuffer
        var headers: HTTPFields = [:]
        /// What the request changed, for the statistics.
        var effect: Effect? = nil
        /// The content type, when not Mastodon's JSON.
        var contentType: String? = nil
        /// A body written as it comes (server-sent events) instead of `body`.
        var stream: (@Sendable (inout any ResponseBodyWriter) async throws -> Void)? = nil
    }

    typealias Effect = SandboxEffect

    /// Who is asking.
    enum Caller {
        case anonymous
        /// A user's token (an account's own or one issued by OAuth), with the app it was issued to.
        case user(Int, token: String, appKey: String)
        /// An app-only token from `client_credentials`.
        case app(MastodonState.App, token: String)

        var user: Int? {
            if case .user(let user, _, _) = self { return user }
            return nil
        }

        var token: String? {
            switch self {
            case .anonymous: return nil
            case .user(_, let token, _), .app(_, let token): return token
            }
        }
    }

    /// The query and body parameters: the first value of each name, and every value of repeated ones.
    struct Parameters {
        var first: [String: String] = [:]
        var all: [String: [String]] = [:]
        /// The files of a multipart body (a media upload), by field name.
        var files: [String: UploadedFile] = [:]
        /// Every name and value in the order sent, which Rails' arrays of
        /// hashes (`keywords_attributes[][keyword]`) are grouped by.
        var ordered: [(name: String, value: String)] = []

        subscript(_ name: String) -> String? { first[name] }

        /// The first value of `name`, nil when it is empty as well as when it is missing.
        func nonEmpty(_ name: String) -> String? {
            first[name].flatMap { $0.isEmpty ? nil : $0 }
        }

        /// The values of `name[]` (or `name`), as `id[]=1&id[]=2` or a JSON array send them.
        func list(_ name: String) -> [String] {
            all[name + "[]"] ?? all[name] ?? []
        }

        mutating func add(_ name: String, _ value: String) {
            if first[name] == nil { first[name] = value }
            all[name, default: []].append(value)
            ordered.append((name, value))
        }

        /// Mastodon's booleans: `true`, `1`, `on`, `t` (anything else is false).
        func flag(_ name: String) -> Bool {
            first[name].map(Self.isTrue) ?? false
        }

        /// `flag(name)` when `name` is sent with a value; nil when it is missing or empty (left as it was).
        func optionalFlag(_ name: String) -> Bool? {
            nonEmpty(name).map(Self.isTrue)
        }

        /// Whether `text` is one of Mastodon's true values, in any case.
        static func isTrue(_ text: String) -> Bool {
            ["true", "1", "on", "t"].contains(text.lowercased())
        }
    }

    /// One request being served.
    struct Call {
        var method: HTTPRequest.Method
        /// The path's segments after `/api/`, e.g. `["v1", "statuses", "123", "context"]`.
        var segments: [Substring]
        var path: String
        var query: String
        var parameters: Parameters
        var caller: Caller
        var idempotencyKey: String?
        /// The request says `Upgrade: websocket` (it reached the routes: the sandbox serves no WebSocket).
        var asksWebSocketUpgrade = false
        /// The segments the route's `*` and `**` stand for (MastodonAPI+Routes.swift).
        var captured: [String] = []

        /// The first segment the route's `*` stands for: the id in `statuses/:id`.
        var id: String { captured.first ?? "" }
    }

    func respond(to request: Request) async throws -> Reply {
        let path = request.uri.path
        let method = request.method == .head ? .get : request.method
        let segments = path.split(separator: "/", omittingEmptySubsequences: true).dropFirst()
        let readsBody = method == .post || method == .put || method == .patch || method == .delete
        let parameters = try await Self.parameters(of: request, readingBody: readsBody)
        let caller = try authorize(parameters["access_token"], header: request.headers[.authorization])
        var rateHeaders: HTTPFields = [:]
        if let token = caller.token {
            let admitted = state.rateLimiter.admit(token: token, endpoint: "mastodon")
            rateHeaders = rateLimitHeaders(token: token)
            guard admitted else {
                return MastodonError.rateLimited.reply(in: state.flavour, headers: rateHeaders)
            }
        }
        let call = Call(method: method, segments: Array(segments), path: path, query: request.uri.query ?? "",
                        parameters: parameters, caller: caller,
                        idempotencyKey: request.headers[HTTPField.Name("Idempotency-Key")!],
                        asksWebSocketUpgrade: request.headers[.upgrade]?.lowercased() == "websocket")
        publishDueScheduled()
        expireDue()
        do {
            var reply = try route(call)
            reply.headers.append(contentsOf: rateHeaders)
            return reply
        } catch let error as MastodonError {
            return error.reply(in: state.flavour, headers: rateHeaders)
        }
    }

    // MARK: Auth

    /// The caller, from `Authorization: Bearer TOKEN` or `access_token`: a
    /// user's token from the shared store, or an app-only token. An unknown,
    /// expired or revoked token is 401 wherever it is sent.
    func authorize(_ parameter: String?, header: String?) throws -> Caller {
        guard let presented = TokenStore.token(in: header, schemes: ["bearer"]) ?? parameter,
              !presented.isEmpty else { return .anonymous }
        if let app = state.appForToken(presented) { return .app(app, token: presented) }
        do {
            let grant = try tokens.grant(for: presented)
            return .user(grant.user, token: presented, appKey: grant.appKey)
        } catch {
            throw MastodonError.token(error)
        }
    }

    /// `X-RateLimit-Limit`, `-Remaining` and `-Reset` (ISO 8601, the end of the
    /// current 5-minute window), as Mastodon sends them.
    private func rateLimitHeaders(token: String) -> HTTPFields {
        let snapshot = state.rateLimiter.snapshot(token: token)
        return [
            HTTPField.Name("X-RateLimit-Limit")!: String(snapshot.userLimit),
            HTTPField.Name("X-RateLimit-Remaining")!: String(max(0, snapshot.userLimit - snapshot.userCalls)),
            HTTPField.Name("X-RateLimit-Reset")!: mastodonTime(snapshot.resetTime),
        ]
    }

    // MARK: Parameters

    /// The query's parameters, then the body's (a form or JSON) for writes.
    static func parameters(of request: Request, readingBody: Bool) async throws -> Parameters {
        var parameters = Parameters()
        guard let query = FormFields.pairs(Substring(request.uri.query ?? "")) else {
            throw MastodonError.badParameter("parameter encoding is not valid UTF-8")
        }
        for (name, value) in query { parameters.add(name, value) }
        guard readingBody else { return parameters }
        let contentType = request.headers[.contentType] ?? ""
        // Only an upload may be larger than a form (see MastodonAPI+Posting.swift).
        let upload = isUpload(path: request.uri.path, contentType: contentType)
        let limit = upload ? Self.maximumMediaBytes + FormFields.maximumBodySize : FormFields.maximumBodySize
        let body: ByteBuffer
        do {
            body = try await request.body.collect(upTo: limit)
        } catch {
            if upload { throw MastodonError.validation("File file size must be less than \(Self.maximumMediaBytes >> 20) MB") }
            throw MastodonError.badParameter("request body over \(FormFields.maximumBodySize / 1024) KB")
        }
        guard body.readableBytes > 0 else { return parameters }
        if contentType.lowercased().hasPrefix("multipart/form-data") {
            try readMultipart(body, contentType: contentType, into: &parameters)
        } else if contentType.lowercased().contains("json") {
            guard let object = JSONValue.parse(Data(buffer: body))?.object else {
                throw MastodonError.badParameter("the body is not a JSON object")
            }
            for (name, value) in object.sorted(by: { $0.key < $1.key }) { addJSON(name, value, to: &parameters) }
        } else {
            guard let form = FormFields.pairs(Substring(String(buffer: body))) else {
                throw MastodonError.badParameter("parameter encoding is not valid UTF-8")
            }
            for (name, value) in form { parameters.add(name, value) }
        }
        return parameters
    }

    /// `value` under `name`: an array as `name[]`, an object's members as
    /// `name[key]` (`poll: {options: […]}` is `poll[options][]`, as a form sends it).
    private static func addJSON(_ name: String, _ value: JSONValue, to parameters: inout Parameters, depth: Int = 0) {
        if let list = value.array {
            for element in list {
                if let text = jsonText(element) {
                    parameters.add(name + "[]", text)
                } else if let object = element.object {
                    // An array of objects, as Rails reads `name[][key]` (`keywords_attributes`).
                    for (key, member) in object.sorted(by: { $0.key < $1.key }) {
                        if let text = jsonText(member) { parameters.add("\(name)[][\(key)]", text) }
                    }
                }
            }
        } else if let object = value.object, depth < 2 {
            for (key, member) in object.sorted(by: { $0.key < $1.key }) {
                addJSON("\(name)[\(key)]", member, to: &parameters, depth: depth + 1)
            }
        } else if let text = jsonText(value) {
            parameters.add(name, text)
        }
    }

    private static func jsonText(_ value: JSONValue) -> String? {
        switch value {
        case .string(let text): return text
        case .integer(let number): return String(number)
        case .number(let number): return String(number)
        case .bool(let flag): return flag ? "true" : "false"
        default: return nil
        }
    }

    /// A status or account id in the server's id style, else 404 as Mastodon answers an unknown id.
    func identifier(_ text: String) throws -> Int64 {
        guard let id = state.ids.parse(text) else { throw MastodonError.notFound }
        return id
    }

    /// `limit`: default 20, clamped to 1...40.
    func limit(_ call: Call, default value: Int = 20, maximum: Int = 40) -> Int {
        guard let text = call.parameters["limit"], let number = Int(text) else { return value }
        return min(max(number, 1), maximum)
    }

    /// A cursor id (`max_id`, `since_id`, `min_id`) in the server's id style; 400 when it is not one.
    func cursor(_ call: Call, _ name: String) throws -> Int64? {
        guard let text = call.parameters[name], !text.isEmpty else { return nil }
        guard let id = state.ids.parse(text) else {
            throw MastodonError.badParameter("\(name) must be an id of this server (\(state.ids.rawValue)), got \(text)")
        }
        return id
    }

    /// Encodes a reply as JSON with status 200.
    static func json(_ bytes: [UInt8], effect: Effect? = nil) -> Reply {
        Reply(body: ByteBuffer(bytes: bytes), effect: effect)
    }

    /// A write answered with `{}`; 404 when `change` finds nothing to change (returns false).
    func emptyWrite(_ change: (inout Timeline) throws -> Bool) throws -> Reply {
        _ = try store.write { timeline in
            guard try change(&timeline) else { throw MastodonError.notFound }
            return []
        }
        return Reply(body: ByteBuffer(string: "{}"), effect: .write)
    }

    /// A JSON object with status 200, its members written by `members`.
    static func object(capacity: Int, _ members: (inout JSONWriter) -> Void) -> Reply {
        json(JSONWriter.object(capacity: capacity, members))
    }

    func renderer(_ timeline: Timeline, viewer: Int?) -> MastodonRenderer {
        MastodonRenderer(timeline: timeline, viewer: viewer, origin: state.origin, ids: state.ids, flavour: state.flavour)
    }

    /// A write by `viewer`, answered with what `change` renders, through the
    /// renderer it is handed, from the timeline it changed. The origin and the
    /// id style are read now, before the store's lock is taken.
    func write(as viewer: Int, status: HTTPResponse.Status = .ok, effect: Effect? = .write,
               _ change: (inout Timeline, (Timeline) -> MastodonRenderer) throws -> [UInt8]) rethrows -> Reply {
        let (origin, ids, flavour) = (state.origin, state.ids, state.flavour)
        let body = try store.write { timeline in
            try change(&timeline) { MastodonRenderer(timeline: $0, viewer: viewer, origin: origin, ids: ids, flavour: flavour) }
        }
        return Reply(status: status, body: body, effect: effect)
    }
}
