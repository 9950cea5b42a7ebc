/// A status in Weibo's wire shape, as JSONDecoder reads it (FastDecoding/ reads the same keys faster).
extension Status: Codable, LenientValue {
    enum CodingKeys: String, CodingKey {
        case id, idstr, mid, text, source, favorited, truncated, user, deleted
        case createdAt = "created_at"
        case inReplyToStatusID = "in_reply_to_status_id"
        case inReplyToUserID = "in_reply_to_user_id"
        case inReplyToScreenName = "in_reply_to_screen_name"
        case thumbnailPic = "thumbnail_pic"
        case bmiddlePic = "bmiddle_pic"
        case originalPic = "original_pic"
        case picURLs = "pic_urls"
        case repostsCount = "reposts_count"
        case commentsCount = "comments_count"
        case attitudesCount = "attitudes_count"
        case retweetedStatus = "retweeted_status"
    }

    /// One entry of `pic_urls`.
    struct Picture: Codable {
        @Lenient var thumbnailPic: String? = nil
        enum CodingKeys: String, CodingKey { case thumbnailPic = "thumbnail_pic" }
    }

    public init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            id: c.lenient(Int64.self, .id), idstr: c.lenient(String.self, .idstr), mid: c.lenient(String.self, .mid),
            createdAt: c.lenient(Timestamp.self, .createdAt), text: c.lenient(String.self, .text),
            source: c.lenient(String.self, .source), favorited: c.lenient(Bool.self, .favorited),
            truncated: c.lenient(Bool.self, .truncated),
            inReplyToStatusID: c.lenient(String.self, .inReplyToStatusID),
            inReplyToUserID: c.lenient(String.self, .inReplyToUserID),
            inReplyToScreenName: c.lenient(String.self, .inReplyToScreenName),
            thumbnailPic: c.lenient(String.self, .thumbnailPic), bmiddlePic: c.lenient(String.self, .bmiddlePic),
            originalPic: c.lenient(String.self, .originalPic),
            picURLs: (c.lenientArray(Picture.self, .picURLs) ?? []).compactMap(\.thumbnailPic),
            user: c.lenient(User.self, .user), repostsCount: c.lenient(Int.self, .repostsCount),
            commentsCount: c.lenient(Int.self, .commentsCount),
            attitudesCount: c.lenient(Int.self, .attitudesCount),
            retweetedStatus: c.lenient(Status.self, .retweetedStatus), deleted: c.lenient(Bool.self, .deleted))
    }

    public func encode(to encoder: Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encodeIfPresent(self.createdAt, .createdAt)
        try c.encodeIfPresent(self.id, .id)
        try c.encodeIfPresent(self.idstr, .idstr)
        try c.encodeIfPresent(self.mid, .mid)
        try c.encodeIfPresent(self.text, .text)
        try c.encodeIfPresent(self.source, .source)
        try c.encodeIfPresent(self.favorited, .favorited)
        try c.encodeIfPresent(self.truncated, .truncated)
        try c.encodeIfPresent(self.inReplyToStatusID, .inReplyToStatusID)
        try c.encodeIfPresent(self.inReplyToUserID, .inReplyToUserID)
        try c.encodeIfPresent(self.inReplyToScreenName, .inReplyToScreenName)
        try c.encodeIfPresent(self.thumbnailPic, .thumbnailPic)
        try c.encodeIfPresent(self.bmiddlePic, .bmiddlePic)
        try c.encodeIfPresent(self.originalPic, .originalPic)
        try c.encode(self.picURLs.map(Picture.init(thumbnailPic:)), forKey: .picURLs)
        try c.encodeIfPresent(self.user, .user)
        try c.encodeIfPresent(self.retweetedStatus, .retweetedStatus)
        try c.encodeIfPresent(self.repostsCount, .repostsCount)
        try c.encodeIfPresent(self.commentsCount, .commentsCount)
        try c.encodeIfPresent(self.attitudesCount, .attitudesCount)
        try c.encodeIfPresent(self.deleted, .deleted)
    }
}
