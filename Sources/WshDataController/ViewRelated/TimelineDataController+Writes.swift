import WshModel
import WshRequest

/// The writes the timeline screens send, and the rate-limit status: each
/// passes to the model-related controller that owns it, which resolves a
/// lost answer before it reports.
extension TimelineDataController {
    /// Comments `text` on the status `statusID`.
    public func comment(statusID: String, text: String) async throws(WriteError) -> WriteOutcome<Comment> {
        try await statuses.comment(statusID: statusID, text: text)
    }

    /// Replies `text` to the comment `commentID` on the status `statusID`.
    public func reply(statusID: String, commentID: String, text: String) async throws(WriteError) -> WriteOutcome<Comment> {
        try await statuses.reply(statusID: statusID, commentID: commentID, text: text)
    }

    /// Deletes the comment `commentID` on the status `statusID`.
    public func deleteComment(statusID: String, commentID: String) async throws(WriteError) -> WriteOutcome<Comment?> {
        try await statuses.destroyComment(statusID: statusID, commentID: commentID)
    }

    /// Reposts the status `statusID`, with `text` when given.
    public func repost(statusID: String, text: String?) async throws(WriteError) -> WriteOutcome<Status> {
        let outcome = try await statuses.repost(statusID: statusID, text: text)
        users.remember(authorsOf: [outcome.value])
        return outcome
    }

    /// Follows or unfollows the user `reference` names.
    public func setFollowing(_ follow: Bool, _ reference: UserReference, alreadyDoneCounts: Bool = false)
        async throws(WriteError) -> WriteOutcome<User?> {
        try await users.setFollowing(follow, reference, alreadyDoneCounts: alreadyDoneCounts)
    }

    /// The token's rate-limit status.
    public func rateLimitStatus() async throws(RequestError) -> RateLimitStatus {
        try await users.rateLimitStatus()
    }
}
