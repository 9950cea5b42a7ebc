import WshModel

/// A generated user: everything `users/show.json` and a status's `user` show.
struct SandboxUser: Sendable {
    /// Position in the data set; the uid is derived from it.
    var index: Int
    var id: Int64
    var screenName: String
    var location: String
    var description: String
    var gender: String
    var followersCount: Int
    var friendsCount: Int
    var favouritesCount: Int
    var verified: Bool
    var verifiedReason: String
    var createdAt: Timestamp
    /// The key of the avatar image in its URLs.
    var avatarKey: String
    /// How many generated statuses this user wrote (posts are added at run time).
    var generatedStatusesCount: Int

    /// Users' ids start here; a uid maps back to an index by subtraction.
    static let firstID: Int64 = 1_700_000_000
}
