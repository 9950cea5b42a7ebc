import FoundationEssentials
import WshText
import Hummingbird

/// The Weibo API v2 endpoints the sandbox serves, under `/2/`.
///
/// Each answer is a `ByteBuffer` of JSON; anything else is thrown as a
/// `WeiboError`, which the responder turns into a Weibo error body. The
/// token decides who is asking (the viewer) and who writes (the actor).
/// Every endpoint is a row of `routes`, below.
struct WeiboAPI: Sendable {
    let store: SandboxStore
    let tokens: TokenStore
    let rateLimiter: RateLimiter

    /// Every endpoint the Weibo face serves, in one table: its method, its path
    /// under `/2/`, and its handler, which gets the fields and the signed-in
    /// user. Every one needs the user: no token is 21301 (`authorize`).
    static let routes: [String: Route] = Dictionary(uniqueKeysWithValues: ([
        // Reads (WeiboAPI+Reads.swift, +Relations.swift).
        .get("statuses/public_timeline.json") { try $0.publicTimeline($1.fields, viewer: $1.user) },
        .get("statuses/home_timeline.json") { try $0.homeTimeline($1.fields, viewer: $1.user) },
        .get("statuses/friends_timeline.json") { try $0.homeTimeline($1.fields, viewer: $1.user) },
        .get("statuses/user_timeline.json") { try $0.userTimeline($1.fields, viewer: $1.user) },
        .get("statuses/mentions.json") { try $0.mentions($1.fields, viewer: $1.user) },
        .get("statuses/repost_timeline.json") { try $0.repostTimeline($1.fields, viewer: $1.user) },
        .get("statuses/show.json") { try $0.showStatus($1.fields, viewer: $1.user) },
        .get("comments/show.json") { try $0.comments($1.fields, viewer: $1.user) },
        .get("users/show.json") { try $0.showUser($1.fields, viewer: $1.user) },
        .get("favorites.json") { try $0.favorites($1.fields, viewer: $1.user) },
        // Asking how many calls are left is not a call that counts.
        .get("account/rate_limit_status.json", counted: false) { api, call in api.rateLimitStatus(token: call.token) },
        .get("account/get_uid.json") { api, call in api.uid(of: call.user) },
        .get("friendships/friends.json") { try $0.followList($1.fields, viewer: $1.user, following: true) },
        .get("friendships/followers.json") { try $0.followList($1.fields, viewer: $1.user, following: false) },
        .get("search/topics.json") { try $0.searchTopics($1.fields, viewer: $1.user) },
        // Writes (WeiboAPI+Writes.swift).
        .post("statuses/update.json", effect: .post) { try $0.update($1.fields, actor: $1.user) },
        // A status with one picture: multipart, `status` and the file `pic`.
        .post("statuses/upload.json", multipart: true) { try $0.upload($1.fields, picture: $1.picture, actor: $1.user) },
        .post("statuses/destroy.json", effect: .deletion) { try $0.destroy($1.fields, actor: $1.user) },
        .post("statuses/repost.json") { try $0.repost($1.fields, actor: $1.user) },
        .post("comments/create.json") { try $0.createComment($1.fields, actor: $1.user) },
        .post("comments/reply.json") { try $0.replyComment($1.fields, actor: $1.user) },
        .post("comments/destroy.json") { try $0.destroyComment($1.fields, actor: $1.user) },
        .post("favorites/create.json") { try $0.favorite($1.fields, actor: $1.user, create: true) },
        .post("favorites/destroy.json") { try $0.favorite($1.fields, actor: $1.user, create: false) },
        .post("friendships/create.json") { try $0.friendship($1.fields, actor: $1.user, create: true) },
        .post("friendships/destroy.json") { try $0.friendship($1.fields, actor: $1.user, create: false) },
    ] as [Route]).map { ("/2/" + $0.path, $0) })

    /// One row of the table.
    struct Route: Sendable {
        let method: HTTPRequest.Method
        /// The path under `/2/`, which `rate_limit_status` names an API by (without `.json`).
        let path: String
        /// What a call changes, for the statistics.
        var effect: SandboxEffect? = nil
        /// The body is `multipart/form-data`, not a form.
        var multipart = false
        /// The call counts towards the rate limit.
        var counted = true
        let serve: @Sendable (WeiboAPI, Call) throws -> ByteBuffer

        static func get(_ path: String, counted: Bool = true,
                        _ serve: @escaping @Sendable (WeiboAPI, Call) throws -> ByteBuffer) -> Route {
            Route(method: .get, path: path, counted: counted, serve: serve)
        }

        static func post(_ path: String, effect: SandboxEffect = .write, multipart: Bool = false,
                         _ serve: @escaping @Sendable (WeiboAPI, Call) throws -> ByteBuffer) -> Route {
            Route(method: .post, path: path, effect: effect, multipart: multipart, serve: serve)
        }
    }

    /// One request being served: its fields (the query's, and a POST's body's),
    /// an upload's picture, and who asks: the user the token acts as, and the token.
    struct Call {
        var fields: [String: String]
        var picture: UploadedFile?
        var user: Int
        var token: String
    }

    func respond(to request: Request) async throws -> ByteBuffer {
        guard let route = Self.routes[request.uri.path] else { throw WeiboError.apiNotFound }
        let method = request.method == .head ? .get : request.method
        guard method == route.method else { throw WeiboError.methodNotSupported }
        // A POST may carry access_token in its body, as Weibo allows; an upload's body is multipart.
        var picture: UploadedFile?
        let fields: [String: String]
        if route.multipart {
            (fields, picture) = try await Self.uploadFields(of: request)
        } else {
            fields = try await FormFields.fields(of: request, readingBody: route.method == .post)
        }
        let (user, token) = try authorize(fields["access_token"], header: request.headers[.authorization])
        if route.counted, !rateLimiter.admit(token: token, endpoint: String(route.path.dropLast(5))) {
            throw WeiboError.rateLimited
        }
        return try route.serve(self, Call(fields: fields, picture: picture, user: user, token: token))
    }

    /// The caller, from `access_token` or `Authorization: OAuth2 TOKEN`
    /// (`Bearer` too): no token is 21301, an unknown or expired one 21327,
    /// a revoked one 21332.
    private func authorize(_ parameter: String?, header: String?) throws -> (user: Int, token: String) {
        guard let presented = parameter ?? TokenStore.token(in: header, schemes: ["oauth2", "bearer"]),
              !presented.isEmpty else { throw WeiboError.authMissing }
        do {
            return (try tokens.user(for: presented), presented)
        } catch {
            throw WeiboError.token(error)
        }
    }

    // MARK: Parameters

    func integer(_ fields: [String: String], _ name: String, default value: Int,
                 in range: ClosedRange<Int>) throws -> Int {
        guard let text = fields[name] else { return value }
        guard let number = Int(text) else {
            throw WeiboError.parameter("parameter (\(name))'s value invalid, expect (\(name) = int), but get (\(name) = \(text))")
        }
        guard range.contains(number) else {
            throw WeiboError.invalidValue("parameter (\(name))'s value invalid, expect (\(name) in \(range.lowerBound)...\(range.upperBound)), but get (\(name) = \(text))")
        }
        return number
    }

    /// An id parameter that may be left out (or `0`, meaning no bound).
    func optionalIdentifier(_ fields: [String: String], _ name: String) throws -> Int64? {
        guard let text = fields[name], !text.isEmpty else { return nil }
        return try identifier(fields, name)
    }

    func identifier(_ fields: [String: String], _ name: String) throws -> Int64 {
        guard let text = fields[name], !text.isEmpty else {
            throw WeiboError.parameter("parameter (\(name)) is required")
        }
        guard let id = Int64(text) else {
            throw WeiboError.parameter("parameter (\(name))'s value invalid, expect (\(name) = int64), but get (\(name) = \(text))")
        }
        return id
    }

    /// The user named by `uid` or `screen_name`; `fallback` when neither is
    /// given (nil: 10008), 20003 when there is no such user.
    func user(_ fields: [String: String], in timeline: Timeline, fallback: Int? = nil) throws -> SandboxUser {
        if fields["uid"] != nil {
            guard let user = timeline.user(id: try identifier(fields, "uid")) else { throw WeiboError.userNotFound }
            return user
        }
        if let name = fields["screen_name"], !name.isEmpty {
            guard let user = timeline.user(screenName: name) else { throw WeiboError.userNotFound }
            return user
        }
        guard let fallback else { throw WeiboError.parameter("parameter (uid or screen_name) is required") }
        return timeline.data.users[fallback]
    }

    /// Text a user writes (a status, a comment): not blank (10008), at most 140 (20012).
    func text(_ fields: [String: String], _ name: String) throws -> String {
        let text = fields[name] ?? ""
        guard !text.allSatisfy(\.isWhitespace) else {
            throw WeiboError.parameter("parameter (\(name))'s value invalid: empty")
        }
        guard weiboLength(text) <= 140 else { throw WeiboError.textTooLong }
        return text
    }

    /// The app the sandbox names as the source of what is written through it.
    static let source = (name: "wsh", href: "https://github.com/wsh")
}
