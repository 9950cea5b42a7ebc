import WshModel
import WshText

/// One row of an account list (followers, following, search's accounts):
/// every string it shows, ready to print.
public struct AccountCellViewModel: Sendable, Hashable {
    /// The row number, from 1, as `detail N` takes it.
    public let index: Int
    /// `@screen_name` (Mastodon's `acct`).
    public let screenName: String
    /// The display name, empty when it is the screen name or none was sent.
    public let name: String
    public let followers: Int
    /// `120 followers`.
    public let followersText: String
    /// True when the token's owner follows them; nil when the server did not say.
    public let followedByYou: Bool?
    /// `you follow`, `-` when you do not, `?` when the server did not say.
    public let followText: String

    public init(user: User, index: Int, followedByYou: Bool?) {
        self.index = index
        screenName = DisplayText.author(user)
        let shown = TerminalText.sanitize(user.name)
        name = "@" + shown == screenName || shown.isEmpty ? "" : shown
        followers = user.followersCount ?? 0
        followersText = DisplayText.plural(followers, "follower")
        self.followedByYou = followedByYou
        followText = followedByYou.map { $0 ? "you follow" : "-" } ?? "?"
    }
}

/// The screen of one page of a user's followers, or of whom they follow.
public struct AccountsViewModel: Sendable, Hashable {
    /// `followers of @name` / `@name follows`.
    public let title: String
    public let rows: [AccountCellViewModel]
    /// True when the server has a next page.
    public let hasMore: Bool
    /// The screen as `followers USER --json` prints it.
    public let document: AccountsDocument
    let users: [User]

    public init(list: AccountList, owner: String, page: UserPage) {
        self.init(kind: .user(list), owner: owner, page: page)
    }

    /// The screen of `kind`'s accounts: `owner` is a user, or a status's id.
    public init(kind: AccountsKind, owner: String, page: UserPage) {
        let owner = TerminalText.sanitize(owner)
        switch kind {
        case .user(.followers): title = "followers of \(owner)"
        case .user(.following): title = "\(owner) follows"
        case .status(.favouritedBy): title = "who favourited status \(owner)"
        case .status(.rebloggedBy): title = "who boosted status \(owner)"
        }
        users = page.users
        rows = page.users.enumerated().map { offset, user in
            AccountCellViewModel(user: user, index: offset + 1, followedByYou: user.identifier.flatMap { page.following[$0] })
        }
        hasMore = page.next != nil
        document = AccountsDocument(kind: kind, owner: owner, page: page)
    }
}

/// What a search found, as rows numbered across its sections: accounts
/// first, then statuses, then hashtags.
public struct SearchViewModel: Sendable, Hashable {
    /// One row: an account, a status or a hashtag.
    public enum Row: Sendable, Hashable {
        case account(AccountCellViewModel)
        case status(StatusCellViewModel)
        /// Its number, `#name`, and how many statuses used it lately (nil: not said).
        case hashtag(index: Int, name: String, uses: Int?)
    }

    /// The query, sanitised.
    public let query: String
    public let rows: [Row]
    /// `2 accounts, 5 statuses, 1 hashtag`.
    public let summary: String
    /// The results as `search QUERY --json` prints them.
    public let document: SearchDocument
    let results: SearchResults

    public init(query: String, results: SearchResults) {
        self.query = TerminalText.sanitize(query)
        self.results = results
        var rows: [Row] = []
        for user in results.accounts {
            rows.append(.account(AccountCellViewModel(user: user, index: rows.count + 1, followedByYou: nil)))
        }
        for status in results.statuses { rows.append(.status(StatusCellViewModel(status: status, index: rows.count + 1))) }
        for tag in results.hashtags {
            rows.append(.hashtag(index: rows.count + 1, name: TerminalText.sanitize(tag.name), uses: tag.uses))
        }
        self.rows = rows
        summary = [DisplayText.plural(results.accounts.count, "account"),
                   DisplayText.plural(results.statuses.count, "status", "statuses"),
                   DisplayText.plural(results.hashtags.count, "hashtag")].joined(separator: ", ")
        document = SearchDocument(query: query, results: results)
    }
}

extension SearchViewModel {
    /// What row `index` of `results` opens for `detail N`: an account or a
    /// status; a hashtag opens nothing and says what does.
    static func row(in results: SearchResults, index: Int) throws(ViewModelError) -> TimelineViewModel.ScreenRow {
        let count = results.accounts.count + results.statuses.count + results.hashtags.count
        guard index >= 1, index <= count else { throw .noRow(index: index, count: count) }
        if index <= results.accounts.count { return .user(results.accounts[index - 1]) }
        let statusIndex = index - results.accounts.count
        if statusIndex <= results.statuses.count { return .status(results.statuses[statusIndex - 1]) }
        let tag = TerminalText.sanitize(results.hashtags[statusIndex - results.statuses.count - 1].name)
        throw .nothingToOpen(index: index, advice: "it is the hashtag #\(tag); fetch tag \(tag) shows its statuses")
    }
}
