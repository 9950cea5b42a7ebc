import FoundationEssentials

/// A user's filter (Mastodon 4's v2 `Filter`): keywords that, in the
/// contexts named, tell the client to show a status behind a warning (`warn`)
/// or not at all (`hide`). The server marks each status the keywords match
/// (it carries the filter in `filtered`) and leaves the rest to the client.
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

    /// What this filter's keywords match first in `text`, as written there
    /// (Mastodon matches the union of a filter's keywords and reports the one
    /// match); nil: no match, or the filter has expired.
    func firstMatch(in text: String) -> String? {
        guard !expired else { return nil }
        var best: (offset: Int, text: String)?
        for keyword in keywords where !keyword.keyword.isEmpty {
            // At the same place the keyword listed first wins, as in a regex alternation.
            if let found = Self.firstOccurrence(of: keyword.keyword, in: text, wholeWord: keyword.wholeWord),
               found.offset < best?.offset ?? .max {
                best = found
            }
        }
        return best?.text
    }

    /// Where `keyword` first occurs in `text` (case-insensitive), as written; with
    /// `wholeWord`, only where no letter or digit touches an end that is one
    /// (Mastodon's `\b` around the keyword).
    static func firstOccurrence(of keyword: String, in text: String, wholeWord: Bool) -> (offset: Int, text: String)? {
        let haystack = Array(text)
        let needle = Array(keyword.lowercased())
        let lowered = haystack.map { Character($0.lowercased()) }
        guard needle.count <= lowered.count else { return nil }
        func isWord(_ c: Character) -> Bool { c.isLetter || c.isNumber || c == "_" }
        var i = 0
        while i + needle.count <= lowered.count {
            if lowered[i] == needle[0], Array(lowered[i..<(i + needle.count)]) == needle {
                let end = i + needle.count
                let boundedStart = !isWord(needle[0]) || i == 0 || !isWord(haystack[i - 1])
                let boundedEnd = !isWord(needle[needle.count - 1]) || end == haystack.count || !isWord(haystack[end])
                if !wholeWord || (boundedStart && boundedEnd) { return (i, String(haystack[i..<end])) }
            }
            i += 1
        }
        return nil
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

    /// The text a filter reads, as Mastodon's `searchable_text` joins it: the
    /// content warning, the text, the poll's options, the media's descriptions.
    func filterableText(of status: SandboxStatus) -> String {
        var parts = [status.mastodon?.spoilerText ?? generatedSpoiler(status) ?? "", status.text]
        if let poll = poll(of: status, viewer: nil) { parts += poll.options }
        for id in status.mastodon?.mediaIDs ?? [] { if let text = media(id: id)?.description { parts.append(text) } }
        return parts.joined(separator: "\n\n")
    }

    /// `user`'s active filters that match `status`, each with what it matched:
    /// a status's `filtered`. Whatever the context, as Mastodon 4 answers: each
    /// filter names its contexts and action, and the client applies them (a
    /// `warn` one in those contexts, a `hide` one leaving the status out there).
    func filterResults(_ status: SandboxStatus, for user: Int?) -> [(SandboxFilter, [String])] {
        guard let user, let list = filters[user], list.contains(where: { !$0.expired }) else { return [] }
        return filterResults(text: filterableText(of: status), for: user)
    }

    /// `user`'s active filters that match `text` (a generated reply's), each with what it matched.
    func filterResults(text: String, for user: Int?) -> [(SandboxFilter, [String])] {
        guard let user, let list = filters[user] else { return [] }
        return list.compactMap { filter in filter.firstMatch(in: text).map { (filter, [$0]) } }
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
