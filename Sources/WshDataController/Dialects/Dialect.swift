import FoundationEssentials
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
/// builds its own requests inside its own folder (`Weibo/WeiboDialect`,
/// `Mastodon/MastodonDialect`), decodes its own entities into the Model and
/// classifies its own errors (`ErrorKind`). Nothing above the DataControllers
/// knows which dialect answers.
public protocol Dialect: Sendable {
    /// `weibo` or `mastodon`, as `--dialect` and `status` name it.
    var name: String { get }
    /// The server's name where a refusal names it: the software detection
    /// found (`sharkey`), else the dialect's `name`.
    var serverName: String { get }
    /// How the token is sent: `Authorization: SCHEME TOKEN`.
    var authScheme: String { get }
    /// How this API's error bodies read (its fields, what each failure means):
    /// the client reads each body once, by these rules.
    var errors: any APIErrors { get }
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
    /// True when the server orders `source`'s pages by status id, newest
    /// first, so that each older page brings only lower ids (`PageWalk`).
    /// By default as `TimelineSource.ordersByStatusID` says.
    func ordersByStatusID(_ source: TimelineSource) -> Bool
    /// The id a cursor of this API's own (`UserPage.next`, `NotificationsPage.next`,
    /// a `PageLink`'s query) says the next page is older than, which a
    /// walk checks goes down (`PageWalk`); nil when it says none. By default none.
    func olderThanID(inCursor cursor: String) -> String?
    /// The API's OAuth flow on `apiBase` (its authorize page, code exchange,
    /// token info, revocation), sent through `http`.
    func oauthFlow(apiBase: String, http: any HTTPClient) -> any OAuthFlow
    /// Paths `api` completes on this API (relative to its base), the ones most asked.
    var apiPaths: [String] { get }
    /// `api` command lines that work on this API as written, for `help api`.
    var apiExamples: [String] { get }
    /// The call this API makes for `operation`, as help names it (`help favorite`).
    func call(for operation: SharedOperation) -> OperationCall
    /// How a user reads `what` back on this API (`api get …`), to see whether a lost write took effect.
    func readBack(_ what: ReadBack) -> ReadBackHint

    // MARK: Reads

    /// A page of `source`.
    func timeline(_ source: TimelineSource, _ query: PageQuery, _ exchange: DialectExchange) async throws(RequestError) -> TimelinePage
    /// A page of the token owner's own statuses, newest first.
    func ownStatuses(_ query: PageQuery, _ exchange: DialectExchange) async throws(RequestError) -> TimelinePage
    /// How many statuses the server lets an account delete in a window, where deletions have a limit of
    /// their own (Mastodon: 30 in 30 minutes); nil: only the account's rate limit holds. By default nil.
    var deletionPace: DeletionPace? { get }
    /// The ids of the token owner's pinned statuses; nil on an API without pins (Weibo). By default nil.
    func pinnedStatusIDs(_ exchange: DialectExchange) async throws(RequestError) -> Set<String>?
    /// One status.
    func status(id: String, _ exchange: DialectExchange) async throws(RequestError) -> Status
    /// The comments (Weibo) or the thread (Mastodon) of a status.
    func comments(statusID: String, _ query: PageQuery, _ exchange: DialectExchange) async throws(RequestError) -> CommentsPage
    /// One user.
    func user(_ user: UserReference, _ exchange: DialectExchange) async throws(RequestError) -> User
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
    /// Sends `call`, one way of a `StatusToggle` (favourite, bookmark…), for
    /// the status `statusID`; the status as the server answers it, if it does.
    func toggle(_ call: ToggleCall, statusID: String, _ exchange: DialectExchange) async throws(RequestError) -> Status?
    /// Comments `text` on `statusID` (Mastodon: a reply to it).
    func comment(statusID: String, text: String, _ exchange: DialectExchange) async throws(RequestError) -> Comment
    /// Replies `text` to the comment `commentID` on `statusID`.
    func reply(statusID: String, commentID: String, text: String, _ exchange: DialectExchange) async throws(RequestError) -> Comment
    /// Deletes the comment `commentID` on `statusID`.
    func deleteComment(statusID: String, commentID: String, _ exchange: DialectExchange) async throws(RequestError) -> Comment
    /// Sends `call`, one way of an `AccountToggle` (follow, block…), for
    /// `user`; the account as the server answers it (or reads it again after),
    /// nil when it does neither.
    func toggle(_ call: ToggleCall, account user: UserReference, _ exchange: DialectExchange) async throws(RequestError) -> User?

    // MARK: Search and account relations (WeiboDialect+Relations.swift, MastodonDialect+Relations.swift)

    /// Searches `query` for the `kinds` asked (all the API finds when empty), at most `limit` of each.
    func search(_ query: String, kinds: Set<SearchKind>, limit: Int, resolve: Bool, _ exchange: DialectExchange)
        async throws(RequestError) -> SearchResults
    /// A page of `user`'s followers or of whom they follow, from `cursor` (nil: the first).
    func accounts(_ list: AccountList, of user: UserReference, count: Int, cursor: String?, _ exchange: DialectExchange)
        async throws(RequestError) -> UserPage
    /// A page of the accounts the token's owner mutes or blocks, from `cursor` (nil: the first).
    func ownAccounts(_ list: OwnAccountList, count: Int, cursor: String?, _ exchange: DialectExchange)
        async throws(RequestError) -> UserPage
    /// The domain of the server's own accounts, as an address `user@domain` writes it (nil: it has none).
    func accountDomain(_ exchange: DialectExchange) async throws(RequestError) -> String?
    /// Mutes `user` on the server (for `duration` seconds, nil: for ever; their notifications too
    /// when `notifications`) or unmutes them; the relationship after.
    func setServerMute(_ mute: Bool, _ user: UserReference, duration: Int?, notifications: Bool, _ exchange: DialectExchange)
        async throws(RequestError) -> Relationship
    /// The token owner's relationship to `user` (follow, block, mute), to resolve a lost answer.
    func relationship(_ user: UserReference, _ exchange: DialectExchange) async throws(RequestError) -> Relationship
    /// The token owner's filters (`capabilities.filters`).
    func filters(_ exchange: DialectExchange) async throws(RequestError) -> [ContentFilter]
    /// A page of who favourited (or boosted) the status `statusID`, from `cursor` (nil: the first).
    func statusAccounts(_ list: StatusAccountList, statusID: String, count: Int, cursor: String?, _ exchange: DialectExchange)
        async throws(RequestError) -> UserPage
    // MARK: Bookmarks and lists (`capabilities.bookmarks`, `capabilities.lists`)

    /// The token owner's lists.
    func lists(_ exchange: DialectExchange) async throws(RequestError) -> [UserList]
    /// The accounts on the list `listID`.
    func listMembers(listID: String, _ exchange: DialectExchange) async throws(RequestError) -> [User]
    /// Creates a list called `title`.
    func createList(title: String, _ exchange: DialectExchange) async throws(RequestError) -> UserList
    /// Deletes the list `listID`.
    func deleteList(listID: String, _ exchange: DialectExchange) async throws(RequestError)
    /// Adds `user` to the list `listID` (or removes them); the user.
    func setListMember(_ member: Bool, listID: String, _ user: UserReference, _ exchange: DialectExchange) async throws(RequestError) -> User
    // MARK: Edits and scheduled statuses (`Capabilities.editsStatuses`, `.schedulesStatuses`)

    /// The status `id` as its author wrote it (plain text, never the HTML).
    func statusSource(id: String, _ exchange: DialectExchange) async throws(RequestError) -> StatusSource
    /// Edits the token owner's status `id` to say `text`, keeping everything else; the status edited.
    func edit(id: String, text: String, _ exchange: DialectExchange) async throws(RequestError) -> Status
    /// Every version of the status `id`, the original first.
    func editHistory(id: String, _ exchange: DialectExchange) async throws(RequestError) -> [StatusEdit]
    /// Schedules `draft` (its media already uploaded) to be posted at `at`; the scheduled status (not a status yet).
    func schedule(_ draft: StatusDraft, at: Timestamp, _ exchange: DialectExchange) async throws(RequestError) -> ScheduledStatus
    /// A page of the token owner's scheduled statuses, at most `count`, from `cursor` (nil: the first).
    func scheduledStatuses(count: Int, cursor: String?, _ exchange: DialectExchange) async throws(RequestError) -> ScheduledPage
    /// One scheduled status.
    func scheduledStatus(id: String, _ exchange: DialectExchange) async throws(RequestError) -> ScheduledStatus
    /// Cancels the scheduled status `id`.
    func unschedule(id: String, _ exchange: DialectExchange) async throws(RequestError)
    // MARK: Notifications and conversations (`Capabilities.notifications`, `.conversations`)

    /// A page of the token owner's notifications, newest first.
    func notifications(_ query: NotificationQuery, _ exchange: DialectExchange) async throws(RequestError) -> NotificationsPage
    /// One notification (what a lost dismiss is checked against).
    func notification(id: String, _ exchange: DialectExchange) async throws(RequestError) -> ActivityNotification
    /// Dismisses notification `id`; there is no call that brings it back.
    func dismissNotification(id: String, _ exchange: DialectExchange) async throws(RequestError)
    /// Dismisses every notification; there is no call that brings them back.
    func clearNotifications(_ exchange: DialectExchange) async throws(RequestError)
    /// The token owner's direct conversations, newest first.
    func conversations(count: Int, _ exchange: DialectExchange) async throws(RequestError) -> [Conversation]

    // MARK: Streaming (`Capabilities.streaming`)

    /// Follows `source` on the server's streaming API: `event` hears
    /// `.opened` once the stream is open, then `.status` for each new status
    /// (returning false stops it), until the server ends it or the task is
    /// cancelled. Throws `.configuration` for a timeline or server without a stream.
    func streamTimeline(_ source: TimelineSource, _ exchange: DialectExchange,
                        event: @escaping @Sendable (TimelineStreamEvent) -> Bool) async throws(RequestError)
}

extension Dialect {
    public var serverName: String { name }

    public func ordersByStatusID(_ source: TimelineSource) -> Bool { source.ordersByStatusID }

    public func olderThanID(inCursor cursor: String) -> String? { nil }

    public func pinnedStatusIDs(_ exchange: DialectExchange) async throws(RequestError) -> Set<String>? { nil }

    public var deletionPace: DeletionPace? { nil }
}

/// A server's own limit on deletions: `count` in each `seconds`.
public struct DeletionPace: Sendable, Hashable {
    public var count: Int
    public var seconds: Int
}

/// What an API can do where APIs differ, so the surface (help, refusals
/// before any request) follows the connected one. Timelines and page sizes
/// are `Dialect.maximumCount(for:)`.
public struct Capabilities: Sendable, Hashable {
    /// Whether a repost carries text of its own (Weibo's); a Mastodon boost has none.
    public var repostTakesText: Bool
    /// Whether a deleted status can be restored as it was (neither API can: undo posts its text again).
    public var restoresDeletedStatus: Bool
    /// What `search` finds here (Weibo's topic search: statuses only).
    public var searchFinds: Set<SearchKind> = []
    /// Whether accounts can be blocked (`block`, `unblock`).
    public var blocksAccounts = false
    /// Whether accounts can be muted on the server (`mute --server`).
    public var mutesOnServer = false
    /// Whether statuses can be bookmarked (`bookmark N`, `fetch bookmarks`): Mastodon's.
    public var bookmarks = false
    /// Whether the account keeps lists of accounts (`lists`, `fetch list NAME`): Mastodon's.
    public var lists = false
    /// Whether an own status can be edited, with its history (`edit`, `edits`; Mastodon).
    public var editsStatuses = false
    /// Whether a status can be scheduled (`post --at`, `scheduled`, `unschedule`; Mastodon).
    public var schedulesStatuses = false
    /// Whether it has notifications (`notifications`, `dismiss`; none can be restored once dismissed).
    public var notifications = false
    /// Whether it has direct conversations (`conversations`).
    public var conversations = false
    /// Whether it has a streaming API (`watch --stream`; without it, watch polls).
    public var streaming = false
    /// Whether the account has filters that the server applies to what it sends (`filters`; a status's `filtered`).
    public var filters = false
    /// Whether the server says who favourited a status (`favourited-by N`).
    public var listsFavouritedBy = false
    /// Whether the server says who boosted (reposted) a status (`reblogged-by N`).
    public var listsRebloggedBy = false
    // Posting (post --visibility/--cw/--reply/--language, --media, --poll; vote).
    /// Whether a post takes a visibility, a content warning, a language and a status to reply to.
    public var postOptions = false
    /// Whether files can be attached to a post (uploaded first).
    public var uploadsMedia = false
    /// Whether a post can carry a poll, and polls take votes.
    public var polls = false
    /// Whether a post's media go in the post's own request, one picture and
    /// no alt text (Weibo's picture upload), rather than uploaded first.
    public var picturesWithPost = false

    /// An API's capabilities: the `features` it offers turned on, every other flag off.
    public init(repostTakesText: Bool, restoresDeletedStatus: Bool = false, searchFinds: Set<SearchKind> = [],
                offering features: [WritableKeyPath<Capabilities, Bool>] = []) {
        self.repostTakesText = repostTakesText
        self.restoresDeletedStatus = restoresDeletedStatus
        self.searchFinds = searchFinds
        for feature in features { self[keyPath: feature] = true }
    }

    /// Every flag above of what only some APIs do (all false by default):
    /// what an API that does all of it (the Mastodon family) offers.
    static var features: [WritableKeyPath<Capabilities, Bool>] {
        [\.blocksAccounts, \.mutesOnServer, \.bookmarks, \.lists, \.editsStatuses, \.schedulesStatuses,
         \.notifications, \.conversations, \.streaming, \.postOptions, \.uploadsMedia, \.polls, \.filters,
         \.listsFavouritedBy, \.listsRebloggedBy]
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
        if let refusal = lacking.first(where: { $0.0 }).map({ "\($0.1): \(api) has no \($0.2)" }) { return refusal }
        if picturesWithPost {
            if draft.media.count > 1 { return "--media: \(api) takes one picture a post" }
            if draft.media.contains(where: { $0.description != nil }) { return "--alt: \(api) has no alt text" }
            if let other = draft.media.first(where: { !$0.contentType.hasPrefix("image/") || $0.contentType == "image/webp" }) {
                return "--media \(other.path): \(api) takes a JPG, GIF or PNG picture"
            }
        }
        return nil
    }
}

/// The dialects by the names accounts record them under.
public enum Dialects {
    /// Every dialect wsh speaks, for help that lists each API's.
    public static let all: [any Dialect] = [WeiboDialect(), MastodonDialect()]

    /// The dialect called `name` (`weibo`, `mastodon`); Weibo for nil
    /// (accounts stored before Mastodon) or a name this wsh does not know.
    public static func named(_ name: String?) -> any Dialect {
        name == "mastodon" ? MastodonDialect() : WeiboDialect()
    }
}

/// What one operation of a dialect sends, and what the trace shows of it:
/// the API client to send with, and every request really sent, in order (an
/// operation may send several: a lookup, the write, a read of its result).
public final class DialectExchange: @unchecked Sendable {
    /// One request of the operation and its answer.
    public struct Sent: Sendable {
        public var method: HTTPMethod
        public var url: String
        /// nil while in flight, or when it failed.
        public var response: HTTPResponse?
        /// From sending to the answer (or the failure).
        public var milliseconds: Double
    }

    /// The client requests go out through (its base, token and auth scheme).
    public let client: APIClient
    /// Every request sent, oldest first.
    public private(set) var sent: [Sent] = []
    /// The last request sent, for the trace.
    public var method: HTTPMethod? { sent.last?.method }
    public var url: String { sent.last?.url ?? "" }
    public var response: HTTPResponse? { sent.last?.response }

    public init(client: APIClient) {
        self.client = client
    }

    /// Sends `endpoint` and checks the answer (an API error body, a non-2xx status).
    public func send(_ endpoint: Endpoint) async throws(RequestError) -> HTTPResponse {
        try await record(endpoint.method, endpoint.url(base: client.configuration.baseURL)) { () throws(RequestError) in
            try await client.send(endpoint)
        }
    }

    /// Opens the event stream at `url` (see `APIClient.stream`), recorded for the trace like a request.
    public func stream(url: String, chunks: @escaping @Sendable (Data) -> Bool) async throws(RequestError) -> HTTPResponse {
        try await record(.get, url) { () throws(RequestError) in try await client.stream(url: url, chunks: chunks) }
    }

    /// Opens the WebSocket at `url` (see `APIClient.webSocket`), recorded for the trace like a request.
    public func webSocket(url: String, send: [String] = [],
                          messages: @escaping @Sendable (WebSocketMessage) -> Bool) async throws(RequestError) -> HTTPResponse {
        try await record(.get, url) { () throws(RequestError) in try await client.webSocket(url: url, send: send, messages: messages) }
    }

    /// Notes the request, runs it, and keeps its answer and how long it took.
    private func record(_ method: HTTPMethod, _ url: String,
                        _ request: () async throws(RequestError) -> HTTPResponse) async throws(RequestError) -> HTTPResponse {
        let clock = ContinuousClock()
        let start = clock.now
        sent.append(Sent(method: method, url: url, response: nil, milliseconds: 0))
        let index = sent.count - 1
        defer {
            let elapsed = clock.now - start
            sent[index].milliseconds = Double(elapsed.components.seconds) * 1000 + Double(elapsed.components.attoseconds) / 1e15
        }
        let answer = try await request()
        sent[index].response = answer
        return answer
    }

    /// Sends `endpoint` and decodes its body as `T` through the Model's decoding.
    ///
    /// The common answer, a 2xx body the Model's fast path reads whole
    /// without meeting an error field at its top, is read once (see
    /// `APIClient.send(_:readingQuickly:)`); any other is checked first and
    /// then decoded.
    public func fetch<T: Decodable & Sendable>(_ type: T.Type, _ endpoint: Endpoint) async throws(RequestError) -> T {
        var quick: T?
        let answer = try await record(endpoint.method, endpoint.url(base: client.configuration.baseURL)) { () throws(RequestError) in
            let sent = try await client.send(endpoint, readingQuickly: { body in
                ModelDecoding.decodeQuickly(T.self, from: body, declining: client.errors.errorFieldKeys)
            })
            quick = sent.value
            return sent.response
        }
        if let quick { return quick }
        do throws(ModelDecodingError) {
            return try ModelDecoding.decode(T.self, from: answer.body)
        } catch {
            throw RequestError.decoding(what: error.what, where: error.where, detail: error.detail)
        }
    }
}

/// How much of a timeline one request asks for, and from where: `count`
/// statuses, page `page` (a timeline paged by number), or older than `maxID`
/// / newer than `sinceID` (a cursor timeline; the cursor as the API gave it),
/// or the page a server's own link names (`link`: its query as sent, which
/// then says everything: the API sends it to the timeline's path unchanged).
public struct PageQuery: Sendable, Hashable {
    public var count: Int
    public var page: Int?
    public var maxID: String?
    public var sinceID: String?
    public var link: String?
}
