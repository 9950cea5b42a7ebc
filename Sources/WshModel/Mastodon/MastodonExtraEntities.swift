import WshText

// What Mastodon sends beside a status's and an account's text: custom
// emojis, profile fields and (4.4+) quotes, read leniently by the
// `init(from:)` Swift writes. `FastDecoding/FastExtras.swift` reads the same
// keys the same way, and builds them with the memberwise init Swift writes.

/// A Mastodon `CustomEmoji`.
public struct MastodonEmoji: Decodable, Sendable, Hashable {
    @Lenient public var shortcode: String? = nil
    @Lenient public var url: String? = nil
    @Lenient public var staticURL: String? = nil

    enum CodingKeys: String, CodingKey {
        case shortcode, url
        case staticURL = "static_url"
    }

    /// The Model's emoji; nil without a shortcode or an image.
    var emoji: CustomEmoji? {
        guard let shortcode, !shortcode.isEmpty, let image = url ?? staticURL else { return nil }
        return CustomEmoji(shortcode: shortcode, url: image)
    }
}

/// A Mastodon account `Field`.
public struct MastodonField: Decodable, Sendable, Hashable {
    @Lenient public var name: String? = nil
    @Lenient public var value: String? = nil
    @LenientISO8601 public var verifiedAt: Timestamp? = nil

    enum CodingKeys: String, CodingKey {
        case name, value
        case verifiedAt = "verified_at"
    }

    var field: ProfileField? {
        name.map { ProfileField(name: $0, value: value ?? "", verifiedAt: verifiedAt) }
    }
}

/// A Mastodon `Quote` (`{state, quoted_status}`) or `ShallowQuote`
/// (`{state, quoted_status_id}`, what a quote nested in a quote is).
/// Akkoma's and Pleroma's older `quote` is the quoted status itself, with no
/// `state`: it reads as an accepted quote of that status.
public struct MastodonQuote: Decodable, Sendable, Hashable, LenientValue {
    public var state: String?
    @Indirect public var quotedStatus: MastodonStatus? = nil
    public var quotedStatusID: String?

    enum CodingKeys: String, CodingKey {
        case state
        case quotedStatus = "quoted_status"
        case quotedStatusID = "quoted_status_id"
    }

    /// Nothing of a `Quote` read: the object may be the quoted status itself.
    var isBare: Bool { state == nil && quotedStatus == nil && quotedStatusID == nil }

    /// Takes `status`, the object read again as a status, as the quoted one when it has an id.
    mutating func acceptBare(_ status: MastodonStatus) {
        guard status.id != nil else { return }
        state = "accepted"
        quotedStatus = status
    }

    /// The Model's quote; nil without a state.
    public var quote: QuotePost? {
        guard let state, !state.isEmpty else { return nil }
        let quoted = quotedStatus?.status
        return QuotePost(state: state, status: quoted, statusID: quotedStatusID ?? quoted?.identifier)
    }
}

extension MastodonQuote {
    public init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        state = c.lenient(String.self, .state)
        quotedStatus = c.lenient(MastodonStatus.self, .quotedStatus)
        quotedStatusID = c.lenient(String.self, .quotedStatusID)
        if isBare { acceptBare(try MastodonStatus(from: decoder)) }
    }
}

/// A filter of Mastodon 4's `/api/v2/filters`: `{id, title, context, expires_at,
/// filter_action, keywords: [{keyword}]}`.
public struct MastodonFilter: Decodable, Sendable {
    @Lenient var id: String? = nil
    @Lenient var title: String? = nil
    @Lenient var context: [String] = []
    @LenientISO8601 var expiresAt: Timestamp? = nil
    @Lenient var filterAction: String? = nil
    @Lenient var keywords: [Keyword] = []

    struct Keyword: Decodable, Sendable {
        @Lenient var keyword: String? = nil
    }

    enum CodingKeys: String, CodingKey {
        case id, title, context, keywords
        case expiresAt = "expires_at"
        case filterAction = "filter_action"
    }

    /// The filter as the Model has it (no action: Mastodon 4.0's default, `warn`).
    public var filter: ContentFilter {
        ContentFilter(id: id ?? "", title: title ?? "", context: context, action: filterAction ?? "warn", expiresAt: expiresAt,
                      keywords: keywords.compactMap(\.keyword))
    }
}

/// A filter of the older `/api/v1/filters` (Mastodon before 4, and servers
/// that kept only it): one `phrase` per filter; `irreversible` drops what it
/// matches (read as `hide`), else it warns.
public struct MastodonFilterV1: Decodable, Sendable {
    @Lenient var id: String? = nil
    @Lenient var phrase: String? = nil
    @Lenient var context: [String] = []
    @LenientISO8601 var expiresAt: Timestamp? = nil
    @Lenient var irreversible: Bool? = nil

    enum CodingKeys: String, CodingKey {
        case id, phrase, context, irreversible
        case expiresAt = "expires_at"
    }

    /// The filter as the Model has it: its phrase is its title and its one keyword.
    public var filter: ContentFilter {
        let phrase = phrase ?? ""
        return ContentFilter(id: id ?? "", title: phrase, context: context, action: irreversible == true ? "hide" : "warn",
                             expiresAt: expiresAt, keywords: phrase.isEmpty ? [] : [phrase])
    }
}
