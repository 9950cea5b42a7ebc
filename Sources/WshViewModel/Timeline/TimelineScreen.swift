/// What shows on top of the timeline, as its ViewModel: the list itself or
/// one screen opened over it.
public enum TimelineScreen: Sendable, Hashable {
    /// The list of rows.
    case list
    /// The detail of one status.
    case detail(StatusDetailViewModel)
    /// The comments on one status.
    case comments(CommentsViewModel)
    /// One user's profile.
    case user(UserViewModel)
    /// The account's lists.
    case lists(ListsViewModel)
    /// The edit history of one status.
    case edits(EditHistoryViewModel)
    /// The scheduled statuses.
    case scheduled(ScheduledStatusesViewModel)

    /// The ViewModel of `screen`, or `.list` when none is open.
    init(_ screen: TimelineState.Screen?) {
        switch screen {
        case nil: self = .list
        case .detail(let status): self = .detail(StatusDetailViewModel(status: status))
        case .comments(let status, let page): self = .comments(CommentsViewModel(status: status, page: page))
        case .user(let user): self = .user(UserViewModel(user: user))
        case .lists(let lists): self = .lists(ListsViewModel(lists: lists))
        case .edits(let status, let versions): self = .edits(EditHistoryViewModel(status: status, versions: versions))
        case .scheduled(let scheduled): self = .scheduled(ScheduledStatusesViewModel(scheduled))
        }
    }
}
