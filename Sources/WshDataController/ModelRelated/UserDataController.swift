import Synchronization
import WshModel
import WshRequest

/// The model-related DataController for users: a user by uid or screen name.
///
/// Users are cached by uid and by screen name, including the authors of
/// every page the timeline loads, so `user NAME` for a visible author sends
/// no request.
public final class UserDataController: Sendable {
    let api: TracedCall
    /// The users and statuses it was given, to find a user without a request.
    private let seen = Mutex(SeenPages<SeenUsers>(limit: seenPageLimit))

    /// A controller that calls the API through `client` in `dialect` and reports each call to `trace`.
    public init(client: APIClient, dialect: any Dialect, trace: TraceSink? = nil) {
        api = TracedCall(client: client, trace: trace, dialect: dialect)
    }

    /// The API's dialect, for what depends on it (page sizes, paging).
    public var dialect: any Dialect { api.dialect }

    /// The user `reference` names: from the cache, otherwise from the dialect's `user`.
    public func user(_ reference: UserReference) async throws(RequestError) -> User {
        let call = "UserDataController.user(\(reference))"
        if let cached = cachedUser(reference) {
            api.cacheHit(call: call)
            return cached
        }
        let user = try await api.run(call, count: { _ in 1 }) { try await $0.user(reference, $1) }
        remember([user])
        return user
    }

    /// The cached user `reference` names, without any request.
    public func cachedUser(_ reference: UserReference) -> User? {
        let matches: (User) -> Bool
        switch reference {
        case .uid(let uid): matches = { $0.identifier == uid }
        case .screenName(let name):
            // Screen names are looked up without case, as the API does.
            let lowered = name.lowercased()
            matches = { $0.screenName?.lowercased() == lowered }
        }
        return seen.withLock { seen in seen.newest { $0.newest(where: matches) } }
    }

    /// Caches the authors of `statuses` (and of the statuses they repost).
    public func remember(authorsOf statuses: [Status]) {
        guard !statuses.isEmpty else { return }
        seen.withLock { $0.append(.authors(statuses)) }
    }

    func remember(_ users: [User]) {
        guard !users.isEmpty else { return }
        seen.withLock { $0.append(.users(users)) }
    }
}

/// A page of users as `UserDataController` was given it.
enum SeenUsers: Sendable {
    /// The authors of statuses, and of the statuses they repost.
    case authors([Status])
    case users([User])

    /// The last user on the page that `matches`.
    func newest(where matches: (User) -> Bool) -> User? {
        switch self {
        case .users(let users):
            return users.last(where: matches)
        case .authors(let statuses):
            for status in statuses.reversed() {
                if let user = status.retweetedStatus?.user, matches(user) { return user }
                if let user = status.user, matches(user) { return user }
            }
            return nil
        }
    }
}

// MARK: The muted set

/// The users whose statuses the timeline hides: a value, so a snapshot of
/// the session can hold it and undo can put it back.
public struct MutedUsers: Sendable, Hashable {
    /// The muted references, in the order they were muted.
    public private(set) var references: [UserReference] = []
    // Lookup sets, so filtering a long timeline is one hash per status.
    private var uids: Set<String> = []
    private var screenNames: Set<String> = []

    public init(_ references: [UserReference] = []) {
        for reference in references { insert(reference) }
    }

    /// True when nobody is muted.
    public var isEmpty: Bool { references.isEmpty }

    /// True when `reference` is muted (screen names compare without case).
    public func contains(_ reference: UserReference) -> Bool {
        switch reference {
        case .uid(let uid): uids.contains(uid)
        case .screenName(let name): screenNames.contains(name.lowercased())
        }
    }

    /// True when `user` is named by any muted reference.
    public func mutes(_ user: User?) -> Bool {
        guard let user else { return false }
        if !uids.isEmpty, let uid = user.identifier, uids.contains(uid) { return true }
        if !screenNames.isEmpty, let name = user.screenName, screenNames.contains(name.lowercased()) { return true }
        return false
    }

    /// Mutes `reference`; false when it already was.
    @discardableResult
    public mutating func insert(_ reference: UserReference) -> Bool {
        guard !contains(reference) else { return false }
        references.append(reference)
        switch reference {
        case .uid(let uid): uids.insert(uid)
        case .screenName(let name): screenNames.insert(name.lowercased())
        }
        return true
    }

    /// Unmutes `reference`; false when it was not muted.
    @discardableResult
    public mutating func remove(_ reference: UserReference) -> Bool {
        guard contains(reference) else { return false }
        switch reference {
        case .uid(let uid):
            uids.remove(uid)
            references.removeAll { $0 == .uid(uid) }
        case .screenName(let name):
            screenNames.remove(name.lowercased())
            references.removeAll { if case .screenName(let muted) = $0 { muted.lowercased() == name.lowercased() } else { false } }
        }
        return true
    }

    /// Two muted sets are equal when they mute the same users in the same order.
    public static func == (lhs: MutedUsers, rhs: MutedUsers) -> Bool {
        lhs.references == rhs.references
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(references)
    }
}
