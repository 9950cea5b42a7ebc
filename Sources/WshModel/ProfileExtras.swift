/// A custom emoji a server lists beside a text (Mastodon's `emojis`): the
/// text keeps `:shortcode:` as written, since a terminal cannot draw the image.
public struct CustomEmoji: Hashable, Sendable {
    public var shortcode: String
    /// The image (`url`, else `static_url`).
    public var url: String
}

/// One of an account's profile fields (Mastodon's `fields`).
public struct ProfileField: Hashable, Sendable {
    public var name: String
    /// The value as the server sent it: HTML.
    public var value: String
    /// When the server verified the link in the value (a `rel="me"` link back); nil when not.
    public var verifiedAt: Timestamp?
}

/// A status's quote of another (Mastodon 4.4+'s `quote`): whether the quoted
/// author allowed it, and the quoted status when it may be shown.
public struct QuotePost: Hashable, Sendable {
    /// `accepted`, `pending`, `rejected`, `revoked`, `deleted`, `unauthorized`,
    /// `blocked_account`, `blocked_domain`, `muted_account`, or what a newer server adds.
    public var state: String
    /// The quoted status (a `Quote`'s `quoted_status`); nil unless the server sent it.
    @Indirect public var status: Status? = nil
    /// The quoted status's id alone (a `ShallowQuote`'s `quoted_status_id`).
    public var statusID: String?

    /// Why the quoted status is not shown, "" when it is (accepted, and sent).
    public var hiddenReason: String {
        switch state {
        case "accepted": status == nil ? "quoted status not included" : ""
        case "pending": "quote pending (its author has not approved it yet)"
        case "rejected": "quote rejected by its author"
        case "revoked": "quote removed by its author"
        case "deleted": "quoted status deleted"
        case "blocked_account": "quote of an account you block"
        case "blocked_domain": "quote from a server you block"
        case "muted_account": "quote of an account you mute"
        // The documented rule: an unknown state counts as `unauthorized`.
        default: "quote not visible to you"
        }
    }
}
