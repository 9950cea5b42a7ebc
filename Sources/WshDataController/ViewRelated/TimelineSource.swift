import WshModel

/// Which timeline the list shows. Chosen by the user (`fetch home`), kept in
/// the ViewModel's state, and turned into endpoints and paging only here in
/// the DataControllers: nothing above them knows how a timeline is paged.
public enum TimelineSource: Sendable, Hashable, CustomStringConvertible {
    /// Everyone's latest statuses (paged by page number).
    case `public`
    /// The account's own statuses and those of whom it follows.
    case home
    /// One user's statuses.
    case user(UserReference)
    /// Statuses that mention the account.
    case mentions
    /// The reposts of one status, by its id.
    case reposts(statusID: String)
    /// The server's own users' statuses (Mastodon).
    case local
    /// Statuses with a hashtag (Mastodon).
    case tag(String)
    /// The statuses of a list's members, the list named by title or id (Mastodon).
    case list(String)
    /// The statuses the account bookmarked, newest bookmark first (Mastodon).
    case bookmarks
    /// The statuses the account favourited, newest favourite first.
    case favourites

    /// How `fetch` and the history name it: `public`, `home`, `user @name`, `reposts 123`.
    public var description: String {
        switch self {
        case .public: "public"
        case .home: "home"
        case .user(let reference): "user \(reference)"
        case .mentions: "mentions"
        case .reposts(let id): "reposts of \(id)"
        case .local: "local"
        case .tag(let tag): "tag #\(tag)"
        case .list(let name): "list \(name)"
        case .bookmarks: "bookmarks"
        case .favourites: "favourites"
        }
    }

    /// False for a collection ordered by when the account saved each status
    /// (bookmarks, favourites): its cursors are the server's own, never a
    /// status id, and what is newer is what comes before the top row.
    public var ordersByStatusID: Bool {
        self != .bookmarks && self != .favourites
    }
}

/// Where the next older page of a timeline starts. Opaque above the
/// DataControllers: the ViewModel keeps the one a load returned and hands it
/// back for `more`.
public enum TimelineCursor: Sendable, Hashable {
    /// A page number (the public timeline).
    case page(Int)
    /// Statuses older than this id (a cursor timeline).
    case olderThan(id: String)
}

/// What one load of a timeline brought.
public struct TimelineSlice: Sendable, Hashable {
    /// The statuses, newest first, none repeated from the page before.
    public var statuses: [Status]
    /// Where the next older page starts; nil when the timeline has no more.
    public var next: TimelineCursor?

    public init(statuses: [Status], next: TimelineCursor?) {
        self.statuses = statuses
        self.next = next
    }
}
