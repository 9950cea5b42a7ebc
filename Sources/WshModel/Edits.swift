/// One version of an edited status, as its edit history lists it (the
/// original first): what it said and behind which content warning, and when.
public struct StatusEdit: Hashable, Sendable {
    /// The text of this version, as plain text.
    public var text: String
    /// Its content warning; nil when none.
    public var contentWarning: String?
    /// Whether its media were marked sensitive; nil when the API did not say.
    public var sensitive: Bool?
    /// When this version was written (the original's: when the status was posted).
    public var createdAt: Timestamp?

    public init(text: String, contentWarning: String? = nil, sensitive: Bool? = nil, createdAt: Timestamp? = nil) {
        self.text = text
        self.contentWarning = contentWarning
        self.sensitive = sensitive
        self.createdAt = createdAt
    }
}

/// A status as its author wrote it (Mastodon's `StatusSource`): the plain
/// text, never the HTML the server made of it, and its content warning.
public struct StatusSource: Hashable, Sendable {
    public var id: String
    public var text: String
    public var spoilerText: String
}

/// A page of scheduled statuses and where the next starts (opaque: on
/// Mastodon the query of the server's `next` link, as sent); nil at the end.
public struct ScheduledPage: Sendable, Hashable {
    public var statuses: [ScheduledStatus]
    public var next: String?

    public init(statuses: [ScheduledStatus], next: String? = nil) {
        self.statuses = statuses
        self.next = next
    }
}

/// A status waiting to be published (Mastodon's `ScheduledStatus`): not a
/// status yet, so it has an id of its own, a time, and what it will say.
public struct ScheduledStatus: Hashable, Sendable {
    /// The scheduled status's own id (not a status id).
    public var id: String
    /// When the server will publish it.
    public var scheduledAt: Timestamp?
    /// What it will say.
    public var text: String
    /// Who will see it: `public`, `unlisted`, `private`, `direct`; nil when not said.
    public var visibility: String?
    /// Its content warning; nil when none.
    public var contentWarning: String?
    /// Its language (ISO 639-1); nil when not said.
    public var language: String?
    /// The status it will answer; nil when none.
    public var inReplyTo: String?
    /// The uploaded media it will carry, by id, in order.
    public var mediaIDs: [String] = []
    /// The poll it will carry; nil when none.
    public var poll: PollDraft?

    public init(id: String, scheduledAt: Timestamp?, text: String, visibility: String? = nil, contentWarning: String? = nil) {
        self.id = id
        self.scheduledAt = scheduledAt
        self.text = text
        self.visibility = visibility
        self.contentWarning = contentWarning
    }

    /// What it will post, as a draft: what scheduling it again sends (its media already uploaded).
    public var draft: StatusDraft {
        StatusDraft(text: text, visibility: visibility.flatMap(StatusDraft.Visibility.init(rawValue:)), spoiler: contentWarning,
                    inReplyTo: inReplyTo, language: language, mediaIDs: mediaIDs, poll: poll)
    }
}
