import WshModel

/// A generated or posted status, before rendering.
struct SandboxStatus: Sendable {
    /// The ordinal: 1 for the oldest generated status, counting up through
    /// the generated ones and then the posted ones. The id is derived from it.
    var ordinal: Int
    var createdAt: Timestamp
    var text: String
    var source: (name: String, href: String)
    var authorIndex: Int
    /// Picture keys; the first is also the status's `thumbnail_pic`.
    var pictureKeys: [String]
    /// The ordinal of the (older) status this one reposts.
    var retweetedOrdinal: Int?
    var repostsCount: Int
    var commentsCount: Int
    var attitudesCount: Int
    /// Rendered PHP-style (`\uXXXX` for non-ASCII, `\/` for slashes), as
    /// some Weibo responses are, so decoders meet both forms.
    var escapesUnicode: Bool
    /// For a repost of a repost: the status reposted directly (`retweetedOrdinal`
    /// names the original at the root of the chain, as Weibo nests it).
    var repostedOrdinal: Int? = nil
    /// What a post made through the Mastodon API said beyond its text.
    var mastodon: MastodonExtras? = nil
    /// When it was last edited (Mastodon's `edited_at`); nil when never.
    var editedAt: Timestamp? = nil
    /// What a reply made through the Mastodon API answers (see `Timeline+Replies.swift`); nil for other statuses.
    var replyTo: ReplyLink? = nil

    /// Status ids: 16 digits, increasing with the ordinal.
    static let firstID: Int64 = 4_000_000_000_000_000

    var id: Int64 { Self.firstID + Int64(ordinal) }
}

/// The parts of a Mastodon post that Weibo has no field for; the Weibo side
/// shows only the text.
struct MastodonExtras: Sendable, Hashable {
    /// `public`, `unlisted`, `private` or `direct`.
    var visibility = "public"
    var sensitive = false
    var spoilerText = ""
    /// An ISO 639-1 code, or nil to guess from the text.
    var language: String? = nil
    /// Uploaded media attached to it, in order (see `Timeline+Posting.swift`).
    var mediaIDs: [Int64] = []
}
