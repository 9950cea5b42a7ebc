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

    public init(id: String, scheduledAt: Timestamp?, text: String, visibility: String? = nil, contentWarning: String? = nil) {
        self.id = id
        self.scheduledAt = scheduledAt
        self.text = text
        self.visibility = visibility
        self.contentWarning = contentWarning
    }
}
