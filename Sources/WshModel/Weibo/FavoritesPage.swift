/// One favorite: the status and when it was favorited, as
/// Weibo's favourites call gives it (`{"status": {...}, "tags": [...], "favorited_time": "..."}`).
public struct Favorite: Hashable, Sendable, Codable {
    public var status: Status?
    public var favoritedTime: Timestamp?
    /// The names of the favorite's tags (`tags[].tag`).
    public var tags: [String]

    public init(status: Status? = nil, favoritedTime: Timestamp? = nil, tags: [String] = []) {
        self.status = status
        self.favoritedTime = favoritedTime
        self.tags = tags
    }

    enum CodingKeys: String, CodingKey {
        case status, tags
        case favoritedTime = "favorited_time"
    }

    struct Tag: Codable {
        @Lenient var tag: String? = nil
    }

    public init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            status: c.lenient(Status.self, .status), favoritedTime: c.lenient(Timestamp.self, .favoritedTime),
            tags: (c.lenientArray(Tag.self, .tags) ?? []).compactMap(\.tag))
    }

    public func encode(to encoder: Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encodeIfPresent(status, .status)
        try c.encodeIfPresent(favoritedTime, .favoritedTime)
        try c.encode(tags.map(Tag.init(tag:)), forKey: .tags)
    }
}

/// A page of favorites: `{"favorites": [...], "total_number": N}`.
public struct FavoritesPage: Hashable, Sendable, Codable {
    public var favorites: [Favorite]
    public var totalNumber: Int?

    enum CodingKeys: String, CodingKey {
        case favorites
        case totalNumber = "total_number"
    }
}

// In an extension, so that Swift still writes the memberwise init.
extension FavoritesPage {
    public init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        self.init(favorites: try c.pageList(Favorite.self, .favorites, "a favorites page needs 'favorites'"),
                  totalNumber: c.lenient(Int.self, .totalNumber))
    }
}
