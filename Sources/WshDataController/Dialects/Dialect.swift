import Foundation
import WshModel
import WshRequest

/// The one seam between wsh and the API it talks to: one typed operation
/// per thing the DataControllers ask (a page of a timeline, a status, a
/// thread, a user, post, delete, repost, favourite, follow, rate limits),
/// each taking its own values and returning the Model's types.
///
/// Every API implements every operation, so the compiler makes each answer
/// all of them; `maximumCount(for:)` says which timelines it offers (nil:
/// none), from which `help`, completion and `fetch` take their limits. An API
/// builds its own requests inside its own file (`WeiboDialect` here,
/// `MastodonDialect` beside it), decodes its own entities into the Model and
/// classifies its own errors (`ErrorKind`). Nothing above the DataControllers
/// knows which dialect answers.
public protocol Dialect: Sendable {
    /// `weibo` or `mastodon`, as `--dialect` and `status` name it.
    var name: String { get }
    /// How the token is sent: `Authorization: SCHEME TOKEN`.
    var authScheme: String { get }
    /// What this API can do beyond the operations every API has.
    var capabilities: Capabilities { get }
    /// The largest page `source` serves; nil when this API has no such timeline.
    func maximumCount(for source: TimelineSource) -> Int?
    /// True when `source` pages by cursor (`max_id`, `since_id`), not by page number.
    func pagesByCursor(_ source: TimelineSource) -> Bool
    /// True when `max_id` includes the status it names (Weibo), so the next
    /// page is asked one larger and the boundary dropped; false when it is
    /// exclusive and the server says where the next page starts (Mastodon's `Link`).
    var maxIDIsInclusive: Bool { get }
    /// The API's OAuth flow on `apiBase` (its authorize page, code exchange,
    /// token info, revocation), sent through `http`.
    func oauthFlow(apiBase: String, http: any HTTPClient) -> any OAuthFlow

    // MARK: Reads

    /// A page of `source`.
    func timeline(_ source: TimelineSource, _ query: PageQuery, _ exchange: DialectExchange) async throws(RequestError) -> TimelinePage
    /// A page of the token owner's own statuses, newest first.
    func ownStatuses(_ query: PageQuery, _ exchange: DialectExchange) async throws(RequestError) -> TimelinePage
    /// One status.
    func status(id: String, _ exchange: DialectExchange) async throws(RequestError) -> Status
    /// The comments (Weibo) or the thread (Mastodon) of a status.
    func comments(statusID: String, _ query: PageQuery, _ exchange: DialectExchange) async throws(RequestError) -> CommentsPage
    /// One user.
    func user(_ user: UserReference, _ exchange: DialectExchange) async throws(RequestError) -> User
    /// Whether the token's owner follows `user`.
    func followingState(_ user: UserReference, _ exchange: DialectExchange) async throws(RequestError) -> FollowingState
    /// The token's rate limit.
    func rateLimits(_ exchange: DialectExchange) async throws(RequestError) -> RateLimitStatus

    // MARK: Writes

    /// Posts `draft` (its media already uploaded: `mediaIDs`); the new status.
    /// An API refuses the options it lacks before any request.
    func post(_ draft: StatusDraft, _ exchange: DialectExchange) async throws(RequestError) -> Status
    /// Uploads `file` with its alt text; `url` is nil while the server still processes it.
    func uploadMedia(_ file: MediaFile, _ exchange: DialectExchange) async throws(RequestError) -> MediaAttachment
    /// An uploaded attachment as it stands (asked again while it is processed).
    func media(id: String, _ exchange: DialectExchange) async throws(RequestError) -> MediaAttachment
    /// Votes for `choices` (0-based) in the poll `pollID`; the poll as it stands after.
    func vote(pollID: String, choices: [Int], _ exchange: DialectExchange) async throws(RequestError) -> Poll
    /// Deletes the token owner's status `id`; the status as it was.
    func delete(id: String, _ exchange: DialectExchange) async throws(RequestError) -> Status
    /// Takes back `repost`, a repost of `original`, by the API's own call.
    func unrepost(_ repost: String, of original: String, _ exchange: DialectExchange) async throws(RequestError) -> Status
    /// Reposts (boosts) `id`, with `text` where the API takes one; the repost.
    func repost(id: String, text: String?, _ exchange: DialectExchange) async throws(RequestError) -> Status
    /// Favourites or unfavourites `id`.
    func setFavorite(_ favorite: Bool, id: String, _ exchange: DialectExchange) async throws(RequestError) -> Favorite
    /// Comments `text` on `statusID` (Mastodon: a reply to it).
    func comment(statusID: String, text: String, _ exchange: DialectExchange) async throws(RequestError) -> Comment
    /// Replies `text` to the comment `commentID` on `statusID`.
    func reply(statusID: String, commentID: String, text: String, _ exchange: DialectExchange) async throws(RequestError) -> Comment
    /// Deletes the comment `commentID` on `statusID`.
    func deleteComment(statusID: String, commentID: String, _ exchange: DialectExchange) async throws(RequestError) -> Comment
    /// Follows or unfollows `user`; the user.
    func setFollowing(_ follow: Bool, _ user: UserReference, _ exchange: DialectExchange) async throws(RequestError) -> User
}

/// What an API can do where APIs differ, so the surface (help, refusals
/// before any request) follows the connected one. Timelines and page sizes
/// are `Dialect.maximumCount(for:)`.
public struct Capabilities: Sendable, Hashable {
    /// Whether a repost carries text of its own (Weibo's); a Mastodon boost has none.
    public var repostTakesText: Bool
    /// Whether a deleted status can be restored as it was (neither API can: undo posts its text again).
    public var restoresDeletedStatus: Bool
    // Posting (post --visibility/--cw/--reply/--language, --media, --poll; vote).
    /// Whether a post takes a visibility, a content warning, a language and a status to reply to.
    public var postOptions = false
    /// Whether files can be attached to a post (uploaded first).
    public var uploadsMedia = false
    /// Whether a post can carry a poll, and polls take votes.
    public var polls = false

    public init(repostTakesText: Bool, restoresDeletedStatus: Bool = false) {
        self.repostTakesText = repostTakesText
        self.restoresDeletedStatus = restoresDeletedStatus
    }

    /// One line saying why this API cannot post `draft` (naming the first
    /// option it lacks), or nil when it can. `api` names the API.
    public func refusal(of draft: StatusDraft, api: String) -> String? {
        let lacking: [(Bool, String, String)] = [
            (draft.visibility != nil && !postOptions, "--visibility", "visibility"),
            (draft.spoiler != nil && !postOptions, "--cw", "content warnings"),
            (draft.inReplyTo != nil && !postOptions, "--reply", "replies as statuses (comment N TEXT comments)"),
            (draft.language != nil && !postOptions, "--language", "a language for a status"),
            ((!draft.media.isEmpty || !draft.mediaIDs.isEmpty) && !uploadsMedia, "--media", "media uploads"),
            (draft.poll != nil && !polls, "--poll", "polls"),
        ]
        return lacking.first { $0.0 }.map { "\($0.1): \(api) has no \($0.2)" }
    }
}

/// The dialects by the names accounts record them under.
public enum Dialects {
    /// The dialect called `name` (`weibo`, `mastodon`); Weibo for nil
    /// (accounts stored before Mastodon) or a name this wsh does not know.
    public static func named(_ name: String?) -> any Dialect {
        name == MastodonDialect().name ? MastodonDialect() : WeiboDialect()
    }
}

/// Weibo API v2: its own paths (`statuses/public_timeline.json`, …), page
/// numbers on the public timeline, an inclusive `max_id` elsewhere.
public struct WeiboDialect: Dialect {
    public init() {}

    public var name: String { "weibo" }
    public var authScheme: String { "OAuth2" }
    public var capabilities: Capabilities { Capabilities(repostTakesText: true) }

    public func maximumCount(for source: TimelineSource) -> Int? {
        switch source {
        case .public: 200
        case .home, .user, .mentions, .reposts: 100
        case .local, .tag: nil
        }
    }

    public func pagesByCursor(_ source: TimelineSource) -> Bool { source != .public }

    public var maxIDIsInclusive: Bool { true }

    /// Weibo's OAuth2 beside its API (`oauth2/…`), with an app registered at open.weibo.com.
    public func oauthFlow(apiBase: String, http: any HTTPClient) -> any OAuthFlow {
        OAuthClient(apiBase: apiBase, http: http)
    }

    // MARK: Reads

    public func timeline(_ source: TimelineSource, _ query: PageQuery, _ exchange: DialectExchange)
        async throws(RequestError) -> TimelinePage {
        let path: String
        var parameters: [(String, String)]
        switch source {
        case .public: (path, parameters) = ("statuses/public_timeline.json", [])
        case .home: (path, parameters) = ("statuses/home_timeline.json", [])
        case .mentions: (path, parameters) = ("statuses/mentions.json", [])
        case .user(let user): (path, parameters) = ("statuses/user_timeline.json", [user.weiboParameter])
        case .reposts(let id): (path, parameters) = ("statuses/repost_timeline.json", [("id", id)])
        case .local, .tag: throw .configuration("Weibo has no \(source) timeline")
        }
        parameters += Self.paging(query)
        return try await exchange.fetch(TimelinePage.self, Endpoint(.get, path, parameters: parameters))
    }

    public func ownStatuses(_ query: PageQuery, _ exchange: DialectExchange) async throws(RequestError) -> TimelinePage {
        // Without `uid`, Weibo answers for the token's owner.
        try await exchange.fetch(TimelinePage.self, Endpoint(.get, "statuses/user_timeline.json", parameters: Self.paging(query)))
    }

    public func status(id: String, _ exchange: DialectExchange) async throws(RequestError) -> Status {
        try await exchange.fetch(Status.self, Endpoint(.get, "statuses/show.json", parameters: [("id", id)]))
    }

    public func comments(statusID: String, _ query: PageQuery, _ exchange: DialectExchange) async throws(RequestError) -> CommentsPage {
        try await exchange.fetch(CommentsPage.self, Endpoint(.get, "comments/show.json", parameters: [("id", statusID)] + Self.paging(query)))
    }

    public func user(_ user: UserReference, _ exchange: DialectExchange) async throws(RequestError) -> User {
        try await exchange.fetch(User.self, Endpoint(.get, "users/show.json", parameters: [user.weiboParameter]))
    }

    public func followingState(_ user: UserReference, _ exchange: DialectExchange) async throws(RequestError) -> FollowingState {
        try await exchange.fetch(FollowingState.self, Endpoint(.get, "users/show.json", parameters: [user.weiboParameter]))
    }

    public func rateLimits(_ exchange: DialectExchange) async throws(RequestError) -> RateLimitStatus {
        try await exchange.fetch(RateLimitStatus.self, Endpoint(.get, "account/rate_limit_status.json"))
    }

    // MARK: Writes

    /// Weibo posts text alone here (its picture upload is not wired): every other option is refused.
    public func post(_ draft: StatusDraft, _ exchange: DialectExchange) async throws(RequestError) -> Status {
        if let refusal = capabilities.refusal(of: draft, api: "Weibo") { throw .configuration(refusal) }
        return try await exchange.fetch(Status.self, Endpoint(.post, "statuses/update.json", parameters: [("status", draft.text)]))
    }

    public func uploadMedia(_ file: MediaFile, _ exchange: DialectExchange) async throws(RequestError) -> MediaAttachment {
        throw .configuration("--media: Weibo has no media uploads")
    }

    public func media(id: String, _ exchange: DialectExchange) async throws(RequestError) -> MediaAttachment {
        throw .configuration("--media: Weibo has no media uploads")
    }

    public func vote(pollID: String, choices: [Int], _ exchange: DialectExchange) async throws(RequestError) -> Poll {
        throw .configuration("Weibo has no polls")
    }

    public func delete(id: String, _ exchange: DialectExchange) async throws(RequestError) -> Status {
        try await exchange.fetch(Status.self, Endpoint(.post, "statuses/destroy.json", parameters: [("id", id)]))
    }

    /// Weibo takes a repost back by deleting the repost status.
    public func unrepost(_ repost: String, of original: String, _ exchange: DialectExchange) async throws(RequestError) -> Status {
        try await delete(id: repost, exchange)
    }

    public func repost(id: String, text: String?, _ exchange: DialectExchange) async throws(RequestError) -> Status {
        var parameters = [("id", id)]
        if let text { parameters.append(("status", text)) }
        return try await exchange.fetch(Status.self, Endpoint(.post, "statuses/repost.json", parameters: parameters))
    }

    public func setFavorite(_ favorite: Bool, id: String, _ exchange: DialectExchange) async throws(RequestError) -> Favorite {
        try await exchange.fetch(Favorite.self, Endpoint(.post, favorite ? "favorites/create.json" : "favorites/destroy.json",
                                                         parameters: [("id", id)]))
    }

    public func comment(statusID: String, text: String, _ exchange: DialectExchange) async throws(RequestError) -> Comment {
        try await exchange.fetch(Comment.self, Endpoint(.post, "comments/create.json", parameters: [("id", statusID), ("comment", text)]))
    }

    public func reply(statusID: String, commentID: String, text: String, _ exchange: DialectExchange)
        async throws(RequestError) -> Comment {
        try await exchange.fetch(Comment.self, Endpoint(.post, "comments/reply.json",
                                                        parameters: [("id", statusID), ("cid", commentID), ("comment", text)]))
    }

    public func deleteComment(statusID: String, commentID: String, _ exchange: DialectExchange) async throws(RequestError) -> Comment {
        try await exchange.fetch(Comment.self, Endpoint(.post, "comments/destroy.json", parameters: [("cid", commentID)]))
    }

    public func setFollowing(_ follow: Bool, _ user: UserReference, _ exchange: DialectExchange) async throws(RequestError) -> User {
        try await exchange.fetch(User.self, Endpoint(.post, follow ? "friendships/create.json" : "friendships/destroy.json",
                                                     parameters: [user.weiboParameter]))
    }

    /// `count`, then `page`, `since_id`, `max_id` as the query gives them.
    private static func paging(_ query: PageQuery) -> [(String, String)] {
        var parameters = [("count", String(query.count))]
        if let page = query.page { parameters.append(("page", String(page))) }
        if let sinceID = query.sinceID { parameters.append(("since_id", sinceID)) }
        if let maxID = query.maxID { parameters.append(("max_id", maxID)) }
        return parameters
    }
}

extension UserReference {
    /// The Weibo parameter naming this user: `uid` or `screen_name`.
    var weiboParameter: (String, String) {
        switch self {
        case .uid(let uid): ("uid", uid)
        case .screenName(let name): ("screen_name", name)
        }
    }
}
