/// A status (a post), as every API's timelines, status and posting calls
/// give it; each API reads its own wire shape into it in its own folder.
public struct Status: CopyOnWrite {
    public var box: CopyOnWriteBox<Storage>

    /// A status of these fields.
    public init(_ storage: Storage) {
        box = CopyOnWriteBox(storage)
    }

    /// A status's fields: `status.text` is `Storage`'s `text`.
    public struct Storage: Hashable, Sendable {
        /// The numeric id; may exceed 2^53, so it is never a Double.
        public var id: Int64?
        public var idstr: String?
        /// Always text here: the API sends it as a number or a string.
        public var mid: String?
        public var createdAt: Timestamp?
        public var text: String?
        /// The posting app, as an HTML anchor (`<a href="…">Weibo Web</a>`).
        public var source: String?
        public var favorited: Bool?
        public var truncated: Bool?
        /// `""` in many responses; kept as text.
        public var inReplyToStatusID: String?
        public var inReplyToUserID: String?
        public var inReplyToScreenName: String?
        public var thumbnailPic: String?
        public var bmiddlePic: String?
        public var originalPic: String?
        /// Thumbnail URLs of every picture (`pic_urls[].thumbnail_pic`).
        public var picURLs: [String] = []
        /// The author; absent when the status is nested in a user.
        public var user: User?
        public var repostsCount: Int?
        public var commentsCount: Int?
        public var attitudesCount: Int?
        /// Whether the service marks this status deleted (`"deleted": "1"`): a
        /// retweet of a deleted post keeps its id and a notice as `text`
        /// ("抱歉，此微博已被作者删除。…") and has no `user`.
        public var deleted: Bool?
        /// The reposted status, which may itself repost another.
        public var retweetedStatus: Status?
        /// A content warning (Mastodon's `spoiler_text`): the text stays collapsed behind it. Nil on Weibo.
        public var contentWarning: String?
        /// Who may see it: `public`, `unlisted`, `private`, `direct` (Mastodon). Nil on Weibo.
        public var visibility: String?
        /// The descriptions (alt text) of the pictures in `picURLs`, in order; nil where there is none.
        public var mediaDescriptions: [String?] = []
        /// The kind of each attachment in `picURLs`, as the API names it (Mastodon's
        /// `image`, `gifv`, `video`, `audio`, `unknown`); empty on Weibo (pictures).
        public var mediaTypes: [String?] = []
        /// True when the author marked the media sensitive (Mastodon); nil on Weibo.
        public var sensitive: Bool?
        /// When the author last edited it (Mastodon); nil when never, or on Weibo.
        public var editedAt: Timestamp?
        /// Whether the token's owner boosted it (Mastodon's `reblogged`).
        public var reposted: Bool?
        /// Whether the token's owner bookmarked it (Mastodon's `bookmarked`); nil on Weibo.
        public var bookmarked: Bool?
        /// The link preview the server made (Mastodon's `card`).
        @Indirect public var card: LinkCard? = nil
        /// The hashtags it carries, without `#` (Mastodon's `tags`).
        public var tags: [String] = []
        /// The accounts it mentions, by `acct` (Mastodon's `mentions`).
        public var mentions: [String] = []
        /// A poll attached to the status.
        @Indirect public var poll: Poll? = nil
        /// True when the status only shares `retweetedStatus`, with no text of its
        /// own: a Mastodon boost. A Weibo repost has its own text.
        public var isBoost = false
        /// The status's own page on the web, when the API gives one.
        public var url: String?
        /// Which API's names the status came with, so `--json` can keep them.
        public var shape = APIShape.weibo
        /// The text as the API's HTML (Mastodon's `content`); nil on Weibo.
        public var contentHTML: String?
        /// The custom emojis its text names by `:shortcode:` (Mastodon's `emojis`); empty on Weibo.
        public var emojis: [CustomEmoji] = []
        /// The status it quotes (Mastodon 4.4+), or why that is not shown; nil when it quotes none.
        @Indirect public var quote: QuotePost? = nil
        /// Emoji reactions (Pleroma's `pleroma.emoji_reactions`, Akkoma's `emoji_reactions`); empty on Weibo and Mastodon.
        public var reactions: [EmojiReaction] = []
        /// The filters of the token's owner that matched it, as the server says (Mastodon 4's `filtered`); empty on Weibo.
        public var filterMatches: [FilterMatch] = []
        /// The status as the server sent it (Mastodon), for `--json`; nil when not kept.
        public var serverJSON: ServerJSON?

        public init() {}
    }

    /// The id as text: `idstr` when present, otherwise `id`, otherwise `mid`.
    public var identifier: String? { self.idstr ?? self.id.map(String.init) ?? self.mid }

    public init(
        id: Int64? = nil, idstr: String? = nil, mid: String? = nil, createdAt: Timestamp? = nil,
        text: String? = nil, source: String? = nil, favorited: Bool? = nil, truncated: Bool? = nil,
        inReplyToStatusID: String? = nil, inReplyToUserID: String? = nil,
        inReplyToScreenName: String? = nil, thumbnailPic: String? = nil, bmiddlePic: String? = nil,
        originalPic: String? = nil, picURLs: [String] = [], user: User? = nil,
        repostsCount: Int? = nil, commentsCount: Int? = nil, attitudesCount: Int? = nil,
        retweetedStatus: Status? = nil, deleted: Bool? = nil
    ) {
        self.init(Storage())
        self.id = id
        self.idstr = idstr
        self.mid = mid
        self.createdAt = createdAt
        self.text = text
        self.source = source
        self.favorited = favorited
        self.truncated = truncated
        self.inReplyToStatusID = inReplyToStatusID
        self.inReplyToUserID = inReplyToUserID
        self.inReplyToScreenName = inReplyToScreenName
        self.thumbnailPic = thumbnailPic
        self.bmiddlePic = bmiddlePic
        self.originalPic = originalPic
        self.picURLs = picURLs
        self.user = user
        self.repostsCount = repostsCount
        self.commentsCount = commentsCount
        self.attitudesCount = attitudesCount
        self.retweetedStatus = retweetedStatus
        self.deleted = deleted
    }
}

/// A poll: its options with their votes, and whether it has closed.
public struct Poll: Hashable, Sendable {
    public struct Option: Hashable, Sendable {
        public var title: String
        public var votes: Int?
    }

    public var options: [Option]
    public var votesCount: Int?
    public var expired: Bool
    /// When it closes, as the API wrote it.
    public var expiresAt: Timestamp?
    /// Whether several choices may be voted for; nil when the API did not say.
    public var multiple: Bool?
    /// Whether the token's owner voted in it.
    public var voted: Bool?
    /// The poll's own id (Mastodon votes by it); nil when the API gave none.
    public var id: String?
    /// The options the token's owner chose, 0-based.
    public var ownVotes: [Int] = []
    /// How many accounts voted (with several choices, fewer than the votes).
    public var votersCount: Int?
}

/// A link preview: what the server read from a page the status links
/// (Mastodon's `PreviewCard`). Each text is as the server sent it, "" kept;
/// nil where it sent none.
public struct LinkCard: Hashable, Sendable {
    public var title: String
    public var url: String
    public var description: String?
    /// `link`, `photo`, `video` or `rich`.
    public var type: String?
    public var authorName: String?
    public var authorURL: String?
    public var providerName: String?
    public var providerURL: String?
    /// An embed for `video` and `rich` cards, as HTML.
    public var html: String?
    /// The preview picture's URL, and its description (alt text).
    public var image: String?
    public var imageDescription: String?
    public var embedURL: String?
    public var blurhash: String?
    public var language: String?
    /// When the page was published, as the server wrote it.
    public var publishedAt: String?
    /// The size of the embed or the picture, in pixels.
    public var width: Int?
    public var height: Int?

    public init(title: String, url: String) {
        self.title = title
        self.url = url
    }
}

/// The API whose field names a Model value came with: `--json` documents
/// keep the API's own names (Weibo's `text` and `user.screen_name`,
/// Mastodon's `content` and `account.acct`).
public enum APIShape: Sendable, Hashable {
    case weibo
    case mastodon
}

/// One emoji reaction to a status (Pleroma's and Akkoma's): the emoji (a
/// character, or a custom emoji's shortcode), how many reacted with it, and
/// whether you did.
public struct EmojiReaction: Sendable, Hashable {
    public var name: String
    public var count: Int
    public var me: Bool

    public init(name: String, count: Int, me: Bool) {
        self.name = name
        self.count = count
        self.me = me
    }
}
