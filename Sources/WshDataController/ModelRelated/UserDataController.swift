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
    private let cache = Mutex<[UserReference: User]>([:])

    /// A controller that calls the API through `client` in `dialect` and reports each call to `trace`.
    public init(client: WeiboClient, dialect: any Dialect = WeiboDialect(), trace: TraceSink? = nil) {
        api = TracedCall(client: client, trace: trace, dialect: dialect)
    }

    /// The API's dialect, for what depends on it (page sizes, paging).
    public var dialect: any Dialect { api.dialect }

    /// The user `reference` names: from the cache, otherwise from `users/show.json`.
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
        cache.withLock { $0[reference.cacheKey] }
    }

    /// Caches the authors of `statuses` (and of the statuses they repost).
    public func remember(authorsOf statuses: [Status]) {
        cache.withLock { cache in
            for status in statuses {
                if let user = status.user { Self.insert(user, into: &cache) }
                if let user = status.retweetedStatus?.user { Self.insert(user, into: &cache) }
            }
        }
    }

    func remember(_ users: [User]) {
        cache.withLock { cache in
            for user in users { Self.insert(user, into: &cache) }
        }
    }

    private static func insert(_ user: User, into cache: inout [UserReference: User]) {
        if let uid = user.identifier { cache[.uid(uid)] = user }
        if let name = user.screenName { cache[UserReference.screenName(name).cacheKey] = user }
    }
}

extension UserReference {
    /// Screen names are looked up without case, as the API does.
    fileprivate var cacheKey: UserReference {
        switch self {
        case .uid: self
        case .screenName(let name): .screenName(name.lowercased())
        }
    }
}
