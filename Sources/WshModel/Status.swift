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
}

/// A page of statuses: `{"statuses": [...], "total_number": N}` or a bare array.
public struct TimelinePage: Hashable, Sendable, Codable {
    public var statuses: [Status]
    public var totalNumber: Int?
    public var previousCursor: Int64?
    public var nextCursor: Int64?
    /// True when the API pages by its own links (Mastodon's `Link` header):
    /// then `serverNext` is where the next older page starts, exactly as the
    /// server wrote it, and nil means there is none. Not part of the body.
    public var pagedByServer = false
    /// The query of the server's `next` link, exactly as sent (every parameter,
    /// in its order, percent-encoding kept): an opaque cursor, never rebuilt from a row.
    public var serverNext: String?
    /// The query of the server's `prev` link, as sent: where statuses newer than this page start.
    public var serverPrevious: String?

    public init(statuses: [Status], totalNumber: Int? = nil, previousCursor: Int64? = nil, nextCursor: Int64? = nil) {
        self.statuses = statuses
        self.totalNumber = totalNumber
        self.previousCursor = previousCursor
        self.nextCursor = nextCursor
    }

    enum CodingKeys: String, CodingKey {
        case statuses
        /// Weibo's repost timeline names its statuses `reposts`.
        case reposts
        case totalNumber = "total_number"
        case previousCursor = "previous_cursor"
        case nextCursor = "next_cursor"
    }

    public init(from decoder: Decoder) throws {
        if let statuses = decoder.lenientBareArray(Status.self) {
            self.init(statuses: statuses)
            return
        }
        let c = try decoder.container(keyedBy: CodingKeys.self)
        let key: CodingKeys = c.contains(.statuses) || !c.contains(.reposts) ? .statuses : .reposts
        self.init(
            statuses: try c.pageList(Status.self, key, "a timeline page needs 'statuses'"),
            totalNumber: c.lenient(Int.self, .totalNumber),
            previousCursor: c.lenient(Int64.self, .previousCursor), nextCursor: c.lenient(Int64.self, .nextCursor))
    }

    public func encode(to encoder: Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(statuses, forKey: .statuses)
        try c.encodeIfPresent(totalNumber, .totalNumber)
        try c.encodeIfPresent(previousCursor, .previousCursor)
        try c.encodeIfPresent(nextCursor, .nextCursor)
    }
}

/// A filter that matched a status, as the server says in the status's
/// `filtered` (Mastodon 4's `FilterResult`): the filter's title and action,
/// and the words it matched.
public struct FilterMatch: Sendable, Hashable {
    public var title: String
    /// `warn`, `hide` or `blur`; anything else is read as `warn`.
    public var action: String
    public var keywords: [String] = []
    /// Where the filter applies (`home`, `notifications`, `public`, `thread`,
    /// `account`): Mastodon 4 lists every active filter a status matches,
    /// whatever the page, and its clients apply each only in its contexts.
    /// Empty when the server did not say: then it applies everywhere.
    public var context: [String] = []

    /// True when the filter applies where `context` is shown; nil `context`:
    /// a screen no filter applies to (bookmarks, favourites), as on Mastodon's own.
    public func applies(in context: String?) -> Bool {
        guard let context else { return false }
        return self.context.isEmpty || self.context.contains(context)
    }

    /// True when the status is not to be shown at all.
    public var hides: Bool { action == "hide" }
    /// True when the status shows the filter's title in place of its text
    /// (`warn`, and any action this wsh does not know: shown, but behind the title).
    public var warns: Bool { action != "hide" && action != "blur" }
}

extension Status {
    /// The status with only the filter matches that apply where `context` is
    /// shown (see `FilterMatch.applies(in:)`); a boost's original too.
    public func filtered(in context: String?) -> Status {
        guard !self.filterMatches.isEmpty || !(self.retweetedStatus?.filterMatches.isEmpty ?? true) else { return self }
        var status = self
        status.filterMatches = self.filterMatches.filter { $0.applies(in: context) }
        status.retweetedStatus = self.retweetedStatus?.filtered(in: context)
        return status
    }

    /// True when a filter the server applied says to hide it (a boost: or the status it boosts).
    public var isHiddenByFilter: Bool {
        self.filterMatches.contains { $0.hides } || (self.retweetedStatus?.filterMatches.contains { $0.hides } ?? false)
    }

    /// The title of the filter whose `warn` covers its text (a boost: or the
    /// status it boosts); nil when none does.
    public var filterWarning: String? {
        (self.filterMatches.first { $0.warns } ?? self.retweetedStatus?.filterMatches.first { $0.warns })?.title
    }
}
