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
