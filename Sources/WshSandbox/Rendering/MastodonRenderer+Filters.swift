import FoundationEssentials

/// Filters (v2 `Filter`, `FilterKeyword`, a status's `filtered`) and the
/// server's custom emojis, as Mastodon 4 writes them.
extension MastodonRenderer {
    /// A Filter; `withRules` adds `keywords` and `statuses`, as `/api/v2/filters`
    /// answers (a status's `filtered` names the filter without them).
    func writeFilter(_ filter: SandboxFilter, withRules: Bool = true, into json: inout JSONWriter) {
        json.objectStart()
        json.member("id", ids.render(Int64(filter.id)))
        json.member("title", filter.title)
        json.key("context")
        json.arrayStart()
        for context in filter.context { json.string(context) }
        json.arrayEnd()
        json.key("expires_at")
        if let end = filter.expiresAt { json.string(mastodonTime(end)) } else { json.null() }
        json.member("filter_action", filter.action)
        if withRules {
            json.key("keywords")
            json.arrayStart()
            for keyword in filter.keywords { writeFilterKeyword(keyword, into: &json) }
            json.arrayEnd()
            json.member("statuses", [])
        }
        json.objectEnd()
    }

    func writeFilterKeyword(_ keyword: SandboxFilter.Keyword, into json: inout JSONWriter) {
        json.objectStart()
        json.member("id", ids.render(Int64(keyword.id)))
        json.member("keyword", keyword.keyword)
        json.member("whole_word", keyword.wholeWord)
        json.objectEnd()
    }

    func filterJSON(_ filter: SandboxFilter) -> [UInt8] {
        JSONWriter.bytes(capacity: 400) { writeFilter(filter, into: &$0) }
    }

    func filtersJSON(_ filters: [SandboxFilter]) -> [UInt8] {
        array(filters, itemBytes: 400) { writeFilter($0, into: &$1) }
    }

    func filterKeywordJSON(_ keyword: SandboxFilter.Keyword) -> [UInt8] {
        JSONWriter.bytes(capacity: 100) { writeFilterKeyword(keyword, into: &$0) }
    }

    func filterKeywordsJSON(_ keywords: [SandboxFilter.Keyword]) -> [UInt8] {
        array(keywords, itemBytes: 100, writeFilterKeyword)
    }

    /// `"filtered":[{"filter","keyword_matches","status_matches"}]`: the
    /// viewer's filters that match a status (`Timeline.filterResults`), whatever
    /// the context: each names its contexts and action, and the client applies
    /// them, as Mastodon 4 leaves it to the client.
    func writeFilterResults(_ results: [(SandboxFilter, [String])], into json: inout JSONWriter) {
        json.key("filtered")
        json.arrayStart()
        for (filter, words) in results {
            json.objectStart()
            json.key("filter")
            writeFilter(filter, withRules: false, into: &json)
            json.key("keyword_matches")
            json.arrayStart()
            for word in words { json.string(word) }
            json.arrayEnd()
            json.null("status_matches")
            json.objectEnd()
        }
        json.arrayEnd()
    }

    /// `GET /api/v1/custom_emojis`: the one emoji the generated data uses.
    func customEmojisJSON() -> [UInt8] {
        array(["wsh"], itemBytes: 300) { category, json in writeEmoji(into: &json, category: category) }
    }
}
