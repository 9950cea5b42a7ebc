/// A comment in Weibo's wire shape, as JSONDecoder reads it (FastDecoding/ reads the same keys faster).
extension Comment: Codable, LenientValue {
    enum CodingKeys: String, CodingKey {
        case id, idstr, mid, text, source, user, status
        case createdAt = "created_at"
        case replyComment = "reply_comment"
    }

    public init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            id: c.lenient(Int64.self, .id), idstr: c.lenient(String.self, .idstr), mid: c.lenient(String.self, .mid),
            createdAt: c.lenient(Timestamp.self, .createdAt), text: c.lenient(String.self, .text),
            source: c.lenient(String.self, .source), user: c.lenient(User.self, .user),
            status: c.lenient(Status.self, .status), replyComment: c.lenient(Comment.self, .replyComment))
    }

    public func encode(to encoder: Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encodeIfPresent(createdAt, .createdAt)
        try c.encodeIfPresent(id, .id)
        try c.encodeIfPresent(idstr, .idstr)
        try c.encodeIfPresent(mid, .mid)
        try c.encodeIfPresent(text, .text)
        try c.encodeIfPresent(source, .source)
        try c.encodeIfPresent(user, .user)
        try c.encodeIfPresent(status, .status)
        try c.encodeIfPresent(replyComment, .replyComment)
    }
}
