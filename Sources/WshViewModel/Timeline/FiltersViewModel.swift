import WshModel
import WshText

/// `filters`: the account's filters on the server, one row each, numbered.
public struct FiltersViewModel: Sendable, Hashable {
    public struct Row: Sendable, Hashable {
        public let index: Int
        public let id: String
        public let title: String
        /// `warn`, `hide`, `blur`.
        public let action: String
        /// `home, public`.
        public let context: String
        /// `"spoiler", "leak"`; "" when none.
        public let keywords: String
        /// `until 2026-11-29 10:00:00 +0000`; "" when it never ends.
        public let expires: String
    }

    public let rows: [Row]
    /// As `filters --json` prints them.
    public let document: [FilterDocument]

    public init(_ filters: [ContentFilter]) {
        rows = filters.enumerated().map { offset, filter in
            Row(index: offset + 1, id: TerminalText.sanitize(filter.id), title: TerminalText.sanitize(filter.title),
                action: TerminalText.sanitize(filter.action),
                context: TerminalText.sanitize(filter.context.joined(separator: ", ")),
                keywords: filter.keywords.map { "\"" + TerminalText.sanitize($0) + "\"" }.joined(separator: ", "),
                expires: filter.expiresAt.map { "until " + DisplayText.fullTime($0) } ?? "")
        }
        document = filters.enumerated().map { FilterDocument($1, index: $0 + 1) }
    }
}

/// One filter as `filters --json` prints it: `{index, id, title, context,
/// filter_action, expires_at, keywords}`, named as Mastodon's v2 `Filter`.
public struct FilterDocument: Encodable, Sendable, Hashable {
    public var index: Int
    public var id: String
    public var title: String
    public var context: [String]
    public var filterAction: String
    @JSONNull public var expiresAt: String?
    public var keywords: [String]

    enum CodingKeys: String, CodingKey {
        case index, id, title, context, keywords
        case filterAction = "filter_action"
        case expiresAt = "expires_at"
    }

    public init(_ filter: ContentFilter, index: Int) {
        self.index = index
        id = TerminalText.sanitize(filter.id)
        title = TerminalText.sanitize(filter.title)
        context = filter.context.map { TerminalText.sanitize($0) }
        filterAction = TerminalText.sanitize(filter.action)
        expiresAt = filter.expiresAt?.iso8601Text
        keywords = filter.keywords.map { TerminalText.sanitize($0) }
    }
}
