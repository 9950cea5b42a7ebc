import FoundationEssentials
import WshText
import Hummingbird
import NIOCore

/// `GET /api/v2/search` and `GET /api/v1/accounts/search` over the generated
/// world: accounts by name prefix (or `name@host` for this server's host; any
/// other host finds nothing, as a server that cannot reach it answers),
/// statuses whose text has the query (only for a logged-in viewer, as
/// Mastodon's full-text search), hashtags that statuses carry, and this
/// server's status and profile URLs resolved to what they show.
extension MastodonAPI {
    /// `api/v2/search`: `q`, `type` (accounts, statuses, hashtags), `limit`
    /// (default 20, at most 40), `offset`, `resolve`, `following`, `account_id`.
    func search(_ call: Call, viewer: Int?) throws -> Reply {
        let query = (call.parameters["q"] ?? "").trimmingSpaces
        let type = call.parameters.nonEmpty("type")
        if let type, !["accounts", "statuses", "hashtags"].contains(type) {
            throw MastodonError.badParameter("type must be accounts, statuses or hashtags, got \(type)")
        }
        let offset = Int(call.parameters["offset"] ?? "") ?? 0
        if viewer == nil, offset > 0 || call.parameters.flag("resolve") {
            throw MastodonError(status: .unauthorized, error: "Search queries that resolve remote resources or use pagination require authentication")
        }
        let limit = limit(call)
        let timeline = store.timeline
        func page<T>(_ all: [T]) -> [T] { Array(all.dropFirst(offset).prefix(limit)) }
        let accounts = type == nil || type == "accounts" ? page(matchingAccounts(query, call, timeline, viewer)) : []
        let statuses = type == nil || type == "statuses" ? page(matchingStatuses(query, call, timeline, viewer)) : []
        let hashtags = type == nil || type == "hashtags" ? page(matchingTags(query, timeline)) : []
        return Self.json(renderer(timeline, viewer: viewer)
            .searchResults(accounts: accounts.map { timeline.data.users[$0] }, statuses: statuses, hashtags: hashtags))
    }

    /// `api/v1/accounts/search`: `q`, `limit` (default 40, at most 80), `offset`, `resolve`, `following`.
    func accountSearch(_ call: Call, viewer: Int) throws -> Reply {
        let timeline = store.timeline
        let query = (call.parameters["q"] ?? "").trimmingSpaces
        let offset = Int(call.parameters["offset"] ?? "") ?? 0
        let found = matchingAccounts(query, call, timeline, viewer).dropFirst(offset).prefix(limit(call, default: 40, maximum: 80))
        return Self.json(renderer(timeline, viewer: viewer).accounts(found.map { timeline.data.users[$0] }))
    }

    /// Users whose name starts with the query (case-insensitive; an exact name
    /// first), or the one `name@host` names on this server; with `following`, only whom the viewer follows.
    private func matchingAccounts(_ query: String, _ call: Call, _ timeline: Timeline, _ viewer: Int?) -> [Int] {
        if let user = resolvedURL(query, timeline)?.user { return [user] }
        var name = Substring(query)
        if name.hasPrefix("@") { name = name.dropFirst() }
        if let at = name.firstIndex(of: "@") {
            let host = name[name.index(after: at)...]
            guard state.origin.hasSuffix("//" + host) else { return [] }
            name = name[..<at]
            return timeline.user(screenName: String(name)).map { [$0.index] } ?? []
        }
        let wanted = name.lowercased()
        guard !wanted.isEmpty else { return [] }
        var found = timeline.data.users.filter { $0.screenName.lowercased().hasPrefix(wanted) }.map(\.index)
        if call.parameters.flag("following"), let viewer { found = found.filter { timeline.isFollowing(viewer, $0) } }
        let exact = found.filter { timeline.data.users[$0].screenName.lowercased() == wanted }
        return exact + found.filter { !exact.contains($0) }
    }

    /// Public statuses (boosts and hidden authors left out) whose text has the
    /// query, newest first; `account_id` keeps one author's. Nothing for a visitor.
    private func matchingStatuses(_ query: String, _ call: Call, _ timeline: Timeline, _ viewer: Int?) -> [Int] {
        if let ordinal = resolvedURL(query, timeline)?.status { return [ordinal] }
        guard let viewer, !query.isEmpty else { return [] }
        let author = call.parameters["account_id"].flatMap { state.ids.parse($0) }.flatMap(timeline.user(id:))?.index
        let hidden = timeline.hiddenAuthors(for: viewer)
        return timeline.allOrdinals().filter { ordinal in
            guard let status = timeline.status(ordinal: ordinal), !timeline.isBoost(status),
                  !hidden.contains(status.authorIndex), author.map({ $0 == status.authorIndex }) ?? true else { return false }
            if let visibility = status.mastodon?.visibility, visibility != "public" { return false }
            return status.text.lowercased().contains(query.lowercased())
        }
    }

    /// The hashtags statuses carry whose name starts with the query (without
    /// `#`), the most used first, with how many statuses and authors use them.
    private func matchingTags(_ query: String, _ timeline: Timeline) -> [(name: String, uses: Int, accounts: Int)] {
        let wanted = (query.hasPrefix("#") ? String(query.dropFirst()) : query).lowercased()
        guard !wanted.isEmpty, !wanted.contains(" ") else { return [] }
        var uses: [String: (count: Int, authors: Set<Int>)] = [:]
        for ordinal in timeline.allOrdinals() {
            guard let status = timeline.status(ordinal: ordinal), status.text.contains("#") else { continue }
            for name in Hashtags.names(in: status.text) where name.lowercased().hasPrefix(wanted) {
                uses[name.lowercased(), default: (0, [])].count += 1
                uses[name.lowercased()]!.authors.insert(status.authorIndex)
            }
        }
        return uses.map { (name: $0.key, uses: $0.value.count, accounts: $0.value.authors.count) }
            .sorted { $0.uses != $1.uses ? $0.uses > $1.uses : $0.name < $1.name }
    }

    /// What one of this server's URLs shows: `ORIGIN/@name` a user, `ORIGIN/@name/ID` a status.
    private func resolvedURL(_ query: String, _ timeline: Timeline) -> (user: Int?, status: Int?)? {
        guard query.hasPrefix(state.origin + "/@") else { return nil }
        let parts = query.dropFirst(state.origin.count + 2).split(separator: "/")
        guard let name = parts.first, let user = timeline.user(screenName: PercentEncoding.decoded(name) ?? String(name))
        else { return (nil, nil) }
        if parts.count == 2, let id = state.ids.parse(String(parts[1])), let status = timeline.status(id: id) {
            return (nil, status.ordinal)
        }
        return parts.count == 1 ? (user.index, nil) : (nil, nil)
    }
}
