import WshModel
import WshRequest

/// Search, followers and following, and server-side mutes. The mute
/// resolves a lost answer by reading the relationship before it reports, as
/// the account toggles do.
extension UserDataController {
    /// What a search for `query` found; its accounts and the statuses' authors are cached.
    public func search(_ query: String, kinds: Set<SearchKind>, limit: Int, resolve: Bool) async throws(RequestError) -> SearchResults {
        let results = try await api.run("UserDataController.search(\"\(query)\")",
                                        count: { $0.accounts.count + $0.statuses.count + $0.hashtags.count }) {
            try await $0.search(query, kinds: kinds, limit: limit, resolve: resolve, $1)
        }
        remember(results.accounts)
        remember(authorsOf: results.statuses)
        return results
    }

    /// A page of `reference`'s followers or of whom they follow, from `cursor`; the users are cached.
    public func accounts(_ list: AccountList, of reference: UserReference, count: Int, cursor: String? = nil)
        async throws(RequestError) -> UserPage {
        let page = try await api.run("UserDataController.\(list.rawValue)(\(reference))", count: { $0.users.count }) {
            try await $0.accounts(list, of: reference, count: count, cursor: cursor, $1)
        }
        remember(page.users)
        return page
    }

    /// A page of the accounts the token's owner mutes or blocks, from `cursor`; the users are cached.
    public func ownAccounts(_ list: OwnAccountList, count: Int, cursor: String? = nil) async throws(RequestError) -> UserPage {
        let page = try await api.run("UserDataController.\(list.rawValue)()", count: { $0.users.count }) {
            try await $0.ownAccounts(list, count: count, cursor: cursor, $1)
        }
        remember(page.users)
        return page
    }

    /// The domain of the server's own accounts, as `user@domain` writes it.
    public func accountDomain() async throws(RequestError) -> String? {
        try await api.run("UserDataController.accountDomain()", count: { _ in 1 }) { try await $0.accountDomain($1) }
    }

    /// A page of who favourited or boosted the status `statusID`, from `cursor`; the users are cached.
    public func statusAccounts(_ list: StatusAccountList, statusID: String, count: Int, cursor: String? = nil)
        async throws(RequestError) -> UserPage {
        let page = try await api.run("UserDataController.\(list.rawValue)(status: \(statusID))", count: { $0.users.count }) {
            try await $0.statusAccounts(list, statusID: statusID, count: count, cursor: cursor, $1)
        }
        remember(page.users)
        return page
    }

    /// The token owner's filters (never cached: the server applies them).
    public func filters() async throws(RequestError) -> [ContentFilter] {
        try await api.run("UserDataController.filters()", count: \.count) { try await $0.filters($1) }
    }

    /// Mutes `reference` on the server (or unmutes). A lost answer is
    /// resolved by reading the relationship's `muting`.
    public func setServerMute(_ mute: Bool, _ reference: UserReference, duration: Int?, notifications: Bool)
        async throws(WriteError) -> WriteOutcome<Relationship?> {
        try await relate("\(mute ? "mute" : "unmute")(\(reference), server)", reference, wanted: { $0.muting.map { $0 == mute } }) {
            try await $0.setServerMute(mute, reference, duration: duration, notifications: notifications, $1)
        }
    }

    /// Sends a relationship write; when its answer is lost, reads the
    /// relationship: as wanted is `.recovered`, the other way `.notApplied`,
    /// silent or unreadable `.unknown`.
    private func relate(_ name: String, _ reference: UserReference, wanted: (Relationship) -> Bool?,
                        _ send: (any Dialect, DialectExchange) async throws -> Relationship)
        async throws(WriteError) -> WriteOutcome<Relationship?> {
        let lost: RequestError
        do {
            return WriteOutcome(try await api.run("UserDataController.\(name)", count: { _ in 1 }, send))
        } catch {
            guard error.leavesWriteOutcomeUnknown else { throw .rejected(error) }
            lost = error
        }
        _ = try await api.resolveLostAnswer(
            lost, reading: "the relationship to \(reference)",
            call: "UserDataController.relationship(\(reference)) (\(name) done?)",
            silence: "the server's relationship to \(reference) does not say", { try await $0.relationship(reference, $1) },
            landed: wanted)
        return WriteOutcome(nil, resolution: .recovered(lostAnswer: lost.description))
    }
}
