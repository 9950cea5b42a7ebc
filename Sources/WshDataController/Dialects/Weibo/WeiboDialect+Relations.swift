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

    /// Weibo's API lists neither mutes nor blocks.
    public func ownAccounts(_ list: OwnAccountList, count: Int, cursor: String?, _ exchange: DialectExchange)
        async throws(RequestError) -> UserPage {
        throw .configuration(Self.lacks(list.rawValue))
    }

    /// Weibo's accounts have no domain: `weibo.com` is where their pages are.
    public func accountDomain(_ exchange: DialectExchange) async throws(RequestError) -> String? { "weibo.com" }

    /// Who reposted `statusID`: the authors of its reposts (`statuses/repost_timeline.json`,
    /// paged by `page`), each once. Weibo's API does not say who liked a status.
    public func statusAccounts(_ list: StatusAccountList, statusID: String, count: Int, cursor: String?, _ exchange: DialectExchange)
        async throws(RequestError) -> UserPage {
        guard list == .rebloggedBy else { throw .configuration("Weibo does not say who liked a status") }
        let page = Int(cursor ?? "") ?? 1
        let size = min(max(count, 1), 200)
        let reposts = try await exchange.fetch(TimelinePage.self, Endpoint(.get, "statuses/repost_timeline.json", parameters: [
            ("id", statusID), ("count", String(size)), ("page", String(page)),
        ]))
        var seen: Set<String> = []
        let users = reposts.statuses.compactMap(\.user).filter { seen.insert($0.identifier ?? "").inserted }
        return UserPage(users: users, next: reposts.statuses.count < size ? nil : String(page + 1), totalNumber: reposts.totalNumber)
    }

    public func filters(_ exchange: DialectExchange) async throws(RequestError) -> [ContentFilter] {
        throw .configuration("Weibo has no filters")
    }

    public func setServerMute(_ mute: Bool, _ user: UserReference, duration: Int?, notifications: Bool, _ exchange: DialectExchange)
        async throws(RequestError) -> Relationship {
        throw .configuration("Weibo has no server-side mute")
    }

    public func relationship(_ user: UserReference, _ exchange: DialectExchange) async throws(RequestError) -> Relationship {
        // Weibo's relationship to a user is whether you follow them, in their profile.
        let state = try await exchange.fetch(FollowingState.self, Endpoint(.get, "users/show.json", parameters: [user.weiboParameter]))
        return Relationship(following: state.following)
    }
}
