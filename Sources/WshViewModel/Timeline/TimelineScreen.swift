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
    /// What a search found.
    case search(SearchViewModel)
    /// Followers or following.
    case accounts(AccountsViewModel)
    /// The account's lists.
    case lists(ListsViewModel)
    /// The edit history of one status.
    case edits(EditHistoryViewModel)
    /// The scheduled statuses.
    case scheduled(ScheduledStatusesViewModel)
    /// The notifications.
    case notifications(NotificationsViewModel)
    /// The direct conversations.
    case conversations(ConversationsViewModel)

    /// The ViewModel of `screen`, or `.list` when none is open.
    init(_ screen: TimelineState.Screen?) {
        switch screen {
        case nil: self = .list
        case .detail(let status): self = .detail(StatusDetailViewModel(status: status))
        case .comments(let status, let page): self = .comments(CommentsViewModel(status: status, page: page))
        case .user(let user): self = .user(UserViewModel(user: user))
        case .search(let query, let results): self = .search(SearchViewModel(query: query, results: results))
        case .accounts(let kind, let owner, let page): self = .accounts(AccountsViewModel(kind: kind, owner: owner, page: page))
        case .lists(let lists): self = .lists(ListsViewModel(lists: lists))
        case .edits(let status, let versions): self = .edits(EditHistoryViewModel(status: status, versions: versions))
        case .scheduled(let scheduled, let next): self = .scheduled(ScheduledStatusesViewModel(scheduled, hasMore: next != nil))
        case .notifications(let page, let types): self = .notifications(NotificationsViewModel(page: page, types: types))
        case .conversations(let conversations): self = .conversations(ConversationsViewModel(conversations: conversations))
        }
    }
}

/// Each screen's ViewModel, nil when another screen shows: what the
/// ViewModels' outputs (`detail`, `comments`, `lists`…) read.
extension TimelineScreen {
    public var detail: StatusDetailViewModel? { shown() }
    public var comments: CommentsViewModel? { shown() }
    public var user: UserViewModel? { shown() }
    public var search: SearchViewModel? { shown() }
    public var accounts: AccountsViewModel? { shown() }
    public var lists: ListsViewModel? { shown() }
    public var edits: EditHistoryViewModel? { shown() }
    public var scheduled: ScheduledStatusesViewModel? { shown() }
    public var notifications: NotificationsViewModel? { shown() }
    public var conversations: ConversationsViewModel? { shown() }

    /// The ViewModel this screen carries when it is a `ViewModel`, else nil
    /// (always nil for `.list`). Every case carries a ViewModel type of its
    /// own, so the type alone names the case.
    private func shown<ViewModel>() -> ViewModel? {
        carried as? ViewModel
    }

    /// The ViewModel this screen carries; nil for the list.
    private var carried: (any Sendable)? {
        switch self {
        case .list: nil
        case .detail(let viewModel as any Sendable), .comments(let viewModel as any Sendable),
             .user(let viewModel as any Sendable), .search(let viewModel as any Sendable),
             .accounts(let viewModel as any Sendable), .lists(let viewModel as any Sendable),
             .edits(let viewModel as any Sendable), .scheduled(let viewModel as any Sendable),
             .notifications(let viewModel as any Sendable), .conversations(let viewModel as any Sendable):
            viewModel
        }
    }
}
