/// One page of accounts (followers, following): the users, and where the
/// next page starts (Weibo's `next_cursor`; on Mastodon the query of the
/// `Link` header's `next`, as sent), nil at the end.
public struct UserPage: Hashable, Sendable, Decodable {
    public var users: [User]
    /// The cursor of the next page, as the API gave it; nil when there is none.
    public var next: String?
    /// How many there are in all, when the API says.
    public var totalNumber: Int?
    /// Whether the token's owner follows each user, by user id, where the server said.
    public var following: [String: Bool] = [:]
    /// The token owner's whole relationship to each user, by user id, where the
    /// server said (Mastodon's relationships: how a follow or a mute is set).
    public var relationships: [String: Relationship] = [:]

    public init(users: [User], next: String? = nil, totalNumber: Int? = nil, following: [String: Bool] = [:]) {
        self.users = users
        self.next = next
        self.totalNumber = totalNumber
        self.following = following
    }

    enum CodingKeys: String, CodingKey {
        case users
        case nextCursor = "next_cursor"
        case totalNumber = "total_number"
    }

    /// Weibo's `{"users": […], "next_cursor": N, "total_number": N}`; a `next_cursor` of 0 is the end.
    public init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        users = try c.decode([User].self, forKey: .users)
        let cursor = c.lenient(Int64.self, .nextCursor)
        next = cursor.flatMap { $0 == 0 ? nil : String($0) }
        totalNumber = c.lenient(Int.self, .totalNumber)
        // Weibo's users carry the asking account's `following`.
        let states = (try? c.decode([FollowingState].self, forKey: .users)) ?? []
        for (user, state) in zip(users, states) {
            if let id = user.identifier, let follows = state.following { following[id] = follows }
        }
    }
}

/// What the token's owner has set towards another account: follow, block,
/// server-side mute. Nil where the server does not say.
public struct Relationship: Hashable, Sendable {
    public var following: Bool?
    public var blocking: Bool?
    public var muting: Bool?
    public var mutingNotifications: Bool?
    /// How the follow is set: their boosts shown, a notification on each new
    /// post, and the languages followed (nil: all).
    public var showingReblogs: Bool?
    public var notifying: Bool?
    public var languages: [String]?

    public init(following: Bool? = nil, blocking: Bool? = nil, muting: Bool? = nil, mutingNotifications: Bool? = nil,
                showingReblogs: Bool? = nil, notifying: Bool? = nil, languages: [String]? = nil) {
        self.following = following
        self.blocking = blocking
        self.muting = muting
        self.mutingNotifications = mutingNotifications
        self.showingReblogs = showingReblogs
        self.notifying = notifying
        self.languages = languages
    }
}

/// A hashtag a search found: its name and how many statuses used it lately.
public struct Hashtag: Hashable, Sendable, Codable {
    public var name: String
    public var uses: Int?
}

/// What a search found, by kind: accounts, statuses, hashtags.
public struct SearchResults: Hashable, Sendable {
    public var accounts: [User]
    public var statuses: [Status]
    public var hashtags: [Hashtag]

    public init(accounts: [User] = [], statuses: [Status] = [], hashtags: [Hashtag] = []) {
        self.accounts = accounts
        self.statuses = statuses
        self.hashtags = hashtags
    }
}

/// What a search looks for: `accounts`, `statuses` or `hashtags` (as v2 search's `type` names them).
public enum SearchKind: String, Hashable, Sendable, CaseIterable, Codable {
    case accounts, statuses, hashtags
}

/// Which accounts of a user a list shows: who follows them, or whom they follow.
public enum AccountList: String, Hashable, Sendable, Codable {
    case followers, following
}

/// The accounts the token's owner has set apart: muted, or blocked. Only the
/// owner's own are ever read.
public enum OwnAccountList: String, Hashable, Sendable, Codable {
    case mutes, blocks
}

/// Who acted on a status: those who favourited it, or boosted (reposted) it.
public enum StatusAccountList: String, Hashable, Sendable, Codable {
    case favouritedBy = "favourited-by"
    case rebloggedBy = "reblogged-by"
}
