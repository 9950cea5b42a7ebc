import WshModel
import WshRequest

/// Search, followers and following, blocks and server-side mutes, passed to
/// the user DataController (what the API can do of them is `capabilities`,
/// so the screens refuse before any request what it cannot).
extension TimelineDataController {
    /// What a search for `query` found.
    public func search(_ query: String, kinds: Set<SearchKind>, limit: Int, resolve: Bool) async throws(RequestError) -> SearchResults {
        try await users.search(query, kinds: kinds, limit: limit, resolve: resolve)
    }

    /// A page of `reference`'s followers or of whom they follow.
    public func accounts(_ list: AccountList, of reference: UserReference, count: Int, cursor: String? = nil)
        async throws(RequestError) -> UserPage {
        try await users.accounts(list, of: reference, count: count, cursor: cursor)
    }

    /// A page of who favourited or boosted the status `statusID`.
    public func statusAccounts(_ list: StatusAccountList, statusID: String, count: Int, cursor: String? = nil)
        async throws(RequestError) -> UserPage {
        try await users.statusAccounts(list, statusID: statusID, count: count, cursor: cursor)
    }

    /// The token owner's filters.
    public func filters() async throws(RequestError) -> [ContentFilter] {
        try await users.filters()
    }

    /// Blocks or unblocks `reference`.
    public func setBlocking(_ block: Bool, _ reference: UserReference) async throws(WriteError) -> WriteOutcome<Relationship?> {
        try await users.setBlocking(block, reference)
    }

    /// Mutes or unmutes `reference` on the server.
    public func setServerMute(_ mute: Bool, _ reference: UserReference, duration: Int?, notifications: Bool)
        async throws(WriteError) -> WriteOutcome<Relationship?> {
        try await users.setServerMute(mute, reference, duration: duration, notifications: notifications)
    }
}
