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
    /// while it is paged); returns those that were new. `seen` holds the
    /// loaded statuses' identifiers and learns the new ones, so a caller
    /// appending page after page pays for each page once.
    mutating func appendUnseen(_ page: [Status], seen: inout SeenStatuses) -> [Status] {
        let fresh = seen.unseen(page)
        statuses.append(page: fresh)
        return fresh
    }

    /// Appends the statuses of `page` not already loaded; returns how many were new.
    mutating func appendUnseen(_ page: [Status]) -> Int {
        var seen = SeenStatuses(statuses)
        return appendUnseen(page, seen: &seen).count
    }

    /// Puts the statuses of `page` not already loaded on top; returns them.
    mutating func prependUnseen(_ page: [Status]) -> [Status] {
        var seen = SeenStatuses(statuses)
        let fresh = seen.unseen(page)
        statuses.prepend(page: fresh)
        return fresh
    }
}

/// What a `TimelineViewModel` change asks its View to re-render.
extension ViewChange where Subject == TimelineViewModel {
    /// `rows` changed: statuses loaded, appended, posted, muted or unmuted.
    public static var rows: Self { Self(bit: 0) }
    /// `screen` changed: a detail, comments or user screen opened or closed.
    public static var screen: Self { Self(bit: 1) }
    /// `errorMessage` was set or cleared.
    public static var error: Self { Self(bit: 2) }
    /// `isLoading` turned on or off.
    public static var loading: Self { Self(bit: 3) }
}

/// The loaded statuses, kept as the pages they arrived in.
///
/// `more` appends a page: the new value copies the list of page references,
/// not the statuses, so the snapshots before and after it share every page.
/// A flat array would copy all loaded statuses on each `more`, and a history
/// of 50 pages would hold 50 ever longer copies.
public struct LoadedStatuses: Sendable, Hashable, RandomAccessCollection {
    private var pages: [[Status]] = []
    /// `ends[i]` is the number of statuses in pages 0 through i.
    private var ends: [Int] = []

    /// The statuses of `page`, or none.
    public init(_ page: [Status] = []) {
        append(page: page)
    }

    public var startIndex: Int { 0 }
    public var endIndex: Int { ends.last ?? 0 }

    /// Status `position`, found by a binary search over the pages.
    public subscript(position: Int) -> Status {
        precondition(position >= 0 && position < endIndex, "status \(position) of \(endIndex)")
        var low = 0
        var high = ends.count - 1
        while low < high {
            let middle = (low + high) / 2
            if ends[middle] > position { high = middle } else { low = middle + 1 }
        }
        return pages[low][position - (low == 0 ? 0 : ends[low - 1])]
    }

    /// The statuses as one array: the page itself when there is one page
    /// (what `fetch` leaves), sharing its storage rather than copying it.
    var array: [Status] {
        pages.count == 1 ? pages[0] : Array(self)
    }

    /// Adds `page` after the loaded statuses.
    public mutating func append(page: [Status]) {
        guard !page.isEmpty else { return }
        pages.append(page)
        ends.append(endIndex + page.count)
    }

    /// Adds `status` before the loaded statuses, as a page of its own.
    public mutating func prepend(_ status: Status) {
        pages.insert([status], at: 0)
        ends = ends.map { $0 + 1 }
        ends.insert(1, at: 0)
    }

    /// Adds `page` before the loaded statuses (what `newer` brought).
    public mutating func prepend(page: [Status]) {
        guard !page.isEmpty else { return }
        pages.insert(page, at: 0)
        ends = ends.map { $0 + page.count }
        ends.insert(page.count, at: 0)
    }

    /// Replaces the status whose identifier is `id` with `status`, copying
    /// only the page that holds it; the other pages stay shared.
    mutating func replace(id: String, with status: Status) {
        for page in pages.indices {
            if let position = pages[page].firstIndex(where: { $0.identifier == id }) {
                pages[page][position] = status
                return
            }
        }
    }

    /// Removes the status whose identifier is `id`, copying only the page
    /// that held it; the other pages stay shared.
    mutating func remove(id: String) {
        for page in pages.indices {
            if let position = pages[page].firstIndex(where: { $0.identifier == id }) {
                pages[page].remove(at: position)
                ends = ends.enumerated().map { $0.offset >= page ? $0.element - 1 : $0.element }
                if pages[page].isEmpty {
                    pages.remove(at: page)
                    ends.remove(at: page)
                }
                return
            }
        }
    }

    /// True when every page of `self` is stored in the same memory as the
    /// page at the same place in `other`: what a snapshot costs is then only
    /// the page references.
    public func sharesPages(with other: LoadedStatuses) -> Bool {
        guard pages.count <= other.pages.count else { return false }
        return zip(pages, other.pages).allSatisfy { mine, theirs in
            mine.withUnsafeBufferPointer { a in theirs.withUnsafeBufferPointer { b in a.baseAddress == b.baseAddress } }
        }
    }
}

extension TimelineState {
    /// This state with the status `id` replaced by `status` wherever it shows:
    /// in the loaded statuses and on the screens open over them. Redo uses it
    /// when a post sent again comes back with a new id.
    func replacingStatus(id: String, with status: Status) -> TimelineState {
        var next = self
        next.statuses.replace(id: id, with: status)
        next.screens = screens.map { screen in
            switch screen {
            case .detail(let shown) where shown.identifier == id:
                .detail(status)
            case .comments(let shown, let page) where shown.identifier == id:
                .comments(status, page)
            case .edits(let shown, let versions) where shown.identifier == id:
                .edits(status, versions)
            default:
                screen
            }
        }
        return next
    }
}
