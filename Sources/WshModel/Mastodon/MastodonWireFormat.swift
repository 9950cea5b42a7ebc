import FoundationEssentials
import WshText

// Mastodon's wire format: its entities (Status, Account, Context,
// Notification, Relationship, and what comes beside a status's and an
// account's text: custom emojis, profile fields, (4.4+) quotes; filters),
// decoded leniently (`@Lenient` fields, read by the `init(from:)` Swift
// writes), since Pleroma, Akkoma and GoToSocial omit many optional fields,
// and mapped onto the Model wsh's ViewModels already show: a Mastodon status
// is a `Status`, an account a `User`, a reply in a thread a `Comment`; and
// its times, ISO 8601. Only the Mastodon dialect (in the DataControllers)
// uses them. `FastDecoding/FastModelDecoding.swift` reads the hot ones from
// the bytes: the same keys, read the same way, built with the memberwise
// init Swift writes.

/// A Mastodon `Account`.
public struct MastodonAccount: Decodable, Sendable, Hashable, LenientValue {
    @Lenient public var id: String? = nil
    @Lenient public var username: String? = nil
    /// `name` on the local server, `name@host` for a remote account.
    @Lenient public var acct: String? = nil
    @Lenient public var displayName: String? = nil
    /// The profile text, as HTML.
    @Lenient public var note: String? = nil
    @Lenient public var url: String? = nil
    @Lenient public var avatar: String? = nil
    @Lenient public var followersCount: Int? = nil
    @Lenient public var followingCount: Int? = nil
    @Lenient public var statusesCount: Int? = nil
    @Lenient public var bot: Bool? = nil
    @Lenient public var locked: Bool? = nil
    @LenientISO8601 public var createdAt: Timestamp? = nil
    @Lenient public var emojis: [MastodonEmoji] = []
    @Lenient public var fields: [MastodonField] = []
    /// The account it moved to (`moved`, a whole account): only its name is kept.
    @Lenient var moved: MovedAccount? = nil

    /// `moved`: the account an account moved to, of which its `acct` (else `username`).
    struct MovedAccount: Decodable, Sendable, Hashable, LenientValue {
        @Lenient var acct: String? = nil
        @Lenient var username: String? = nil
    }

    enum CodingKeys: String, CodingKey {
        case id, username, acct, note, url, avatar, bot, locked
        case emojis, fields, moved
        case displayName = "display_name"
        case followersCount = "followers_count"
        case followingCount = "following_count"
        case statusesCount = "statuses_count"
        case createdAt = "created_at"
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
        user.movedTo = (moved?.acct ?? moved?.username).flatMap { $0.isEmpty ? nil : $0 }
        return user
    }
}

/// A Mastodon `Status` (a "toot").
public struct MastodonStatus: Decodable, Sendable, Hashable, LenientValue {
    @Lenient public var id: String? = nil
    @LenientISO8601 public var createdAt: Timestamp? = nil
    @Lenient public var account: MastodonAccount? = nil
    /// The text, as HTML.
    @Lenient public var content: String? = nil
    /// The text as its author wrote it (`text`): what `DELETE` answers with
    /// in place of `content`, so a client can offer to redraft it.
    @Lenient public var sourceText: String? = nil
    @Lenient public var spoilerText: String? = nil
    @Lenient public var visibility: String? = nil
    @Lenient public var sensitive: Bool? = nil
    @Lenient public var url: String? = nil
    @Lenient public var inReplyToID: String? = nil
    @Lenient public var repliesCount: Int? = nil
    @Lenient public var reblogsCount: Int? = nil
    @Lenient public var favouritesCount: Int? = nil
    @Lenient public var favourited: Bool? = nil
    @Lenient public var reblogged: Bool? = nil
    @Lenient public var bookmarked: Bool? = nil
    @Lenient var application: Application? = nil
    @Lenient public var media: [Media] = []
    @Lenient public var poll: MastodonPoll? = nil
    /// The status boosted, for a boost.
    @Indirect public var reblog: MastodonStatus? = nil
    @LenientISO8601 public var editedAt: Timestamp? = nil
    @Lenient public var card: Card? = nil
    @Lenient public var tags: [Named] = []
    @Lenient public var mentions: [Named] = []
    @Lenient public var emojis: [MastodonEmoji] = []
    /// Mastodon's quote (`quote`).
    @Lenient var mastodonQuote: MastodonQuote? = nil
    /// Pleroma's extensions (`pleroma`).
    @Lenient var pleroma: Pleroma? = nil
    /// Akkoma's reactions at the top level (`emoji_reactions`), beside Pleroma's under `pleroma`.
    @Lenient var emojiReactions: [Reaction] = []
    /// The token owner's filters that matched it (Mastodon 4's `filtered`).
    @Lenient var filtered: [FilterResult] = []

    /// One `FilterResult`: `{filter: {title, filter_action, …}, …}`, of which the filter.
    struct FilterResult: Decodable, Sendable, Hashable {
        @Lenient var filter: Filter? = nil

        struct Filter: Decodable, Sendable, Hashable, LenientValue {
            @Lenient var title: String? = nil
            @Lenient var filterAction: String? = nil
            @Lenient var context: [String]? = nil

            enum CodingKeys: String, CodingKey {
                case title, context
                case filterAction = "filter_action"
            }
        }

        enum CodingKeys: String, CodingKey {
            case filter
        }

        /// The match as the Model has it; nil without a filter. A filter with no
        /// action is Mastodon 4.0's default, `warn`.
        var match: FilterMatch? {
            guard let filter else { return nil }
            return FilterMatch(title: filter.title ?? "", action: filter.filterAction ?? "warn", context: filter.context ?? [])
        }
    }

    /// The name of the app it was posted with.
    public var applicationName: String? { application?.name }

    /// The quote: Mastodon's `quote`, else Pleroma's `pleroma.quote`.
    public var quote: MastodonQuote? { mastodonQuote ?? pleroma?.quote }

    /// A link preview (`card`): every field the Model's `LinkCard` holds.
    public struct Card: Decodable, Sendable, Hashable, LenientValue {
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
                case .width: width = c.lenient(Int.self, key)
                case .height: height = c.lenient(Int.self, key)
                default: texts[index] = c.lenient(String.self, key)
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
    public struct Named: Decodable, Sendable, Hashable, LenientValue {
        public var name: String?

        init(name: String?) {
            self.name = name
        }

        enum CodingKeys: String, CodingKey { case name, acct }

        public init(from decoder: Decoder) throws {
            let c = try decoder.container(keyedBy: CodingKeys.self)
            name = c.lenient(String.self, .name) ?? c.lenient(String.self, .acct)
        }
    }

    /// One media attachment.
    public struct Media: Decodable, Sendable, Hashable {
        @Lenient public var id: String? = nil
        @Lenient public var type: String? = nil
        @Lenient public var url: String? = nil
        @Lenient public var previewURL: String? = nil
        @Lenient public var description: String? = nil

        enum CodingKeys: String, CodingKey {
            case id, type, url, description
            case previewURL = "preview_url"
        }

        /// The attachment as the Model has it.
        public var attachment: MediaAttachment {
            MediaAttachment(id: id ?? "", type: type, url: url, description: description)
        }
    }

    /// The app it was posted with: a `name` that is not a string (nor null) fails it.
    struct Application: Decodable, Sendable, Hashable, LenientValue {
        var name: String?
    }

    /// Pleroma's extensions, of which its `quote` (the quoted status itself) and `emoji_reactions`.
    struct Pleroma: Decodable, Sendable, Hashable, LenientValue {
        @Lenient var quote: MastodonQuote? = nil
        @Lenient var emojiReactions: [Reaction] = []

        enum CodingKeys: String, CodingKey {
            case quote
            case emojiReactions = "emoji_reactions"
        }
    }

    /// One of Pleroma's `emoji_reactions` (Akkoma's top-level ones too): `{name, count, me}`.
    struct Reaction: Decodable, Sendable, Hashable {
        @Lenient var name: String? = nil
        @Lenient var count: Int? = nil
        @Lenient var me: Bool? = nil

        var reaction: EmojiReaction? {
            guard let name, !name.isEmpty else { return nil }
            return EmojiReaction(name: name, count: count ?? 0, me: me ?? false)
        }
    }

    enum CodingKeys: String, CodingKey {
        case id, account, content, visibility, sensitive, url, favourited, reblogged, application, poll, reblog, card, tags, mentions
        case bookmarked, filtered
        case emojis, pleroma
        case emojiReactions = "emoji_reactions"
        case mastodonQuote = "quote"
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

    /// The status as a `Status`. The HTML content becomes text (paragraphs
    /// and `<br>` line breaks, links their text, hidden link parts dropped,
    /// entities decoded), or the source text when there is no content (a
    /// deleted status's answer); a boost is a status with no text of its own that
    /// shares the boosted one; the replies, boosts and favourites counts take
    /// the places of comments, reposts and likes.
    public var status: Status {
        let boosted = reblog?.status
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
        status.reactions = (emojiReactions.isEmpty ? pleroma?.emojiReactions ?? [] : emojiReactions).compactMap(\.reaction)
        status.filterMatches = filtered.compactMap(\.match)
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
public struct MastodonPoll: Decodable, Sendable, Hashable, LenientValue {
    struct Option: Decodable, Sendable, Hashable {
        @Lenient var title: String? = nil
        @Lenient var votesCount: Int? = nil
        enum CodingKeys: String, CodingKey {
            case title
            case votesCount = "votes_count"
        }
    }

    @Lenient var options: [Option] = []
    @Lenient var votesCount: Int? = nil
    @Lenient var expired: Bool? = nil
    @LenientISO8601 var expiresAt: Timestamp? = nil
    @Lenient var multiple: Bool? = nil
    @Lenient var voted: Bool? = nil
    @Lenient var id: String? = nil
    /// Nil unless an array of integers, every one.
    @Lenient var ownVotes: [Int]? = nil
    @Lenient var votersCount: Int? = nil

    enum CodingKeys: String, CodingKey {
        case options, expired, multiple, voted, id
        case votesCount = "votes_count"
        case votersCount = "voters_count"
        case expiresAt = "expires_at"
        case ownVotes = "own_votes"
    }

    public var poll: Poll {
        Poll(options: options.map { Poll.Option(title: $0.title ?? "", votes: $0.votesCount) },
             votesCount: votesCount, expired: expired ?? false, expiresAt: expiresAt,
             multiple: multiple, voted: voted, id: id, ownVotes: ownVotes ?? [], votersCount: votersCount)
    }
}

/// A Mastodon `Context`: the thread around a status.
public struct MastodonContext: Decodable, Sendable {
    @Lenient public var ancestors: [MastodonStatus] = []
    @Lenient public var descendants: [MastodonStatus] = []

    /// The replies under the status with `rootID` as a comments page, in
    /// thread order (each reply after the one it answers), with their depth;
    /// `kept`: each of `descendants` as the server sent it, in the answer's
    /// order (for `--json`), ignored unless there is one per reply.
    public func comments(under rootID: String, kept: [ServerJSON]? = nil) -> CommentsPage {
        let kept = kept?.count == descendants.count ? kept : nil
        var children: [String: [Int]] = [:]
        for (offset, reply) in descendants.enumerated() { children[reply.inReplyToID ?? rootID, default: []].append(offset) }
        func comment(_ offset: Int, depth: Int) -> Comment {
            var comment = descendants[offset].comment(depth: depth)
            comment.serverJSON = kept?[offset]
            return comment
        }
        var ordered: [Comment] = []
        var visited: Set<String> = []
        func walk(_ parent: String, depth: Int) {
            for offset in children[parent] ?? [] {
                guard let id = descendants[offset].id, visited.insert(id).inserted else { continue }
                ordered.append(comment(offset, depth: depth))
                walk(id, depth: depth + 1)
            }
        }
        walk(rootID, depth: 0)
        // Replies whose parent is not in the thread (a server may cut it) still show, at the top level.
        for (offset, reply) in descendants.enumerated() where !visited.contains(reply.id ?? "") {
            ordered.append(comment(offset, depth: 0))
        }
        return CommentsPage(comments: ordered, totalNumber: ordered.count)
    }
}

/// A Mastodon `Notification`; `mentions` keeps those of type `mention`.
public struct MastodonNotification: Decodable, Sendable {
    @Lenient public var id: String? = nil
    @Lenient public var type: String? = nil
    @LenientISO8601 public var createdAt: Timestamp? = nil
    @Lenient public var account: MastodonAccount? = nil
    @Lenient public var status: MastodonStatus? = nil
    /// A reaction's emoji (Pleroma's `pleroma:emoji_reaction`).
    @Lenient public var emoji: String? = nil

    enum CodingKeys: String, CodingKey {
        case id, type, account, status, emoji
        case createdAt = "created_at"
    }

    /// The notification in the Model.
    public var notification: ActivityNotification {
        ActivityNotification(id: id ?? "", type: type ?? "", createdAt: createdAt, account: account?.user, status: status?.status,
                             emoji: emoji)
    }
}

/// A Mastodon `Conversation` (direct messages).
public struct MastodonConversation: Decodable, Sendable {
    @Lenient public var id: String? = nil
    @Lenient public var unread: Bool? = nil
    @Lenient public var accounts: [MastodonAccount] = []
    @Lenient public var lastStatus: MastodonStatus? = nil

    enum CodingKeys: String, CodingKey {
        case id, unread, accounts
        case lastStatus = "last_status"
    }

    /// The conversation in the Model.
    public var conversation: Conversation {
        Conversation(id: id ?? "", unread: unread ?? false, accounts: accounts.map(\.user), lastStatus: lastStatus?.status)
    }
}

/// A Mastodon `Relationship` (after follow, unfollow, block, mute and their undoing).
public struct MastodonRelationship: Decodable, Sendable {
    @Lenient public var id: String? = nil
    @Lenient public var following: Bool? = nil
    @Lenient public var blocking: Bool? = nil
    @Lenient public var muting: Bool? = nil
    @Lenient public var mutingNotifications: Bool? = nil
    @Lenient public var showingReblogs: Bool? = nil
    @Lenient public var notifying: Bool? = nil
    @Lenient public var languages: [String]? = nil

    enum CodingKeys: String, CodingKey {
        case id, following, blocking, muting, notifying, languages
        case mutingNotifications = "muting_notifications"
        case showingReblogs = "showing_reblogs"
    }

    /// The Model's `Relationship`.
    public var relationship: Relationship {
        Relationship(following: following, blocking: blocking, muting: muting, mutingNotifications: mutingNotifications,
                     showingReblogs: showingReblogs, notifying: notifying, languages: languages)
    }
}

/// A Mastodon v2 `Search`: accounts, statuses and hashtags (`Tag`, with its `history`).
public struct MastodonSearch: Decodable, Sendable {
    @Lenient public var accounts: [MastodonAccount] = []
    @Lenient public var statuses: [MastodonStatus] = []
    @Lenient public var hashtags: [Tag] = []

    public struct Tag: Decodable, Sendable {
        @Lenient public var name: String? = nil
        @Lenient public var history: [History] = []

        public struct History: Decodable, Sendable {
            @Lenient public var uses: Int? = nil
        }
    }

    /// The Model's `SearchResults`; a tag's uses are its history's, summed.
    public var results: SearchResults {
        SearchResults(accounts: accounts.map(\.user), statuses: statuses.map(\.status),
                      hashtags: hashtags.compactMap { tag in
                          tag.name.map { Hashtag(name: $0, uses: tag.history.isEmpty ? nil : tag.history.reduce(0) { $0 + ($1.uses ?? 0) }) }
                      })
    }
}

// MARK: - Beside a status's and an account's text; filters

/// A Mastodon `CustomEmoji`.
public struct MastodonEmoji: Decodable, Sendable, Hashable {
    @Lenient public var shortcode: String? = nil
    @Lenient public var url: String? = nil
    @Lenient public var staticURL: String? = nil

    enum CodingKeys: String, CodingKey {
        case shortcode, url
        case staticURL = "static_url"
    }

    /// The Model's emoji; nil without a shortcode or an image.
    var emoji: CustomEmoji? {
        guard let shortcode, !shortcode.isEmpty, let image = url ?? staticURL else { return nil }
        return CustomEmoji(shortcode: shortcode, url: image)
    }
}

/// A Mastodon account `Field`.
public struct MastodonField: Decodable, Sendable, Hashable {
    @Lenient public var name: String? = nil
    @Lenient public var value: String? = nil
    @LenientISO8601 public var verifiedAt: Timestamp? = nil

    enum CodingKeys: String, CodingKey {
        case name, value
        case verifiedAt = "verified_at"
    }

    var field: ProfileField? {
        name.map { ProfileField(name: $0, value: value ?? "", verifiedAt: verifiedAt) }
    }
}

/// A Mastodon `Quote` (`{state, quoted_status}`) or `ShallowQuote`
/// (`{state, quoted_status_id}`, what a quote nested in a quote is).
/// Akkoma's and Pleroma's older `quote` is the quoted status itself, with no
/// `state`: it reads as an accepted quote of that status.
public struct MastodonQuote: Decodable, Sendable, Hashable, LenientValue {
    public var state: String?
    @Indirect public var quotedStatus: MastodonStatus? = nil
    public var quotedStatusID: String?

    enum CodingKeys: String, CodingKey {
        case state
        case quotedStatus = "quoted_status"
        case quotedStatusID = "quoted_status_id"
    }

    /// Nothing of a `Quote` read: the object may be the quoted status itself.
    var isBare: Bool { state == nil && quotedStatus == nil && quotedStatusID == nil }

    /// Takes `status`, the object read again as a status, as the quoted one when it has an id.
    mutating func acceptBare(_ status: MastodonStatus) {
        guard status.id != nil else { return }
        state = "accepted"
        quotedStatus = status
    }

    /// The Model's quote; nil without a state.
    public var quote: QuotePost? {
        guard let state, !state.isEmpty else { return nil }
        let quoted = quotedStatus?.status
        return QuotePost(state: state, status: quoted, statusID: quotedStatusID ?? quoted?.identifier)
    }
}

extension MastodonQuote {
    public init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        state = c.lenient(String.self, .state)
        quotedStatus = c.lenient(MastodonStatus.self, .quotedStatus)
        quotedStatusID = c.lenient(String.self, .quotedStatusID)
        if isBare { acceptBare(try MastodonStatus(from: decoder)) }
    }
}

/// A filter of Mastodon 4's `/api/v2/filters`: `{id, title, context, expires_at,
/// filter_action, keywords: [{keyword}]}`.
public struct MastodonFilter: Decodable, Sendable {
    @Lenient var id: String? = nil
    @Lenient var title: String? = nil
    @Lenient var context: [String] = []
    @LenientISO8601 var expiresAt: Timestamp? = nil
    @Lenient var filterAction: String? = nil
    @Lenient var keywords: [Keyword] = []

    struct Keyword: Decodable, Sendable {
        @Lenient var keyword: String? = nil
    }

    enum CodingKeys: String, CodingKey {
        case id, title, context, keywords
        case expiresAt = "expires_at"
        case filterAction = "filter_action"
    }

    /// The filter as the Model has it (no action: Mastodon 4.0's default, `warn`).
    public var filter: ContentFilter {
        ContentFilter(id: id ?? "", title: title ?? "", context: context, action: filterAction ?? "warn", expiresAt: expiresAt,
                      keywords: keywords.compactMap(\.keyword))
    }
}

/// A filter of the older `/api/v1/filters` (Mastodon before 4, and servers
/// that kept only it): one `phrase` per filter; `irreversible` drops what it
/// matches (read as `hide`), else it warns.
public struct MastodonFilterV1: Decodable, Sendable {
    @Lenient var id: String? = nil
    @Lenient var phrase: String? = nil
    @Lenient var context: [String] = []
    @LenientISO8601 var expiresAt: Timestamp? = nil
    @Lenient var irreversible: Bool? = nil

    enum CodingKeys: String, CodingKey {
        case id, phrase, context, irreversible
        case expiresAt = "expires_at"
    }

    /// The filter as the Model has it: its phrase is its title and its one keyword.
    public var filter: ContentFilter {
        let phrase = phrase ?? ""
        return ContentFilter(id: id ?? "", title: phrase, context: context, action: irreversible == true ? "hide" : "warn",
                             expiresAt: expiresAt, keywords: phrase.isEmpty ? [] : [phrase])
    }
}

// MARK: - Times: ISO 8601

extension Timestamp {
    /// Parses an ISO 8601 / RFC 3339 time as Mastodon writes it
    /// (`2024-11-06T07:08:38.000Z`, `2024-11-06T07:08:38+09:00`, or a date
    /// alone); nil when the text is not in that form. The offset is kept.
    public init?(iso8601 text: String) {
        let bytes = Array(text.utf8)
        func number(_ from: Int, _ count: Int) -> Int? {
            guard from + count <= bytes.count else { return nil }
            var value = 0
            for byte in bytes[from..<(from + count)] {
                guard (0x30...0x39).contains(byte) else { return nil }
                value = value * 10 + Int(byte - 0x30)
            }
            return value
        }
        guard let year = number(0, 4), bytes.count >= 10, bytes[4] == 0x2D, let month = number(5, 2),
              bytes[7] == 0x2D, let day = number(8, 2), (1...12).contains(month), (1...31).contains(day)
        else { return nil }
        var hour = 0, minute = 0, second = 0, fraction = 0.0, offset = 0
        var index = 10
        if index < bytes.count, bytes[index] == 0x54 || bytes[index] == 0x74 || bytes[index] == 0x20 {
            guard let h = number(11, 2), bytes.count > 13, bytes[13] == 0x3A, let m = number(14, 2),
                  (0...23).contains(h), (0...59).contains(m) else { return nil }
            (hour, minute) = (h, m)
            index = 16
            if index < bytes.count, bytes[index] == 0x3A {
                guard let s = number(17, 2), (0...60).contains(s) else { return nil }
                second = s
                index = 19
            }
            if index < bytes.count, bytes[index] == 0x2E {
                var digits = 0
                var scale = 0.1
                index += 1
                while index < bytes.count, (0x30...0x39).contains(bytes[index]) {
                    fraction += Double(bytes[index] - 0x30) * scale
                    scale /= 10
                    digits += 1
                    index += 1
                }
                guard digits > 0 else { return nil }
            }
            if index < bytes.count {
                switch bytes[index] {
                case 0x5A, 0x7A:
                    index += 1
                case 0x2B, 0x2D:
                    let sign = bytes[index] == 0x2D ? -1 : 1
                    guard let oh = number(index + 1, 2) else { return nil }
                    var om = 0
                    if index + 3 < bytes.count, bytes[index + 3] == 0x3A {
                        guard let value = number(index + 4, 2) else { return nil }
                        om = value
                        index += 6
                    } else if let value = number(index + 3, 2) {
                        om = value
                        index += 5
                    } else {
                        index += 3
                    }
                    offset = sign * (oh * 3600 + om * 60)
                default:
                    return nil
                }
            }
        }
        guard index == bytes.count else { return nil }
        let days = CivilTime.days(year: year, month: month, day: day)
        let local = Double(days * 86_400 + hour * 3600 + minute * 60 + second) + fraction
        self.init(date: Date(timeIntervalSince1970: local - Double(offset)), utcOffset: offset)
    }
}

extension Timestamp {
    /// The time in ISO 8601 as Mastodon writes it, in UTC with milliseconds:
    /// `2024-11-06T07:08:38.000Z`.
    public var iso8601Text: String {
        let utc = Timestamp(date: date, utcOffset: 0).components
        let milliseconds = Int((date.timeIntervalSince1970 * 1000).rounded(.down)) % 1000
        if (0...9999).contains(utc.year) {
            return ASCIIFields.text(capacity: 24) { text in
                text.number(utc.year, width: 4)
                text.byte(UInt8(ascii: "-"))
                text.number(utc.month, width: 2)
                text.byte(UInt8(ascii: "-"))
                text.number(utc.day, width: 2)
                text.byte(UInt8(ascii: "T"))
                text.clock(utc.hour, utc.minute, utc.second)
                text.byte(UInt8(ascii: "."))
                text.number((milliseconds + 1000) % 1000, width: 3)
                text.byte(UInt8(ascii: "Z"))
            }
        }
        func pad(_ n: Int, _ width: Int = 2) -> String {
            let text = String(n)
            return String(repeating: "0", count: max(0, width - text.count)) + text
        }
        return "\(pad(utc.year, 4))-\(pad(utc.month))-\(pad(utc.day))T\(pad(utc.hour)):\(pad(utc.minute)):\(pad(utc.second))"
            + ".\(pad((milliseconds + 1000) % 1000, 3))Z"
    }
}

/// A Mastodon time field: its text read by `Timestamp(iso8601:)`; nil when
/// the field is absent, null, not text or not in that form.
@propertyWrapper
public struct LenientISO8601: LenientField, Sendable, Hashable {
    public var wrappedValue: Timestamp?

    public init(wrappedValue: Timestamp?) {
        self.wrappedValue = wrappedValue
    }

    public init<K>(_ container: KeyedDecodingContainer<K>, _ key: K) {
        wrappedValue = container.lenient(String.self, key).flatMap(Timestamp.init(iso8601:))
    }

    /// Outside an object (never in the Model): the text, if it is one.
    public init(from decoder: Decoder) throws {
        wrappedValue = (try? decoder.singleValueContainer().decode(String.self)).flatMap(Timestamp.init(iso8601:))
    }
}
