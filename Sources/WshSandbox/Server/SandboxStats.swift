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
}

extension SandboxStats {
    /// Nothing seen yet.
    public init() {
        self.init(requests: 0, connections: 0, posts: 0, deletions: 0, writes: 0)
    }
}

/// Counts requests and connections for `SandboxStats`.
final class StatsRecorder: Sendable {
    private struct State {
        var stats = SandboxStats()
        /// The client ports seen: `stats.connections` counts them.
        var remotes: Set<Int> = []
    }

    private let state = Locked(State())

    func recordRequest(fromPort remote: Int) {
        state.withLock {
            $0.stats.requests += 1
            $0.remotes.insert(remote)
            $0.stats.connections = $0.remotes.count
        }
    }

    func recordPost() {
        state.withLock { $0.stats.posts += 1 }
    }

    func recordDeletion() {
        state.withLock { $0.stats.deletions += 1 }
    }

    func recordWrite() {
        state.withLock { $0.stats.writes += 1 }
    }

    var stats: SandboxStats {
        state.withLock { $0.stats }
    }

    func reset() {
        state.withLock { $0 = State() }
    }
}
