import FoundationEssentials
import WshText

/// Decodes API bodies into Model values, turning Foundation's errors into a
/// message that says what was expected and where.
public enum ModelDecoding {
    /// Decodes `T` from JSON bytes.
    ///
    /// The hot Model types (pages, statuses, users, comments, Mastodon
    /// statuses and accounts) are read from the bytes by the fast path
    /// (FastDecoding/), which skips what the Model does not keep; any body
    /// it does not fully handle, and every other type, goes to JSONDecoder.
    /// Either way the value, or the error, is JSONDecoder's.
    public static func decode<T: Decodable>(_ type: T.Type, from data: Data) throws(ModelDecodingError) -> T {
        if let value = FastModelDecoding.decode(T.self, from: data) { return value }
        return try decodeWithFoundation(T.self, from: data)
    }

    /// `T` from JSON bytes when the fast path reads them whole and the
    /// body's own object has none of `declined` (an error body's fields);
    /// otherwise nil, and the caller checks the body and uses `decode`.
    public static func decodeQuickly<T: Decodable>(_ type: T.Type, from data: Data, declining declined: JSONKeys) -> T? {
        FastModelDecoding.decode(T.self, from: data, declining: declined)
    }

    /// Decodes `T` with JSONDecoder alone: the reference the fast path is tested against.
    static func decodeWithFoundation<T: Decodable>(_ type: T.Type, from data: Data) throws(ModelDecodingError) -> T {
        do {
            return try JSONDecoder().decode(T.self, from: data)
        } catch let error as DecodingError {
            throw ModelDecodingError(type: String(describing: T.self), error)
        } catch {
            throw ModelDecodingError(what: String(describing: T.self), where: "", detail: "\(error)")
        }
    }

    /// A coding path as a JSON path: `.statuses[3].user`.
    static func path(_ codingPath: [CodingKey]) -> String {
        codingPath.map { key in key.intValue.map { "[\($0)]" } ?? ".\(key.stringValue)" }.joined()
    }
}

/// A body that is not the shape a Model expects: what, where, and why.
public struct ModelDecodingError: Error, Hashable, Sendable {
    /// The type being decoded, e.g. `TimelinePage`.
    public var what: String
    /// The JSON path, e.g. `.statuses[3].user`, empty for the top level.
    public var `where`: String
    /// What went wrong there.
    public var detail: String
}

// In an extension, so that Swift still writes the memberwise init.
extension ModelDecodingError {
    init(type: String, _ error: DecodingError) {
        switch error {
        case .dataCorrupted(let context):
            self.init(what: type, where: ModelDecoding.path(context.codingPath),
                      detail: context.codingPath.isEmpty ? "not valid JSON" : context.debugDescription)
        case .keyNotFound(let key, let context):
            self.init(what: type, where: ModelDecoding.path(context.codingPath),
                      detail: "missing '\(key.stringValue)'")
        case .typeMismatch(let expected, let context):
            self.init(what: type, where: ModelDecoding.path(context.codingPath),
                      detail: "expected \(expected)")
        case .valueNotFound(let expected, let context):
            self.init(what: type, where: ModelDecoding.path(context.codingPath),
                      detail: "expected \(expected), found null")
        @unknown default:
            self.init(what: type, where: "", detail: "\(error)")
        }
    }
}

extension ModelDecodingError: CustomStringConvertible {
    public var description: String {
        "cannot decode \(what)\(`where`.isEmpty ? "" : " at \(`where`)"): \(detail)"
    }
}

// MARK: The fast path

/// The Model's fast decoding: the hot Model types read straight from the
/// response bytes (`ModelReader` over `JSONBytes`), with every tolerance of their
/// `init(from:)` (LenientDecoding.swift), and the same values.
///
/// `decode` returns nil for a type it does not know and for any body it
/// declines (see `JSONBytes.Declined`); `ModelDecoding.decode` then uses
/// JSONDecoder, so results and error messages stay exactly its.
/// Where JSONDecoder meets a key twice, the first one counts: so here.
enum FastModelDecoding {
    /// `declining`: keys the body's own object must not have (see `JSONBytes.declinedTopLevelKeys`).
    static func decode<T>(_ type: T.Type, from data: Data, declining: JSONKeys? = nil) -> T? {
        func run<Value>(_ read: (inout ModelReader) throws(JSONBytes.Declined) -> Value) -> T? {
            Self.run(data, declining, read) as! T?
        }
        if T.self == TimelinePage.self { return run(TimelinePage.fastDocument) }
        if T.self == CommentsPage.self { return run(CommentsPage.fastDocument) }
        if T.self == Status.self { return run(Status.fast) }
        if T.self == User.self { return run(User.fast) }
        if T.self == Comment.self { return run(Comment.fast) }
        if T.self == FavoritesPage.self { return run(FavoritesPage.fast) }
        if T.self == [MastodonStatus].self { return run(MastodonStatus.fastArray) }
        if T.self == MastodonStatus.self { return run(MastodonStatus.fast) }
        if T.self == MastodonAccount.self { return run(MastodonAccount.fast) }
        if T.self == MastodonContext.self { return run(MastodonContext.fast) }
        return nil
    }

    /// Reads the whole body with `read`: nil when it declines or leaves more than whitespace.
    private static func run<T>(_ data: Data, _ declining: JSONKeys?,
                               _ read: (inout ModelReader) throws(JSONBytes.Declined) -> T) -> T? {
        data.withUnsafeBytes { bytes in
            JSONBytes.read(bytes) { json throws(JSONBytes.Declined) in
                json.declinedTopLevelKeys = declining
                // A BOM, UTF-16, or anything but an object or an array: JSONDecoder's.
                let first = json.peek()
                guard first == UInt8(ascii: "{") || first == UInt8(ascii: "[") else { throw JSONBytes.Declined() }
                var reader = ModelReader(json, earlier: RecentUsers.lastBody)
                defer {
                    json = reader.json
                    RecentUsers.publish(RecentUsers.Body(data: data, users: reader.users))
                }
                return try read(&reader)
            }
        }
    }
}

// MARK: - Weibo

extension TimelinePage {
    private static let fastKeys = JSONKeys(["statuses", "reposts", "total_number", "previous_cursor", "next_cursor"])

    static func fastDocument(_ r: inout ModelReader) throws(JSONBytes.Declined) -> TimelinePage {
        // Some endpoints and older clients answer with the bare array; its
        // elements that are not objects are dropped.
        if r.peek() == UInt8(ascii: "[") {
            return TimelinePage(statuses: try r.lenientArray(Status.fast) ?? [])
        }
        var statuses: [Status]??
        var reposts: [Status]??
        var page = TimelinePage(statuses: [])
        let keys = Self.fastKeys
        try r.object(keys) { r, field throws(JSONBytes.Declined) in
            switch field {
            case 0: statuses = .some(try r.lenientArray(Status.fast))
            case 1: reposts = .some(try r.lenientArray(Status.fast))
            case 2: page.totalNumber = try r.lenientCount()
            case 3: page.previousCursor = try r.lenientInt()
            default: page.nextCursor = try r.lenientInt()
            }
        }
        // Weibo's repost timeline names its statuses `reposts`; a page
        // with neither is JSONDecoder's error to report.
        guard let list = statuses ?? reposts else { throw JSONBytes.Declined() }
        page.statuses = list ?? []
        return page
    }
}

extension CommentsPage {
    private static let fastKeys = JSONKeys(["comments", "total_number"])

    static func fastDocument(_ r: inout ModelReader) throws(JSONBytes.Declined) -> CommentsPage {
        if r.peek() == UInt8(ascii: "[") {
            return CommentsPage(comments: try r.lenientArray(Comment.fast) ?? [])
        }
        let (comments, totalNumber) = try r.countedList(Self.fastKeys, Comment.fast)
        return CommentsPage(comments: comments, totalNumber: totalNumber)
    }
}

extension FavoritesPage {
    private static let fastKeys = JSONKeys(["favorites", "total_number"])

    static func fast(_ r: inout ModelReader) throws(JSONBytes.Declined) -> FavoritesPage {
        let (favorites, totalNumber) = try r.countedList(Self.fastKeys, Favorite.fast)
        return FavoritesPage(favorites: favorites, totalNumber: totalNumber)
    }
}

extension Favorite {
    private static let fastKeys = JSONKeys(["status", "favorited_time", "tags"])

    static func fast(_ r: inout ModelReader) throws(JSONBytes.Declined) -> Favorite {
        var favorite = Favorite()
        let keys = Self.fastKeys
        try r.object(keys) { r, field throws(JSONBytes.Declined) in
            switch field {
            case 0: favorite.status = try r.lenientObject(Status.fast)
            case 1: favorite.favoritedTime = try r.lenientTime()
            default: favorite.tags = (try r.lenientArray(Self.fastTag) ?? []).compactMap { $0 }
            }
        }
        return favorite
    }

    /// One `tags[]` element: its `tag`.
    private static func fastTag(_ r: inout ModelReader) throws(JSONBytes.Declined) -> String? {
        try r.singleField("tag") { r throws(JSONBytes.Declined) in try r.lenientString() }
    }
}

extension Status {
    private static let fastKeys = JSONKeys([
        "id", "idstr", "mid", "created_at", "text", "source", "favorited", "truncated",
        "in_reply_to_status_id", "in_reply_to_user_id", "in_reply_to_screen_name",
        "thumbnail_pic", "bmiddle_pic", "original_pic", "pic_urls", "user",
        "reposts_count", "comments_count", "attitudes_count", "retweeted_status", "deleted",
    ])

    /// A status object, as `init(from:)` reads it.
    static func fast(_ r: inout ModelReader) throws(JSONBytes.Declined) -> Status {
        var s = Storage()
        let keys = Self.fastKeys
        try r.object(keys) { r, field throws(JSONBytes.Declined) in
            switch field {
            case 0: s.id = try r.lenientInt()
            case 1: s.idstr = try r.lenientString()
            case 2: s.mid = try r.lenientString()
            case 3: s.createdAt = try r.lenientTime()
            case 4: s.text = try r.lenientString()
            case 5: s.source = try r.lenientRepeatedString()
            case 6: s.favorited = try r.lenientBool()
            case 7: s.truncated = try r.lenientBool()
            case 8: s.inReplyToStatusID = try r.lenientString()
            case 9: s.inReplyToUserID = try r.lenientString()
            case 10: s.inReplyToScreenName = try r.lenientString()
            case 11: s.thumbnailPic = try r.lenientString()
            case 12: s.bmiddlePic = try r.lenientString()
            case 13: s.originalPic = try r.lenientString()
            case 14: s.picURLs = (try r.lenientArray(Self.fastPicture) ?? []).compactMap { $0 }
            case 15: s.user = try r.lenientObject { r throws(JSONBytes.Declined) in try r.user() }
            case 16: s.repostsCount = try r.lenientCount()
            case 17: s.commentsCount = try r.lenientCount()
            case 18: s.attitudesCount = try r.lenientCount()
            case 19: s.retweetedStatus = try r.lenientObject(Status.fast)
            default: s.deleted = try r.lenientBool()
            }
        }
        return Status(consume s)
    }

    /// One `pic_urls[]` element: its `thumbnail_pic`.
    private static func fastPicture(_ r: inout ModelReader) throws(JSONBytes.Declined) -> String? {
        try r.singleField("thumbnail_pic") { r throws(JSONBytes.Declined) in try r.lenientString() }
    }
}

extension User {
    private static let fastKeys = JSONKeys([
        "id", "idstr", "screen_name", "name", "location", "description", "url", "profile_image_url",
        "gender", "followers_count", "friends_count", "statuses_count", "favourites_count",
        "verified", "verified_reason", "created_at", "status",
    ])

    /// A user object, as `init(from:)` reads it.
    static func fast(_ r: inout ModelReader) throws(JSONBytes.Declined) -> User {
        var u = Storage()
        let keys = Self.fastKeys
        try r.object(keys) { r, field throws(JSONBytes.Declined) in
            switch field {
            case 0: u.id = try r.lenientInt()
            case 1: u.idstr = try r.lenientString()
            case 2: u.screenName = try r.lenientString()
            case 3: u.name = try r.lenientString()
            case 4: u.location = try r.lenientString()
            case 5: u.description = try r.lenientString()
            case 6: u.url = try r.lenientString()
            case 7: u.profileImageURL = try r.lenientString()
            case 8: u.gender = try r.lenientString()
            case 9: u.followersCount = try r.lenientCount()
            case 10: u.friendsCount = try r.lenientCount()
            case 11: u.statusesCount = try r.lenientCount()
            case 12: u.favouritesCount = try r.lenientCount()
            case 13: u.verified = try r.lenientBool()
            case 14: u.verifiedReason = try r.lenientString()
            case 15: u.createdAt = try r.lenientTime()
            default: u.status = try r.lenientObject(Status.fast)
            }
        }
        return User(consume u)
    }
}

extension Comment {
    private static let fastKeys = JSONKeys([
        "id", "idstr", "mid", "created_at", "text", "source", "user", "status", "reply_comment",
    ])

    /// A comment object, as `init(from:)` reads it.
    static func fast(_ r: inout ModelReader) throws(JSONBytes.Declined) -> Comment {
        var c = Comment()
        let keys = Self.fastKeys
        try r.object(keys) { r, field throws(JSONBytes.Declined) in
            switch field {
            case 0: c.id = try r.lenientInt()
            case 1: c.idstr = try r.lenientString()
            case 2: c.mid = try r.lenientString()
            case 3: c.createdAt = try r.lenientTime()
            case 4: c.text = try r.lenientString()
            case 5: c.source = try r.lenientRepeatedString()
            case 6: c.user = try r.lenientObject { r throws(JSONBytes.Declined) in try r.user() }
            case 7: c.status = try r.lenientObject(Status.fast)
            default: c.replyComment = try r.lenientObject(Comment.fast)
            }
        }
        return c
    }
}

extension ModelReader {
    /// An object of which one field is read (by `read`), the rest skipped:
    /// the field's value, nil when absent.
    mutating func singleField<T>(
        _ name: StaticString, _ read: (inout ModelReader) throws(JSONBytes.Declined) -> T?
    ) throws(JSONBytes.Declined) -> T? {
        var value: T?
        var seen = false
        try enterObject()
        var first = true
        while let key = try nextKey(&first) {
            if !seen, self.key(key, is: name) {
                seen = true
                value = try read(&self)
            } else {
                try skipValue()
            }
        }
        return value
    }

    /// An object of which two fields are read, the rest skipped: `field`
    /// gets 0 for `a` and 1 for `b`, the first time each appears (JSONDecoder
    /// keeps the first of duplicate keys), and reads its value.
    @inline(__always)
    mutating func twoFields(
        _ a: StaticString, _ b: StaticString, _ field: (inout ModelReader, Int) throws(JSONBytes.Declined) -> Void
    ) throws(JSONBytes.Declined) {
        var seen = 0
        try enterObject()
        var first = true
        while let key = try nextKey(&first) {
            let index = self.key(key, is: a) ? 0 : self.key(key, is: b) ? 1 : -1
            guard index >= 0, seen & 1 << index == 0 else {
                try skipValue()
                continue
            }
            seen |= 1 << index
            try field(&self, index)
        }
    }
}

// MARK: - Mastodon

extension MastodonAccount {
    private static let fastKeys = JSONKeys([
        "id", "username", "acct", "display_name", "note", "url", "avatar",
        "followers_count", "following_count", "statuses_count", "bot", "locked", "created_at",
        "emojis", "fields", "moved",
    ])

    /// An account object, as `init(from:)` reads it.
    static func fast(_ r: inout ModelReader) throws(JSONBytes.Declined) -> MastodonAccount {
        try MastodonAccount(fast: &r)
    }

    private init(fast r: inout ModelReader) throws(JSONBytes.Declined) {
        let keys = Self.fastKeys
        try r.object(keys) { r, field throws(JSONBytes.Declined) in
            switch field {
            case 0: id = try r.lenientString()
            case 1: username = try r.lenientString()
            case 2: acct = try r.lenientString()
            case 3: displayName = try r.lenientString()
            case 4: note = try r.lenientString()
            case 5: url = try r.lenientString()
            case 6: avatar = try r.lenientString()
            case 7: followersCount = try r.lenientCount()
            case 8: followingCount = try r.lenientCount()
            case 9: statusesCount = try r.lenientCount()
            case 10: bot = try r.lenientBool()
            case 11: locked = try r.lenientBool()
            case 12: createdAt = try r.lenientString().flatMap(Timestamp.init(iso8601:))
            case 13: emojis = try r.lenientArray(MastodonEmoji.fast) ?? []
            case 14: fields = try r.lenientArray(MastodonField.fast) ?? []
            default:
                moved = try r.lenientObject { r throws(JSONBytes.Declined) in
                    var moved = MovedAccount()
                    try r.object(MovedAccount.fastKeys) { r, field throws(JSONBytes.Declined) in
                        if field == 0 { moved.acct = try r.lenientString() } else { moved.username = try r.lenientString() }
                    }
                    return moved
                }
            }
        }
    }
}

extension MastodonEmoji {
    private static let fastKeys = JSONKeys(["shortcode", "url", "static_url"])

    static func fast(_ r: inout ModelReader) throws(JSONBytes.Declined) -> MastodonEmoji {
        var values: [String?] = [nil, nil, nil]
        try r.object(fastKeys) { r, field throws(JSONBytes.Declined) in values[field] = try r.lenientString() }
        return MastodonEmoji(shortcode: values[0], url: values[1], staticURL: values[2])
    }
}

extension MastodonField {
    private static let fastKeys = JSONKeys(["name", "value", "verified_at"])

    static func fast(_ r: inout ModelReader) throws(JSONBytes.Declined) -> MastodonField {
        var values: [String?] = [nil, nil, nil]
        try r.object(fastKeys) { r, field throws(JSONBytes.Declined) in values[field] = try r.lenientString() }
        return MastodonField(name: values[0], value: values[1], verifiedAt: values[2].flatMap(Timestamp.init(iso8601:)))
    }
}

extension MastodonQuote {
    private static let fastKeys = JSONKeys(["state", "quoted_status", "quoted_status_id"])

    static func fast(_ r: inout ModelReader) throws(JSONBytes.Declined) -> MastodonQuote {
        var quote = MastodonQuote(state: nil, quotedStatus: nil, quotedStatusID: nil)
        var again = r
        try r.object(fastKeys) { r, field throws(JSONBytes.Declined) in
            switch field {
            case 0: quote.state = try r.lenientString()
            case 1: quote.quotedStatus = try r.lenientObject(MastodonStatus.fast)
            default: quote.quotedStatusID = try r.lenientString()
            }
        }
        if quote.isBare {
            // Read once more, as a status, to where the first reading ended.
            quote.acceptBare(try MastodonStatus.fast(&again))
            r = again
        }
        return quote
    }
}

extension MastodonStatus {
    private static let fastKeys = JSONKeys([
        "id", "created_at", "account", "content", "text", "spoiler_text", "visibility", "sensitive", "url",
        "in_reply_to_id", "replies_count", "reblogs_count", "favourites_count", "favourited", "reblogged",
        "application", "media_attachments", "poll", "reblog", "edited_at", "card", "tags", "mentions",
        "bookmarked", "emojis", "quote", "pleroma", "emoji_reactions", "filtered",
    ])

    /// A status object, as `init(from:)` reads it.
    static func fast(_ r: inout ModelReader) throws(JSONBytes.Declined) -> MastodonStatus {
        try MastodonStatus(fast: &r)
    }

    /// A timeline: an array of status objects (any other element fails the
    /// array in JSONDecoder, so declines here).
    static func fastArray(_ r: inout ModelReader) throws(JSONBytes.Declined) -> [MastodonStatus] {
        try r.enterArray()
        var statuses: [MastodonStatus] = []
        var first = true
        while try r.nextElement(&first) { statuses.append(try MastodonStatus(fast: &r)) }
        return statuses
    }

    private init(fast r: inout ModelReader) throws(JSONBytes.Declined) {
        let keys = Self.fastKeys
        try r.object(keys) { r, field throws(JSONBytes.Declined) in
            switch field {
            case 0: id = try r.lenientString()
            case 1: createdAt = try r.lenientString().flatMap(Timestamp.init(iso8601:))
            case 2: account = try r.lenientObject(MastodonAccount.fast)
            case 3: content = try r.lenientString()
            case 4: sourceText = try r.lenientString()
            case 5: spoilerText = try r.lenientString()
            case 6: visibility = try r.lenientString()
            case 7: sensitive = try r.lenientBool()
            case 8: url = try r.lenientString()
            case 9: inReplyToID = try r.lenientString()
            case 10: repliesCount = try r.lenientCount()
            case 11: reblogsCount = try r.lenientCount()
            case 12: favouritesCount = try r.lenientCount()
            case 13: favourited = try r.lenientBool()
            case 14: reblogged = try r.lenientBool()
            case 15: application = try r.lenientObject(Application.fast) ?? nil
            case 16: media = try r.lenientArray(Media.fast) ?? []
            case 17: poll = try r.lenientObject(MastodonPoll.fast)
            case 18: reblog = try r.lenientObject(MastodonStatus.fast)
            case 19: editedAt = try r.lenientString().flatMap(Timestamp.init(iso8601:))
            case 20: card = try r.lenientObject(Card.fast)
            case 21: tags = try r.lenientArray(Named.fast) ?? []
            case 22: mentions = try r.lenientArray(Named.fast) ?? []
            case 23: bookmarked = try r.lenientBool()
            case 24: emojis = try r.lenientArray(MastodonEmoji.fast) ?? []
            case 25: mastodonQuote = try r.lenientObject(MastodonQuote.fast)
            case 26:
                pleroma = try r.lenientObject { r throws(JSONBytes.Declined) in
                    var pleroma = Pleroma()
                    try r.object(Pleroma.fastKeys) { r, field throws(JSONBytes.Declined) in
                        if field == 0 { pleroma.quote = try r.lenientObject(MastodonQuote.fast) }
                        else { pleroma.emojiReactions = try r.lenientArray(Reaction.fast) ?? [] }
                    }
                    return pleroma
                }
            case 27: emojiReactions = try r.lenientArray(Reaction.fast) ?? []
            default: filtered = try r.lenientArray(FilterResult.fast) ?? []
            }
        }
    }
}

extension MastodonStatus.FilterResult {
    private static let filterKeys = JSONKeys(["title", "filter_action", "context"])

    static func fast(_ r: inout ModelReader) throws(JSONBytes.Declined) -> MastodonStatus.FilterResult {
        var result = MastodonStatus.FilterResult()
        result.filter = try r.singleField("filter") { r throws(JSONBytes.Declined) in
            try r.lenientObject { r throws(JSONBytes.Declined) in
                var filter = Filter()
                try r.object(filterKeys) { r, field throws(JSONBytes.Declined) in
                    switch field {
                    case 0: filter.title = try r.lenientString()
                    case 1: filter.filterAction = try r.lenientString()
                    default: filter.context = try r.lenientStrings()
                    }
                }
                return filter
            }
        }
        return result
    }
}

extension MastodonAccount.MovedAccount {
    static let fastKeys = JSONKeys(["acct", "username"])
}

extension MastodonStatus.Pleroma {
    static let fastKeys = JSONKeys(["quote", "emoji_reactions"])
}

extension MastodonStatus.Reaction {
    private static let fastKeys = JSONKeys(["name", "count", "me"])

    static func fast(_ r: inout ModelReader) throws(JSONBytes.Declined) -> MastodonStatus.Reaction {
        var reaction = MastodonStatus.Reaction()
        try r.object(fastKeys) { r, field throws(JSONBytes.Declined) in
            switch field {
            case 0: reaction.name = try r.lenientString()
            case 1: reaction.count = try r.lenientCount()
            default: reaction.me = try r.lenientBool()
            }
        }
        return reaction
    }
}

extension MastodonStatus.Application {
    /// `Application`'s synthesized decoding: a `name` that is neither a
    /// string nor null fails it (nil).
    static func fast(_ r: inout ModelReader) throws(JSONBytes.Declined) -> MastodonStatus.Application? {
        var readable = true
        let name = try r.singleField("name") { r throws(JSONBytes.Declined) -> String? in
            switch r.peek() {
            case UInt8(ascii: "\""): return try r.string()
            case UInt8(ascii: "n"):
                try r.json.literal("null")
                return nil
            default:
                readable = false
                try r.skipValue()
                return nil
            }
        }
        return readable ? MastodonStatus.Application(name: name) : nil
    }
}

extension MastodonStatus.Media {
    private static let fastKeys = JSONKeys(["type", "url", "preview_url", "description", "id"])

    static func fast(_ r: inout ModelReader) throws(JSONBytes.Declined) -> MastodonStatus.Media {
        try MastodonStatus.Media(fast: &r)
    }

    private init(fast r: inout ModelReader) throws(JSONBytes.Declined) {
        let keys = Self.fastKeys
        try r.object(keys) { r, field throws(JSONBytes.Declined) in
            switch field {
            case 0: type = try r.lenientString()
            case 1: url = try r.lenientString()
            case 2: previewURL = try r.lenientString()
            case 3: description = try r.lenientString()
            default: id = try r.lenientString()
            }
        }
    }
}

extension MastodonStatus.Card {
    // `CodingKeys.allCases`, in order.
    private static let fastKeys = JSONKeys([
        "title", "url", "description", "type", "html", "image", "blurhash", "language", "width", "height",
        "author_name", "author_url", "provider_name", "provider_url", "image_description", "embed_url", "published_at",
    ])

    static func fast(_ r: inout ModelReader) throws(JSONBytes.Declined) -> MastodonStatus.Card {
        var card = MastodonStatus.Card()
        try r.object(fastKeys) { r, field throws(JSONBytes.Declined) in
            switch CodingKeys.allCases[field] {
            case .width: card.width = try r.lenientCount()
            case .height: card.height = try r.lenientCount()
            default: card.texts[field] = try r.lenientString()
            }
        }
        return card
    }
}

extension MastodonStatus.Named {
    private static let fastKeys = JSONKeys(["name", "acct"])

    static func fast(_ r: inout ModelReader) throws(JSONBytes.Declined) -> MastodonStatus.Named {
        var name: String?
        var acct: String?
        let keys = Self.fastKeys
        try r.object(keys) { r, field throws(JSONBytes.Declined) in
            if field == 0 { name = try r.lenientString() } else { acct = try r.lenientString() }
        }
        return MastodonStatus.Named(name: name ?? acct)
    }
}

extension MastodonPoll {
    private static let fastKeys = JSONKeys(["options", "votes_count", "expired", "expires_at", "multiple", "voted", "id",
                                            "own_votes", "voters_count"])

    static func fast(_ r: inout ModelReader) throws(JSONBytes.Declined) -> MastodonPoll {
        try MastodonPoll(fast: &r)
    }

    private init(fast r: inout ModelReader) throws(JSONBytes.Declined) {
        let keys = Self.fastKeys
        try r.object(keys) { r, field throws(JSONBytes.Declined) in
            switch field {
            case 0: options = try r.lenientArray(Option.fast) ?? []
            case 1: votesCount = try r.lenientCount()
            case 2: expired = try r.lenientBool()
            case 3: expiresAt = try r.lenientString().flatMap(Timestamp.init(iso8601:))
            case 4: multiple = try r.lenientBool()
            case 5: voted = try r.lenientBool()
            case 6: id = try r.lenientString()
            // Anything but an array of small integers: JSONDecoder reads the whole status.
            case 7: ownVotes = try Self.integers(&r)
            default: votersCount = try r.lenientCount()
            }
        }
    }
}

extension MastodonPoll {
    /// `[0, 2]`; declines anything else, for JSONDecoder to read as it would.
    private static func integers(_ r: inout ModelReader) throws(JSONBytes.Declined) -> [Int] {
        guard r.peek() == UInt8(ascii: "[") else { throw JSONBytes.Declined() }
        try r.json.enterArray()
        var values: [Int] = []
        var first = true
        while try r.nextElement(&first) {
            guard (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(r.peek()), let value = try r.lenientCount() else {
                throw JSONBytes.Declined()
            }
            values.append(value)
        }
        return values
    }
}

extension MastodonPoll.Option {
    static func fast(_ r: inout ModelReader) throws(JSONBytes.Declined) -> MastodonPoll.Option {
        try MastodonPoll.Option(fast: &r)
    }

    private init(fast r: inout ModelReader) throws(JSONBytes.Declined) {
        try r.twoFields("title", "votes_count") { r, field throws(JSONBytes.Declined) in
            if field == 0 { title = try r.lenientString() } else { votesCount = try r.lenientCount() }
        }
    }
}

extension MastodonContext {
    static func fast(_ r: inout ModelReader) throws(JSONBytes.Declined) -> MastodonContext {
        try MastodonContext(fast: &r)
    }

    private init(fast r: inout ModelReader) throws(JSONBytes.Declined) {
        try r.twoFields("ancestors", "descendants") { r, field throws(JSONBytes.Declined) in
            let statuses = try r.lenientArray(MastodonStatus.fast) ?? []
            if field == 0 { ancestors = statuses } else { descendants = statuses }
        }
    }
}
