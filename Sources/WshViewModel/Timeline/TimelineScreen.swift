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
        case .accounts(let list, let owner, let page): self = .accounts(AccountsViewModel(list: list, owner: owner, page: page))
        case .lists(let lists): self = .lists(ListsViewModel(lists: lists))
        case .edits(let status, let versions): self = .edits(EditHistoryViewModel(status: status, versions: versions))
        case .scheduled(let scheduled): self = .scheduled(ScheduledStatusesViewModel(scheduled))
        case .notifications(let page, let types): self = .notifications(NotificationsViewModel(page: page, types: types))
        case .conversations(let conversations): self = .conversations(ConversationsViewModel(conversations: conversations))
        }
    }
}

/// Each screen's ViewModel, nil when another screen shows: what the
/// ViewModels' outputs (`detail`, `comments`, `lists`…) read.
extension TimelineScreen {
    public var detail: StatusDetailViewModel? {
        guard case .detail(let detail) = self else { return nil }
        return detail
    }

    public var comments: CommentsViewModel? {
        guard case .comments(let comments) = self else { return nil }
        return comments
    }

    public var user: UserViewModel? {
        guard case .user(let user) = self else { return nil }
        return user
    }

    public var search: SearchViewModel? {
        guard case .search(let search) = self else { return nil }
        return search
    }

    public var accounts: AccountsViewModel? {
        guard case .accounts(let accounts) = self else { return nil }
        return accounts
    }

    public var lists: ListsViewModel? {
        guard case .lists(let lists) = self else { return nil }
        return lists
    }

    public var edits: EditHistoryViewModel? {
        guard case .edits(let history) = self else { return nil }
        return history
    }

    public var scheduled: ScheduledStatusesViewModel? {
        guard case .scheduled(let scheduled) = self else { return nil }
        return scheduled
    }

    public var notifications: NotificationsViewModel? {
        guard case .notifications(let notifications) = self else { return nil }
        return notifications
    }

    public var conversations: ConversationsViewModel? {
        guard case .conversations(let conversations) = self else { return nil }
        return conversations
    }
}
