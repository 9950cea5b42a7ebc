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
    }

    static func clean(_ text: String) -> String { TerminalText.sanitize(text) }

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
        name = user.name.map(StatusDocument.clean)
        location = user.location.map(StatusDocument.clean)
        description = user.description.map { TerminalText.sanitize($0, .multiline) }
        followersCount = user.followersCount
        friendsCount = user.friendsCount
        statusesCount = user.statusesCount
        verified = user.verified
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

    enum CodingKeys: String, CodingKey {
        case index, id, idstr, text, user
        case createdAt = "created_at"
    }

    public init(_ comment: Comment, index: Int) {
        self.index = index
        id = comment.id
        idstr = comment.identifier.map(StatusDocument.clean)
        createdAt = comment.createdAt?.weiboText
        text = comment.text.map { TerminalText.sanitize($0, .multiline) }
        user = comment.user.map(UserDocument.init)
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
