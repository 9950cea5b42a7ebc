/// What the sandbox has seen since it started or was last reset, so tests
/// can check that a client retried, or reused its connection.
public struct SandboxStats: Sendable, Hashable, Codable {
    /// Requests to `/2/` and `/api/` routes (Weibo and Mastodon).
    public var requests: Int
    /// Distinct client connections (by client port: the sandbox is on loopback) that sent them.
    public var connections: Int
    /// Statuses posted through `statuses/update.json`.
    public var posts: Int
    /// Statuses deleted through `statuses/destroy.json`.
    public var deletions: Int
    /// Successful writes of any kind (posts, deletions, reposts, comments, favourites, follows).
    public var writes: Int

    public init(requests: Int = 0, connections: Int = 0, posts: Int = 0, deletions: Int = 0, writes: Int = 0) {
        self.requests = requests
        self.connections = connections
        self.posts = posts
        self.deletions = deletions
        self.writes = writes
    }
}

/// Counts requests and connections for `SandboxStats`.
final class StatsRecorder: Sendable {
    private struct State {
        var requests = 0
        var remotes: Set<Int> = []
        var posts = 0
        var deletions = 0
        var writes = 0
    }

    private let state = Locked(State())

    func recordRequest(fromPort remote: Int) {
        state.withLock {
            $0.requests += 1
            $0.remotes.insert(remote)
        }
    }

    func recordPost() {
        state.withLock { $0.posts += 1 }
    }

    func recordDeletion() {
        state.withLock { $0.deletions += 1 }
    }

    func recordWrite() {
        state.withLock { $0.writes += 1 }
    }

    var stats: SandboxStats {
        state.withLock {
            SandboxStats(requests: $0.requests, connections: $0.remotes.count, posts: $0.posts,
                         deletions: $0.deletions, writes: $0.writes)
        }
    }

    func reset() {
        state.withLock { $0 = State() }
    }
}
