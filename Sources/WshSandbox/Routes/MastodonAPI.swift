import FoundationEssentials
import WshText
import Hummingbird
import HTTPTypes
import NIOCore

/// The Mastodon API the sandbox serves under `/api/v1/` (and `/api/v2/instance`),
/// over the same timeline as the Weibo API: the same users, statuses, comments
/// (as replies), follows, favourites and tokens.
///
/// Answers are rendered per request by `MastodonRenderer`; errors are thrown
/// as `MastodonError`. Reads are in `MastodonAPI+Reads.swift`, writes in
/// `MastodonAPI+Writes.swift`, apps and instance in `MastodonAPI+Instance.swift`.
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

    /// What an endpoint needs from the caller.
    enum Access {
        /// No token needed; one given must be valid.
        case open
        /// No token needed while public preview is on.
        case preview
        /// A user's token.
        case user
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

        /// The values of `name[]` (or `name`), as `id[]=1&id[]=2` or a JSON array send them.
        func list(_ name: String) -> [String] {
            all[name + "[]"] ?? all[name] ?? []
        }

        mutating func add(_ name: String, _ value: String) {
            if first[name] == nil { first[name] = value }
            all[name, default: []].append(value)
            ordered.append((name, value))
        }

        /// Mastodon's booleans: `true`, `1`, `on` (anything else is false).
        func flag(_ name: String) -> Bool {
            guard let value = first[name]?.lowercased() else { return false }
            return ["true", "1", "on", "t"].contains(value)
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

    /// Dispatches on method and path.
    private func route(_ call: Call) throws -> Reply {
        let s = call.segments.map(String.init)
        // Filters, profile edits, emojis, favourited_by/reblogged_by (MastodonAPI+Accounts.swift).
        if let reply = try accountsAndFiltersRoute(call, s) { return reply }
        switch (call.method, s.count, s.first ?? "") {
        case (.get, 2, "v1") where s[1] == "instance":
            return try instanceV1(call)
        case (.get, 2, "v2") where s[1] == "instance":
            return try instanceV2(call)
        case (.post, 2, "v1") where s[1] == "apps":
            return try registerApp(call)
        case (.get, 3, "v1") where s[1] == "apps" && s[2] == "verify_credentials":
            return try verifyApp(call)
        case (.get, 3, "v1") where s[1] == "timelines" && s[2] == "public":
            return try publicTimeline(call, tag: nil)
        case (.get, 4, "v1") where s[1] == "timelines" && s[2] == "tag":
            // The tag arrives percent-encoded (`%E8%AF%9D…` for a CJK topic).
            return try publicTimeline(call, tag: PercentEncoding.decoded(s[3]) ?? s[3])
        case (.get, 3, "v1") where s[1] == "timelines" && s[2] == "home":
            return try homeTimeline(call)
        // Notifications and conversations (MastodonAPI+Notifications.swift).
        case (.get, 2, "v1") where s[1] == "notifications":
            return try notifications(call)
        case (.post, 3, "v1") where s[1] == "notifications" && s[2] == "clear":
            return try clearNotifications(call)
        case (.get, 3, "v1") where s[1] == "notifications":
            return try notification(call, id: s[2])
        case (.post, 4, "v1") where s[1] == "notifications" && s[3] == "dismiss":
            return try dismissNotification(call, id: s[2])
        case (.post, 3, "v1") where s[1] == "notifications" && s[2] == "dismiss" && state.flavour.extras.dismissByBody:
            return try dismissNotification(call, id: call.parameters["id"] ?? "")
        case (.get, 3, "v1") where s[1] == "streaming" && s[2] == "health":
            return streamingHealth()
        case (.get, 2, "v1") where s[1] == "streaming":
            return try stream(call, name: call.parameters["stream"] ?? "", upgrade: call.asksWebSocketUpgrade)
        case (.get, _, "v1") where s.count >= 3 && s[1] == "streaming":
            return try stream(call, name: s[2...].joined(separator: "/"), upgrade: call.asksWebSocketUpgrade)
        case (.get, 2, "v1") where s[1] == "conversations":
            return try conversations(call)
        case (.post, 4, "v1") where s[1] == "conversations" && s[3] == "read":
            return try readConversation(call, id: s[2])
        case (.delete, 3, "v1") where s[1] == "conversations":
            return try removeConversation(call, id: s[2])
        case (.get, 3, "v1") where s[1] == "accounts" && s[2] == "verify_credentials":
            return try verifyCredentials(call)
        case (.get, 3, "v1") where s[1] == "accounts" && s[2] == "lookup":
            return try lookup(call)
        case (.get, 3, "v1") where s[1] == "accounts" && s[2] == "relationships":
            return try relationships(call)
        // Search, followers/following, blocks and mutes (MastodonAPI+Search.swift, +Relations.swift).
        case (.get, 2, "v2") where s[1] == "search":
            return try search(call)
        case (.get, 3, "v1") where s[1] == "accounts" && s[2] == "search":
            return try accountSearch(call)
        case (.get, 4, "v1") where s[1] == "accounts" && (s[3] == "followers" || s[3] == "following"):
            return try followList(call, id: s[2], followers: s[3] == "followers")
        case (.get, 2, "v1") where s[1] == "blocks":
            return try blockList(call)
        case (.get, 2, "v1") where s[1] == "mutes":
            return try muteList(call)
        case (.post, 4, "v1") where s[1] == "accounts" && ["block", "unblock", "mute", "unmute"].contains(s[3]):
            return try relate(call, id: s[2], action: s[3])
        case (.get, 3, "v1") where s[1] == "accounts":
            return try account(call, id: s[2])
        case (.get, 4, "v1") where s[1] == "accounts" && s[3] == "statuses":
            return try accountStatuses(call, id: s[2])
        case (.post, 4, "v1") where s[1] == "accounts" && (s[3] == "follow" || s[3] == "unfollow"):
            return try follow(call, id: s[2], follow: s[3] == "follow")
        case (.post, 2, "v1") where s[1] == "statuses":
            return try postStatus(call)
        case (.get, 3, "v1") where s[1] == "statuses":
            return try showStatus(call, id: s[2])
        case (.delete, 3, "v1") where s[1] == "statuses":
            return try deleteStatus(call, id: s[2])
        case (.get, 4, "v1") where s[1] == "statuses" && s[3] == "context":
            return try context(call, id: s[2])
        case (.post, 4, "v1") where s[1] == "statuses" && ["reblog", "unreblog", "favourite", "unfavourite"].contains(s[3]):
            return try statusAction(call, id: s[2], action: s[3])
        // Bookmarks, favourites and lists (MastodonAPI+Lists.swift).
        case (.get, 2, "v1") where s[1] == "bookmarks":
            return try bookmarks(call)
        case (.get, 2, "v1") where s[1] == "favourites":
            return try favouritesList(call)
        case (.post, 4, "v1") where s[1] == "statuses" && (s[3] == "bookmark" || s[3] == "unbookmark"):
            return try bookmarkAction(call, id: s[2], bookmark: s[3] == "bookmark")
        case (.get, 4, "v1") where s[1] == "timelines" && s[2] == "list":
            return try listTimeline(call, id: s[3])
        case (.get, 2, "v1") where s[1] == "lists":
            return try listsIndex(call)
        case (.post, 2, "v1") where s[1] == "lists":
            return try saveList(call, id: nil)
        case (.get, 3, "v1") where s[1] == "lists":
            return try showList(call, id: s[2])
        case (.put, 3, "v1") where s[1] == "lists":
            return try saveList(call, id: s[2])
        case (.delete, 3, "v1") where s[1] == "lists":
            return try deleteList(call, id: s[2])
        case (.get, 4, "v1") where s[1] == "lists" && s[3] == "accounts":
            return try listAccounts(call, id: s[2])
        case (.post, 4, "v1") where s[1] == "lists" && s[3] == "accounts",
             (.delete, 4, "v1") where s[1] == "lists" && s[3] == "accounts":
            return try changeListAccounts(call, id: s[2], add: call.method == .post)
        case (.get, 4, "v1") where s[1] == "accounts" && s[3] == "lists":
            return try accountLists(call, id: s[2])
        // Edits and scheduled statuses (MastodonAPI+Edits.swift).
        case (.put, 3, "v1") where s[1] == "statuses":
            return try editStatus(call, id: s[2])
        case (.get, 4, "v1") where s[1] == "statuses" && s[3] == "history":
            return try statusHistory(call, id: s[2])
        case (.get, 4, "v1") where s[1] == "statuses" && s[3] == "source":
            return try statusSource(call, id: s[2])
        case (.get, 2, "v1") where s[1] == "scheduled_statuses":
            return try scheduledStatuses(call)
        case (_, 3, "v1") where s[1] == "scheduled_statuses" && [.get, .put, .delete].contains(call.method):
            return try scheduledStatus(call, id: s[2])
        // Posting: media uploads, polls.
        case (.post, 2, "v1") where s[1] == "media", (.post, 2, "v2") where s[1] == "media":
            return try uploadMedia(call, synchronous: s[0] == "v1")
        case (.get, 3, "v1") where s[1] == "media":
            return try showMedia(call, id: s[2])
        case (.put, 3, "v1") where s[1] == "media":
            return try updateMedia(call, id: s[2])
        case (.get, 3, "v1") where s[1] == "polls":
            return try showPoll(call, id: s[2])
        case (.post, 4, "v1") where s[1] == "polls" && s[3] == "votes":
            return try vote(call, id: s[2])
        default:
            throw MastodonError.notFound
        }
    }

    // MARK: Auth

    /// The caller, from `Authorization: Bearer TOKEN` or `access_token`: a
    /// user's token from the shared store, or an app-only token. An unknown,
    /// expired or revoked token is 401 wherever it is sent.
    func authorize(_ parameter: String?, header: String?) throws -> Caller {
        var presented = parameter
        if let header {
            let parts = header.split(separator: " ", maxSplits: 1)
            if parts.count == 2, parts[0].lowercased() == "bearer" {
                presented = parts[1].trimmingSpaces
            }
        }
        guard let presented, !presented.isEmpty else { return .anonymous }
        if let app = state.appForToken(presented) { return .app(app, token: presented) }
        do {
            let grant = try tokens.grant(for: presented)
            return .user(grant.user, token: presented, appKey: grant.appKey)
        } catch {
            throw MastodonError.token(error)
        }
    }

    /// Checks `access` for the caller; returns the viewer (nil: anonymous or an app).
    func viewer(_ call: Call, _ access: Access) throws -> Int? {
        switch (access, call.caller) {
        case (.user, .anonymous): throw MastodonError.tokenInvalid
        case (.user, .app): throw MastodonError.appTokenRefused
        case (.preview, .anonymous) where !state.publicPreview: throw MastodonError.userRequired
        default: return call.caller.user
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

    /// A JSON object with status 200, its members written by `members`.
    static func object(capacity: Int, _ members: (inout JSONWriter) -> Void) -> Reply {
        var json = JSONWriter(capacity: capacity)
        json.objectStart()
        members(&json)
        json.objectEnd()
        return Self.json(json.bytes)
    }

    func renderer(_ timeline: Timeline, viewer: Int?) -> MastodonRenderer {
        MastodonRenderer(timeline: timeline, viewer: viewer, origin: state.origin, ids: state.ids, flavour: state.flavour)
    }

    /// The renderer for `viewer` to use inside `store.write`: the origin and
    /// the id style are read now, before the store's lock is taken.
    func renderer(for viewer: Int?) -> (Timeline) -> MastodonRenderer {
        let origin = state.origin
        let ids = state.ids
        let flavour = state.flavour
        return { MastodonRenderer(timeline: $0, viewer: viewer, origin: origin, ids: ids, flavour: flavour) }
    }
}
