import FoundationEssentials

/// A user's filter (Mastodon 4's v2 `Filter`): keywords that, in the
/// contexts named, either mark a status (`warn`: it carries the filter in
/// `filtered`) or take it out of the page (`hide`).
struct SandboxFilter: Sendable, Hashable {
    /// A keyword; `wholeWord` matches it only between word boundaries.
    struct Keyword: Sendable, Hashable {
        var id: Int
        var keyword: String
        var wholeWord: Bool
    }

    var id: Int
    var title: String
    /// Some of `home`, `notifications`, `public`, `thread`, `account`.
    var context: [String]
    /// `warn` or `hide`.
    var action: String
    var expiresAt: Date?
    /// Set when the sandbox's clock passes `expiresAt` (see `Timeline.expire(at:)`):
    /// rendering never reads the clock, so a cached page stays right until then.
    var expired = false
    var keywords: [Keyword]

    static let contexts: Set<String> = ["home", "notifications", "public", "thread", "account"]
    static let actions: Set<String> = ["warn", "hide"]

    /// The words of `text` this filter's keywords match, as written there, in order; empty: no match.
    func matches(in text: String) -> [String] {
        guard !expired else { return [] }
        var found: [String] = []
        for keyword in keywords where !keyword.keyword.isEmpty {
            found += Self.occurrences(of: keyword.keyword, in: text, wholeWord: keyword.wholeWord)
        }
        return found
    }

    /// Where `keyword` occurs in `text` (case-insensitive), as written; with
    /// `wholeWord`, only where no letter or digit touches an end that is one
    /// (Mastodon's `\b` around the keyword).
    static func occurrences(of keyword: String, in text: String, wholeWord: Bool) -> [String] {
        let haystack = Array(text)
        let needle = Array(keyword.lowercased())
        let lowered = haystack.map { Character($0.lowercased()) }
        guard needle.count <= lowered.count else { return [] }
        func isWord(_ c: Character) -> Bool { c.isLetter || c.isNumber || c == "_" }
        var found: [String] = []
        var i = 0
        while i + needle.count <= lowered.count {
            if lowered[i] == needle[0], Array(lowered[i..<(i + needle.count)]) == needle {
                let end = i + needle.count
                let boundedStart = !isWord(needle[0]) || i == 0 || !isWord(haystack[i - 1])
                let boundedEnd = !isWord(needle[needle.count - 1]) || end == haystack.count || !isWord(haystack[end])
                if !wholeWord || (boundedStart && boundedEnd) {
                    found.append(String(haystack[i..<end]))
                    i = end
                    continue
                }
            }
            i += 1
        }
        return found
    }
}

/// Filters (`/api/v2/filters`), applied to the statuses a page renders, and
/// the expiries the sandbox's clock drives: filters' and mutes'.
extension Timeline {
    /// `user`'s filters, oldest first.
    func filterList(of user: Int) -> [SandboxFilter] { filters[user] ?? [] }

    func filter(id: Int, of user: Int) -> SandboxFilter? {
        filters[user]?.first { $0.id == id }
    }

    /// The text a filter reads: the content warning, the text, the media's
    /// descriptions and the poll's options, as Mastodon matches them.
    func filterableText(of status: SandboxStatus) -> String {
        var parts = [status.mastodon?.spoilerText ?? generatedSpoiler(status) ?? "", status.text]
        for id in status.mastodon?.mediaIDs ?? [] { if let text = media(id: id)?.description { parts.append(text) } }
        if let poll = poll(of: status, viewer: nil) { parts += poll.options }
        return parts.joined(separator: "\n")
    }

    /// `user`'s filters for `context` that match `status`, each with the words matched.
    func filterResults(_ status: SandboxStatus, for user: Int, context: String) -> [(SandboxFilter, [String])] {
        let active = (filters[user] ?? []).filter { !$0.expired && $0.context.contains(context) }
        guard !active.isEmpty else { return [] }
        let text = filterableText(of: status)
        return active.compactMap { filter in
            let words = filter.matches(in: text)
            return words.isEmpty ? nil : (filter, words)
        }
    }

    /// True when one of `user`'s `hide` filters for `context` matches `status`:
    /// Mastodon 4 leaves such a status out of the page.
    func isHiddenByFilter(_ status: SandboxStatus, for user: Int, context: String) -> Bool {
        filterResults(status, for: user, context: context).contains { $0.0.action == "hide" }
    }

    /// Whether a page in `context` for `user` keeps the status with `ordinal`
    /// (a boost is read as what it boosts); cheap when `user` has no filter there.
    func passesFilters(_ ordinal: Int, for user: Int?, context: String) -> Bool {
        guard let user, let list = filters[user],
              list.contains(where: { !$0.expired && $0.action == "hide" && $0.context.contains(context) }),
              let status = status(ordinal: ordinal) else { return true }
        let shown = isBoost(status) ? boosted(by: status) ?? status : status
        return !isHiddenByFilter(shown, for: user, context: context)
    }

    /// Adds or replaces `user`'s filter; a new one gets the next id (and its keywords theirs).
    mutating func saveFilter(_ filter: SandboxFilter, of user: Int) -> SandboxFilter {
        var filter = filter
        if filter.id == 0 {
            filter.id = nextFilterID
            nextFilterID += 1
        }
        for index in filter.keywords.indices where filter.keywords[index].id == 0 {
            filter.keywords[index].id = nextFilterKeywordID
            nextFilterKeywordID += 1
        }
        if let index = filters[user]?.firstIndex(where: { $0.id == filter.id }) {
            filters[user]![index] = filter
        } else {
            filters[user, default: []].append(filter)
        }
        return filter
    }

    mutating func deleteFilter(id: Int, of user: Int) -> Bool {
        guard filter(id: id, of: user) != nil else { return false }
        filters[user]?.removeAll { $0.id == id }
        return true
    }

    /// The filter holding keyword `id`, among `user`'s.
    func filter(holdingKeyword id: Int, of user: Int) -> SandboxFilter? {
        filters[user]?.first { $0.keywords.contains { $0.id == id } }
    }

    // MARK: Expiry

    /// The earliest moment a mute or a filter still running ends, if any.
    var nextExpiry: Date? {
        let mutes = self.mutes.values.joined().compactMap(\.expiresAt)
        let filters = self.filters.values.joined().filter { !$0.expired }.compactMap(\.expiresAt)
        return (mutes + filters).min()
    }

    /// Ends the mutes and filters whose time is past at `now`: a mute is gone
    /// (the account's statuses are back), a filter stays listed but stops applying.
    mutating func expire(at now: Date) {
        for user in mutes.keys { mutes[user]?.removeAll { $0.expiresAt.map { $0 <= now } ?? false } }
        for user in filters.keys {
            for index in filters[user]!.indices {
                if let end = filters[user]![index].expiresAt, end <= now { filters[user]![index].expired = true }
            }
        }
    }
}
