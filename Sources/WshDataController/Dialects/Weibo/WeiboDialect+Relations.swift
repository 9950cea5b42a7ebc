import FoundationEssentials
import WshModel
import WshRequest

/// Weibo's share: topic search (statuses only) and the follow graph
/// (`friendships/friends.json`, `friendships/followers.json`, paged by
/// `cursor`); no blocks, no server-side mutes.
extension WeiboDialect {
    public func search(_ query: String, kinds: Set<SearchKind>, limit: Int, resolve: Bool, _ exchange: DialectExchange)
        async throws(RequestError) -> SearchResults {
        guard kinds.isEmpty || kinds.contains(.statuses) else {
            throw .configuration("Weibo's search finds statuses only (search/topics.json), not \(kinds.map(\.rawValue).sorted().joined(separator: ", "))")
        }
        let page = try await exchange.fetch(TimelinePage.self, Endpoint(.get, "search/topics.json",
                                                                        parameters: [("q", query), ("count", String(min(max(limit, 1), 50)))]))
        return SearchResults(statuses: page.statuses)
    }

    public func accounts(_ list: AccountList, of user: UserReference, count: Int, cursor: String?, _ exchange: DialectExchange)
        async throws(RequestError) -> UserPage {
        let path = list == .followers ? "friendships/followers.json" : "friendships/friends.json"
        var parameters = [user.weiboParameter, ("count", String(min(max(count, 1), 200)))]
        if let cursor { parameters.append(("cursor", cursor)) }
        return try await exchange.fetch(UserPage.self, Endpoint(.get, path, parameters: parameters))
    }

    public func setBlocking(_ block: Bool, _ user: UserReference, _ exchange: DialectExchange) async throws(RequestError) -> Relationship {
        throw .configuration("Weibo has no block")
    }

    public func setServerMute(_ mute: Bool, _ user: UserReference, duration: Int?, notifications: Bool, _ exchange: DialectExchange)
        async throws(RequestError) -> Relationship {
        throw .configuration("Weibo has no server-side mute")
    }

    public func relationship(_ user: UserReference, _ exchange: DialectExchange) async throws(RequestError) -> Relationship {
        Relationship(following: try await followingState(user, exchange).following)
    }
}
