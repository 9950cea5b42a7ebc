import FoundationEssentials
import WshModel
import WshRequest

/// Weibo API v2: its own paths (`statuses/public_timeline.json`, …), page
/// numbers on the public timeline, an inclusive `max_id` elsewhere.
public struct WeiboDialect: Dialect {
    public init() {}

    public var name: String { "weibo" }
    public var authScheme: String { "OAuth2" }
    public var errors: any APIErrors { WeiboErrors() }
    public var capabilities: Capabilities {
        Capabilities(repostTakesText: true, searchFinds: [.statuses],
                     offering: [\.listsRebloggedBy, \.uploadsMedia, \.picturesWithPost])
    }

    public func maximumCount(for source: TimelineSource) -> Int? {
        switch source {
        case .public: 200
        case .home, .user, .mentions, .reposts: 100
        case .favourites: 50
        case .local, .tag, .list, .bookmarks, .archive: nil
        }
    }

    public func pagesByCursor(_ source: TimelineSource) -> Bool { source != .public && source != .favourites }

    public var maxIDIsInclusive: Bool { true }

    public func readBack(_ what: ReadBack) -> ReadBackHint {
        switch what {
        case .status(let id), .statusSource(let id): ReadBackHint("api get statuses/show.json id=\(id)")
        case .toggle(let toggle, let id): ReadBackHint("api get statuses/show.json id=\(id)", field: toggle.field[name])
        case .comments(let id): ReadBackHint("api get comments/show.json id=\(id)")
        case .ownRecentStatuses: ReadBackHint("api get statuses/user_timeline.json count=5")
        case .account(let toggle, let user): ReadBackHint("api get users/show.json \(user.weiboArgument)", field: toggle.field[name])
        case .relationship(let field, _): ReadBackHint("api get friendships/show.json", field: field)
        case .listAccounts: ReadBackHint("api get friendships/groups.json")
        }
    }

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
        case .favourites:
            // Favorites page by number; the statuses, in the order they were favourited.
            let favorites = try await exchange.fetch(FavoritesPage.self, Endpoint(.get, "favorites.json", parameters: Self.paging(query)))
            return TimelinePage(statuses: favorites.favorites.compactMap(\.status), totalNumber: favorites.totalNumber)
        case .local, .tag, .list, .bookmarks, .archive: throw .configuration(Self.lacks(source.description))
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
        try await exchange.fetch(CommentsPage.self, call(for: .readComments).endpoint([("id", statusID)] + Self.paging(query)))
    }

    public func user(_ user: UserReference, _ exchange: DialectExchange) async throws(RequestError) -> User {
        try await exchange.fetch(User.self, Endpoint(.get, "users/show.json", parameters: [user.weiboParameter]))
    }

    public func rateLimits(_ exchange: DialectExchange) async throws(RequestError) -> RateLimitStatus {
        try await exchange.fetch(RateLimitStatus.self, call(for: .rateLimits).endpoint())
    }

    // MARK: Writes

    /// Weibo posts text (`statuses/update.json`), or text and one picture in
    /// the same request (`statuses/upload.json`, multipart: `status` and the
    /// file `pic`, streamed from disk); every other option is refused.
    public func post(_ draft: StatusDraft, _ exchange: DialectExchange) async throws(RequestError) -> Status {
        if let refusal = capabilities.refusal(of: draft, api: "Weibo") { throw .configuration(refusal) }
        guard let picture = draft.media.first else {
            return try await exchange.fetch(Status.self, Endpoint(.post, "statuses/update.json", parameters: [("status", draft.text)]))
        }
        let parts = [MultipartPart("status", .text(draft.text)),
                     MultipartPart("pic", .file(path: picture.path, filename: picture.filename, contentType: picture.contentType))]
        return try await exchange.fetch(Status.self, Endpoint(.post, "statuses/upload.json", multipart: parts))
    }

    /// Weibo's picture goes with its post (`post`): nothing is uploaded first.
    public func uploadMedia(_ file: MediaFile, _ exchange: DialectExchange) async throws(RequestError) -> MediaAttachment {
        throw .configuration("--media: Weibo sends its picture with the post (statuses/upload.json)")
    }

    public func media(id: String, _ exchange: DialectExchange) async throws(RequestError) -> MediaAttachment {
        throw .configuration("--media: Weibo sends its picture with the post (statuses/upload.json)")
    }

    public func vote(pollID: String, choices: [Int], _ exchange: DialectExchange) async throws(RequestError) -> Poll {
        throw .configuration("Weibo has no polls")
    }

    public func delete(id: String, _ exchange: DialectExchange) async throws(RequestError) -> Status {
        try await exchange.fetch(Status.self, call(for: .delete).endpoint([("id", id)]))
    }

    /// Weibo takes a repost back by deleting the repost status.
    public func unrepost(_ repost: String, of original: String, _ exchange: DialectExchange) async throws(RequestError) -> Status {
        try await delete(id: repost, exchange)
    }

    public func repost(id: String, text: String?, _ exchange: DialectExchange) async throws(RequestError) -> Status {
        var parameters = [("id", id)]
        if let text { parameters.append(("status", text)) }
        return try await exchange.fetch(Status.self, call(for: .repost).endpoint(parameters))
    }

    public func toggle(_ call: ToggleCall, statusID: String, _ exchange: DialectExchange) async throws(RequestError) -> Status? {
        let endpoint = call.endpoint(id: statusID)
        switch call.answer {
        case .wrapped: return try await exchange.fetch(Favorite.self, endpoint).status
        default: return try await exchange.fetch(Status.self, endpoint)
        }
    }

    public func comment(statusID: String, text: String, _ exchange: DialectExchange) async throws(RequestError) -> Comment {
        try await exchange.fetch(Comment.self, call(for: .comment).endpoint([("id", statusID), ("comment", text)]))
    }

    public func reply(statusID: String, commentID: String, text: String, _ exchange: DialectExchange)
        async throws(RequestError) -> Comment {
        try await exchange.fetch(Comment.self, call(for: .reply).endpoint(
            [("id", statusID), ("cid", commentID), ("comment", text)]))
    }

    public func deleteComment(statusID: String, commentID: String, _ exchange: DialectExchange) async throws(RequestError) -> Comment {
        try await exchange.fetch(Comment.self, call(for: .deleteComment).endpoint([("cid", commentID)]))
    }

    /// The user goes in the form field they were named by (`uid` or `screen_name`).
    public func toggle(_ call: ToggleCall, account user: UserReference, _ exchange: DialectExchange) async throws(RequestError) -> User? {
        try await exchange.fetch(User.self, Endpoint(call.method, call.path, parameters: [user.weiboParameter]))
    }

    // MARK: Bookmarks and lists: Weibo has neither.

    /// `Weibo has no bookmarks`: the one line for what Weibo lacks.
    static func lacks(_ what: String) -> String { "Weibo has no \(what)" }

    public func lists(_ exchange: DialectExchange) async throws(RequestError) -> [UserList] {
        throw .configuration(Self.lacks("lists"))
    }

    public func listMembers(listID: String, _ exchange: DialectExchange) async throws(RequestError) -> [User] {
        throw .configuration(Self.lacks("lists"))
    }

    public func createList(title: String, _ exchange: DialectExchange) async throws(RequestError) -> UserList {
        throw .configuration(Self.lacks("lists"))
    }

    public func deleteList(listID: String, _ exchange: DialectExchange) async throws(RequestError) {
        throw .configuration(Self.lacks("lists"))
    }

    public func setListMember(_ member: Bool, listID: String, _ user: UserReference, _ exchange: DialectExchange)
        async throws(RequestError) -> User {
        throw .configuration(Self.lacks("lists"))
    }

    // MARK: Edits and scheduled statuses: Weibo has neither

    public func statusSource(id: String, _ exchange: DialectExchange) async throws(RequestError) -> StatusSource {
        throw Self.cannotEdit
    }

    public func edit(id: String, text: String, _ exchange: DialectExchange) async throws(RequestError) -> Status {
        throw Self.cannotEdit
    }

    public func editHistory(id: String, _ exchange: DialectExchange) async throws(RequestError) -> [StatusEdit] {
        throw Self.cannotEdit
    }

    public func schedule(_ draft: StatusDraft, at: Timestamp, _ exchange: DialectExchange) async throws(RequestError) -> ScheduledStatus {
        throw Self.cannotSchedule
    }

    public func scheduledStatuses(count: Int, cursor: String?, _ exchange: DialectExchange) async throws(RequestError) -> ScheduledPage {
        throw Self.cannotSchedule
    }

    public func scheduledStatus(id: String, _ exchange: DialectExchange) async throws(RequestError) -> ScheduledStatus {
        throw Self.cannotSchedule
    }

    public func unschedule(id: String, _ exchange: DialectExchange) async throws(RequestError) {
        throw Self.cannotSchedule
    }

    static let cannotEdit = RequestError.configuration("Weibo cannot edit a status")
    static let cannotSchedule = RequestError.configuration("Weibo cannot schedule a status")

    // MARK: What Weibo lacks

    public func notifications(_ query: NotificationQuery, _ exchange: DialectExchange) async throws(RequestError) -> NotificationsPage {
        throw Self.lacks("notifications")
    }

    public func notification(id: String, _ exchange: DialectExchange) async throws(RequestError) -> ActivityNotification {
        throw Self.lacks("notifications")
    }

    public func dismissNotification(id: String, _ exchange: DialectExchange) async throws(RequestError) {
        throw Self.lacks("notifications")
    }

    public func clearNotifications(_ exchange: DialectExchange) async throws(RequestError) {
        throw Self.lacks("notifications")
    }

    public func conversations(count: Int, _ exchange: DialectExchange) async throws(RequestError) -> [Conversation] {
        throw Self.lacks("direct conversations")
    }

    public func streamTimeline(_ source: TimelineSource, _ exchange: DialectExchange,
                               event: @escaping @Sendable (TimelineStreamEvent) -> Bool) async throws(RequestError) {
        throw Self.lacks("streaming API")
    }

    /// The one line for a feature Weibo's API does not have.
    static func lacks(_ feature: String) -> RequestError {
        .configuration("Weibo has no \(feature)")
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

    /// The same as an `api` argument: `uid=123` or `screen_name=name`.
    var weiboArgument: String { "\(weiboParameter.0)=\(weiboParameter.1)" }
}
