import WshModel
import WshText

// `--json` forms of Mastodon's custom emojis, profile fields, quotes and link cards,
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
    /// null when not verified, as Mastodon writes it.
    @JSONNull var verifiedAt: String?

    enum CodingKeys: String, CodingKey {
        case name, value
        case verifiedAt = "verified_at"
    }

    init(_ field: ProfileField) {
        name = StatusDocument.kept(field.name)
        value = StatusDocument.kept(field.value)
        verifiedAt = field.verifiedAt?.iso8601Text
    }
}

/// A status's `quote`: `{state, quoted_status}` (null unless the server sent the status),
/// with `quoted_status_id` when only the id came (a quote inside a quote).
struct QuoteDocument: Encodable, Sendable, Hashable {
    var state: String
    @JSONNull var quotedStatus: StatusDocument.Reposted?
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
}

/// A status's `card`: every field of the link preview the server sent, under
/// its names (`title`, `url`, `description`, `type`, `image`, `provider_name`…).
struct CardDocument: Encodable, Sendable, Hashable {
    let card: LinkCard

    init(_ card: LinkCard) {
        self.card = card
    }

    func encode(to encoder: Encoder) throws {
        let kept = { (text: String?) in text.map(StatusDocument.kept) }
        try encoder.encodeFields([
            "title": StatusDocument.kept(card.title), "url": StatusDocument.clean(card.url),
            "description": kept(card.description), "type": kept(card.type), "author_name": kept(card.authorName),
            "author_url": kept(card.authorURL), "provider_name": kept(card.providerName), "provider_url": kept(card.providerURL),
            "html": kept(card.html), "image": kept(card.image), "image_description": kept(card.imageDescription),
            "embed_url": kept(card.embedURL), "blurhash": kept(card.blurhash), "language": kept(card.language),
            "published_at": kept(card.publishedAt), "width": card.width, "height": card.height,
        ])
    }
}
