import WshModel
import WshText

// The `--json` forms of what the screens show. A status keeps the API's own
// field names (README lists them), so a script written against the API reads
// wsh's JSON too. They are ViewModel outputs like the display strings: every
// string from the server has passed the one sanitizer (JSON tools print
// strings decoded, so an escaped ESC would still reach the terminal), and a
// View only encodes them.

/// One status: `list --json` (with `index`) and `detail N --json` (without).
public struct StatusDocument: Encodable, Sendable, Hashable {
    public var index: Int?
    public var id: Int64?
    public var idstr: String?
    public var mid: String?
    public var createdAt: String?
    public var text: String?
    public var source: String?
    public var repostsCount: Int
    public var commentsCount: Int
    public var attitudesCount: Int
    public var picURLs: [String]
    public var user: UserDocument?
    public var retweetedStatus: Reposted?
    /// Mastodon's names and extras, when the status came from Mastodon.
    public var mastodon: MastodonFields?

    /// What Mastodon has under its own names.
    public struct MastodonFields: Sendable, Hashable {
        var content: String?
        var spoilerText: String
        var visibility: String?
        var url: String?
        var inReplyToID: String?
        var media: [MediaDocument]
        var poll: PollDocument?
        var isBoost: Bool
        var sensitive: Bool?
        var editedAt: String?
        var card: CardDocument?
        var tags: [[String: String]]
        var mentions: [[String: String]]
        var favourited: Bool?
        var reblogged: Bool?
        var bookmarked: Bool?
        var emojis: [EmojiDocument] = []
        var quote: QuoteDocument?
    }

    /// One of `media_attachments`: its `type` as the server named it (a video is not a picture).
    struct MediaDocument: Encodable, Sendable, Hashable {
        var type: String?
        var url: String
        var description: String?
    }

    struct PollDocument: Encodable, Sendable, Hashable {
        struct Option: Encodable, Sendable, Hashable {
            var title: String
            var votesCount: Int?
            enum CodingKeys: String, CodingKey {
                case title
                case votesCount = "votes_count"
            }
        }
        var options: [Option]
        var votesCount: Int?
        var expired: Bool
        var expiresAt: String?
        var multiple: Bool?
        var voted: Bool?
        var id: String?
        var ownVotes: [Int]?
        var votersCount: Int?
        enum CodingKeys: String, CodingKey {
            case options, expired, multiple, voted, id
            case votesCount = "votes_count"
            case votersCount = "voters_count"
            case expiresAt = "expires_at"
            case ownVotes = "own_votes"
        }
    }

    enum MastodonKeys: String, CodingKey {
        case index, id, content, text, account, visibility, url, reblog, poll, bookmarked
        case createdAt = "created_at"
        case spoilerText = "spoiler_text"
        case inReplyToID = "in_reply_to_id"
        case repliesCount = "replies_count"
        case reblogsCount = "reblogs_count"
        case favouritesCount = "favourites_count"
        case mediaAttachments = "media_attachments"
        case application, sensitive, card, tags, mentions, favourited, reblogged
        case editedAt = "edited_at"
        case emojis, quote
    }

    enum CodingKeys: String, CodingKey {
        case index, id, idstr, mid, text, source, user
        case createdAt = "created_at"
        case repostsCount = "reposts_count"
        case commentsCount = "comments_count"
        case attitudesCount = "attitudes_count"
        case picURLs = "pic_urls"
        case retweetedStatus = "retweeted_status"
    }

    /// The document of `status`, numbered `index` when it is a row.
    public init(_ status: Status, index: Int? = nil) {
        self.index = index
        id = status.id
        idstr = status.idstr.map(Self.clean) ?? status.identifier.map(Self.clean)
        mid = status.mid.map(Self.clean)
        createdAt = status.createdAt?.weiboText
        text = status.text.map { TerminalText.sanitize($0, .multiline) }
        source = status.source.map { TerminalText.sanitize(HTMLText.plainText($0)) }
        repostsCount = status.repostsCount ?? 0
        commentsCount = status.commentsCount ?? 0
        attitudesCount = status.attitudesCount ?? 0
        picURLs = status.picURLs.map(Self.clean)
        user = status.user.map(UserDocument.init)
        retweetedStatus = status.retweetedStatus.map { Reposted(StatusDocument($0)) }
        if status.shape == .mastodon {
            createdAt = status.createdAt?.iso8601Text
            mastodon = MastodonFields(
                content: status.contentHTML.map { TerminalText.sanitize($0, .multiline) },
                spoilerText: Self.kept(status.contentWarning ?? ""),
                visibility: status.visibility.map(Self.clean), url: status.url.map(Self.clean),
                inReplyToID: status.inReplyToStatusID.map(Self.clean),
                media: status.picURLs.enumerated().map { offset, url in
                    MediaDocument(type: offset < status.mediaTypes.count ? status.mediaTypes[offset].map(Self.clean) : nil,
                                  url: Self.clean(url),
                                  description: offset < status.mediaDescriptions.count ? status.mediaDescriptions[offset].map(Self.kept) : nil)
                },
                poll: status.poll.map { poll in
                    PollDocument(options: poll.options.map { .init(title: Self.kept($0.title), votesCount: $0.votes) },
                                 votesCount: poll.votesCount, expired: poll.expired, expiresAt: poll.expiresAt?.iso8601Text,
                                 multiple: poll.multiple, voted: poll.voted, id: poll.id.map(Self.clean),
                                 ownVotes: poll.voted == nil ? nil : poll.ownVotes, votersCount: poll.votersCount)
                },
                isBoost: status.isBoost, sensitive: status.sensitive, editedAt: status.editedAt?.iso8601Text,
                card: status.card.map(CardDocument.init),
                tags: status.tags.map { ["name": Self.clean($0)] }, mentions: status.mentions.map { ["acct": Self.clean($0)] },
                favourited: status.favorited, reblogged: status.reposted, bookmarked: status.bookmarked)
            mastodon?.emojis = status.emojis.map(EmojiDocument.init)
            mastodon?.quote = status.quote.map(QuoteDocument.init)
        }
    }

    /// Weibo's names (README's "JSON fields"), or Mastodon's for a status
    /// that came from Mastodon: `--json` keeps the API's own names.
    public func encode(to encoder: Encoder) throws {
        guard let mastodon else {
            var c = encoder.container(keyedBy: CodingKeys.self)
            try c.encodeIfPresent(index, forKey: .index)
            try c.encodeIfPresent(id, forKey: .id)
            try c.encodeIfPresent(idstr, forKey: .idstr)
            try c.encodeIfPresent(mid, forKey: .mid)
            try c.encodeIfPresent(createdAt, forKey: .createdAt)
            try c.encodeIfPresent(text, forKey: .text)
            try c.encodeIfPresent(source, forKey: .source)
            try c.encode(repostsCount, forKey: .repostsCount)
            try c.encode(commentsCount, forKey: .commentsCount)
            try c.encode(attitudesCount, forKey: .attitudesCount)
            try c.encode(picURLs, forKey: .picURLs)
            try c.encodeIfPresent(user, forKey: .user)
            try c.encodeIfPresent(retweetedStatus, forKey: .retweetedStatus)
            return
        }
        var c = encoder.container(keyedBy: MastodonKeys.self)
        try c.encodeIfPresent(index, forKey: .index)
        try c.encodeIfPresent(idstr, forKey: .id)
        try c.encodeIfPresent(createdAt, forKey: .createdAt)
        try c.encode(mastodon.isBoost ? "" : mastodon.content ?? "", forKey: .content)
        try c.encodeIfPresent(mastodon.isBoost ? nil : text, forKey: .text)
        try c.encode(mastodon.spoilerText, forKey: .spoilerText)
        try c.encodeIfPresent(mastodon.visibility, forKey: .visibility)
        try c.encodeIfPresent(mastodon.url, forKey: .url)
        try c.encodeIfPresent(mastodon.inReplyToID, forKey: .inReplyToID)
        try c.encode(commentsCount, forKey: .repliesCount)
        try c.encode(repostsCount, forKey: .reblogsCount)
        try c.encode(attitudesCount, forKey: .favouritesCount)
        try c.encode(mastodon.media, forKey: .mediaAttachments)
        try c.encodeIfPresent(mastodon.sensitive, forKey: .sensitive)
        try c.encodeIfPresent(mastodon.editedAt, forKey: .editedAt)
        try c.encodeIfPresent(mastodon.card, forKey: .card)
        try c.encode(mastodon.tags, forKey: .tags)
        try c.encode(mastodon.mentions, forKey: .mentions)
        try c.encodeIfPresent(mastodon.favourited, forKey: .favourited)
        try c.encodeIfPresent(mastodon.reblogged, forKey: .reblogged)
        try c.encodeIfPresent(mastodon.bookmarked, forKey: .bookmarked)
        try c.encodeIfPresent(mastodon.poll, forKey: .poll)
        try c.encode(mastodon.emojis, forKey: .emojis)
        try c.encodeIfPresent(mastodon.quote, forKey: .quote)
        try c.encodeIfPresent(source.map { ["name": $0] }, forKey: .application)
        try c.encodeIfPresent(user, forKey: .account)
        try c.encodeIfPresent(mastodon.isBoost ? retweetedStatus : nil, forKey: .reblog)
    }

    static func clean(_ text: String) -> String { TerminalText.sanitize(text) }

    /// A server's text as `--json` keeps it: line breaks and tabs stay (JSON
    /// escapes them), as in `text`; only what would drive a terminal goes.
    static func kept(_ text: String) -> String { TerminalText.sanitize(text, .multiline) }

    /// The reposted status, boxed: a struct cannot hold itself.
    public final class Reposted: Encodable, Sendable, Hashable {
        public let status: StatusDocument
        init(_ status: StatusDocument) { self.status = status }
        public func encode(to encoder: Encoder) throws { try status.encode(to: encoder) }
        public static func == (lhs: Reposted, rhs: Reposted) -> Bool { lhs.status == rhs.status }
        public func hash(into hasher: inout Hasher) { hasher.combine(status) }
    }
}

/// A user: in statuses and comments, and `user NAME --json`.
public struct UserDocument: Encodable, Sendable, Hashable {
    public var id: Int64?
    public var idstr: String?
    public var screenName: String?
    public var name: String?
    public var location: String?
    public var description: String?
    public var followersCount: Int?
    public var friendsCount: Int?
    public var statusesCount: Int?
    public var verified: Bool?
    /// Mastodon's `username`, for an account from Mastodon (nil on Weibo).
    public var username: String?
    /// Mastodon's `display_name` as sent ("" for about half of real accounts).
    public var displayName: String?
    public var locked: Bool?
    public var bot: Bool?
    var emojis: [EmojiDocument] = []
    var fields: [FieldDocument] = []
    var isMastodon = false

    enum MastodonKeys: String, CodingKey {
        case id, username, acct, note, locked, bot
        case emojis, fields
        case displayName = "display_name"
        case followersCount = "followers_count"
        case followingCount = "following_count"
        case statusesCount = "statuses_count"
    }

    enum CodingKeys: String, CodingKey {
        case id, idstr, name, location, description, verified
        case screenName = "screen_name"
        case followersCount = "followers_count"
        case friendsCount = "friends_count"
        case statusesCount = "statuses_count"
    }

    public init(_ user: User) {
        id = user.id
        idstr = user.identifier.map(StatusDocument.clean)
        screenName = user.screenName.map(StatusDocument.clean)
        name = user.name.map(StatusDocument.kept)
        location = user.location.map(StatusDocument.kept)
        description = user.description.map { TerminalText.sanitize($0, .multiline) }
        followersCount = user.followersCount
        friendsCount = user.friendsCount
        statusesCount = user.statusesCount
        verified = user.verified
        username = user.username.map(StatusDocument.clean)
        isMastodon = user.shape == .mastodon
        displayName = user.displayName.map(StatusDocument.kept)
        locked = user.locked
        bot = user.bot
        emojis = user.emojis.map(EmojiDocument.init)
        fields = user.fields.map(FieldDocument.init)
    }

    /// Weibo's names, or Mastodon's (`acct`, `display_name`, `note`…) for an account from Mastodon.
    public func encode(to encoder: Encoder) throws {
        guard isMastodon else {
            var c = encoder.container(keyedBy: CodingKeys.self)
            try c.encodeIfPresent(id, forKey: .id)
            try c.encodeIfPresent(idstr, forKey: .idstr)
            try c.encodeIfPresent(screenName, forKey: .screenName)
            try c.encodeIfPresent(name, forKey: .name)
            try c.encodeIfPresent(location, forKey: .location)
            try c.encodeIfPresent(description, forKey: .description)
            try c.encodeIfPresent(followersCount, forKey: .followersCount)
            try c.encodeIfPresent(friendsCount, forKey: .friendsCount)
            try c.encodeIfPresent(statusesCount, forKey: .statusesCount)
            try c.encodeIfPresent(verified, forKey: .verified)
            return
        }
        var c = encoder.container(keyedBy: MastodonKeys.self)
        try c.encodeIfPresent(idstr, forKey: .id)
        try c.encodeIfPresent(username, forKey: .username)
        try c.encodeIfPresent(screenName, forKey: .acct)
        // As the server sent it, "" included: only Views fall back to the username.
        try c.encodeIfPresent(isMastodon ? displayName : name, forKey: .displayName)
        try c.encodeIfPresent(description, forKey: .note)
        try c.encodeIfPresent(followersCount, forKey: .followersCount)
        try c.encodeIfPresent(friendsCount, forKey: .followingCount)
        try c.encodeIfPresent(statusesCount, forKey: .statusesCount)
        try c.encodeIfPresent(locked, forKey: .locked)
        try c.encodeIfPresent(bot, forKey: .bot)
        try c.encode(emojis, forKey: .emojis)
        try c.encode(fields, forKey: .fields)
    }
}

/// One comment of `comments --json`.
public struct CommentDocument: Encodable, Sendable, Hashable {
    public var index: Int
    public var id: Int64?
    public var idstr: String?
    public var createdAt: String?
    public var text: String?
    public var user: UserDocument?
    /// A reply in a Mastodon thread: how deep, and Mastodon's own names in `--json`.
    var mastodonDepth: Int?

    enum CodingKeys: String, CodingKey {
        case index, id, idstr, text, user
        case createdAt = "created_at"
    }

    enum MastodonKeys: String, CodingKey {
        case index, id, text, account, depth
        case createdAt = "created_at"
    }

    public init(_ comment: Comment, index: Int) {
        self.index = index
        id = comment.id
        idstr = comment.identifier.map(StatusDocument.clean)
        createdAt = comment.createdAt?.weiboText
        text = comment.text.map { TerminalText.sanitize($0, .multiline) }
        user = comment.user.map(UserDocument.init)
        if comment.shape == .mastodon {
            createdAt = comment.createdAt?.iso8601Text
            mastodonDepth = comment.depth
        }
    }

    /// Weibo's names, or for a reply in a Mastodon thread Mastodon's: the id
    /// as the string the server sent (never a number, which loses digits past
    /// 2^53 in jq and JavaScript), ISO 8601 times, `account`.
    public func encode(to encoder: Encoder) throws {
        guard let mastodonDepth else {
            var c = encoder.container(keyedBy: CodingKeys.self)
            try c.encode(index, forKey: .index)
            try c.encodeIfPresent(id, forKey: .id)
            try c.encodeIfPresent(idstr, forKey: .idstr)
            try c.encodeIfPresent(createdAt, forKey: .createdAt)
            try c.encodeIfPresent(text, forKey: .text)
            try c.encodeIfPresent(user, forKey: .user)
            return
        }
        var c = encoder.container(keyedBy: MastodonKeys.self)
        try c.encode(index, forKey: .index)
        try c.encodeIfPresent(idstr, forKey: .id)
        try c.encodeIfPresent(createdAt, forKey: .createdAt)
        try c.encodeIfPresent(text, forKey: .text)
        try c.encodeIfPresent(user, forKey: .account)
        try c.encode(mastodonDepth, forKey: .depth)
    }
}

/// `comments N --json`: the status commented on, the total, and the comments.
public struct CommentsDocument: Encodable, Sendable, Hashable {
    public var statusIdstr: String
    public var totalNumber: Int
    public var comments: [CommentDocument]

    enum CodingKeys: String, CodingKey {
        case comments
        case statusIdstr = "status_idstr"
        case totalNumber = "total_number"
    }

    public init(status: Status, page: CommentsPage) {
        statusIdstr = TerminalText.sanitize(status.identifier)
        totalNumber = page.totalNumber ?? page.comments.count
        comments = page.comments.enumerated().map { CommentDocument($1, index: $0 + 1) }
    }
}
