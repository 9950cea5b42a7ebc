/// What a user can read with `api get` to see for themselves whether a write
/// took effect when its answer was lost: each API words it in its own paths
/// and field names, so the advice a ViewModel gives names no API.
public enum ReadBack: Sendable, Hashable {
    /// The status, to see it is there (or gone).
    case status(id: String)
    /// The status and the field that holds `toggle`'s flag (whether you favourited it, bookmarked it…).
    case toggle(StatusToggle, statusID: String)
    /// The text as written, before editing again.
    case statusSource(id: String)
    /// The comments (Weibo) or the thread (Mastodon) of a status.
    case comments(statusID: String)
    /// The account's latest statuses, to see whether a post or a repost was made.
    case ownRecentStatuses
    /// Your relationship to the user, and the field that holds `toggle`'s flag (whether you follow them…).
    case account(AccountToggle, UserReference)
    /// Your relationship to an account: `field` is what to look at
    /// (`blocking`, `muting`), `id` the account's id if known.
    case relationship(field: String, accountID: String?)
    /// The members of a list.
    case listAccounts(listID: String)
}

/// The words of one read-back: the command, and the field to look at.
public struct ReadBackHint: Sendable, Hashable {
    /// `api get …`, as typed at the prompt.
    public var command: String
    /// The field of the answer that tells, if one does.
    public var field: String?

    public init(_ command: String, field: String? = nil) {
        self.command = command
        self.field = field
    }

    /// "check with `api get …` (its "favourited")".
    public var advice: String {
        "check with `\(command)`" + (field.map { " (its \"\($0)\")" } ?? "")
    }
}
