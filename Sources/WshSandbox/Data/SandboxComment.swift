import WshModel

/// A comment on a status, generated on demand from the seed, the status and
/// the comment's position.
struct SandboxComment: Sendable {
    var id: Int64
    var createdAt: Timestamp
    var text: String
    var source: (name: String, href: String)
    var authorIndex: Int
    /// The comment this one replies to (`comments/reply.json`).
    var replyToID: Int64? = nil
    /// What a reply made through the Mastodon API said beyond its text.
    var mastodon: MastodonExtras? = nil

    /// Ids of comments made through the API: above every generated one, increasing.
    static let firstCreatedID: Int64 = 4_600_000_000_000_000

    /// Comment ids: 16 digits, `firstID + statusOrdinal * 1000 + n`.
    static let firstID: Int64 = 4_500_000_000_000_000
    /// Comments per status are capped below this so their ids never collide.
    static let maximumPerStatus = 999
}
