import FoundationEssentials
import WshText
import Hummingbird

/// The Weibo API v2 endpoints the sandbox serves, under `/2/`.
///
/// Each answer is a `ByteBuffer` of JSON; anything else is thrown as a
/// `WeiboError`, which the responder turns into a Weibo error body. The
/// token decides who is asking (the viewer) and who writes (the actor).
/// Reads are in `WeiboAPI+Reads.swift`, writes in `WeiboAPI+Writes.swift`.
struct WeiboAPI: Sendable {
    let store: SandboxStore
    let tokens: TokenStore
    let rateLimiter: RateLimiter

    /// The endpoints, by path.
    enum Endpoint: String, CaseIterable {
        case publicTimeline = "/2/statuses/public_timeline.json"
        case homeTimeline = "/2/statuses/home_timeline.json"
        case friendsTimeline = "/2/statuses/friends_timeline.json"
        case userTimeline = "/2/statuses/user_timeline.json"
        case mentions = "/2/statuses/mentions.json"
        case repostTimeline = "/2/statuses/repost_timeline.json"
        case showStatus = "/2/statuses/show.json"
        case comments = "/2/comments/show.json"
        case showUser = "/2/users/show.json"
        case favorites = "/2/favorites.json"
        case rateLimitStatus = "/2/account/rate_limit_status.json"
        case getUID = "/2/account/get_uid.json"
        case update = "/2/statuses/update.json"
        /// A status with one picture: multipart, `status` and the file `pic` (WeiboAPI+Writes.swift).
        case upload = "/2/statuses/upload.json"
        case destroy = "/2/statuses/destroy.json"
        case repost = "/2/statuses/repost.json"
        case createComment = "/2/comments/create.json"
        case replyComment = "/2/comments/reply.json"
        case destroyComment = "/2/comments/destroy.json"
        case createFavorite = "/2/favorites/create.json"
        case destroyFavorite = "/2/favorites/destroy.json"
        case createFriendship = "/2/friendships/create.json"
        case destroyFriendship = "/2/friendships/destroy.json"
        // Followers, following and topic search (WeiboAPI+Relations.swift).
        case friends = "/2/friendships/friends.json"
        case followers = "/2/friendships/followers.json"
        case searchTopics = "/2/search/topics.json"

        var method: HTTPRequest.Method { isWrite ? .post : .get }

        /// True for the endpoints that change the data (POST).
        var isWrite: Bool {
            switch self {
            case .update, .upload, .destroy, .repost, .createComment, .replyComment, .destroyComment,
                 .createFavorite, .destroyFavorite, .createFriendship, .destroyFriendship:
                return true
            default:
                return false
            }
        }

        /// `statuses/update`, as `rate_limit_status` names an API.
        var apiName: String {
            String(rawValue.dropFirst(3).dropLast(5))
        }
    }

    /// Who is asking: the user the token acts as, and the token.
    struct Caller {
        var user: Int
        var token: String
    }

    func respond(to request: Request) async throws -> ByteBuffer {
        guard let endpoint = Endpoint(rawValue: request.uri.path) else { throw WeiboError.apiNotFound }
        let method = request.method == .head ? .get : request.method
        guard method == endpoint.method else { throw WeiboError.methodNotSupported }
        // A POST may carry access_token in its body, as Weibo allows; an upload's body is multipart.
        var picture: UploadedFile?
        let fields: [String: String]
        if endpoint == .upload {
            (fields, picture) = try await Self.uploadFields(of: request)
        } else {
            fields = try await FormFields.fields(of: request, readingBody: endpoint.isWrite)
        }
        let caller = try authorize(fields["access_token"], header: request.headers[.authorization])
        // Asking how many calls are left is not a call that counts.
        if endpoint != .rateLimitStatus,
           !rateLimiter.admit(token: caller.token, endpoint: endpoint.apiName) {
            throw WeiboError.rateLimited
        }
        if endpoint == .upload {
            return try upload(fields, picture: picture, caller)
        }
        if endpoint.isWrite {
            return try write(endpoint, fields, caller)
        }
        return try read(endpoint, fields, caller)
    }

    /// The caller, from `access_token` or `Authorization: OAuth2 TOKEN`
    /// (`Bearer` too): no token is 21301, an unknown or expired one 21327,
    /// a revoked one 21332.
    private func authorize(_ parameter: String?, header: String?) throws -> Caller {
        var presented = parameter
        if presented == nil, let header {
            let parts = header.split(separator: " ", maxSplits: 1)
            if parts.count == 2, ["oauth2", "bearer"].contains(parts[0].lowercased()) {
                presented = parts[1].trimmingSpaces
            }
        }
        guard let presented, !presented.isEmpty else { throw WeiboError.authMissing }
        do {
            return Caller(user: try tokens.user(for: presented), token: presented)
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
