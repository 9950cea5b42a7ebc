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
    public var keywords: [String]

    public init(id: String, title: String, context: [String], action: String, expiresAt: Timestamp? = nil, keywords: [String] = []) {
        self.id = id
        self.title = title
        self.context = context
        self.action = action
        self.expiresAt = expiresAt
        self.keywords = keywords
    }
}

/// A filter that matched a status, as the server says in the status's
/// `filtered` (Mastodon 4's `FilterResult`): the filter's title and action,
/// and the words it matched.
public struct FilterMatch: Sendable, Hashable {
    public var title: String
    /// `warn`, `hide` or `blur`; anything else is read as `warn`.
    public var action: String
    public var keywords: [String]
    /// Where the filter applies (`home`, `notifications`, `public`, `thread`,
    /// `account`): Mastodon 4 lists every active filter a status matches,
    /// whatever the page, and its clients apply each only in its contexts.
    /// Empty when the server did not say: then it applies everywhere.
    public var context: [String]

    public init(title: String, action: String, keywords: [String] = [], context: [String] = []) {
        self.title = title
        self.action = action
        self.keywords = keywords
        self.context = context
    }

    /// True when the filter applies where `context` is shown; nil `context`:
    /// a screen no filter applies to (bookmarks, favourites), as on Mastodon's own.
    public func applies(in context: String?) -> Bool {
        guard let context else { return false }
        return self.context.isEmpty || self.context.contains(context)
    }

    /// True when the status is not to be shown at all.
    public var hides: Bool { action == "hide" }
    /// True when the status shows the filter's title in place of its text
    /// (`warn`, and any action this wsh does not know: shown, but behind the title).
    public var warns: Bool { action != "hide" && action != "blur" }
}

extension Status {
    /// The status with only the filter matches that apply where `context` is
    /// shown (see `FilterMatch.applies(in:)`); a boost's original too.
    public func filtered(in context: String?) -> Status {
        guard !self.filterMatches.isEmpty || !(self.retweetedStatus?.filterMatches.isEmpty ?? true) else { return self }
        var status = self
        status.filterMatches = self.filterMatches.filter { $0.applies(in: context) }
        status.retweetedStatus = self.retweetedStatus?.filtered(in: context)
        return status
    }

    /// True when a filter the server applied says to hide it (a boost: or the status it boosts).
    public var isHiddenByFilter: Bool {
        self.filterMatches.contains { $0.hides } || (self.retweetedStatus?.filterMatches.contains { $0.hides } ?? false)
    }

    /// The title of the filter whose `warn` covers its text (a boost: or the
    /// status it boosts); nil when none does.
    public var filterWarning: String? {
        (self.filterMatches.first { $0.warns } ?? self.retweetedStatus?.filterMatches.first { $0.warns })?.title
    }
}
