/// One of the account's filters (Mastodon 4's v2 `Filter`, or a v1 filter
/// read as one): what `filters` lists.
public struct ContentFilter: Sendable, Hashable {
    public var id: String
    public var title: String
    /// Where it applies: some of `home`, `notifications`, `public`, `thread`, `account`.
    public var context: [String]
    /// `warn` (the status shows the filter's title instead of its text), `hide`
    /// (it is not shown at all), `blur` (Mastodon 4.4: its media hidden).
    public var action: String
    /// When it stops applying; nil: never.
    public var expiresAt: Timestamp?
    /// The words it matches.
    public var keywords: [String] = []
}
