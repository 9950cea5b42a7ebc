import Foundation
import Synchronization
import WshModel
import WshRequest

/// A fake Weibo account with state for every write wsh sends: posts and
/// deletes, comments and replies, reposts, favourites, follows, and the
/// rate-limit status; plus scripted faults per path, so a test can lose
/// the answer of a write the server did carry out.
///
/// The public timeline is `FakeWeiboAPI`'s; statuses the account posts or
/// reposts are its own (ids from 5 000 000 000 000 001), the only ones it
/// may delete. Comments get ids from 6 000 000 000 000 001; each timeline
/// status starts with three (ids 100–102, newest first).
public final class FakeWriteServer: Sendable {
    /// What happens to one request.
    public enum Fault: Sendable {
        /// The server does the work, then the answer is lost with this error.
        case loseAnswer(RequestError)
        /// The request fails with this error before the server does anything.
        case failBefore(RequestError)
        /// The server answers this instead of doing the work.
        case answer(HTTPResponse)
    }

    private struct State {
        var own: [Status] = []
        var nextStatusID: Int64 = 5_000_000_000_000_000
        var nextCommentID: Int64 = 6_000_000_000_000_000
        var comments: [String: [Comment]] = [:]
        var favorites: Set<String> = []
        var following: Set<String> = []
        var script: [String: [Fault?]] = [:]
        /// When false, `statuses/show` and `users/show` leave out `favorited` and `following`.
        var tellsState = true
    }

    public let timeline = FakeWeiboAPI()
    private let state = Mutex(State())

    public init() {}

    /// The account's statuses, newest first.
    public var own: [Status] { state.withLock { $0.own } }
    /// The statuses the account has favourited.
    public var favorites: Set<String> { state.withLock { $0.favorites } }
    /// The uids the account follows.
    public var following: Set<String> { state.withLock { $0.following } }
    /// The comments on `statusID`, newest first.
    public func comments(on statusID: String) -> [Comment] { state.withLock { Self.comments(&$0, statusID) } }

    /// The next requests to `path` (e.g. `/2/comments/create.json`) meet `faults` in turn.
    public func script(_ path: String, _ faults: [Fault?]) {
        state.withLock { $0.script[path] = faults }
    }

    /// Whether reads say `favorited` and `following` (real servers sometimes do not).
    public func tellState(_ tells: Bool) {
        state.withLock { $0.tellsState = tells }
    }

    /// A dropped connection for `path`, as curl reports an empty reply.
    public static func dropped(_ path: String) -> RequestError {
        .transport(TransportFailure(curlCode: 52, message: "Empty reply from server", url: "http://weibo.test" + path))
    }

    public func respond(to request: HTTPRequest) throws(RequestError) -> HTTPResponse {
        let fault = state.withLock { state -> Fault? in
            guard var queue = state.script[request.path], !queue.isEmpty else { return nil }
            let next = queue.removeFirst()
            state.script[request.path] = queue
            return next
        }
        switch fault {
        case .failBefore(let error)?: throw error
        case .answer(let response)?: return response
        case .loseAnswer(let error)?:
            _ = serve(request)
            throw error
        case nil: return serve(request)
        }
    }

    private func serve(_ request: HTTPRequest) -> HTTPResponse {
        let fields = request.method == .post ? Self.form(request.body) : request.queryItems
        let path = request.path
        return state.withLock { state -> HTTPResponse in
            switch path {
            case "/2/statuses/update.json":
                state.nextStatusID += 1
                let status = Status(id: state.nextStatusID, idstr: String(state.nextStatusID), text: fields["status"] ?? "",
                                    user: timeline.users[0])
                state.own.insert(status, at: 0)
                return Self.encode(status)
            case "/2/statuses/repost.json":
                guard var original = Self.status(&state, timeline, fields["id"] ?? "") else {
                    return FakeWeiboAPI.apiError(20101, "target weibo does not exist!", path)
                }
                original.repostsCount = (original.repostsCount ?? 0) + 1
                state.nextStatusID += 1
                let status = Status(id: state.nextStatusID, idstr: String(state.nextStatusID),
                                    text: fields["status"] ?? "转发微博", user: timeline.users[0], retweetedStatus: original)
                state.own.insert(status, at: 0)
                return Self.encode(status)
            case "/2/statuses/user_timeline.json":
                let since = Int64(fields["since_id"] ?? "") ?? 0
                let count = Int(fields["count"] ?? "20") ?? 20
                let listed = state.own.filter { ($0.id ?? 0) > since }.prefix(count)
                return Self.encode(TimelinePage(statuses: Array(listed), totalNumber: state.own.count))
            case "/2/statuses/destroy.json":
                let id = fields["id"] ?? ""
                guard let index = state.own.firstIndex(where: { $0.idstr == id }) else {
                    if timeline.statuses.contains(where: { $0.idstr == id }) {
                        return FakeWeiboAPI.apiError(20102, "Not your own weibo!", path, status: 403)
                    }
                    return FakeWeiboAPI.apiError(20101, "target weibo does not exist!", path, status: 404)
                }
                return Self.encode(state.own.remove(at: index))
            case "/2/statuses/show.json":
                guard var status = Self.status(&state, timeline, fields["id"] ?? "") else {
                    return FakeWeiboAPI.apiError(20101, "target weibo does not exist!", path, status: 404)
                }
                status.favorited = state.tellsState ? state.favorites.contains(fields["id"] ?? "") : nil
                return Self.encode(status)
            case "/2/comments/show.json":
                let id = fields["id"] ?? ""
                guard Self.status(&state, timeline, id) != nil else {
                    return FakeWeiboAPI.apiError(20101, "target weibo does not exist!", path, status: 404)
                }
                let since = Int64(fields["since_id"] ?? "") ?? 0
                let max = Int64(fields["max_id"] ?? "") ?? .max
                let count = Int(fields["count"] ?? "50") ?? 50
                let all = Self.comments(&state, id)
                let listed = all.filter { ($0.id ?? 0) > since && ($0.id ?? 0) <= max }.prefix(count)
                return Self.encode(CommentsPage(comments: Array(listed), totalNumber: all.count))
            case "/2/comments/create.json", "/2/comments/reply.json":
                let id = fields["id"] ?? ""
                guard var status = Self.status(&state, timeline, id) else {
                    return FakeWeiboAPI.apiError(20101, "target weibo does not exist!", path, status: 404)
                }
                var text = fields["comment"] ?? ""
                if path.hasSuffix("reply.json") {
                    guard let target = Self.comments(&state, id).first(where: { $0.idstr == fields["cid"] }) else {
                        return FakeWeiboAPI.apiError(20201, "comment does not exist!", path, status: 404)
                    }
                    text = "回复@\(target.user?.screenName ?? ""):\(text)"
                }
                state.nextCommentID += 1
                status.commentsCount = Self.comments(&state, id).count + 1
                let comment = Comment(id: state.nextCommentID, idstr: String(state.nextCommentID), text: text,
                                      user: timeline.users[0], status: status)
                state.comments[id, default: []].insert(comment, at: 0)
                return Self.encode(comment)
            case "/2/comments/destroy.json":
                let cid = fields["cid"] ?? ""
                for (statusID, comments) in state.comments {
                    if let index = comments.firstIndex(where: { $0.idstr == cid }) {
                        let removed = state.comments[statusID]!.remove(at: index)
                        return Self.encode(removed)
                    }
                }
                return FakeWeiboAPI.apiError(20201, "comment does not exist!", path, status: 404)
            case "/2/favorites/create.json", "/2/favorites/destroy.json":
                let id = fields["id"] ?? ""
                guard var status = Self.status(&state, timeline, id) else {
                    return FakeWeiboAPI.apiError(20101, "target weibo does not exist!", path, status: 404)
                }
                let create = path.hasSuffix("create.json")
                if create, state.favorites.contains(id) { return FakeWeiboAPI.apiError(20704, "this weibo has been favorited!", path) }
                if !create, !state.favorites.contains(id) { return FakeWeiboAPI.apiError(20705, "not favorited!", path) }
                if create { state.favorites.insert(id) } else { state.favorites.remove(id) }
                status.favorited = create
                return Self.encode(Favorite(status: status, favoritedTime: Timestamp(weiboText: "Tue May 31 17:46:55 +0800 2011")))
            case "/2/friendships/create.json", "/2/friendships/destroy.json", "/2/users/show.json":
                guard var user = timeline.users.first(where: { $0.idstr == fields["uid"] || $0.screenName == fields["screen_name"] }) else {
                    return FakeWeiboAPI.apiError(20003, "User does not exists!", path, status: 404)
                }
                let uid = user.idstr ?? ""
                if path.hasSuffix("create.json") {
                    if state.following.contains(uid) { return FakeWeiboAPI.apiError(20506, "Already followed", path) }
                    state.following.insert(uid)
                    user.followersCount = (user.followersCount ?? 0) + 1
                } else if path.hasSuffix("destroy.json") {
                    if !state.following.contains(uid) { return FakeWeiboAPI.apiError(20522, "Not followed", path) }
                    state.following.remove(uid)
                }
                var body = String(decoding: try! JSONEncoder().encode(user), as: UTF8.self)
                if state.tellsState {
                    body = String(body.dropLast()) + #","following":\#(state.following.contains(uid))}"#
                }
                return .json(body)
            case "/2/account/rate_limit_status.json":
                return .json(#"{"api_rate_limits":[],"ip_limit":10000,"limit_time_unit":"HOURS","remaining_ip_hits":9990,"remaining_user_hits":"148","reset_time":"2011-06-03 18:00:00","reset_time_in_seconds":2415,"user_limit":150}"#)
            default:
                return timeline.respond(to: request)
            }
        }
    }

    private static func status(_ state: inout State, _ timeline: FakeWeiboAPI, _ id: String) -> Status? {
        state.own.first { $0.idstr == id } ?? timeline.statuses.first { $0.idstr == id }
    }

    private static func comments(_ state: inout State, _ statusID: String) -> [Comment] {
        if let comments = state.comments[statusID] { return comments }
        let seeded = (100...102).reversed().map { n in
            Comment(id: Int64(n), idstr: String(n), text: "comment \(n)", user: User(id: 1002, idstr: "1002", screenName: "bob"))
        }
        state.comments[statusID] = seeded
        return seeded
    }

    private static func encode<T: Encodable>(_ value: T) -> HTTPResponse {
        .json(String(decoding: try! JSONEncoder().encode(value), as: UTF8.self))
    }

    /// The form fields of a POST body.
    public static func form(_ body: Data?) -> [String: String] {
        var fields: [String: String] = [:]
        for pair in String(decoding: body ?? Data(), as: UTF8.self).split(separator: "&") {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let value = parts.count > 1 ? String(parts[1]) : ""
            fields[String(parts[0])] = value.replacingOccurrences(of: "+", with: " ").removingPercentEncoding ?? value
        }
        return fields
    }
}
