import WshModel
import WshRequest

/// Search (`GET /api/v2/search`), followers and following (paged by `Link`),
/// blocks and server-side mutes (each answered with the Relationship), and the
/// relationship read that resolves their lost answers.
extension MastodonDialect {
    /// Mastodon lists at most 80 accounts a page.
    static let accountPageLimit = 80

    public func search(_ query: String, kinds: Set<SearchKind>, limit: Int, resolve: Bool, _ exchange: DialectExchange)
        async throws(RequestError) -> SearchResults {
        var parameters = [("q", query), ("limit", String(min(max(limit, 1), Self.pageLimit)))]
        if kinds.count == 1, let kind = kinds.first { parameters.append(("type", kind.rawValue)) }
        if resolve { parameters.append(("resolve", "true")) }
        let call = Call(exchange)
        var results = try await call.get(MastodonSearch.self, "api/v2/search", parameters).results
        if let body = call.body {
            // Each account and status as the server sent it, for `--json`: the body's bytes scanned, not parsed again.
            results.accounts = call.kept(results.accounts, \.serverJSON, from: ServerJSON.elements(of: body, member: "accounts"))
            results.statuses = call.kept(results.statuses, \.serverJSON, from: ServerJSON.elements(of: body, member: "statuses"))
        }
        if !kinds.isEmpty {
            if !kinds.contains(.accounts) { results.accounts = [] }
            if !kinds.contains(.statuses) { results.statuses = [] }
            if !kinds.contains(.hashtags) { results.hashtags = [] }
        }
        return results
    }

    public func accounts(_ list: AccountList, of user: UserReference, count: Int, cursor: String?, _ exchange: DialectExchange)
        async throws(RequestError) -> UserPage {
        let call = Call(exchange)
        let id = try await call.accountID(user)
        return try await call.accountPage("api/v1/accounts/\(Call.segment(id))/\(list.rawValue)", count: count, cursor: cursor)
    }

    /// `GET /api/v1/mutes` or `/api/v1/blocks`, paged by the `Link` header as sent (the mute's or
    /// block's own id), with the relationships that say whether a mute hides notifications.
    public func ownAccounts(_ list: OwnAccountList, count: Int, cursor: String?, _ exchange: DialectExchange)
        async throws(RequestError) -> UserPage {
        try await Call(exchange).accountPage("api/v1/\(list.rawValue)", count: count, cursor: cursor)
    }

    /// The domain in the server's own addresses (`user@domain`), which may not be its API's host:
    /// `GET /api/v2/instance`'s `domain`, else `/api/v1/instance`'s `uri`.
    public func accountDomain(_ exchange: DialectExchange) async throws(RequestError) -> String? {
        let call = Call(exchange)
        if let domain = try? await call.get(MastodonInstanceDomain.self, "api/v2/instance").domain { return domain }
        return try await call.get(MastodonInstanceDomain.self, "api/v1/instance").uri
    }

    /// `GET /api/v1/statuses/:id/favourited_by` or `reblogged_by`, paged by the `Link` header as sent.
    public func statusAccounts(_ list: StatusAccountList, statusID: String, count: Int, cursor: String?, _ exchange: DialectExchange)
        async throws(RequestError) -> UserPage {
        let path = list == .favouritedBy ? "favourited_by" : "reblogged_by"
        return try await Call(exchange).accountPage("api/v1/statuses/\(Call.segment(statusID))/\(path)", count: count, cursor: cursor)
    }

    /// `GET /api/v2/filters`; a server without it (404, 410: before Mastodon 4) is asked `GET /api/v1/filters`.
    public func filters(_ exchange: DialectExchange) async throws(RequestError) -> [ContentFilter] {
        let call = Call(exchange)
        do {
            return try await call.get([MastodonFilter].self, "api/v2/filters").map(\.filter)
        } catch {
            guard Self.lacksFiltersV2(error) else { throw error }
        }
        return try await call.get([MastodonFilterV1].self, "api/v1/filters").map(\.filter)
    }

    /// True when `error` says the server has no `/api/v2/filters`.
    static func lacksFiltersV2(_ error: RequestError) -> Bool {
        switch error {
        case .http(let status, _, _): [404, 405, 410, 501].contains(status)
        case .api(let failure): [404, 405, 410, 501].contains(failure.httpStatus)
        default: false
        }
    }
}

extension Call {
    /// A page of accounts at `path` (followers, following, who favourited or
    /// boosted a status), with whether you follow each where the server says.
    func accountPage(_ path: String, count: Int, cursor: String?) async throws(RequestError) -> UserPage {
        let call = self
        let limit = [("limit", String(min(max(count, 1), MastodonDialect.accountPageLimit)))]
        let accounts = try await call.page([MastodonAccount].self, path, PageQuery(count: count, link: cursor), limit, limited: false)
        // The next page starts where only the Link header knows (a follow's id, not an account's): followed as sent.
        var page = UserPage(users: call.kept(accounts.map(\.user), \.serverJSON), next: call.link("next"))
        // Whether you follow each is the relationships' to say; a visitor has none, and the list stands without.
        let ids = accounts.compactMap(\.id)
        if !ids.isEmpty, let relationships = try? await call.get([MastodonRelationship].self, "api/v1/accounts/relationships",
                                                                  ids.map { ("id[]", $0) }) {
            for relationship in relationships {
                guard let id = relationship.id else { continue }
                if let following = relationship.following { page.following[id] = following }
                page.relationships[id] = relationship.relationship
            }
        }
        return page
    }
}

extension MastodonDialect {
    public func setServerMute(_ mute: Bool, _ user: UserReference, duration: Int?, notifications: Bool, _ exchange: DialectExchange)
        async throws(RequestError) -> Relationship {
        let call = Call(exchange)
        let id = try await call.accountID(user)
        var parameters: [(String, String)] = []
        if mute {
            parameters.append(("notifications", notifications ? "true" : "false"))
            if let duration { parameters.append(("duration", String(duration))) }
        }
        return try await call.send(MastodonRelationship.self, .post,
                                   "api/v1/accounts/\(Call.segment(id))/\(mute ? "mute" : "unmute")", parameters).relationship
    }

    public func relationship(_ user: UserReference, _ exchange: DialectExchange) async throws(RequestError) -> Relationship {
        let call = Call(exchange)
        let id = try await call.accountID(user)
        let relationships = try await call.get([MastodonRelationship].self, "api/v1/accounts/relationships", [("id[]", id)])
        guard let first = relationships.first else { throw .decoding(what: "[Relationship]", where: "", detail: "no relationship to \(user)") }
        return first.relationship
    }
}

/// The parts of Mastodon's `Instance` that name its accounts' domain: v2 `domain`, v1 `uri`.
struct MastodonInstanceDomain: Decodable, Sendable {
    var domain: String?
    var uri: String?
}
