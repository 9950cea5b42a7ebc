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
    /// The status as the server sent it, sanitized: every field wsh does not
    /// model is written from it, wsh's own merged over it (`ServerFields`).
    var server: JSONValue?

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

    /// A status's `poll`: every field under Mastodon's names, its texts sanitized.
    struct PollDocument: Encodable, Sendable, Hashable {
        let poll: Poll

        func encode(to encoder: Encoder) throws {
            try encoder.encodeFields([
                "options": poll.options.map(Option.init), "votes_count": poll.votesCount, "expired": poll.expired,
                "expires_at": poll.expiresAt?.iso8601Text, "multiple": poll.multiple, "voted": poll.voted,
                "id": poll.id.map(StatusDocument.clean), "own_votes": poll.voted == nil ? nil : poll.ownVotes,
                "voters_count": poll.votersCount,
            ])
        }

        /// One of `options`: `{title, votes_count}`.
        private struct Option: Encodable {
            let option: Poll.Option

            func encode(to encoder: Encoder) throws {
                try encoder.encodeFields(["title": StatusDocument.kept(option.title), "votes_count": option.votes])
            }
        }
    }

    /// The document of `status`, numbered `index` when it is a row; `server`:
    /// the status as the server sent it, already sanitized (a boost's `reblog`),
    /// else the one the status kept.
    public init(_ status: Status, index: Int? = nil, server: JSONValue? = nil) {
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
        if status.shape == .mastodon { self.server = server ?? ServerFields.sanitized(status.serverJSON) }
        user = status.user.map { UserDocument($0, server: self.server?["account"]) }
        retweetedStatus = status.retweetedStatus.map { Reposted(StatusDocument($0, server: self.server?["reblog"])) }
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
                poll: status.poll.map(PollDocument.init),
                isBoost: status.isBoost, sensitive: status.sensitive, editedAt: status.editedAt?.iso8601Text,
                card: status.card.map(CardDocument.init),
                tags: status.tags.map { ["name": Self.clean($0)] }, mentions: status.mentions.map { ["acct": Self.clean($0)] },
                favourited: status.favorited, reblogged: status.reposted, bookmarked: status.bookmarked)
            mastodon?.emojis = status.emojis.map(EmojiDocument.init)
            mastodon?.quote = status.quote.map(QuoteDocument.init)
        }
    }

    /// Weibo's names (README's "JSON fields"), or Mastodon's for a status
    /// that came from Mastodon: `--json` keeps the API's own names, and
    /// every other field the server sent.
    public func encode(to encoder: Encoder) throws {
        try ServerFields.encode(server, typed: encodeTyped, to: encoder)
    }

    /// The fields wsh writes itself, under the API's names.
    private func encodeTyped(to encoder: Encoder) throws {
        guard let mastodon else {
            return try encoder.encodeFields([
                "index": index, "id": id, "idstr": idstr, "mid": mid, "created_at": createdAt, "text": text,
                "source": source, "reposts_count": repostsCount, "comments_count": commentsCount,
                "attitudes_count": attitudesCount, "pic_urls": picURLs, "user": user, "retweeted_status": retweetedStatus,
            ])
        }
        try encoder.encodeFields([
            "index": index, "id": idstr, "created_at": createdAt,
            "content": mastodon.isBoost ? "" : mastodon.content ?? "", "text": mastodon.isBoost ? nil : text,
            "spoiler_text": mastodon.spoilerText, "visibility": mastodon.visibility, "url": mastodon.url,
            "in_reply_to_id": mastodon.inReplyToID, "replies_count": commentsCount, "reblogs_count": repostsCount,
            "favourites_count": attitudesCount, "media_attachments": mastodon.media, "sensitive": mastodon.sensitive,
            "edited_at": mastodon.editedAt, "card": mastodon.card, "tags": mastodon.tags, "mentions": mastodon.mentions,
            "favourited": mastodon.favourited, "reblogged": mastodon.reblogged, "bookmarked": mastodon.bookmarked,
            "poll": mastodon.poll, "emojis": mastodon.emojis, "quote": mastodon.quote,
            "application": source.map { ["name": $0] }, "account": user,
            "reblog": mastodon.isBoost ? retweetedStatus : nil,
        ])
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

/// A user: in statuses and comments, and `user NAME --json`. Its fields
/// read as the user's (`document.screenName`): only those `--json` writes,
/// every text from the server sanitized.
@dynamicMemberLookup
public struct UserDocument: Encodable, Sendable, Hashable {
    /// The user as `--json` writes it, `idstr` its identifier.
    let user: User
    /// Mastodon's custom emojis and profile fields (empty on Weibo).
    let emojis: [EmojiDocument]
    let fields: [FieldDocument]
    /// The account as the server sent it, sanitized (see `StatusDocument.server`).
    let server: JSONValue?

    /// The document of `user`; `server`: the account as the server sent it,
    /// already sanitized (a status's `account`), else the one the user kept.
    public init(_ user: User, server: JSONValue? = nil) {
        var clean = User(
            id: user.id, idstr: user.identifier.map(StatusDocument.clean), screenName: user.screenName.map(StatusDocument.clean),
            name: user.name.map(StatusDocument.kept), location: user.location.map(StatusDocument.kept),
            description: user.description.map { TerminalText.sanitize($0, .multiline) },
            followersCount: user.followersCount, friendsCount: user.friendsCount, statusesCount: user.statusesCount,
            verified: user.verified)
        clean.shape = user.shape
        clean.username = user.username.map(StatusDocument.clean)
        clean.displayName = user.displayName.map(StatusDocument.kept)
        clean.locked = user.locked
        clean.bot = user.bot
        clean.movedTo = user.movedTo.map(StatusDocument.clean)
        self.user = clean
        self.server = user.shape == .mastodon ? server ?? ServerFields.sanitized(user.serverJSON) : nil
        emojis = user.emojis.map(EmojiDocument.init)
        fields = user.fields.map(FieldDocument.init)
    }

    /// One field of the user, e.g. `screenName`.
    public subscript<Value>(dynamicMember field: KeyPath<User, Value>) -> Value {
        user[keyPath: field]
    }

    /// Weibo's names, or Mastodon's (`acct`, `display_name`, `note`…) for an
    /// account from Mastodon, with every other field the server sent.
    public func encode(to encoder: Encoder) throws {
        try ServerFields.encode(server, typed: encodeTyped, to: encoder)
    }

    private func encodeTyped(to encoder: Encoder) throws {
        guard user.shape == .mastodon else {
            return try encoder.encodeFields([
                "id": user.id, "idstr": user.idstr, "screen_name": user.screenName, "name": user.name,
                "location": user.location, "description": user.description, "followers_count": user.followersCount,
                "friends_count": user.friendsCount, "statuses_count": user.statusesCount, "verified": user.verified,
            ])
        }
        // `display_name` as the server sent it, "" included: only Views fall back to the username.
        try encoder.encodeFields([
            "id": user.idstr, "username": user.username, "acct": user.screenName, "display_name": user.displayName,
            "note": user.description, "followers_count": user.followersCount, "following_count": user.friendsCount,
            "statuses_count": user.statusesCount, "locked": user.locked, "bot": user.bot, "emojis": emojis, "fields": fields,
            "moved": user.movedTo.map { ["acct": $0] },
        ])
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
    /// A reply in a Mastodon thread as the server sent it (the status), sanitized (see `StatusDocument.server`).
    var server: JSONValue?

    public init(_ comment: Comment, index: Int) {
        self.index = index
        id = comment.id
        idstr = comment.identifier.map(StatusDocument.clean)
        createdAt = comment.createdAt?.weiboText
        text = comment.text.map { TerminalText.sanitize($0, .multiline) }
        if comment.shape == .mastodon {
            createdAt = comment.createdAt?.iso8601Text
            mastodonDepth = comment.depth
            server = ServerFields.sanitized(comment.serverJSON)
        }
        user = comment.user.map { [server] in UserDocument($0, server: server?["account"]) }
    }

    /// Weibo's names, or for a reply in a Mastodon thread Mastodon's: the id
    /// as the string the server sent (never a number, which loses digits past
    /// 2^53 in jq and JavaScript), ISO 8601 times, `account`.
    public func encode(to encoder: Encoder) throws {
        guard let mastodonDepth else {
            return try encoder.encodeFields([
                "index": index, "id": id, "idstr": idstr, "created_at": createdAt, "text": text, "user": user,
            ])
        }
        // Over every other field the server sent (`in_reply_to_id`, `pleroma`, …).
        try ServerFields.encode(server, typed: { [self] encoder throws in
            try encoder.encodeFields([
                "index": index, "id": idstr, "created_at": createdAt, "text": text, "account": user, "depth": mastodonDepth,
            ])
        }, to: encoder)
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
