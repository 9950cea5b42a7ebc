/// A comment on a status (a reply, on Mastodon), as every API's comments calls give it.
public struct Comment: Hashable, Sendable {
    public var id: Int64?
    public var idstr: String?
    public var mid: String?
    public var createdAt: Timestamp?
    public var text: String?
    public var source: String?
    public var user: User?
    /// The status commented on, when the API includes it.
    public var status: Status?
    /// The comment this one answers (`reply_comment`), when the API includes it.
    @Indirect public var replyComment: Comment? = nil
    /// How deep in a thread the comment is: 0 answers the status, 1 answers a
    /// comment of depth 0… (Mastodon's context is a tree; Weibo's comments are flat.)
    public var depth = 0
    /// Which API's names the comment came with.
    public var shape = APIShape.weibo
    /// A reply in a Mastodon thread as the server sent it (the status), for `--json`; nil when not kept.
    public var serverJSON: ServerJSON? = nil

    /// The id as text: `idstr` when present, otherwise `id`.
    public var identifier: String? { idstr ?? id.map(String.init) ?? mid }

    public init(
        id: Int64? = nil, idstr: String? = nil, mid: String? = nil, createdAt: Timestamp? = nil,
        text: String? = nil, source: String? = nil, user: User? = nil, status: Status? = nil,
        replyComment: Comment? = nil
    ) {
        self.id = id
        self.idstr = idstr
        self.mid = mid
        self.createdAt = createdAt
        self.text = text
        self.source = source
        self.user = user
        self.status = status
        self.replyComment = replyComment
    }
}

/// A page of comments: `{"comments": [...], "total_number": N}` or a bare array.
public struct CommentsPage: Hashable, Sendable, Codable {
    public var comments: [Comment]
    public var totalNumber: Int?

    public init(comments: [Comment], totalNumber: Int? = nil) {
        self.comments = comments
        self.totalNumber = totalNumber
    }

    enum CodingKeys: String, CodingKey {
        case comments
        case totalNumber = "total_number"
    }

    public init(from decoder: Decoder) throws {
        if let comments = decoder.lenientBareArray(Comment.self) {
            self.init(comments: comments)
            return
        }
        let c = try decoder.container(keyedBy: CodingKeys.self)
        self.init(comments: try c.pageList(Comment.self, .comments, "a comments page needs 'comments'"),
                  totalNumber: c.lenient(Int.self, .totalNumber))
    }
}
