import Synchronization

/// The session's events as the page reads them: each one a JSON object
/// stamped with an id (1, 2, 3…), a bounded window of the newest kept, and
/// the pages listening told of each new one as it arrives.
///
/// A page that reconnects says the last id it has (`Last-Event-ID`) and is
/// sent what followed; a page that loads fresh is sent the newest
/// `initialWindow` events and asks for older ones when the user scrolls back.
/// The window keeps at most `limit` events and `byteLimit` bytes, so a
/// session of any length holds bounded memory; what fell out of it is gone
/// (the page says so).
public final class ClassroomLog: Sendable {
    /// One event as sent: its id and its JSON object (the id inside).
    public struct Event: Sendable, Hashable {
        public let id: Int
        public let json: String
    }

    /// What a listener hears: an event, or a beat that keeps the connection
    /// alive (and finds out that a page went away).
    public enum Delivery: Sendable {
        case event(Event)
        case heartbeat
    }

    private struct State {
        var events: [Event] = []
        /// Index of the oldest kept event in `events` (the array is trimmed in batches).
        var start = 0
        var bytes = 0
        var nextID = 1
        var listeners: [Int: AsyncStream<Delivery>.Continuation] = [:]
        var nextListener = 0
        var closed = false
    }

    private let state = Mutex(State())
    /// How many events the window keeps, at most.
    public let limit: Int
    /// How many bytes of JSON the window keeps, at most.
    public let byteLimit: Int
    /// How many of the newest events a fresh page is sent.
    public let initialWindow: Int

    public init(limit: Int = 10_000, byteLimit: Int = 24 << 20, initialWindow: Int = 600) {
        self.limit = max(1, limit)
        self.byteLimit = max(1, byteLimit)
        self.initialWindow = max(1, initialWindow)
    }

    /// Stamps `object` (a JSON object's text, `{…}`) with the next id, keeps
    /// it and tells every listener. Returns the id.
    @discardableResult
    public func append(_ object: String) -> Int {
        let (event, listeners) = state.withLock { state -> (Event, [AsyncStream<Delivery>.Continuation]) in
            let id = state.nextID
            state.nextID += 1
            let body = object.hasPrefix("{") ? object.dropFirst() : Substring(object + "}")
            let event = Event(id: id, json: "{\"id\":\(id)" + (body.hasPrefix("}") ? "" : ",") + body)
            state.events.append(event)
            state.bytes += event.json.utf8.count
            // Trim the oldest, in batches so each append stays cheap.
            while state.events.count - state.start > limit || (state.bytes > byteLimit && state.events.count - state.start > 1) {
                state.bytes -= state.events[state.start].json.utf8.count
                state.start += 1
            }
            if state.start > 1024 && state.start * 2 > state.events.count {
                state.events.removeFirst(state.start)
                state.start = 0
            }
            return (event, Array(state.listeners.values))
        }
        for listener in listeners { listener.yield(.event(event)) }
        return event.id
    }

    /// The kept events, oldest first.
    public var events: [Event] { state.withLock { Array($0.events[$0.start...]) } }

    /// The id of the oldest kept event (nil when none is kept).
    public var oldestID: Int? { state.withLock { $0.start < $0.events.count ? $0.events[$0.start].id : nil } }

    /// Up to `count` kept events older than `id`, oldest first.
    public func events(before id: Int, count: Int) -> [Event] {
        state.withLock { state in
            let kept = state.events[state.start...]
            let end = kept.firstIndex { $0.id >= id } ?? kept.endIndex
            return Array(kept[max(kept.startIndex, end - max(0, count))..<end])
        }
    }

    /// Starts listening: the events a page should be sent first (those after
    /// `lastID`, or the newest `initialWindow` for a fresh page) and then
    /// every new one. The stream ends when the log closes.
    public func listen(after lastID: Int?) -> (backlog: [Event], live: AsyncStream<Delivery>) {
        let (stream, continuation) = AsyncStream<Delivery>.makeStream(bufferingPolicy: .bufferingNewest(4096))
        let backlog: [Event] = state.withLock { state in
            let kept = state.events[state.start...]
            let backlog: ArraySlice<Event>
            if let lastID {
                backlog = kept[(kept.firstIndex { $0.id > lastID } ?? kept.endIndex)...]
            } else {
                backlog = kept.suffix(initialWindow)
            }
            if state.closed {
                continuation.finish()
            } else {
                let key = state.nextListener
                state.nextListener += 1
                state.listeners[key] = continuation
                continuation.onTermination = { [weak self] _ in self?.forget(key) }
            }
            return Array(backlog)
        }
        return (backlog, stream)
    }

    /// How many pages listen now.
    public var listenerCount: Int { state.withLock { $0.listeners.count } }

    /// A beat to every listener.
    public func heartbeat() {
        for listener in state.withLock({ Array($0.listeners.values) }) { listener.yield(.heartbeat) }
    }

    /// Ends every listener's stream; later listeners get the backlog alone.
    public func close() {
        let listeners = state.withLock { state in
            state.closed = true
            defer { state.listeners = [:] }
            return Array(state.listeners.values)
        }
        for listener in listeners { listener.finish() }
    }

    private func forget(_ key: Int) {
        _ = state.withLock { $0.listeners.removeValue(forKey: key) }
    }
}
