/// A user in Weibo's wire shape, as JSONDecoder reads it (FastDecoding/ reads the same keys faster).
extension User: Codable, LenientValue {
    enum CodingKeys: String, CodingKey {
        case id, idstr, name, location, description, url, gender, verified, status
        case screenName = "screen_name"
        case profileImageURL = "profile_image_url"
        case followersCount = "followers_count"
        case friendsCount = "friends_count"
        case statusesCount = "statuses_count"
        case favouritesCount = "favourites_count"
        case verifiedReason = "verified_reason"
        case createdAt = "created_at"
    }

    public init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            id: c.lenient(Int64.self, .id), idstr: c.lenient(String.self, .idstr),
            screenName: c.lenient(String.self, .screenName), name: c.lenient(String.self, .name),
            location: c.lenient(String.self, .location), description: c.lenient(String.self, .description),
            url: c.lenient(String.self, .url), profileImageURL: c.lenient(String.self, .profileImageURL),
            gender: c.lenient(String.self, .gender), followersCount: c.lenient(Int.self, .followersCount),
            friendsCount: c.lenient(Int.self, .friendsCount), statusesCount: c.lenient(Int.self, .statusesCount),
            favouritesCount: c.lenient(Int.self, .favouritesCount), verified: c.lenient(Bool.self, .verified),
            verifiedReason: c.lenient(String.self, .verifiedReason), createdAt: c.lenient(Timestamp.self, .createdAt),
            status: c.lenient(Status.self, .status))
    }

    public func encode(to encoder: Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encodeIfPresent(self.id, .id)
        try c.encodeIfPresent(self.idstr, .idstr)
        try c.encodeIfPresent(self.screenName, .screenName)
        try c.encodeIfPresent(self.name, .name)
        try c.encodeIfPresent(self.location, .location)
        try c.encodeIfPresent(self.description, .description)
        try c.encodeIfPresent(self.url, .url)
        try c.encodeIfPresent(self.profileImageURL, .profileImageURL)
        try c.encodeIfPresent(self.gender, .gender)
        try c.encodeIfPresent(self.followersCount, .followersCount)
        try c.encodeIfPresent(self.friendsCount, .friendsCount)
        try c.encodeIfPresent(self.statusesCount, .statusesCount)
        try c.encodeIfPresent(self.favouritesCount, .favouritesCount)
        try c.encodeIfPresent(self.verified, .verified)
        try c.encodeIfPresent(self.verifiedReason, .verifiedReason)
        try c.encodeIfPresent(self.createdAt, .createdAt)
        try c.encodeIfPresent(self.status, .status)
    }
}
