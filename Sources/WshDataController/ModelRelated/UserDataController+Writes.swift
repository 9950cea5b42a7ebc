import WshModel
import WshRequest

/// Following and unfollowing (the dialect's
/// `setFollowing`), resolving a lost answer by reading the
/// server, as every write does.
extension UserDataController {
    /// Follows (`true`) or unfollows (`false`) the user `reference` names,
    /// and returns them as the server sends them back.
    ///
    /// When `alreadyDoneCounts`, the server saying it is already so is
    /// `.alreadyDone` (undo and redo want the state, not the act). A lost
    /// answer is resolved by reading the dialect's `followingState` (uncached) for its
    /// `following`: as wanted is `.recovered`, the other way `.notApplied`,
    /// absent or unreadable `.unknown`.
    public func setFollowing(_ follow: Bool, _ reference: UserReference, alreadyDoneCounts: Bool = false)
        async throws(WriteError) -> WriteOutcome<User?> {
        let lost: RequestError
        do {
            let user = try await api.run("UserDataController.\(follow ? "follow" : "unfollow")(\(reference))", count: { _ in 1 }) {
                try await $0.setFollowing(follow, reference, $1)
            }
            remember([user])
            return WriteOutcome(user)
        } catch {
            if alreadyDoneCounts, error.isAlreadyDone {
                return WriteOutcome(nil, resolution: .alreadyDone(reason: error.description))
            }
            guard error.leavesWriteOutcomeUnknown else { throw .rejected(error) }
            lost = error
        }
        _ = try await api.resolveLostAnswer(
            lost, reading: "\(reference)", call: "UserDataController.user(\(reference)) (followed?)",
            silence: "the server's profile of \(reference) does not say whether you follow them",
            { try await $0.followingState(reference, $1) }, landed: { $0.following.map { $0 == follow } })
        return WriteOutcome(nil, resolution: .recovered(lostAnswer: lost.description))
    }

    /// The token's rate-limit status (the dialect's `rateLimits`): never cached.
    public func rateLimitStatus() async throws(RequestError) -> RateLimitStatus {
        try await api.run("UserDataController.rateLimitStatus()", count: { _ in 1 }) { try await $0.rateLimits($1) }
    }
}
