import Hummingbird

/// The sandbox's mutable state: the timeline (generated data plus every write
/// made through the API) and the rendered responses, each rendered once and
/// then served as the same `ByteBuffer` until a write or a reset invalidates it.
final class SandboxStore: Sendable {
    private struct State {
        var timeline: Timeline
        var cache: [String: ByteBuffer] = [:]
        /// Mastodon timeline pages: the body with its `Link` header.
        var pages: [String: (body: ByteBuffer, link: String?)] = [:]
        // Bumped on every change, so a render that raced a write is not cached.
        var version = 0
    }

    private let state: Locked<State>

    /// Distinct keys are bounded by count × page; a client walking far
    /// pages must not grow the cache without end.
    private static let cacheLimit = 4096
    /// A Mastodon page (20 statuses by default, up to 40) is larger than most Weibo answers.
    private static let pageCacheLimit = 1024

    init(data: DataSet) {
        state = Locked(State(timeline: Timeline(data: data)))
    }

    var timeline: Timeline {
        state.withLock { $0.timeline }
    }

    /// What `body` reads from the timeline, under the lock, without copying it
    /// (a copy retains every index it holds): for the checks every request makes.
    func read<T>(_ body: (Timeline) -> T) -> T {
        state.withLock { body($0.timeline) }
    }

    /// The response for `key`, rendering it from the current timeline when
    /// not cached; nil (not cached) when `render` finds nothing. A key must
    /// name everything the body depends on, the viewer included.
    func response(for key: String, render: (Timeline) -> [UInt8]?) -> ByteBuffer? {
        // A hit copies nothing else under the lock (a timeline copy retains every index it holds).
        if let cached = state.withLock({ $0.cache[key] }) { return cached }
        let (timeline, version) = state.withLock { ($0.timeline, $0.version) }
        guard let bytes = render(timeline) else { return nil }
        let buffer = ByteBuffer(bytes: bytes)
        state.withLock { state in
            guard state.version == version else { return }
            if state.cache.count >= Self.cacheLimit { state.cache.removeAll(keepingCapacity: true) }
            state.cache[key] = buffer
        }
        return buffer
    }

    /// A Mastodon timeline page (its body and `Link` header) for `key`,
    /// rendering it from the current timeline when not cached, as `response`
    /// does; when `render` throws (a bad cursor), nothing is kept.
    func page(for key: String, render: (Timeline) throws -> (body: [UInt8], link: String?)) rethrows
        -> (body: ByteBuffer, link: String?) {
        if let cached = state.withLock({ $0.pages[key] }) { return cached }
        let (timeline, version) = state.withLock { ($0.timeline, $0.version) }
        let (bytes, link) = try render(timeline)
        let page = (body: ByteBuffer(bytes: bytes), link: link)
        state.withLock { state in
            guard state.version == version else { return }
            if state.pages.count >= Self.pageCacheLimit { state.pages.removeAll(keepingCapacity: true) }
            state.pages[key] = page
        }
        return page
    }

    /// Changes the timeline and returns the answer `change` renders from it;
    /// when `change` throws (a Weibo error), nothing changed and the cache stays.
    func write(_ change: (inout Timeline) throws -> [UInt8]) rethrows -> ByteBuffer {
        try state.withLock { state in
            var timeline = state.timeline
            let bytes = try change(&timeline)
            state.timeline = timeline
            state.cache.removeAll()
            state.pages.removeAll()
            state.version += 1
            return ByteBuffer(bytes: bytes)
        }
    }

    /// Where the pictures statuses show are served, once the port is bound.
    func setMediaOrigin(_ origin: String) {
        state.withLock { state in
            state.timeline.mediaOrigin = origin
            state.cache.removeAll()
            state.pages.removeAll()
            state.version += 1
        }
    }

    /// Forgets every write (posts, deletions, comments, follows, favourites) and empties the cache.
    func reset() {
        state.withLock { state in
            let mediaOrigin = state.timeline.mediaOrigin
            state.timeline = Timeline(data: state.timeline.data)
            state.timeline.mediaOrigin = mediaOrigin
            state.cache.removeAll()
            state.pages.removeAll()
            state.version += 1
        }
    }
}
