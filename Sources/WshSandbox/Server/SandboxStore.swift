import Hummingbird

/// The sandbox's mutable state: the timeline (generated plus posted statuses)
/// and the rendered responses, each rendered once and then served as the
/// same `ByteBuffer` until a post or a reset invalidates it.
final class SandboxStore: Sendable {
    private struct State {
        var timeline: Timeline
        var cache: [String: ByteBuffer] = [:]
        // Bumped on every change, so a render that raced a post is not cached.
        var version = 0
    }

    private let state: Locked<State>

    /// Distinct keys are bounded by count × page; a client walking far
    /// pages must not grow the cache without end.
    private static let cacheLimit = 4096

    init(data: DataSet) {
        state = Locked(State(timeline: Timeline(data: data)))
    }

    var timeline: Timeline {
        state.withLock { $0.timeline }
    }

    /// The response for `key`, rendering it from the current timeline when
    /// not cached; nil (not cached) when `render` finds nothing.
    func response(for key: String, render: (Timeline) -> [UInt8]?) -> ByteBuffer? {
        let (cached, timeline, version) = state.withLock { ($0.cache[key], $0.timeline, $0.version) }
        if let cached { return cached }
        guard let bytes = render(timeline) else { return nil }
        let buffer = ByteBuffer(bytes: bytes)
        state.withLock { state in
            guard state.version == version else { return }
            if state.cache.count >= Self.cacheLimit { state.cache.removeAll(keepingCapacity: true) }
            state.cache[key] = buffer
        }
        return buffer
    }

    /// Posts a status by the poster and returns its JSON.
    func post(text: String, source: (name: String, href: String)) -> [UInt8] {
        state.withLock { state in
            let status = state.timeline.post(text: text, source: source)
            state.cache.removeAll()
            state.version += 1
            return Renderer(timeline: state.timeline).statusJSON(status)
        }
    }

    /// Deletes the status with `id` if the poster wrote it; returns its JSON
    /// as it was, or throws Weibo's error (20101 no such status, 20102 not
    /// the author's).
    func delete(id: Int64) throws -> [UInt8] {
        try state.withLock { state in
            switch state.timeline.delete(id: id) {
            case .failure(.noSuchStatus):
                throw SandboxError.statusNotFound
            case .failure(.notTheAuthor):
                throw SandboxError.notYourOwnStatus
            case .success(let status):
                state.cache.removeAll()
                state.version += 1
                return Renderer(timeline: state.timeline).statusJSON(status)
            }
        }
    }

    /// Removes posted statuses, brings deleted ones back, and empties the cache.
    func reset() {
        state.withLock { state in
            state.timeline.removePosts()
            state.cache.removeAll()
            state.version += 1
        }
    }
}
