import WshModel

/// The profile screen of one user.
public struct UserViewModel: Sendable, Hashable {
    /// The uid, empty when the API sent none.
    public let uid: String
    /// `@screen_name`.
    public let screenName: String
    /// The display name.
    public let name: String
    public let location: String
    /// The user's own description of themselves.
    public let bio: String
    public let followers: Int
    public let following: Int
    public let statuses: Int
    /// `120 followers · 80 following · 42 statuses`.
    public let countsText: String
    /// `verified: reason`, empty for unverified users.
    public let verifiedText: String
    /// The user's latest status on one line, empty when the API sent none.
    public let latestStatus: String

    /// The screen for `user`.
    public init(user: User) {
        uid = user.identifier ?? ""
        screenName = DisplayText.author(user)
        name = DisplayText.clean(user.name, singleLine: true)
        location = DisplayText.clean(user.location, singleLine: true)
        bio = DisplayText.clean(user.description, singleLine: true)
        followers = user.followersCount ?? 0
        following = user.friendsCount ?? 0
        statuses = user.statusesCount ?? 0
        countsText = "\(DisplayText.plural(followers, "follower")) · \(following) following · "
            + DisplayText.plural(statuses, "status", "statuses")
        if user.verified == true {
            let reason = DisplayText.clean(user.verifiedReason, singleLine: true)
            verifiedText = reason.isEmpty ? "verified" : "verified: \(reason)"
        } else {
            verifiedText = ""
        }
        latestStatus = DisplayText.clean(user.status?.text, singleLine: true)
    }
}
