import Dispatch
import Synchronization

/// The session's events as the page reads them: each one a JSON object
/// stamped with an id (1, 2, 3…), a bounded window of the newest kept, and
/// the pages reading it, each at its own place.
///
/// A page that reconnects says the last id it has (`Last-Event-ID`) and is
/// sent what followed; a page that loads fresh is sent the newest
/// `initialWindow` events and asks for older ones when the user scrolls back.
/// The window keeps at most `limit` events and `byteLimit` bytes, so a
/// session of any length holds bounded memory; what fell out of it is gone
/// (the page says so).
///
/// A page's reader is only a place in the window (the id it has reached):
/// no page holds a copy of any event, so a page that stops reading costs
/// nothing while it waits. A reader either waits for its next events
/// (`Reader.next`), or is polled (`Reader.poll`) by whoever watches the log
/// (`watch`: the server's fan-out, which writes every page's stream). One that falls more than its limit behind is let
/// go (`Delivery.behind`) and reconnects from where it was.
///
/// Some events are keyframes: an event a page can rebuild from without any
/// before it (`WebView` sends the state and history as what changed, and
/// both whole in a keyframe every so many lines). Once the window has
/// trimmed anything it begins at a keyframe (what came before the first one
/// it keeps goes too), and a fresh page, like a page asking for older
/// events, is sent from a keyframe on: no page ever holds a change without
/// what it changes.
public final class ClassroomLog: Sendable {
    /// One event as sent: its id and its JSON object (the id inside).
    public struct Event: Sendable, Hashable {
        public let id: Int
        public let json: String
    }

    /// What a reader is handed next.
    public enum Delivery: Sendable, Equatable {
        /// The next events after its place, oldest first: at least one, and
        /// no more than the bytes it asked for unless one alone is larger.
        case events([Event])
        /// It has everything that was kept when it started (said once).
        case live
        /// Nothing new for a while: a beat keeps the connection alive (and
        /// finds out that a page went away).
        case heartbeat
        /// It fell further behind than its limit and was let go; its page
        /// should reconnect with the last id it has.
        case behind
        /// The log closed, or the reader was cancelled: nothing more comes.
        case closed
    }

    /// An event kept in the window, with how many bytes of events the log
    /// had taken in up to and including it (how far behind a page is, in bytes).
    private struct Kept {
        let event: Event
        let end: Int
    }

    /// A reader's place, touched only under the log's lock.
    private final class Place {
        /// The id of the last event handed to the reader.
        var cursor: Int
        /// `Kept.end` of that event: the bytes the reader has been handed (0 before any).
        var handedEnd = 0
        /// The bytes the log had taken in when the reader started: its
        /// backlog is not falling behind, only what came after is.
        let joined: Int
        let behindLimit: Int
        let onBehind: @Sendable () -> Void
        var live = false
        var beat = false
        /// The reader waiting for something to be handed.
        var waiting: CheckedContinuation<Delivery?, Never>?

        init(cursor: Int, joined: Int, behindLimit: Int, onBehind: @escaping @Sendable () -> Void) {
            self.cursor = cursor
            self.joined = joined
            self.behindLimit = behindLimit
            self.onBehind = onBehind
        }

        /// How many of the first `taken` bytes of events, of those that came
        /// after the reader started, it has not been handed.
        func behind(_ taken: Int) -> Int { taken - max(handedEnd, joined) }

        /// The most bytes the log may have taken in before the reader is let go.
        var letGoAfter: Int {
            let (sum, overflow) = max(handedEnd, joined).addingReportingOverflow(behindLimit)
            return overflow ? .max : sum
        }
    }

    private struct State {
        var events: [Kept] = []
        /// Index of the oldest kept event in `events` (the array is trimmed in batches).
        var start = 0
        var bytes = 0
        /// Bytes of events taken in since the log began (kept or not).
        var taken = 0
        var nextID = 1
        var places: [Int: Place] = [:]
        /// Up to how many bytes taken no reader can be behind its limit (the
        /// least `letGoAfter`, or less: readers only ever catch up), and
        /// whether one may be parked waiting: while neither says otherwise,
        /// an append need not look at every reader (a class is 100 of them,
        /// and the shell's thread appends each event of every line).
        var safeUntil = Int.max
        var mayWait = false
        /// Readers let go (fell behind) or cancelled, until they hear it.
        var ended: [Int: Delivery] = [:]
        var nextReader = 0
        var closed = false
        /// Told after each append, beat, end and cancelled reader (`watch`).
        var watchers: [Int: @Sendable (_ now: Bool) -> Void] = [:]
        var nextWatcher = 0

        /// The ids of the kept keyframes, oldest first, from `keyframeStart` (trimmed in batches too).
        var keyframes: [Int] = []
        var keyframeStart = 0

        var oldestID: Int? { start < events.count ? events[start].event.id : nil }

        /// Drops the oldest kept event.
        mutating func dropOldest() {
            bytes -= events[start].event.json.utf8.count
            start += 1
        }

        /// The newest kept keyframe at or before `id`, nil when none is.
        func keyframe(atOrBefore id: Int) -> Int? {
            keyframes[keyframeStart...].last { $0 <= id && $0 >= (oldestID ?? .max) }
        }
    }

    private let state = Mutex(State())
    /// Where the readers an append woke are resumed: off the shell's thread,
    /// in the order of the appends. Resuming a reader schedules its task,
    /// a few microseconds each; with a class of 100 pages that was a
    /// millisecond of the teacher's time for every command.
    private let waker = DispatchQueue(label: "wsh.classroom-log.waker")
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
    /// it and wakes the readers waiting for it. Returns the id. A `keyframe`
    /// is an event a page can rebuild from (see above).
    ///
    /// This runs on the shell's thread, between a command's steps: its cost
    /// is one check per reader, whatever the readers do (the readers it
    /// wakes are resumed on `waker`; the pages' streams are written by the
    /// watcher's fan-out, `ClassroomStreams`, on NIO's threads). A reader
    /// further behind than its limit is let go here, and told so when it
    /// next asks.
    @discardableResult
    public func append(_ object: String, keyframe: Bool = false) -> Int {
        let (id, wake, dropped, watchers) = state.withLock { state in
            let id = state.nextID
            state.nextID += 1
            let body = object.hasPrefix("{") ? object.dropFirst() : Substring(object + "}")
            let event = Event(id: id, json: "{\"id\":\(id)" + (body.hasPrefix("}") ? "" : ",") + body)
            let size = event.json.utf8.count
            state.taken += size
            state.events.append(Kept(event: event, end: state.taken))
            state.bytes += size
            if keyframe { state.keyframes.append(id) }
            // Trim the oldest, in batches so each append stays cheap.
            var trimmed = false
            while state.events.count - state.start > limit || (state.bytes > byteLimit && state.events.count - state.start > 1) {
                state.dropOldest()
                trimmed = true
            }
            if trimmed, let oldest = state.oldestID {
                while state.keyframeStart < state.keyframes.count && state.keyframes[state.keyframeStart] < oldest {
                    state.keyframeStart += 1
                }
                // Up to the next keyframe: what comes before it cannot be rebuilt without the one that fell out.
                if state.keyframeStart < state.keyframes.count {
                    let next = state.keyframes[state.keyframeStart]
                    while let first = state.oldestID, first < next { state.dropOldest() }
                }
                if state.keyframeStart > 1024 && state.keyframeStart * 2 > state.keyframes.count {
                    state.keyframes.removeFirst(state.keyframeStart)
                    state.keyframeStart = 0
                }
            }
            if state.start > 1024 && state.start * 2 > state.events.count {
                state.events.removeFirst(state.start)
                state.start = 0
            }
            var wake: [CheckedContinuation<Delivery?, Never>] = []
            var dropped: [@Sendable () -> Void] = []
            guard trimmed || state.mayWait || state.taken - size > state.safeUntil else {
                return (id, wake, dropped, Array(state.watchers.values))
            }
            let oldest = state.oldestID ?? id
            state.safeUntil = .max
            state.mayWait = false
            for (key, place) in state.places {
                // More than its limit was waiting for it before this event (so one large event
                // alone lets no reader go), or its next event is already out of the window.
                if place.behind(state.taken - size) > place.behindLimit || place.cursor + 1 < oldest {
                    state.places[key] = nil
                    state.ended[key] = .behind
                    dropped.append(place.onBehind)
                }
                if let waiting = place.waiting {
                    place.waiting = nil
                    wake.append(waiting)
                }
                if state.places[key] != nil { state.safeUntil = min(state.safeUntil, place.letGoAfter) }
            }
            return (id, wake, dropped, Array(state.watchers.values))
        }
        if !wake.isEmpty {
            waker.async { for waiting in wake { waiting.resume(returning: nil) } }
        }
        for onBehind in dropped { onBehind() }
        for watcher in watchers { watcher(false) }
        return id
    }

    /// Calls `body` after each append and heartbeat, and with `now` true
    /// after a close and when a reader is cancelled (what waits on those
    /// should not wait), on the thread that did it (the shell's, for an
    /// append: `body` must only note that there is something to hand, and
    /// hand it elsewhere). Returns the key `unwatch` takes.
    public func watch(_ body: @escaping @Sendable (_ now: Bool) -> Void) -> Int {
        state.withLock { state in
            defer { state.nextWatcher += 1 }
            state.watchers[state.nextWatcher] = body
            return state.nextWatcher
        }
    }

    public func unwatch(_ key: Int) {
        _ = state.withLock { $0.watchers.removeValue(forKey: key) }
    }

    private func tellWatchers(now: Bool) {
        for watcher in state.withLock({ Array($0.watchers.values) }) { watcher(now) }
    }

    /// The kept events, oldest first.
    public var events: [Event] { state.withLock { $0.events[$0.start...].map(\.event) } }

    /// The id of the oldest kept event (nil when none is kept).
    public var oldestID: Int? { state.withLock { $0.oldestID } }

    /// Up to `count` kept events older than `id`, oldest first, and before
    /// them those back to a keyframe (when there is one).
    public func events(before id: Int, count: Int) -> [Event] {
        state.withLock { state in
            let kept = state.events[state.start...]
            let end = kept.firstIndex { $0.event.id >= id } ?? kept.endIndex
            var first = max(kept.startIndex, end - max(0, count))
            if first < end, let oldest = state.oldestID, let keyframe = state.keyframe(atOrBefore: kept[first].event.id) {
                first = kept.startIndex + (keyframe - oldest)
            }
            return kept[first..<end].map(\.event)
        }
    }

    /// Starts a reader: it is handed what a page should be sent first (the
    /// events after `lastID`, or for a fresh page the newest `initialWindow`
    /// and those before them back to a keyframe, when there is one),
    /// then `.live`, then each new event. When more than `behindLimit` bytes
    /// of events that came after it started wait for it, it is let go:
    /// `onBehind` is called at once (on the thread that appended) and the
    /// reader is handed `.behind`.
    public func listen(after lastID: Int?, behindLimit: Int = .max,
                       onBehind: @escaping @Sendable () -> Void = {}) -> Reader {
        let key = state.withLock { state in
            let key = state.nextReader
            state.nextReader += 1
            let newest = state.nextID - 1
            let oldest = state.oldestID ?? state.nextID
            // From after `lastID`, never before the window nor past the newest.
            var cursor = min(newest, max(oldest - 1, lastID ?? (newest - initialWindow)))
            if lastID == nil, cursor < newest, let keyframe = state.keyframe(atOrBefore: cursor + 1) {
                cursor = keyframe - 1
            }
            let place = Place(cursor: cursor, joined: state.taken, behindLimit: behindLimit, onBehind: onBehind)
            state.places[key] = place
            state.safeUntil = min(state.safeUntil, place.letGoAfter)
            return key
        }
        return Reader(log: self, key: key)
    }

    /// One page's reader: a place in the log, let go when it is dropped.
    public final class Reader: Sendable {
        let log: ClassroomLog
        let key: Int

        fileprivate init(log: ClassroomLog, key: Int) {
            self.log = log
            self.key = key
        }

        /// The next events (up to about `bytes` of them), or what else there
        /// is to say; waits while there is nothing.
        public func next(upTo bytes: Int) async -> Delivery {
            await withTaskCancellationHandler {
                await log.next(key, upTo: bytes)
            } onCancel: {
                log.cancel(key)
            }
        }

        /// What `next` would hand now, without waiting: nil when there is
        /// nothing yet (a watcher of the log hears when there may be).
        public func poll(upTo bytes: Int) -> Delivery? {
            log.state.withLock { ClassroomLog.take(&$0, key, upTo: bytes) }
        }

        /// The events after its place (up to about `bytes`), without waiting:
        /// none when there are none yet, or when the reader has something
        /// else to be told first (`next` and `poll` say it).
        public func ready(upTo bytes: Int) -> [Event] {
            log.ready([self], upTo: bytes)[0]
        }

        /// The page went away: its place goes now, not at the next write.
        public func cancel() { log.cancel(key) }

        deinit { log.forget(key) }
    }

    /// What `Reader.ready` hands each of `readers` (readers of this log), under
    /// one lock: a fan-out handing a whole class its events at a line's first
    /// takes the lock the shell's appends need once, not once a page.
    public func ready(_ readers: [Reader], upTo bytes: Int) -> [[Event]] {
        state.withLock { state in
            readers.map { reader in
                guard state.ended[reader.key] == nil, let place = state.places[reader.key], place.cursor < state.nextID - 1,
                      case .events(let events)? = ClassroomLog.take(&state, reader.key, upTo: bytes) else { return [] }
                return events
            }
        }
    }

    /// How many pages read now.
    public var listenerCount: Int { state.withLock { $0.places.count } }

    /// A beat to every reader (one that has not taken its last is not given another).
    public func heartbeat() {
        let wake = state.withLock { state in
            state.places.values.compactMap { place -> CheckedContinuation<Delivery?, Never>? in
                place.beat = true
                defer { place.waiting = nil }
                return place.waiting
            }
        }
        for waiting in wake { waiting.resume(returning: nil) }
        tellWatchers(now: false)
    }

    /// Ends every reader once it has what was kept; later readers get the backlog alone.
    public func close() {
        let wake = state.withLock { state in
            state.closed = true
            return state.places.values.compactMap { place -> CheckedContinuation<Delivery?, Never>? in
                defer { place.waiting = nil }
                return place.waiting
            }
        }
        for waiting in wake { waiting.resume(returning: nil) }
        tellWatchers(now: true)
    }

    private func next(_ key: Int, upTo bytes: Int) async -> Delivery {
        while true {
            // Handed at once, or parked until an append, a beat or the end wakes it (nil: look again).
            let delivery: Delivery? = await withCheckedContinuation { continuation in
                let now: Delivery? = state.withLock { state in
                    if let delivery = Self.take(&state, key, upTo: bytes) { return delivery }
                    state.places[key]?.waiting = continuation
                    state.mayWait = true
                    return nil
                }
                if let now { continuation.resume(returning: now) }
            }
            if let delivery { return delivery }
        }
    }

    /// What reader `key` is handed now, nil when it must wait.
    private static func take(_ state: inout State, _ key: Int, upTo bytes: Int) -> Delivery? {
        if let ending = state.ended.removeValue(forKey: key) { return ending }
        guard let place = state.places[key] else { return .closed }
        if place.cursor < state.nextID - 1, let oldest = state.oldestID {
            var index = state.start + max(0, place.cursor + 1 - oldest)
            var batch: [Event] = []
            var size = 0
            while index < state.events.count {
                let length = state.events[index].event.json.utf8.count
                if !batch.isEmpty && size + length > bytes { break }
                batch.append(state.events[index].event)
                size += length
                index += 1
            }
            place.cursor = batch[batch.count - 1].id
            place.handedEnd = state.events[index - 1].end
            return .events(batch)
        }
        if !place.live {
            place.live = true
            return .live
        }
        if state.closed {
            state.places[key] = nil
            return .closed
        }
        if place.beat {
            place.beat = false
            return .heartbeat
        }
        return nil
    }

    private func cancel(_ key: Int) {
        let waiting = state.withLock { state -> CheckedContinuation<Delivery?, Never>? in
            guard let place = state.places.removeValue(forKey: key) else { return nil }
            state.ended[key] = .closed
            defer { place.waiting = nil }
            return place.waiting
        }
        waiting?.resume(returning: nil)
        tellWatchers(now: true)
    }

    private func forget(_ key: Int) {
        state.withLock { state in
            state.places[key] = nil
            state.ended[key] = nil
        }
    }
}
