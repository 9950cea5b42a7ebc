/// Whether the token's user follows someone: the `following` field that
/// `users/show.json` carries for the asking account. Nil when the server
/// does not say.
public struct FollowingState: Hashable, Sendable, Decodable {
    public var following: Bool?

    public init(following: Bool?) {
        self.following = following
    }

    enum CodingKeys: String, CodingKey { case following }

    public init(from decoder: Decoder) throws {
        following = try decoder.container(keyedBy: CodingKeys.self).lenient(Bool.self, .following)
    }
}
