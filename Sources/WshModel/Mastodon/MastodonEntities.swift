import WshText

// Mastodon's entities (Status, Account, Context, Notification, Relationship),
// decoded leniently — Pleroma, Akkoma and GoToSocial omit many optional
// fields — and mapped onto the Model wsh's ViewModels already show: a
// Mastodon status is a `Status`, an account a `User`, a reply in a thread a
// `Comment`. Only the Mastodon dialect (in the DataControllers) uses them.

/// A Mastodon `Account`.
public struct MastodonAccount: Decodable, Sendable, Hashable {
    public var id: String?
    public var username: String?
    /// `name` on the local server, `name@host` for a remote account.
    public var acct: String?
    public var displayName: String?
    /// The profile text, as HTML.
    public var note: String?
    public var url: String?
    public var avatar: String?
    public var followersCount: Int?
    public var followingCount: Int?
    public var statusesCount: Int?
    public var bot: Bool?
    public var locked: Bool?
    public var createdAt: WeiboTime?
    public var emojis: [MastodonEmoji] = []
    public var fields: [MastodonField] = []

    enum CodingKeys: String, CodingKey {
        case id, username, acct, note, url, avatar, bot, locked
        case emojis, fields
        case displayName = "display_name"
        case followersCount = "followers_count"
        case followingCount = "following_count"
        case statusesCount = "statuses_count"
        case createdAt = "created_at"
    }

    public init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        id = c.lenientString(.id)
        username = c.lenientString(.username)
        acct = c.lenientString(.acct)
        displayName = c.lenientString(.displayName)
        note = c.lenientString(.note)
        url = c.lenientString(.url)
        avatar = c.lenientString(.avatar)
        followersCount = c.lenientCount(.followersCount)
        followingCount = c.lenientCount(.followingCount)
        statusesCount = c.lenientCount(.statusesCount)
        bot = c.lenientBool(.bot)
        locked = c.lenientBool(.locked)
        createdAt = c.lenientString(.createdAt).flatMap(WeiboTime.init(iso8601:))
        emojis = c.lenientArray(MastodonEmoji.self, .emojis) ?? []
        fields = c.lenientArray(MastodonField.self, .fields) ?? []
    }

    /// The account as a `User`: `acct` is the screen name (what `user NAME`
    /// takes), the display name the name, the note as text the description.
    public var user: User {
        var user = User(id: id.flatMap { Int64($0) }, idstr: id, screenName: acct ?? username,
                        name: displayName?.isEmpty == false ? displayName : username, description: note.map(HTMLText.plainText),
                        url: url, profileImageURL: avatar, followersCount: followersCount, friendsCount: followingCount,
                        statusesCount: statusesCount, createdAt: createdAt)
        user.shape = .mastodon
        user.username = username
        user.displayName = displayName
        user.locked = locked
        user.bot = bot
        user.emojis = emojis.compactMap(\.emoji)
        user.fields = fields.compactMap(\.field)
        return user
    }
}

/// A Mastodon `Status` (a "toot").
public struct MastodonStatus: Decodable, Sendable, Hashable {
    public var id: String?
    public var createdAt: WeiboTime?
    public var account: MastodonAccount?
    /// The text, as HTML.
    public var content: String?
    /// The text as its author wrote it (`text`): what `DELETE` answers with
    /// in place of `content`, so a client can offer to redraft it.
    public var sourceText: String?
    public var spoilerText: String?
    public var visibility: String?
    public var sensitive: Bool?
    public var url: String?
    public var inReplyToID: String?
    public var repliesCount: Int?
    public var reblogsCount: Int?
    public var favouritesCount: Int?
    public var favourited: Bool?
    public var reblogged: Bool?
    public var bookmarked: Bool?
    public var applicationName: String?
    public var media: [Media]
    public var poll: MastodonPoll?
    /// The status boosted, for a boost.
    public var reblog: [MastodonStatus]
    public var editedAt: WeiboTime?
    public var card: Card?
    public var tags: [Named]
    public var mentions: [Named]
    public var emojis: [MastodonEmoji] = []
    /// The quote: Mastodon's `quote`, else Pleroma's `pleroma.quote`.
    public var quote: MastodonQuote?

    /// A link preview (`card`): every field the Model's `LinkCard` holds.
    public struct Card: Decodable, Sendable, Hashable {
        /// The text fields, in the order of `CodingKeys.allCases` (nil at `width`
        /// and `height`, and where the server sent none or null).
        public var texts = [String?](repeating: nil, count: CodingKeys.allCases.count)
        public var width: Int?
        public var height: Int?

        public enum CodingKeys: String, CodingKey, CaseIterable, Sendable {
            // In the fast path's order (`FastModelDecoding.swift`).
            case title, url, description, type, html, image, blurhash, language, width, height
            case authorName = "author_name"
            case authorURL = "author_url"
            case providerName = "provider_name"
            case providerURL = "provider_url"
            case imageDescription = "image_description"
            case embedURL = "embed_url"
            case publishedAt = "published_at"
        }

        init() {}

        public init(from decoder: Decoder) throws {
            let c = try decoder.container(keyedBy: CodingKeys.self)
            for (index, key) in CodingKeys.allCases.enumerated() {
                switch key {
                case .width: width = c.lenientCount(key)
                case .height: height = c.lenientCount(key)
                default: texts[index] = c.lenientString(key)
                }
            }
        }

        /// The text field `key`.
        subscript(key: CodingKeys) -> String? {
            texts[CodingKeys.allCases.firstIndex(of: key)!]
        }

        /// The Model's card; nil without a URL.
        var linkCard: LinkCard? {
            guard let url = self[.url] else { return nil }
            var card = LinkCard(title: self[.title] ?? "", url: url)
            card.description = self[.description]
            card.type = self[.type]
            card.authorName = self[.authorName]
            card.authorURL = self[.authorURL]
            card.providerName = self[.providerName]
            card.providerURL = self[.providerURL]
            card.html = self[.html]
            card.image = self[.image]
            card.imageDescription = self[.imageDescription]
            card.embedURL = self[.embedURL]
            card.blurhash = self[.blurhash]
            card.language = self[.language]
            card.publishedAt = self[.publishedAt]
            card.width = width
            card.height = height
            return card
        }
    }

    /// A tag (`name`) or a mention (`acct`).
    public struct Named: Decodable, Sendable, Hashable {
        public var name: String?

        init(name: String?) {
            self.name = name
        }

        enum CodingKeys: String, CodingKey { case name, acct }

        public init(from decoder: Decoder) throws {
            let c = try decoder.container(keyedBy: CodingKeys.self)
            name = c.lenientString(.name) ?? c.lenientString(.acct)
        }
    }

    /// One media attachment.
    public struct Media: Decodable, Sendable, Hashable {
        public var id: String?
        public var type: String?
        public var url: String?
        public var previewURL: String?
        public var description: String?

        enum CodingKeys: String, CodingKey {
            case id, type, url, description
            case previewURL = "preview_url"
        }

        public init(from decoder: Decoder) throws {
            let c = try decoder.container(keyedBy: CodingKeys.self)
            id = c.lenientString(.id)
            type = c.lenientString(.type)
            url = c.lenientString(.url)
            previewURL = c.lenientString(.previewURL)
            description = c.lenientString(.description)
        }

        /// The attachment as the Model has it.
        public var attachment: MediaAttachment {
            MediaAttachment(id: id ?? "", type: type, url: url, description: description)
        }
    }

    struct Application: Decodable {
        var name: String?
    }

    /// Pleroma's extensions, of which only its `quote` (the quoted status itself).
    struct Pleroma: Decodable {
        var quote: MastodonQuote?

        enum CodingKeys: String, CodingKey { case quote }

        init(from decoder: Decoder) throws {
            quote = try decoder.container(keyedBy: CodingKeys.self).lenient(MastodonQuote.self, .quote)
        }
    }

    enum CodingKeys: String, CodingKey {
        case id, account, content, visibility, sensitive, url, favourited, reblogged, application, poll, reblog, card, tags, mentions
        case bookmarked
        case emojis, quote, pleroma
        case editedAt = "edited_at"
        case sourceText = "text"
        case createdAt = "created_at"
        case spoilerText = "spoiler_text"
        case inReplyToID = "in_reply_to_id"
        case repliesCount = "replies_count"
        case reblogsCount = "reblogs_count"
        case favouritesCount = "favourites_count"
        case media = "media_attachments"
    }

    public init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        id = c.lenientString(.id)
        createdAt = c.lenientString(.createdAt).flatMap(WeiboTime.init(iso8601:))
        account = c.lenient(MastodonAccount.self, .account)
        content = c.lenientString(.content)
        sourceText = c.lenientString(.sourceText)
        spoilerText = c.lenientString(.spoilerText)
        visibility = c.lenientString(.visibility)
        sensitive = c.lenientBool(.sensitive)
        url = c.lenientString(.url)
        inReplyToID = c.lenientString(.inReplyToID)
        repliesCount = c.lenientCount(.repliesCount)
        reblogsCount = c.lenientCount(.reblogsCount)
        favouritesCount = c.lenientCount(.favouritesCount)
        favourited = c.lenientBool(.favourited)
        reblogged = c.lenientBool(.reblogged)
        bookmarked = c.lenientBool(.bookmarked)
        applicationName = c.lenient(Application.self, .application)?.name
        media = c.lenientArray(Media.self, .media) ?? []
        poll = c.lenient(MastodonPoll.self, .poll)
        reblog = c.lenient(MastodonStatus.self, .reblog).map { [$0] } ?? []
        editedAt = c.lenientString(.editedAt).flatMap(WeiboTime.init(iso8601:))
        card = c.lenient(Card.self, .card)
        tags = c.lenientArray(Named.self, .tags) ?? []
        mentions = c.lenientArray(Named.self, .mentions) ?? []
        emojis = c.lenientArray(MastodonEmoji.self, .emojis) ?? []
        quote = c.lenient(MastodonQuote.self, .quote) ?? c.lenient(Pleroma.self, .pleroma)?.quote
    }

    /// The status as a `Status`. The HTML content becomes text (paragraphs
    /// and `<br>` line breaks, links their text, hidden link parts dropped,
    /// entities decoded), or the source text when there is no content (a
    /// deleted status's answer); a boost is a status with no text of its own that
    /// shares the boosted one; the replies, boosts and favourites counts take
    /// the places of comments, reposts and likes.
    public var status: Status {
        let boosted = reblog.first?.status
        var status = Status(
            id: id.flatMap { Int64($0) }, idstr: id, createdAt: createdAt,
            text: boosted == nil ? plainText ?? "" : "",
            source: applicationName, favorited: favourited, inReplyToStatusID: inReplyToID,
            picURLs: media.compactMap { $0.url ?? $0.previewURL }, user: account?.user,
            repostsCount: reblogsCount, commentsCount: repliesCount, attitudesCount: favouritesCount,
            retweetedStatus: boosted)
        status.isBoost = boosted != nil
        status.contentWarning = spoilerText?.isEmpty == false ? spoilerText : nil
        status.visibility = visibility
        let shown = media.filter { ($0.url ?? $0.previewURL) != nil }
        status.mediaDescriptions = shown.map { $0.description }
        status.mediaTypes = shown.map { $0.type }
        status.sensitive = sensitive
        status.editedAt = editedAt
        status.reposted = reblogged
        status.bookmarked = bookmarked
        status.card = card?.linkCard
        status.tags = tags.compactMap(\.name)
        status.mentions = mentions.compactMap(\.name)
        status.poll = poll?.poll
        status.url = url
        status.shape = .mastodon
        status.contentHTML = content
        status.emojis = emojis.compactMap(\.emoji)
        status.quote = quote?.quote
        return status
    }

    /// The text to show: the HTML content as text, else the source text.
    var plainText: String? {
        if let content, !content.isEmpty { return HTMLText.plainText(content) }
        return sourceText ?? content
    }

    /// The status as a `Comment` in a thread `depth` deep.
    public func comment(depth: Int) -> Comment {
        var comment = Comment(id: id.flatMap { Int64($0) }, idstr: id, createdAt: createdAt,
                              text: plainText, source: applicationName, user: account?.user)
        comment.depth = depth
        comment.shape = .mastodon
        return comment
    }
}

/// A Mastodon `Poll`.
public struct MastodonPoll: Decodable, Sendable, Hashable {
    struct Option: Decodable, Hashable {
        var title: String?
        var votesCount: Int?
        enum CodingKeys: String, CodingKey {
            case title
            case votesCount = "votes_count"
        }
        init(from decoder: Decoder) throws {
            let c = try decoder.container(keyedBy: CodingKeys.self)
            title = c.lenientString(.title)
            votesCount = c.lenientCount(.votesCount)
        }
    }

    var options: [Option]
    var votesCount: Int?
    var expired: Bool?
    var expiresAt: WeiboTime?
    var multiple: Bool?
    var voted: Bool?
    var id: String?
    var ownVotes: [Int]
    var votersCount: Int?

    enum CodingKeys: String, CodingKey {
        case options, expired, multiple, voted, id
        case votesCount = "votes_count"
        case votersCount = "voters_count"
        case expiresAt = "expires_at"
        case ownVotes = "own_votes"
    }

    public init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        options = c.lenientArray(Option.self, .options) ?? []
        votesCount = c.lenientCount(.votesCount)
        expired = c.lenientBool(.expired)
        expiresAt = c.lenientString(.expiresAt).flatMap(WeiboTime.init(iso8601:))
        multiple = c.lenientBool(.multiple)
        voted = c.lenientBool(.voted)
        id = c.lenientString(.id)
        ownVotes = (try? c.decodeIfPresent([Int].self, forKey: .ownVotes)) ?? []
        votersCount = c.lenientCount(.votersCount)
    }

    public var poll: Poll {
        Poll(options: options.map { Poll.Option(title: $0.title ?? "", votes: $0.votesCount) },
             votesCount: votesCount, expired: expired ?? false, expiresAt: expiresAt,
             multiple: multiple, voted: voted, id: id, ownVotes: ownVotes, votersCount: votersCount)
    }
}

/// A Mastodon `Context`: the thread around a status.
public struct MastodonContext: Decodable, Sendable {
    public var ancestors: [MastodonStatus]
    public var descendants: [MastodonStatus]

    enum CodingKeys: String, CodingKey { case ancestors, descendants }

    public init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        ancestors = c.lenientArray(MastodonStatus.self, .ancestors) ?? []
        descendants = c.lenientArray(MastodonStatus.self, .descendants) ?? []
    }

    /// The replies under the status with `rootID` as a comments page, in
    /// thread order (each reply after the one it answers), with their depth.
    public func comments(under rootID: String) -> CommentsPage {
        var children: [String: [MastodonStatus]] = [:]
        for reply in descendants { children[reply.inReplyToID ?? rootID, default: []].append(reply) }
        var ordered: [Comment] = []
        var visited: Set<String> = []
        func walk(_ parent: String, depth: Int) {
            for reply in children[parent] ?? [] {
                guard let id = reply.id, visited.insert(id).inserted else { continue }
                ordered.append(reply.comment(depth: depth))
                walk(id, depth: depth + 1)
            }
        }
        walk(rootID, depth: 0)
        // Replies whose parent is not in the thread (a server may cut it) still show, at the top level.
        for reply in descendants where !visited.contains(reply.id ?? "") { ordered.append(reply.comment(depth: 0)) }
        return CommentsPage(comments: ordered, totalNumber: ordered.count)
    }
}

/// A Mastodon `Notification`; `mentions` keeps those of type `mention`.
public struct MastodonNotification: Decodable, Sendable {
    public var id: String?
    public var type: String?
    public var createdAt: WeiboTime?
    public var account: MastodonAccount?
    public var status: MastodonStatus?

    enum CodingKeys: String, CodingKey {
        case id, type, account, status
        case createdAt = "created_at"
    }

    public init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        id = c.lenientString(.id)
        type = c.lenientString(.type)
        createdAt = c.lenientString(.createdAt).flatMap(WeiboTime.init(iso8601:))
        account = c.lenient(MastodonAccount.self, .account)
        status = c.lenient(MastodonStatus.self, .status)
    }

    /// The notification in the Model.
    public var notification: ActivityNotification {
        ActivityNotification(id: id ?? "", type: type ?? "", createdAt: createdAt, account: account?.user, status: status?.status)
    }
}

/// A Mastodon `Conversation` (direct messages).
public struct MastodonConversation: Decodable, Sendable {
    public var id: String?
    public var unread: Bool?
    public var accounts: [MastodonAccount]
    public var lastStatus: MastodonStatus?

    enum CodingKeys: String, CodingKey {
        case id, unread, accounts
        case lastStatus = "last_status"
    }

    public init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        id = c.lenientString(.id)
        unread = c.lenientBool(.unread)
        accounts = c.lenientArray(MastodonAccount.self, .accounts) ?? []
        lastStatus = c.lenient(MastodonStatus.self, .lastStatus)
    }

    /// The conversation in the Model.
    public var conversation: Conversation {
        Conversation(id: id ?? "", unread: unread ?? false, accounts: accounts.map(\.user), lastStatus: lastStatus?.status)
    }
}

/// A Mastodon `Relationship` (after follow, unfollow, block, mute and their undoing).
public struct MastodonRelationship: Decodable, Sendable {
    public var id: String?
    public var following: Bool?
    public var blocking: Bool?
    public var muting: Bool?
    public var mutingNotifications: Bool?

    enum CodingKeys: String, CodingKey {
        case id, following, blocking, muting
        case mutingNotifications = "muting_notifications"
    }

    public init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        id = c.lenientString(.id)
        following = c.lenientBool(.following)
        blocking = c.lenientBool(.blocking)
        muting = c.lenientBool(.muting)
        mutingNotifications = c.lenientBool(.mutingNotifications)
    }

    /// The Model's `Relationship`.
    public var relationship: Relationship {
        Relationship(following: following, blocking: blocking, muting: muting, mutingNotifications: mutingNotifications)
    }
}

/// A Mastodon v2 `Search`: accounts, statuses and hashtags (`Tag`, with its `history`).
public struct MastodonSearch: Decodable, Sendable {
    public var accounts: [MastodonAccount]
    public var statuses: [MastodonStatus]
    public var hashtags: [Tag]

    public struct Tag: Decodable, Sendable {
        public var name: String?
        public var history: [History]

        public struct History: Decodable, Sendable {
            public var uses: Int?
            enum CodingKeys: String, CodingKey { case uses }
            public init(from decoder: Decoder) throws {
                uses = try decoder.container(keyedBy: CodingKeys.self).lenientCount(.uses)
            }
        }

        enum CodingKeys: String, CodingKey { case name, history }

        public init(from decoder: Decoder) throws {
            let c = try decoder.container(keyedBy: CodingKeys.self)
            name = c.lenientString(.name)
            history = c.lenientArray(History.self, .history) ?? []
        }
    }

    enum CodingKeys: String, CodingKey { case accounts, statuses, hashtags }

    public init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        accounts = c.lenientArray(MastodonAccount.self, .accounts) ?? []
        statuses = c.lenientArray(MastodonStatus.self, .statuses) ?? []
        hashtags = c.lenientArray(Tag.self, .hashtags) ?? []
    }

    /// The Model's `SearchResults`; a tag's uses are its history's, summed.
    public var results: SearchResults {
        SearchResults(accounts: accounts.map(\.user), statuses: statuses.map(\.status),
                      hashtags: hashtags.compactMap { tag in
                          tag.name.map { Hashtag(name: $0, uses: tag.history.isEmpty ? nil : tag.history.reduce(0) { $0 + ($1.uses ?? 0) }) }
                      })
    }
}
