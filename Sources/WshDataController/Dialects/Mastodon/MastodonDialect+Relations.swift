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
        var results = try await Call(exchange).get(MastodonSearch.self, "api/v2/search", parameters).results
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
        let limit = [("limit", String(min(max(count, 1), Self.accountPageLimit)))]
        let accounts = try await call.page([MastodonAccount].self, "api/v1/accounts/\(Call.segment(id))/\(list.rawValue)",
                                           PageQuery(count: count, link: cursor), limit, limited: false)
        // The next page starts where only the Link header knows (a follow's id, not an account's): followed as sent.
        var page = UserPage(users: accounts.map(\.user), next: call.link("next"))
        // Whether you follow each is the relationships' to say; a visitor has none, and the list stands without.
        let ids = accounts.compactMap(\.id)
        if !ids.isEmpty, let relationships = try? await call.get([MastodonRelationship].self, "api/v1/accounts/relationships",
                                                                  ids.map { ("id[]", $0) }) {
            for relationship in relationships {
                if let id = relationship.id, let following = relationship.following { page.following[id] = following }
            }
        }
        return page
    }

    public func setBlocking(_ block: Bool, _ user: UserReference, _ exchange: DialectExchange) async throws(RequestError) -> Relationship {
        let call = Call(exchange)
        let id = try await call.accountID(user)
        return try await call.send(MastodonRelationship.self, .post,
                                   "api/v1/accounts/\(Call.segment(id))/\(block ? "block" : "unblock")").relationship
    }

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
