import WshModel
import WshRequest

/// The account toggles (follow, block), resolving a lost answer by reading
/// the server, as every write does; and the rate-limit status.
extension UserDataController {
    /// Turns `toggle`'s side of your relationship to the user `reference`
    /// names on or off (the call the declaration names for this API), and
    /// returns the account as the server sends it back, if it does.
    ///
    /// When `alreadyDoneCounts`, the server saying it is already so is
    /// `.alreadyDone` (undo and redo want the state, not the act). A lost
    /// answer is resolved by reading the relationship (uncached): as wanted is
    /// `.recovered`, the other way `.notApplied`, silent or unreadable `.unknown`.
    public func set(_ toggle: AccountToggle, _ on: Bool, _ reference: UserReference, alreadyDoneCounts: Bool = false)
        async throws(WriteError) -> WriteOutcome<User?> {
        guard let call = toggle.call(on, on: dialect) else {
            throw .rejected(.configuration("this API (\(dialect.serverName)) has no \(toggle.feature)"))
        }
        let lost: RequestError
        do {
            let user = try await api.run("UserDataController.\(toggle.command(on))(\(reference))", count: { _ in 1 }) {
                try await $0.toggle(call, account: reference, $1)
            }
            if let user { remember([user]) }
            return WriteOutcome(user)
        } catch {
            if alreadyDoneCounts, error.isAlreadyDone {
                return WriteOutcome(nil, resolution: .alreadyDone(reason: error.description))
            }
            guard error.leavesWriteOutcomeUnknown else { throw .rejected(error) }
            lost = error
        }
        _ = try await api.resolveLostAnswer(
            lost, reading: "the relationship to \(reference)", call: "UserDataController.relationship(\(reference)) (\(toggle.on)?)",
            silence: "the server's relationship to \(reference) does not say whether it is \(toggle.on)",
            { try await $0.relationship(reference, $1) }, landed: { toggle.flag($0).map { $0 == on } })
        return WriteOutcome(nil, resolution: .recovered(lostAnswer: lost.description))
    }

    /// The token's rate-limit status (the dialect's `rateLimits`): never cached.
    public func rateLimitStatus() async throws(RequestError) -> RateLimitStatus {
        try await api.run("UserDataController.rateLimitStatus()", count: { _ in 1 }) { try await $0.rateLimits($1) }
    }
}
