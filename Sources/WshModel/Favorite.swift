/// A favourite, as `favorites/create.json` and `favorites/destroy.json`
/// give it: `{"status": {…}, "tags": [], "favorited_time": "…"}`.
public struct Favorite: Hashable, Sendable, Codable {
    /// The status favourited, with its counts as the server now has them.
    public var status: Status?
    /// When it was favourited, as the server writes it.
    public var favoritedTime: String?

    public init(status: Status? = nil, favoritedTime: String? = nil) {
        self.status = status
        self.favoritedTime = favoritedTime
    }

    enum CodingKeys: String, CodingKey {
        case status
        case favoritedTime = "favorited_time"
    }

    public init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        self.init(status: c.lenient(Status.self, .status), favoritedTime: c.lenientString(.favoritedTime))
    }

    public func encode(to encoder: Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encodeIfPresent(status, .status)
        try c.encodeIfPresent(favoritedTime, .favoritedTime)
    }
}

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
        following = try decoder.container(keyedBy: CodingKeys.self).lenientBool(.following)
    }
}
