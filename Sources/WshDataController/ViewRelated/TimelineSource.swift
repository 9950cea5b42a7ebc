import WshModel
import WshText

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
    /// The best matches of `query` in the local archive `file` (`archive
    /// search`): answered by the archive, never by the server.
    case archive(query: String, file: String)

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
        case .archive(let query, _): "archive search \(query)"
        }
    }

    /// The filter context its statuses are shown in (Mastodon's `home`,
    /// `public`, `account`, `notifications`): a server's filters apply to a
    /// status here only when they name it. Nil for the account's own
    /// collections (bookmarks, favourites), where Mastodon applies none, and
    /// for what the archive finds.
    public var filterContext: String? {
        switch self {
        case .public, .local, .tag: "public"
        case .home, .list: "home"
        case .user: "account"
        case .mentions: "notifications"
        case .reposts: "thread"
        case .bookmarks, .favourites, .archive: nil
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
public enum TimelineCursor: Sendable, Hashable, CustomStringConvertible {
    /// A page number (the public timeline).
    case page(Int)
    /// Statuses older than this id (a cursor timeline).
    case olderThan(id: String)
    /// The page a server's own link names (Mastodon's `Link` header), followed as sent.
    case link(PageLink)

    /// How the trace names it, as Swift would print the case (`page(2)`,
    /// `olderThan(id: "5")`), without reflection on every page loaded.
    public var description: String {
        switch self {
        case .page(let page): "page(\(page))"
        case .olderThan(let id): "olderThan(id: \(String(reflecting: id)))"
        case .link(let link): "link(\(link))"
        }
    }
}

/// A server's link to a page of a timeline: the query of its `Link`
/// header's `next` or `prev` URL, exactly as sent. Only the API that made
/// it reads it; above the DataControllers it is handed back unopened.
public struct PageLink: Sendable, Hashable, CustomStringConvertible {
    /// The link's query, percent-encoding kept.
    let query: String

    init(query: String) {
        self.query = query
    }

    /// `older than X` for a link with a `max_id` (how a row-built cursor reads), else the query.
    public var description: String {
        for parameter in query.split(separator: "&") where parameter.hasPrefix("max_id=") {
            return "older than " + (PercentEncoding.decoded(parameter.dropFirst(7)) ?? String(parameter.dropFirst(7)))
        }
        return "the server's link ?" + query
    }
}

/// What one load of a timeline brought.
public struct TimelineSlice: Sendable, Hashable {
    /// The statuses, newest first, none repeated from the page before.
    public var statuses: [Status]
    /// Where the next older page starts; nil when the timeline has no more.
    public var next: TimelineCursor?
    /// Where statuses newer than these start, when the server said (its
    /// `prev` link); nil: `newer` asks for those newer than the top row.
    public var newer: TimelineCursor?

    public init(statuses: [Status], next: TimelineCursor?, newer: TimelineCursor? = nil) {
        self.statuses = statuses
        self.next = next
        self.newer = newer
    }
}
