/// A user (an account), as every API's user calls and every status's author give it;
/// each API reads its own wire shape into it in its own folder.
///
/// Nearly every field is optional: responses differ by year and client.
public struct User: CopyOnWrite {
    public var box: CopyOnWriteBox<Storage>

    /// A user of these fields.
    public init(_ storage: Storage) {
        box = CopyOnWriteBox(storage)
    }

    /// A user's fields: `user.name` is `Storage`'s `name`.
    public struct Storage: Hashable, Sendable {
        public var id: Int64?
        public var idstr: String?
        public var screenName: String?
        public var name: String?
        public var location: String?
        public var description: String?
        public var url: String?
        public var profileImageURL: String?
        public var gender: String?
        public var followersCount: Int?
        public var friendsCount: Int?
        public var statusesCount: Int?
        public var favouritesCount: Int?
        public var verified: Bool?
        public var verifiedReason: String?
        public var createdAt: Timestamp?
        /// The user's latest status, when the API nests it (it then has no `user`).
        public var status: Status?
        /// Which API's names the user came with.
        public var shape = APIShape.weibo
        /// The local user name (Mastodon's `username`; `screenName` holds `acct`).
        public var username: String?
        /// The display name exactly as the server sent it (Mastodon's
        /// `display_name`, often empty); `name` falls back to the username for Views.
        public var displayName: String?
        /// Whether the account approves its followers (Mastodon's `locked`).
        public var locked: Bool?
        /// Whether the account says it is automated (Mastodon's `bot`).
        public var bot: Bool?
        /// The custom emojis its display name and note name (Mastodon's `emojis`).
        public var emojis: [CustomEmoji] = []
        /// Its profile fields (Mastodon's `fields`); empty on Weibo.
        public var fields: [ProfileField] = []
        /// Where the account moved to (Mastodon's `moved`, an account): its `acct`; nil when it has not moved.
        public var movedTo: String?
        /// The account as the server sent it (Mastodon), for `--json`; nil when not kept.
        public var serverJSON: ServerJSON?

        public init() {}
    }

    /// The id as text: `idstr` when present, otherwise `id`.
    public var identifier: String? { self.idstr ?? self.id.map(String.init) }

    public init(
        id: Int64? = nil, idstr: String? = nil, screenName: String? = nil, name: String? = nil,
        location: String? = nil, description: String? = nil, url: String? = nil,
        profileImageURL: String? = nil, gender: String? = nil, followersCount: Int? = nil,
        friendsCount: Int? = nil, statusesCount: Int? = nil, favouritesCount: Int? = nil,
        verified: Bool? = nil, verifiedReason: String? = nil, createdAt: Timestamp? = nil,
        status: Status? = nil
    ) {
        self.init(Storage())
        self.id = id
        self.idstr = idstr
        self.screenName = screenName
        self.name = name
        self.location = location
        self.description = description
        self.url = url
        self.profileImageURL = profileImageURL
        self.gender = gender
        self.followersCount = followersCount
        self.friendsCount = friendsCount
        self.statusesCount = statusesCount
        self.favouritesCount = favouritesCount
        self.verified = verified
        self.verifiedReason = verifiedReason
        self.createdAt = createdAt
        self.status = status
    }
}
