import WshModel

/// A comment on a status, generated on demand from the seed, the status and
/// the comment's position.
struct SandboxComment: Sendable {
    var id: Int64
    var createdAt: WeiboTime
    var text: String
    var source: (name: String, href: String)
    var authorIndex: Int

    /// Comment ids: 16 digits, `firstID + statusOrdinal * 1000 + n`.
    static let firstID: Int64 = 4_500_000_000_000_000
    /// Comments per status are capped below this so their ids never collide.
    static let maximumPerStatus = 999
}
