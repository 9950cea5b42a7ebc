import FoundationEssentials
import WshText
import WshModel
import WshRequest

/// Mastodon (and the servers that speak its API: Pleroma, Akkoma,
/// GoToSocial): each operation is the `/api/v1/…` request(s) that do it, and
/// Mastodon's entities are mapped onto the Model (`MastodonStatus.status`,
/// `MastodonAccount.user`, `MastodonContext.comments`); its errors are read
/// into `ErrorKind` here, and its pages follow its `Link` header.
///
/// What differs underneath, and stays here: ids are opaque strings and
/// `max_id` is exclusive (the DataControllers' one-extra-status request for
/// Weibo's inclusive `max_id` drops nothing here); pages hold at most 40;
/// there is no page number, every timeline pages by cursor; a user is named
/// by `acct` and reached by an account id looked up first; replies are
/// statuses in the thread (`context`); boosts and favourites are
/// per-status actions; rate limits come in `X-RateLimit-*` headers.
public struct MastodonDialect: Dialect {
    /// The server detection found (software, versions, what its API lacks); nil: Mastodon's full API.
    public let profile: ServerProfile?

    /// `profile`: the server as detection found it; nil (`--dialect mastodon`, the sandbox) assumes Mastodon's full API.
    public init(profile: ServerProfile? = nil) {
        self.profile = profile
    }

    public var name: String { "mastodon" }
    /// The software when detection named it (`sharkey`), so refusals name the server that lacks a feature.
    public var serverName: String { profile?.software.name ?? name }
    public var authScheme: String { "Bearer" }
    public var errors: any APIErrors { MastodonErrors() }
    public var capabilities: Capabilities { profile?.capabilities ?? Self.fullCapabilities }

    /// What Mastodon's own API offers: every feature.
    static let fullCapabilities = Capabilities(repostTakesText: false, searchFinds: Set(SearchKind.allCases),
                                               offering: Capabilities.features)

    /// Mastodon serves at most 40 statuses a page.
    static let pageLimit = 40

    public func maximumCount(for source: TimelineSource) -> Int? {
        if case .reposts = source { return nil }      // no timeline of boosts
        return Self.pageLimit
    }

    public func pagesByCursor(_ source: TimelineSource) -> Bool { true }

    /// `max_id` is exclusive, and each page's `Link` header says where the next starts.
    public var maxIDIsInclusive: Bool { false }

    /// Mentions are notifications, paged and ordered by the notification's
    /// id: a mention that federated late carries an older status id than
    /// the ones above it.
    public func ordersByStatusID(_ source: TimelineSource) -> Bool {
        source != .mentions && source.ordersByStatusID
    }

    /// Every cursor is the query of a `Link` header's `next`: its `max_id`
    /// (a status's, a notification's, a follow's, a bookmark's id).
    public func olderThanID(inCursor cursor: String) -> String? {
        PageLink.maxID(in: cursor)
    }

    public func readBack(_ what: ReadBack) -> ReadBackHint {
        switch what {
        case .status(let id): ReadBackHint("api get api/v1/statuses/\(id)")
        case .toggle(let toggle, let id): ReadBackHint("api get api/v1/statuses/\(id)", field: toggle.field[name])
        case .statusSource(let id): ReadBackHint("api get api/v1/statuses/\(id)/source")
        case .comments(let id): ReadBackHint("api get api/v1/statuses/\(id)/context")
        case .ownRecentStatuses: ReadBackHint("api get api/v1/timelines/home limit=5")
        case .account(let toggle, let user):
            ReadBackHint("api get api/v1/accounts/relationships id[]=\(Self.accountHint(user))", field: toggle.field[name])
        case .relationship(let field, let id): ReadBackHint("api get api/v1/accounts/relationships id[]=\(id ?? "ID")", field: field)
        case .listAccounts(let id): ReadBackHint("api get api/v1/lists/\(id)/accounts")
        }
    }

    /// The account's id for `api` (a name is looked up first: `api get api/v1/accounts/lookup acct=NAME`).
    private static func accountHint(_ user: UserReference) -> String {
        switch user {
        case .uid(let id): id
        case .screenName: "ID"
        }
    }

    /// Mastodon's OAuth at the server root, with an app wsh registers itself.
    public func oauthFlow(apiBase: String, http: any HTTPClient) -> any OAuthFlow {
        MastodonOAuthClient(apiBase: apiBase, http: http)
    }

    // MARK: Reads

    public func timeline(_ source: TimelineSource, _ query: PageQuery, _ exchange: DialectExchange)
        async throws(RequestError) -> TimelinePage {
        let call = Call(exchange)
        switch source {
        case .public: return try await call.timeline("api/v1/timelines/public", query)
        case .local: return try await call.timeline("api/v1/timelines/public", query, [("local", "true")])
        case .home: return try await call.timeline("api/v1/timelines/home", query)
        case .tag(let tag): return try await call.timeline("api/v1/timelines/tag/\(Call.segment(tag))", query)
        case .user(let user):
            let id = try await call.accountID(user)
            return try await call.timeline("api/v1/accounts/\(Call.segment(id))/statuses", query)
        case .mentions:
            let notifications = try await call.page([MastodonNotification].self, "api/v1/notifications", query,
                                                    [("types[]", "mention")] + Call.paging(query), limited: false)
            // The next page starts at a notification id, which only the Link header knows.
            let kept = call.body.flatMap { ServerJSON.members("status", ofElementsOf: $0) }
            let statuses = notifications.enumerated().compactMap { offset, notification -> Status? in
                guard var status = notification.status?.status else { return nil }
                if let kept, kept.count == notifications.count { status.serverJSON = kept[offset] }
                return status
            }
            return call.pagedByLink(TimelinePage(statuses: statuses))
        case .list(let name):
            let list = try await call.list(named: name)
            return try await call.timeline("api/v1/timelines/list/\(Call.segment(list.id))", query)
        // Paged by the bookmark's or favourite's own id, which only the Link header knows.
        case .bookmarks: return try await call.timeline("api/v1/bookmarks", query)
        case .favourites: return try await call.timeline("api/v1/favourites", query)
        case .reposts: throw .configuration("Mastodon has no timeline of a status's boosts")
        case .archive: throw .configuration("\(source) is answered by the archive, not the server")
        }
    }

    public func ownStatuses(_ query: PageQuery, _ exchange: DialectExchange) async throws(RequestError) -> TimelinePage {
        let call = Call(exchange)
        let id = try await call.accountID(nil)
        return try await call.timeline("api/v1/accounts/\(Call.segment(id))/statuses", query)
    }

    /// `GET /api/v1/accounts/:id/statuses?pinned=true`: Mastodon shows at most five pins, so one page holds them.
    public func pinnedStatusIDs(_ exchange: DialectExchange) async throws(RequestError) -> Set<String>? {
        let call = Call(exchange)
        let id = try await call.accountID(nil)
        let page = try await call.timeline("api/v1/accounts/\(Call.segment(id))/statuses", PageQuery(count: 40), [("pinned", "true")])
        return Set(page.statuses.compactMap(\.identifier))
    }

    /// Mastodon's own limit on deleting statuses (and unboosting): 30 in 30 minutes per account.
    public var deletionPace: DeletionPace? { DeletionPace(count: 30, seconds: 1800) }

    public func status(id: String, _ exchange: DialectExchange) async throws(RequestError) -> Status {
        let call = Call(exchange)
        return call.kept(try await call.get(MastodonStatus.self, "api/v1/statuses/\(Call.segment(id))").status, \.serverJSON)
    }

    public func comments(statusID: String, _ query: PageQuery, _ exchange: DialectExchange) async throws(RequestError) -> CommentsPage {
        let call = Call(exchange)
        let context = try await exchange.fetch(MastodonContext.self, self.call(for: .readComments).endpoint(id: statusID))
        // The whole thread, in thread order: cutting it at `count` would drop the newest replies.
        return context.comments(under: statusID, kept: call.body.flatMap { ServerJSON.elements(of: $0, member: "descendants") })
    }

    public func user(_ user: UserReference, _ exchange: DialectExchange) async throws(RequestError) -> User {
        let call = Call(exchange)
        switch user {
        case .uid(let uid): return call.kept(try await call.get(MastodonAccount.self, "api/v1/accounts/\(Call.segment(uid))").user, \.serverJSON)
        case .screenName(let name):
            return call.kept(try await call.get(MastodonAccount.self, "api/v1/accounts/lookup", [("acct", name)]).user, \.serverJSON)
        }
    }

    /// The token's rate limit, from the `X-RateLimit-*` headers of a cheap call.
    public func rateLimits(_ exchange: DialectExchange) async throws(RequestError) -> RateLimitStatus {
        let response = try await exchange.send(call(for: .rateLimits).endpoint())
        let headers = response.headers
        let reset = headers["x-ratelimit-reset"].flatMap(Timestamp.init(iso8601:))
        let seconds = reset.map { max(0, Int($0.date.timeIntervalSinceNow.rounded(.up))) }
        // The headers do not say how long the window is: no unit is claimed.
        return RateLimitStatus(
            remainingUserHits: headers["x-ratelimit-remaining"].flatMap { Int($0) },
            userLimit: headers["x-ratelimit-limit"].flatMap { Int($0) },
            resetTime: headers["x-ratelimit-reset"], resetTimeInSeconds: seconds, limitTimeUnit: nil)
    }

    // MARK: Writes

    public func post(_ draft: StatusDraft, _ exchange: DialectExchange) async throws(RequestError) -> Status {
        let call = Call(exchange)
        return call.kept(try await call.send(MastodonStatus.self, .post, "api/v1/statuses", Call.statusForm(draft)).status, \.serverJSON)
    }

    /// `POST /api/v2/media` (multipart: `file`, streamed from disk, and `description`);
    /// a 202 with `url: null` means the server is still processing it.
    public func uploadMedia(_ file: MediaFile, _ exchange: DialectExchange) async throws(RequestError) -> MediaAttachment {
        var parts = [MultipartPart("file", .file(path: file.path, filename: file.filename, contentType: file.contentType))]
        if let description = file.description { parts.append(MultipartPart("description", .text(description))) }
        return try await Call(exchange).upload(MastodonStatus.Media.self, "api/v2/media", parts).attachment
    }

    /// `GET /api/v1/media/:id` (206 and `url: null` while processing).
    public func media(id: String, _ exchange: DialectExchange) async throws(RequestError) -> MediaAttachment {
        try await Call(exchange).get(MastodonStatus.Media.self, "api/v1/media/\(Call.segment(id))").attachment
    }

    /// `POST /api/v1/polls/:id/votes` with `choices[]`, 0-based.
    public func vote(pollID: String, choices: [Int], _ exchange: DialectExchange) async throws(RequestError) -> Poll {
        try await Call(exchange).send(MastodonPoll.self, .post, "api/v1/polls/\(Call.segment(pollID))/votes",
                                      choices.map { ("choices[]", String($0)) }).poll
    }

    public func delete(id: String, _ exchange: DialectExchange) async throws(RequestError) -> Status {
        let call = Call(exchange)
        return call.kept(try await exchange.fetch(MastodonStatus.self, self.call(for: .delete).endpoint(id: id)).status, \.serverJSON)
    }

    /// Mastodon's own compensating call: unboost the original (deleting the boost status is not it).
    public func unrepost(_ repost: String, of original: String, _ exchange: DialectExchange) async throws(RequestError) -> Status {
        let call = Call(exchange)
        return call.kept(try await exchange.fetch(MastodonStatus.self, self.call(for: .unrepost).endpoint(id: original)).status,
                         \.serverJSON)
    }

    /// A boost takes no text of its own.
    public func repost(id: String, text: String?, _ exchange: DialectExchange) async throws(RequestError) -> Status {
        let call = Call(exchange)
        return call.kept(try await exchange.fetch(MastodonStatus.self, self.call(for: .repost).endpoint(id: id)).status, \.serverJSON)
    }

    public func toggle(_ toggle: ToggleCall, statusID: String, _ exchange: DialectExchange) async throws(RequestError) -> Status? {
        let call = Call(exchange)
        return call.kept(try await exchange.fetch(MastodonStatus.self, toggle.endpoint(id: statusID)).status, \.serverJSON)
    }

    /// A comment is a reply status in the thread.
    public func comment(statusID: String, text: String, _ exchange: DialectExchange) async throws(RequestError) -> Comment {
        let call = Call(exchange)
        return call.kept(try await exchange.fetch(MastodonStatus.self, self.call(for: .comment).endpoint(
            [("status", text), ("in_reply_to_id", statusID)])).comment(depth: 0), \.serverJSON)
    }

    public func reply(statusID: String, commentID: String, text: String, _ exchange: DialectExchange)
        async throws(RequestError) -> Comment {
        let call = Call(exchange)
        return call.kept(try await exchange.fetch(MastodonStatus.self, self.call(for: .reply).endpoint(
            [("status", text), ("in_reply_to_id", commentID)])).comment(depth: 1), \.serverJSON)
    }

    public func deleteComment(statusID: String, commentID: String, _ exchange: DialectExchange) async throws(RequestError) -> Comment {
        let call = Call(exchange)
        return call.kept(try await exchange.fetch(MastodonStatus.self, self.call(for: .deleteComment).endpoint(id: commentID)).comment(depth: 0),
                         \.serverJSON)
    }

    /// The account's id is looked up first when `user` names it by its name.
    public func toggle(_ toggle: ToggleCall, account user: UserReference, _ exchange: DialectExchange) async throws(RequestError) -> User? {
        let call = Call(exchange)
        let id = try await call.accountID(user)
        _ = try await exchange.fetch(MastodonRelationship.self, toggle.endpoint(id: id))
        guard case .relationship(rereadsAccount: true) = toggle.answer else { return nil }
        return await call.account(id, after: user)
    }
}

// MARK: Bookmarks and lists

extension MastodonDialect {
    public func lists(_ exchange: DialectExchange) async throws(RequestError) -> [UserList] {
        try await Call(exchange).get([UserList].self, "api/v1/lists")
    }

    public func listMembers(listID: String, _ exchange: DialectExchange) async throws(RequestError) -> [User] {
        // `limit=0`: every member at once.
        let call = Call(exchange)
        return call.kept(try await call.get([MastodonAccount].self, "api/v1/lists/\(Call.segment(listID))/accounts", [("limit", "0")])
            .map(\.user), \.serverJSON)
    }

    public func createList(title: String, _ exchange: DialectExchange) async throws(RequestError) -> UserList {
        try await Call(exchange).send(UserList.self, .post, "api/v1/lists", [("title", title)])
    }

    public func deleteList(listID: String, _ exchange: DialectExchange) async throws(RequestError) {
        _ = try await Call(exchange).exchange(.delete, "api/v1/lists/\(Call.segment(listID))", [])
    }

    /// Mastodon lists hold only accounts the owner follows, and answers
    /// adding another with a bare 404: asked first, so the refusal says why.
    public func setListMember(_ member: Bool, listID: String, _ user: UserReference, _ exchange: DialectExchange)
        async throws(RequestError) -> User {
        let call = Call(exchange)
        let id = try await call.accountID(user)
        if member {
            let relationships = try await call.get([MastodonRelationship].self, "api/v1/accounts/relationships", [("id[]", id)])
            guard relationships.first?.following == true else {
                throw .configuration("Mastodon lists hold only accounts you follow: follow \(user) first")
            }
        }
        _ = try await call.exchange(member ? .post : .delete, "api/v1/lists/\(Call.segment(listID))/accounts",
                                    [("account_ids[]", id)])
        return await call.account(id, after: user)
    }
}

/// Mastodon's `Link` header (RFC 8288): `<https://host/api/v1/timelines/home?limit=20&max_id=X>; rel="next",
/// <…?limit=20&min_id=Y>; rel="prev"`. A link is followed as the server
/// sent it, but only its query: its scheme, host and port are never used (a
/// server must not send wsh, or its token, elsewhere). The query is taken
/// only when the link's origin is the request's own and its path the one
/// wsh asked for; any other link is ignored without a word, and then there
/// is no such page.
enum LinkHeader {
    /// The query of the `rel` link (`next`, `prev`) of `header`, exactly as
    /// sent (percent-encoding kept), for the request that was sent to
    /// `requestURL`; nil when there is none, or it points elsewhere.
    static func query(_ rel: String, in header: String, for requestURL: String) -> String? {
        guard let request = Target(requestURL) else { return nil }
        for (target, relations) in links(in: header) where relations.contains(rel) {
            guard let link = Target(target, relativeTo: request), link.origin == request.origin,
                  link.samePath(as: request), let query = link.query, !query.isEmpty else { return nil }
            return query
        }
        return nil
    }

    /// Each `<target>; params` of `header`, with the relation types its `rel` lists.
    private static func links(in header: String) -> [(target: String, relations: [String])] {
        var links: [(String, [String])] = []
        var rest = Substring(header)
        while let open = rest.firstIndex(of: "<"), let close = rest[open...].firstIndex(of: ">") {
            let target = String(rest[rest.index(after: open)..<close])
            rest = rest[rest.index(after: close)...]
            let parameters = rest[..<(rest.firstIndex(of: "<") ?? rest.endIndex)]
            let relations = parameters.split(separator: ";").flatMap { relation(String($0).trimmingSpaces) }
            links.append((target, relations))
        }
        return links
    }

    /// The relation types of a `rel="…"` parameter (several may be listed).
    private static func relation(_ parameter: String) -> [String] {
        guard parameter.lowercased().hasPrefix("rel=") else { return [] }
        let value = parameter.dropFirst(4).trimmingSpaces.trimming(where: { $0 == "\"" || $0 == "," || $0 == " " })
        return value.lowercased().split(separator: " ").map(String.init)
    }

    /// A URL cut where paging needs it: origin, path, query (the fragment dropped).
    private struct Target {
        var origin: String
        var path: String
        var query: String?

        init?(_ url: String) {
            let url = url[..<(url.firstIndex(of: "#") ?? url.endIndex)]
            let beforeQuery = url[..<(url.firstIndex(of: "?") ?? url.endIndex)]
            query = beforeQuery.endIndex < url.endIndex ? String(url[url.index(after: beforeQuery.endIndex)...]) : nil
            guard let schemeEnd = beforeQuery.firstRange(of: "://") else { return nil }
            let scheme = beforeQuery[..<schemeEnd.lowerBound].lowercased()
            let rest = beforeQuery[schemeEnd.upperBound...]
            let authority = rest[..<(rest.firstIndex(of: "/") ?? rest.endIndex)]
            guard ["http", "https"].contains(scheme), !authority.isEmpty, !authority.contains("@") else { return nil }
            path = authority.endIndex < rest.endIndex ? String(rest[authority.endIndex...]) : "/"
            // The port, when the authority names one after the host (an IPv6 host is bracketed).
            let hostEnd = authority.lastIndex(of: ":").flatMap { colon in
                authority[colon...].contains("]") ? nil : colon
            } ?? authority.endIndex
            var port = hostEnd < authority.endIndex ? String(authority[authority.index(after: hostEnd)...]) : ""
            if port.isEmpty { port = scheme == "https" ? "443" : "80" }
            origin = "\(scheme)://\(authority[..<hostEnd].lowercased()):\(port)"
        }

        /// `reference` read against `base`: an absolute URL, a path from the root, or a query only.
        init?(_ reference: String, relativeTo base: Target) {
            if reference.hasPrefix("/") && !reference.hasPrefix("//") {
                self.init(base.origin + reference)
            } else if reference.hasPrefix("?") {
                self.init(base.origin + base.path + reference)
            } else {
                self.init(reference)
            }
        }

        func samePath(as other: Target) -> Bool {
            path == other.path || PercentEncoding.decoded(path).map { $0 == PercentEncoding.decoded(other.path) } ?? false
        }
    }
}

/// One operation being carried out on Mastodon: its requests go through the
/// exchange (which the trace reads), its errors are classified as Mastodon's.
struct Call {
    let exchange: DialectExchange

    init(_ exchange: DialectExchange) {
        self.exchange = exchange
    }

    /// `limit` from `count`, and the cursors as the server gave them (its `max_id` is exclusive).
    static func paging(_ query: PageQuery) -> [(String, String)] {
        var parameters = [("limit", String(min(query.count, MastodonDialect.pageLimit)))]
        if let sinceID = query.sinceID { parameters.append(("since_id", sinceID)) }
        if let maxID = query.maxID { parameters.append(("max_id", maxID)) }
        return parameters
    }

    /// The form of `POST /api/v1/statuses` for `draft`.
    static func statusForm(_ draft: StatusDraft) -> [(String, String)] {
        var form = [("status", draft.text)]
        if let visibility = draft.visibility { form.append(("visibility", visibility.rawValue)) }
        if let spoiler = draft.spoiler { form.append(("spoiler_text", spoiler)) }
        if let inReplyTo = draft.inReplyTo { form.append(("in_reply_to_id", inReplyTo)) }
        if let language = draft.language { form.append(("language", language)) }
        form += draft.mediaIDs.map { ("media_ids[]", $0) }
        if let poll = draft.poll {
            form += poll.options.map { ("poll[options][]", $0) }
            form.append(("poll[expires_in]", String(poll.expiresIn)))
            if poll.multiple { form.append(("poll[multiple]", "true")) }
        }
        return form
    }

    /// A multipart POST (an upload), its answer decoded as `V`.
    func upload<V: Decodable & Sendable>(_ type: V.Type, _ path: String, _ parts: [MultipartPart]) async throws(RequestError) -> V {
        try await exchange.fetch(V.self, Endpoint(.post, path, multipart: parts))
    }

    /// The account id of `user`, or of the token's owner for nil.
    /// Account `id`, read after a write on it that `user` named. The write's
    /// outcome is its own answer: this read only fills in the name, and a
    /// failure here must not report an accepted write as failed.
    func account(_ id: String, after user: UserReference) async -> User {
        do {
            return kept(try await get(MastodonAccount.self, "api/v1/accounts/\(Call.segment(id))").user, \.serverJSON)
        } catch {
            if case .screenName(let name) = user { return User(idstr: id, screenName: name) }
            return User(idstr: id)
        }
    }

    func accountID(_ user: UserReference?) async throws(RequestError) -> String {
        let account: MastodonAccount
        switch user {
        case .uid(let uid)?: return uid
        case .screenName(let name)?: account = try await get(MastodonAccount.self, "api/v1/accounts/lookup", [("acct", name)])
        case nil: account = try await get(MastodonAccount.self, "api/v1/accounts/verify_credentials")
        }
        guard let id = account.id else { throw .decoding(what: "MastodonAccount", where: ".id", detail: "no id") }
        return id
    }

    /// The token owner's list titled `name` (any case) or with id `name`.
    func list(named name: String) async throws(RequestError) -> UserList {
        let lists = try await get([UserList].self, "api/v1/lists")
        guard let list = UserList.named(name, in: lists) else {
            let known = lists.isEmpty ? "you have none" : "yours: " + lists.map(\.title).joined(separator: ", ")
            throw .configuration("no list named '\(name)' (\(known))")
        }
        return list
    }

    /// A timeline page of statuses at `path`, asked with `query`'s paging and
    /// `extra` or, when `query` follows a server's link, with that link's
    /// query as sent; with the server's links to the next and newer pages.
    /// Elements of which none is a status (no `id`), as Sharkey once answered
    /// `[{},{}]`, make an answer that does not read, not rows with nothing in them.
    func timeline(_ path: String, _ query: PageQuery, _ extra: [(String, String)] = []) async throws(RequestError) -> TimelinePage {
        let statuses = try await page([MastodonStatus].self, path, query, extra)
        if !statuses.isEmpty, statuses.allSatisfy({ $0.id == nil }) {
            throw .decoding(what: "[Status]", where: "[0].id",
                            detail: "none of the \(statuses.count) elements is a status (no id)")
        }
        return pagedByLink(TimelinePage(statuses: kept(statuses.map(\.status), \.serverJSON)))
    }

    /// `values` decoded from the last answer, an array, each with its own
    /// element of that answer kept at `field` (a slice of the body, for
    /// `--json`); as they are when the answer's elements cannot be told apart.
    func kept<Value>(_ values: [Value], _ field: WritableKeyPath<Value, ServerJSON?>) -> [Value] {
        kept(values, field, from: body.flatMap { ServerJSON.elements(of: $0) })
    }

    /// `values`, each with its own of `elements` (as the server sent them, in
    /// its order) kept at `field`; as they are unless there is one per value.
    func kept<Value>(_ values: [Value], _ field: WritableKeyPath<Value, ServerJSON?>, from elements: [ServerJSON]?) -> [Value] {
        guard let elements, elements.count == values.count else { return values }
        var kept = values
        for index in kept.indices { kept[index][keyPath: field] = elements[index] }
        return kept
    }

    /// The body of the last answer; nil before one.
    var body: Data? { exchange.response?.body }

    /// `value` decoded from the whole of the last answer, with that answer kept at `field`.
    func kept<Value>(_ value: Value, _ field: WritableKeyPath<Value, ServerJSON?>) -> Value {
        guard let body = exchange.response?.body else { return value }
        var kept = value
        kept[keyPath: field] = ServerJSON(body)
        return kept
    }

    /// The GET of one page at `path`: `query.link` as sent when there is one
    /// (the path stays wsh's own), else `query`'s paging (`limited`: its
    /// `limit` of `count`) and `extra`.
    func page<V: Decodable & Sendable>(_ type: V.Type, _ path: String, _ query: PageQuery, _ extra: [(String, String)] = [],
                                       limited: Bool = true) async throws(RequestError) -> V {
        guard let link = query.link else { return try await get(type, path, (limited ? Self.paging(query) : []) + extra) }
        return try await exchange.fetch(type, Endpoint(.get, path, rawQuery: link))
    }

    /// The query of the last answer's `Link: <…>; rel="next"` (or `prev`), as sent; see `LinkHeader`.
    func link(_ rel: String) -> String? {
        exchange.response?.headers["link"].flatMap { LinkHeader.query(rel, in: $0, for: exchange.url) }
    }

    /// `page` with the server's links to the next (older) and newer pages.
    func pagedByLink(_ page: TimelinePage) -> TimelinePage {
        var page = page
        page.pagedByServer = true
        page.serverNext = link("next")
        page.serverPrevious = link("prev")
        return page
    }

    func get<V: Decodable & Sendable>(_ type: V.Type, _ path: String, _ query: [(String, String)] = []) async throws(RequestError) -> V {
        try await send(type, .get, path, query)
    }

    func send<V: Decodable & Sendable>(_ type: V.Type, _ method: HTTPMethod, _ path: String,
                                       _ parameters: [(String, String)] = []) async throws(RequestError) -> V {
        try await exchange.fetch(V.self, Endpoint(method, path, parameters: parameters))
    }

    func exchange(_ method: HTTPMethod, _ path: String, _ parameters: [(String, String)]) async throws(RequestError) -> HTTPResponse {
        try await exchange.send(Endpoint(method, path, parameters: parameters))
    }

    /// `text` as one URL path segment.
    static func segment(_ text: String) -> String {
        PercentEncoding.encoded(text)
    }
}
