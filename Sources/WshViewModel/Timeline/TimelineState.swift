import WshDataController
import WshModel

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
    }

    /// Every loaded status, newest first, muted authors included.
    public internal(set) var statuses = LoadedStatuses()
    /// The `count` of the last fetch, reused by `more`.
    public internal(set) var pageSize = 20
    /// The last page loaded; 0 before any fetch.
    public internal(set) var lastPage = 0
    /// The screens open over the list; empty when the list shows.
    public internal(set) var screens: [Screen] = []
    /// Whose statuses the list hides.
    public internal(set) var muted = MutedUsers()

    /// The state of a fresh session: nothing loaded, the list showing.
    public init() {}
}
