import WshDataController
import WshModel

/// Whose accounts an account screen lists: a user's followers or whom they
/// follow, or who favourited or boosted a status.
public enum AccountsKind: Sendable, Hashable {
    case user(AccountList)
    case status(StatusAccountList)

    /// `followers`, `following`, `favourited-by`, `reblogged-by`: the command's name.
    public var name: String {
        switch self {
        case .user(let list): list.rawValue
        case .status(let list): list.rawValue
        }
    }
}

/// Everything the timeline screens show, as a value: the loaded statuses,
/// where paging stands, which screens are open over the list, and who is
/// muted.
///
/// Being a value is what makes undo cheap: a snapshot is a copy, and copies
/// share the pages of `statuses` and the boxed screens.
public struct TimelineState: Sendable, Hashable {
    /// A screen opened over the list, innermost last.
    ///
    /// `indirect` boxes each payload once on the heap: copying the stack of
    /// screens into a snapshot copies pointers, and every snapshot showing
    /// the same detail shares one `Status`.
    public indirect enum Screen: Sendable, Hashable {
        /// The detail of a status.
        case detail(Status)
        /// The comments on a status.
        case comments(Status, CommentsPage)
        /// A user's profile.
        case user(User)
        // Search results and account lists (TimelineViewModel+Relations.swift).
        /// What a search for `query` found.
        case search(query: String, SearchResults)
        /// One page of `owner`'s followers or of whom they follow, or of who
        /// favourited or boosted the status `owner` (its id).
        case accounts(AccountsKind, owner: String, UserPage)
        /// The account's lists.
        case lists([UserList])
        // Edits and scheduled statuses.
        /// The edit history of a status, the original first.
        case edits(Status, [StatusEdit])
        /// The account's scheduled statuses, and where the next page starts (nil: none).
        case scheduled([ScheduledStatus], next: String?)
        // Notifications and conversations (TimelineViewModel+Notifications.swift).
        /// The notifications, as asked for (`types`: only these; empty: all).
        case notifications(NotificationsPage, types: [String])
        /// The direct conversations.
        case conversations([Conversation])
    }

    /// Every loaded status, newest first, muted authors included.
    public internal(set) var statuses = LoadedStatuses()
    /// The timeline the rows come from.
    public internal(set) var source: TimelineSource = .public
    /// The `count` of the last fetch, reused by `more` and `newer`.
    public internal(set) var pageSize = 20
    /// Where the next older page starts (an opaque DataController cursor);
    /// nil before any fetch and once the timeline has no more.
    public internal(set) var next: TimelineCursor?
    /// Where statuses newer than the top row start when the server said so
    /// (an opaque DataController cursor); nil: `newer` asks by the top row.
    public internal(set) var newer: TimelineCursor?
    /// True once a fetch has loaded the timeline.
    public internal(set) var hasFetched = false
    /// The screens open over the list; empty when the list shows.
    public internal(set) var screens: [Screen] = []
    /// Whose statuses the list hides.
    public internal(set) var muted = MutedUsers()

    /// The state of a fresh session: nothing loaded, the list showing.
    public init() {}
}

extension TimelineState {
    /// Appends the statuses of `page` not already loaded (a timeline moves
    /// while it is paged); returns how many were new. `seen` holds the
    /// loaded statuses' identifiers and learns the new ones, so a caller
    /// appending page after page pays for each page once.
    mutating func appendUnseen(_ page: [Status], seen: inout SeenStatuses) -> Int {
        let fresh = seen.unseen(page)
        statuses.append(page: fresh)
        return fresh.count
    }

    /// Appends the statuses of `page` not already loaded; returns how many were new.
    mutating func appendUnseen(_ page: [Status]) -> Int {
        var seen = SeenStatuses(statuses)
        return appendUnseen(page, seen: &seen)
    }

    /// Puts the statuses of `page` not already loaded on top; returns them.
    mutating func prependUnseen(_ page: [Status]) -> [Status] {
        var seen = SeenStatuses(statuses)
        let fresh = seen.unseen(page)
        statuses.prepend(page: fresh)
        return fresh
    }
}
