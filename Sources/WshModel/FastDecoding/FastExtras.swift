import WshText

// The fast path for `Mastodon/MastodonExtraEntities.swift`: the same keys,
// read the same way as their `init(from:)`.

extension MastodonEmoji {
    private static let fastKeys = JSONKeys(["shortcode", "url", "static_url"])

    static func fast(_ r: inout ModelReader) throws(JSONBytes.Declined) -> MastodonEmoji {
        var values: [String?] = [nil, nil, nil]
        try r.object(fastKeys) { r, field throws(JSONBytes.Declined) in values[field] = try r.lenientString() }
        return MastodonEmoji(shortcode: values[0], url: values[1], staticURL: values[2])
    }
}

extension MastodonField {
    private static let fastKeys = JSONKeys(["name", "value", "verified_at"])

    static func fast(_ r: inout ModelReader) throws(JSONBytes.Declined) -> MastodonField {
        var values: [String?] = [nil, nil, nil]
        try r.object(fastKeys) { r, field throws(JSONBytes.Declined) in values[field] = try r.lenientString() }
        return MastodonField(name: values[0], value: values[1], verifiedAt: values[2].flatMap(Timestamp.init(iso8601:)))
    }
}

extension MastodonQuote {
    private static let fastKeys = JSONKeys(["state", "quoted_status", "quoted_status_id"])

    static func fast(_ r: inout ModelReader) throws(JSONBytes.Declined) -> MastodonQuote {
        var quote = MastodonQuote(state: nil, quotedStatus: nil, quotedStatusID: nil)
        var again = r
        try r.object(fastKeys) { r, field throws(JSONBytes.Declined) in
            switch field {
            case 0: quote.state = try r.lenientString()
            case 1: quote.quotedStatus = try r.lenientObject(MastodonStatus.fast)
            default: quote.quotedStatusID = try r.lenientString()
            }
        }
        if quote.isBare {
            // Read once more, as a status, to where the first reading ended.
            quote.acceptBare(try MastodonStatus.fast(&again))
            r = again
        }
        return quote
    }
}
