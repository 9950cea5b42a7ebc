import WshModel
import WshText

/// The edit history screen of one status (`edits N`): each version, the
/// original first and the current one last, as Mastodon lists them.
public struct EditHistoryViewModel: Sendable, Hashable {
    /// One version, numbered from 1 (the original).
    public struct Row: Sendable, Hashable {
        public let index: Int
        /// `05-31 17:46`.
        public let time: String
        /// The content warning, or empty.
        public let contentWarning: String
        /// The text on one line.
        public let text: String
    }

    /// The id of the status.
    public let statusID: String
    /// `edits of @author's status ID`.
    public let title: String
    public let rows: [Row]
    /// `original only` or `3 versions (2 edits)`.
    public let countText: String
    /// The versions as `edits N --json` shows them.
    public let document: EditHistoryDocument

    public init(status: Status, versions: [StatusEdit]) {
        statusID = TerminalText.sanitize(status.identifier)
        title = "edits of \(DisplayText.author(status.user))'s status \(statusID)"
        rows = versions.enumerated().map { offset, version in
            Row(index: offset + 1, time: DisplayText.shortTime(version.createdAt),
                contentWarning: TerminalText.sanitize(version.contentWarning ?? ""), text: TerminalText.sanitize(version.text))
        }
        countText = versions.count <= 1 ? "never edited"
            : "\(DisplayText.plural(versions.count, "version")) (\(DisplayText.plural(versions.count - 1, "edit")))"
        document = EditHistoryDocument(status: status, versions: versions)
    }
}

/// `edits N --json`: `{status_id, versions: [{index, text, spoiler_text, sensitive, created_at}]}`.
public struct EditHistoryDocument: Encodable, Sendable, Hashable {
    public struct Version: Encodable, Sendable, Hashable {
        public var index: Int
        public var text: String
        public var spoilerText: String
        @JSONNull public var sensitive: Bool?
        @JSONNull public var createdAt: String?

        enum CodingKeys: String, CodingKey {
            case index, text, sensitive
            case spoilerText = "spoiler_text"
            case createdAt = "created_at"
        }
    }

    public var statusID: String
    public var versions: [Version]

    enum CodingKeys: String, CodingKey {
        case versions
        case statusID = "status_id"
    }

    init(status: Status, versions: [StatusEdit]) {
        statusID = TerminalText.sanitize(status.identifier)
        self.versions = versions.enumerated().map { offset, version in
            Version(index: offset + 1, text: TerminalText.sanitize(version.text, .multiline),
                    spoilerText: TerminalText.sanitize(version.contentWarning ?? "", .multiline), sensitive: version.sensitive,
                    createdAt: version.createdAt?.iso8601Text)
        }
    }
}

/// The scheduled statuses screen (`scheduled`): id, when, text, numbered
/// for `unschedule N`.
public struct ScheduledStatusesViewModel: Sendable, Hashable {
    public struct Row: Sendable, Hashable {
        public let index: Int
        /// The scheduled status's id.
        public let id: String
        /// `2024-11-11 21:30:00 +0800`: when it will be published.
        public let time: String
        /// The text on one line, or the content warning that will hide it.
        public let text: String
    }

    public let rows: [Row]
    /// `2 scheduled statuses`.
    public let countText: String
    /// True when the server has a next page (`more` brings it).
    public let hasMore: Bool
    /// As `scheduled --json` shows them.
    public let document: [ScheduledStatusDocument]

    public init(_ scheduled: [ScheduledStatus], hasMore: Bool = false) {
        rows = scheduled.enumerated().map { offset, status in
            var markers: [String] = []
            if status.poll != nil { markers.append("[poll]") }
            if !status.mediaIDs.isEmpty { markers.append("[\(DisplayText.plural(status.mediaIDs.count, "attachment"))]") }
            if let visibility = status.visibility, visibility != "public" { markers.append("[\(TerminalText.sanitize(visibility))]") }
            let text = status.contentWarning.map { "CW: " + TerminalText.sanitize($0) } ?? TerminalText.sanitize(status.text)
            return Row(index: offset + 1, id: TerminalText.sanitize(status.id), time: DisplayText.fullTime(status.scheduledAt),
                       text: (markers + [text]).joined(separator: " "))
        }
        self.hasMore = hasMore
        countText = DisplayText.plural(scheduled.count, "scheduled status", "scheduled statuses")
        document = scheduled.enumerated().map { ScheduledStatusDocument($1, index: $0 + 1) }
    }
}

/// One scheduled status as `scheduled --json` and `post --at --json` show it:
/// `{index, id, scheduled_at, text, visibility, spoiler_text}`.
public struct ScheduledStatusDocument: Encodable, Sendable, Hashable {
    public var index: Int?
    public var id: String
    @JSONNull public var scheduledAt: String?
    public var text: String
    @JSONNull public var visibility: String?
    public var spoilerText: String
    @JSONNull public var language: String?
    public var mediaIDs: [String]
    /// `{options, expires_in, multiple}`, null without a poll.
    @JSONNull public var poll: PollDocument?

    /// A scheduled poll: its options, how long it stays open (seconds), whether it takes several choices.
    public struct PollDocument: Encodable, Sendable, Hashable {
        public var options: [String]
        public var expiresIn: Int
        public var multiple: Bool

        enum CodingKeys: String, CodingKey {
            case options, multiple
            case expiresIn = "expires_in"
        }
    }

    enum CodingKeys: String, CodingKey {
        case index, id, text, visibility, language, poll
        case scheduledAt = "scheduled_at"
        case spoilerText = "spoiler_text"
        case mediaIDs = "media_ids"
    }

    public init(_ status: ScheduledStatus, index: Int?) {
        self.index = index
        id = TerminalText.sanitize(status.id)
        scheduledAt = status.scheduledAt?.iso8601Text
        text = TerminalText.sanitize(status.text, .multiline)
        visibility = status.visibility.map { TerminalText.sanitize($0) }
        spoilerText = TerminalText.sanitize(status.contentWarning ?? "", .multiline)
        language = status.language.map { TerminalText.sanitize($0) }
        mediaIDs = status.mediaIDs.map { TerminalText.sanitize($0) }
        poll = status.poll.map { poll in
            PollDocument(options: poll.options.map { TerminalText.sanitize($0) }, expiresIn: poll.expiresIn, multiple: poll.multiple)
        }
    }
}
