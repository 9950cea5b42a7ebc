import Foundation
import WshModel
import WshRequest

/// Mastodon (and the servers that speak its API: Pleroma, Akkoma,
/// GoToSocial): each call of the DataControllers' vocabulary becomes the
/// `/api/v1/…` request(s) that do the same, and Mastodon's entities are
/// mapped onto the Model (`MastodonStatus.status`, `MastodonAccount.user`,
/// `MastodonContext.comments`).
///
/// What differs underneath, and stays here: ids are opaque strings and
/// `max_id` is exclusive (the DataControllers' one-extra-status request for
/// Weibo's inclusive `max_id` drops nothing here); pages hold at most 40;
/// there is no page number, every timeline pages by cursor; a user is named
/// by `acct` and reached by an account id looked up first; replies are
/// statuses in the thread (`context`); boosts and favourites are
/// per-status actions; rate limits come in `X-RateLimit-*` headers.
public struct MastodonDialect: Dialect {
    public init() {}

    public var name: String { "mastodon" }
    public var authScheme: String { "Bearer" }

    /// Mastodon serves at most 40 statuses a page.
    static let pageLimit = 40

    public func maximumCount(for source: TimelineSource) -> Int? {
        if case .reposts = source { return nil }      // no timeline of boosts
        return Self.pageLimit
    }

    public func pagesByCursor(_ source: TimelineSource) -> Bool { true }

    /// `max_id` is exclusive, and each page's `Link` header says where the next starts.
    public var maxIDIsInclusive: Bool { false }

    /// Mastodon's OAuth at the server root, with an app wsh registers itself.
    public func oauthFlow(apiBase: String, http: any HTTPClient) -> any OAuthFlow {
        MastodonOAuthClient(apiBase: apiBase, http: http)
    }

    public func perform<T: Decodable & Sendable>(_ type: T.Type, _ endpoint: Endpoint, on client: WeiboClient)
        async throws(RequestError) -> DialectAnswer<T> {
        var call = Call(endpoint: endpoint, client: client)
        let value: Any
        switch (endpoint.method, endpoint.path) {
        case (.get, "statuses/public_timeline.json"):
            var query = call.paging()
            if call["local"] != nil { query.append(("local", "true")) }
            value = try await call.timeline("api/v1/timelines/public", query)
        case (.get, "statuses/home_timeline.json"):
            value = try await call.timeline("api/v1/timelines/home", call.paging())
        case (.get, "statuses/tag_timeline.json"):
            value = try await call.timeline("api/v1/timelines/tag/\(Call.segment(call["tag"] ?? ""))", call.paging())
        case (.get, "statuses/user_timeline.json"):
            let id = try await call.accountID()
            value = try await call.timeline("api/v1/accounts/\(Call.segment(id))/statuses", call.paging())
        case (.get, "statuses/mentions.json"):
            let notifications = try await call.get([MastodonNotification].self, "api/v1/notifications",
                                                   [("types[]", "mention")] + call.paging())
            // The next page starts at a notification id, which only the Link header knows.
            value = call.pagedByLink(TimelinePage(statuses: notifications.compactMap { $0.status?.status }))
        case (.get, "statuses/show.json"):
            value = try await call.get(MastodonStatus.self, "api/v1/statuses/\(try call.required("id"))").status
        case (.get, "comments/show.json"):
            let id = try call.required("id")
            let context = try await call.get(MastodonContext.self, "api/v1/statuses/\(Call.segment(id))/context")
            // The whole thread, in thread order: cutting it at `count` would drop the newest replies.
            value = context.comments(under: id)
        case (.get, "users/show.json") where type == FollowingState.self:
            let id = try await call.accountID()
            let relationships = try await call.get([MastodonRelationship].self, "api/v1/accounts/relationships",
                                                   [("id[]", id)])
            value = FollowingState(following: relationships.first?.following)
        case (.get, "users/show.json"):
            if let uid = call["uid"] {
                value = try await call.get(MastodonAccount.self, "api/v1/accounts/\(Call.segment(uid))").user
            } else {
                value = try await call.get(MastodonAccount.self, "api/v1/accounts/lookup",
                                           [("acct", try call.required("screen_name"))]).user
            }
        case (.get, "account/rate_limit_status.json"):
            value = try await call.rateLimitStatus()
        case (.post, "statuses/update.json"):
            value = try await call.send(MastodonStatus.self, .post, "api/v1/statuses",
                                        [("status", try call.required("status"))]).status
        case (.post, "statuses/destroy.json"):
            value = try await call.send(MastodonStatus.self, .delete, "api/v1/statuses/\(Call.segment(try call.required("id")))").status
        case (.post, StatusDataController.unrepostPath):
            // Mastodon's own compensating call: unboost the original (deleting the boost status is not it).
            value = try await call.send(MastodonStatus.self, .post,
                                        "api/v1/statuses/\(Call.segment(try call.required("original_id")))/unreblog").status
        case (.post, "statuses/repost.json"):
            value = try await call.send(MastodonStatus.self, .post, "api/v1/statuses/\(Call.segment(try call.required("id")))/reblog").status
        case (.post, "comments/create.json"):
            value = try await call.send(MastodonStatus.self, .post, "api/v1/statuses",
                                        [("status", try call.required("comment")), ("in_reply_to_id", try call.required("id"))])
                .comment(depth: 0)
        case (.post, "comments/reply.json"):
            value = try await call.send(MastodonStatus.self, .post, "api/v1/statuses",
                                        [("status", try call.required("comment")), ("in_reply_to_id", try call.required("cid"))])
                .comment(depth: 1)
        case (.post, "comments/destroy.json"):
            value = try await call.send(MastodonStatus.self, .delete, "api/v1/statuses/\(Call.segment(try call.required("cid")))")
                .comment(depth: 0)
        case (.post, "favorites/create.json"), (.post, "favorites/destroy.json"):
            let action = endpoint.path == "favorites/create.json" ? "favourite" : "unfavourite"
            let status = try await call.send(MastodonStatus.self, .post,
                                             "api/v1/statuses/\(Call.segment(try call.required("id")))/\(action)").status
            value = Favorite(status: status)
        case (.post, "friendships/create.json"), (.post, "friendships/destroy.json"):
            let id = try await call.accountID()
            let action = endpoint.path == "friendships/create.json" ? "follow" : "unfollow"
            _ = try await call.send(MastodonRelationship.self, .post, "api/v1/accounts/\(Call.segment(id))/\(action)")
            // The write's outcome is its own answer: the profile read after it only fills in
            // the name, and a failure there must not report an accepted follow as failed.
            do {
                value = try await call.get(MastodonAccount.self, "api/v1/accounts/\(Call.segment(id))").user
            } catch {
                value = User(idstr: id, screenName: call["screen_name"])
            }
        default:
            // `api` and anything else the DataControllers add later: sent as written.
            return try await WeiboDialect().perform(T.self, endpoint, on: client)
        }
        guard let typed = value as? T else {
            throw .decoding(what: String(describing: T.self), where: "",
                            detail: "the Mastodon dialect has no \(T.self) for \(endpoint.path)")
        }
        return DialectAnswer(value: typed, response: call.lastResponse ?? HTTPResponse(status: 0),
                             method: call.lastMethod, url: call.lastURL)
    }
}

/// Mastodon's errors, read once into `ErrorKind`: Mastodon answers
/// `{"error": "…"}` with the HTTP status saying what it is, except that a 422
/// is both a validation failure and, on a server that keeps its API from
/// visitors, a call that needs a login.
enum MastodonErrorKinds {
    static func kind(_ failure: APIFailure) -> ErrorKind? {
        let message = failure.message.lowercased()
        switch failure.httpStatus {
        case 401: return .unauthorized
        case 422 where message.contains("authenticated user") || message.contains("access token"): return .unauthorized
        case 422 where message.contains("already"): return .alreadyDone
        default: return ErrorKind(httpStatus: failure.httpStatus)
        }
    }
}

/// Mastodon's `Link` header (RFC 8288): `<https://host/api/v1/timelines/home?max_id=X>; rel="next",
/// <…?min_id=Y>; rel="prev"`. Only the paging parameters of a link are
/// taken, never its host or path: a server cannot send wsh elsewhere.
enum LinkHeader {
    /// The query of the `next` link, percent-decoded; nil when there is none.
    static func next(in header: String) -> [String: String]? {
        for link in header.split(separator: ",") {
            let parts = link.split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces) }
            guard let target = parts.first, target.hasPrefix("<"), target.hasSuffix(">"),
                  parts.dropFirst().contains(where: { relation($0).contains("next") }),
                  let components = URLComponents(string: String(target.dropFirst().dropLast())) else { continue }
            var query: [String: String] = [:]
            for item in components.queryItems ?? [] where ["max_id", "min_id", "since_id"].contains(item.name) {
                if let value = item.value, !value.isEmpty { query[item.name] = value }
            }
            return query.isEmpty ? nil : query
        }
        return nil
    }

    /// The relation types of a `rel="…"` parameter (several may be listed).
    private static func relation(_ parameter: String) -> [Substring] {
        guard parameter.lowercased().hasPrefix("rel=") else { return [] }
        return parameter.dropFirst(4).trimmingCharacters(in: CharacterSet(charactersIn: "\"")).lowercased()
            .split(separator: " ")
    }
}

/// One call of the DataControllers' vocabulary being carried out on Mastodon:
/// its parameters, and the last request sent (for the trace).
private struct Call {
    let endpoint: Endpoint
    let client: WeiboClient
    private(set) var lastResponse: HTTPResponse?
    private(set) var lastMethod: HTTPMethod = .get
    private(set) var lastURL = ""

    init(endpoint: Endpoint, client: WeiboClient) {
        self.endpoint = endpoint
        self.client = client
    }

    subscript(name: String) -> String? {
        endpoint.parameters.last { $0.0 == name }?.1
    }

    func required(_ name: String) throws(RequestError) -> String {
        guard let value = self[name], !value.isEmpty else {
            throw .configuration("\(endpoint.path) needs '\(name)'")
        }
        return value
    }

    /// `limit` from `count`, and the cursors, which mean the same on Mastodon
    /// (its `max_id` is exclusive: the extra status the DataControllers ask
    /// for, to drop Weibo's inclusive boundary, simply arrives).
    func paging() -> [(String, String)] {
        var query: [(String, String)] = []
        if let count = self["count"].flatMap(Int.init) { query.append(("limit", String(min(count, MastodonDialect.pageLimit)))) }
        for name in ["max_id", "since_id", "min_id"] {
            if let value = self[name] { query.append((name, value)) }
        }
        return query
    }

    /// The account id of the `uid` or `screen_name` parameter, or of the
    /// token's owner when there is neither.
    mutating func accountID() async throws(RequestError) -> String {
        if let uid = self["uid"] { return uid }
        if let name = self["screen_name"] {
            let account = try await get(MastodonAccount.self, "api/v1/accounts/lookup", [("acct", name)])
            guard let id = account.id else { throw .decoding(what: "MastodonAccount", where: ".id", detail: "no id") }
            return id
        }
        let me = try await get(MastodonAccount.self, "api/v1/accounts/verify_credentials")
        guard let id = me.id else { throw .decoding(what: "MastodonAccount", where: ".id", detail: "no id") }
        return id
    }

    /// A timeline page of statuses, with the server's cursor for the next one.
    mutating func timeline(_ path: String, _ query: [(String, String)]) async throws(RequestError) -> TimelinePage {
        let statuses = try await get([MastodonStatus].self, path, query)
        return pagedByLink(TimelinePage(statuses: statuses.map(\.status)))
    }

    /// `page` with the `max_id` of the last answer's `Link: <…>; rel="next"`.
    func pagedByLink(_ page: TimelinePage) -> TimelinePage {
        var page = page
        page.pagedByServer = true
        page.serverNextMaxID = lastResponse?.headers["link"].flatMap { LinkHeader.next(in: $0)?["max_id"] }
        return page
    }

    /// The token's rate limit, from the `X-RateLimit-*` headers of a cheap call.
    mutating func rateLimitStatus() async throws(RequestError) -> RateLimitStatus {
        let response = try await exchange(.get, "api/v1/accounts/verify_credentials", [])
        let headers = response.headers
        let reset = headers["x-ratelimit-reset"].flatMap(WeiboTime.init(iso8601:))
        let seconds = reset.map { max(0, Int($0.date.timeIntervalSinceNow.rounded(.up))) }
        return RateLimitStatus(
            remainingUserHits: headers["x-ratelimit-remaining"].flatMap { Int($0) },
            userLimit: headers["x-ratelimit-limit"].flatMap { Int($0) },
            // The headers name no window (Mastodon's is 5 minutes for most calls, 30 for
            // some): `limits` shows the reset time and claims no unit.
            resetTime: headers["x-ratelimit-reset"], resetTimeInSeconds: seconds, limitTimeUnit: nil)
    }

    mutating func get<V: Decodable>(_ type: V.Type, _ path: String, _ query: [(String, String)] = [])
        async throws(RequestError) -> V {
        try await send(type, .get, path, query)
    }

    mutating func send<V: Decodable>(_ type: V.Type, _ method: HTTPMethod, _ path: String,
                                     _ parameters: [(String, String)] = []) async throws(RequestError) -> V {
        let response = try await exchange(method, path, parameters)
        do throws(ModelDecodingError) {
            return try ModelDecoding.decode(V.self, from: response.body)
        } catch {
            throw RequestError.decoding(what: error.what, where: error.where, detail: error.detail)
        }
    }

    private mutating func exchange(_ method: HTTPMethod, _ path: String, _ parameters: [(String, String)])
        async throws(RequestError) -> HTTPResponse {
        let request = Endpoint(method, path, parameters: parameters)
        lastMethod = method
        lastURL = request.url(base: client.configuration.baseURL)
        do {
            let response = try await client.send(request)
            lastResponse = response
            return response
        } catch {
            throw error.classified(by: MastodonErrorKinds.kind)
        }
    }

    /// `text` as one URL path segment.
    static func segment(_ text: String) -> String {
        FormEncoding.percentEncode(text)
    }
}
