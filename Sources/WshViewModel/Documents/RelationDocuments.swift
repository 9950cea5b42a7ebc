import WshModel
import WshText

/// `followers USER --json` / `following USER --json`: `{list, owner, users:
/// [{index, user, following}], has_more}`, each user as `user NAME --json` prints it.
public struct AccountsDocument: Encodable, Sendable, Hashable {
    public struct Row: Encodable, Sendable, Hashable {
        public var index: Int
        public var user: UserDocument
        /// Whether you follow them; null when the server did not say.
        @JSONNull public var following: Bool?
    }

    public var list: String
    public var owner: String
    public var users: [Row]
    public var hasMore: Bool

    enum CodingKeys: String, CodingKey {
        case list, owner, users
        case hasMore = "has_more"
    }

    public init(list: AccountList, owner: String, page: UserPage) {
        self.init(kind: .user(list), owner: owner, page: page)
    }

    /// `{list: "favourited-by", owner: STATUS_ID, …}` for who acted on a status.
    public init(kind: AccountsKind, owner: String, page: UserPage) {
        self.list = kind.name
        self.owner = TerminalText.sanitize(owner)
        users = page.users.enumerated().map { offset, user in
            Row(index: offset + 1, user: UserDocument(user), following: user.identifier.flatMap { page.following[$0] })
        }
        hasMore = page.next != nil
    }
}

/// `search QUERY --json`: `{query, accounts: [{index, user}], statuses:
/// [status as list --json prints it], hashtags: [{index, name, uses}]}`, numbered as the rows.
public struct SearchDocument: Encodable, Sendable, Hashable {
    public struct AccountRow: Encodable, Sendable, Hashable {
        public var index: Int
        public var user: UserDocument
    }

    public struct HashtagRow: Encodable, Sendable, Hashable {
        public var index: Int
        public var name: String
        @JSONNull public var uses: Int?
    }

    public var query: String
    public var accounts: [AccountRow]
    public var statuses: [StatusDocument]
    public var hashtags: [HashtagRow]

    public init(query: String, results: SearchResults) {
        self.query = TerminalText.sanitize(query)
        accounts = results.accounts.enumerated().map { AccountRow(index: $0 + 1, user: UserDocument($1)) }
        let first = results.accounts.count + 1
        statuses = results.statuses.enumerated().map { StatusDocument($1, index: first + $0) }
        let firstTag = first + results.statuses.count
        hashtags = results.hashtags.enumerated().map {
            HashtagRow(index: firstTag + $0, name: StatusDocument.clean($1.name), uses: $1.uses)
        }
    }
}
