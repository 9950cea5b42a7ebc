import WshModel
import WshText

// `--json` forms of Mastodon's custom emojis, profile fields and quotes,
// under Mastodon's own names; every string sanitized like the rest.

/// One of `emojis`: `{shortcode, url}`.
struct EmojiDocument: Encodable, Sendable, Hashable {
    var shortcode: String
    var url: String

    init(_ emoji: CustomEmoji) {
        shortcode = StatusDocument.clean(emoji.shortcode)
        url = StatusDocument.clean(emoji.url)
    }
}

/// One of an account's `fields`: `{name, value, verified_at}`, the value as the server sent it (HTML).
struct FieldDocument: Encodable, Sendable, Hashable {
    var name: String
    var value: String
    var verifiedAt: String?

    enum CodingKeys: String, CodingKey {
        case name, value
        case verifiedAt = "verified_at"
    }

    init(_ field: ProfileField) {
        name = StatusDocument.clean(field.name)
        value = StatusDocument.clean(field.value)
        verifiedAt = field.verifiedAt?.iso8601Text
    }

    func encode(to encoder: Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(name, forKey: .name)
        try c.encode(value, forKey: .value)
        // null when not verified, as Mastodon writes it.
        try c.encode(verifiedAt, forKey: .verifiedAt)
    }
}

/// A status's `quote`: `{state, quoted_status}` (null unless the server sent the status),
/// with `quoted_status_id` when only the id came (a quote inside a quote).
struct QuoteDocument: Encodable, Sendable, Hashable {
    var state: String
    var quotedStatus: StatusDocument.Reposted?
    var quotedStatusID: String?

    enum CodingKeys: String, CodingKey {
        case state
        case quotedStatus = "quoted_status"
        case quotedStatusID = "quoted_status_id"
    }

    init(_ quote: QuotePost) {
        state = StatusDocument.clean(quote.state)
        quotedStatus = quote.status.map { StatusDocument.Reposted(StatusDocument($0)) }
        quotedStatusID = quote.status == nil ? quote.statusID.map(StatusDocument.clean) : nil
    }

    func encode(to encoder: Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(state, forKey: .state)
        try c.encode(quotedStatus, forKey: .quotedStatus)
        try c.encodeIfPresent(quotedStatusID, forKey: .quotedStatusID)
    }
}
