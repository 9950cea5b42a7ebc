import NIOCore
import NIOHTTPTypes
import Synchronization

/// The pages' event streams, written by one fan-out per event loop.
///
/// A stream is a reader of the log (a place in it) and its page's channel.
/// When the log takes an event, the shell's thread only notes it (one flag
/// per event loop; the first note of a line wakes the loop). The loop hands
/// each idle stream the events there are at once, and `gather` later, in the
/// flush, the rest of the line's, and writes them to the channel together,
/// straight to the HTTP codec: no task per stream, no hop per write. Streams at the same place,
/// as a class following the teacher is, get the same frames: one
/// `ByteBuffer` written to each of them.
///
/// What a stream costs is bounded whatever its page does: it holds no
/// events of its own, it has one write of at most `writeBytes` in flight,
/// the next once NIO has written it to the socket, and a page that falls
/// behind its limit is let go by the log (`ClassroomLog.Delivery.behind`).
final class ClassroomStreams: Sendable {
    /// How many bytes of JSON one write carries, at most (one event may be larger):
    /// with their framing, they fit the 32 KB buffer NIO rounds them up to.
    static let writeBytes = 16 << 10
    /// How long the fan-out waits, once the log takes an event, for the ones that
    /// follow it to go in the same writes: a line's events (microseconds apart)
    /// to a write rather than one each, at this much of delivery.
    static let gather = TimeAmount.milliseconds(10)
    /// The last words to a page that fell behind: an event the page shows, then the end.
    static let farewell = "event: behind\ndata: fell behind: reconnect with Last-Event-ID\n\n"

    private let log: ClassroomLog
    private let loops = Mutex<[ObjectIdentifier: Loop]>([:])
    private let watching = Mutex<Int?>(nil)

    init(log: ClassroomLog) {
        self.log = log
        let key = log.watch { [weak self] now in self?.kick(now: now) }
        watching.withLock { $0 = key }
    }

    /// The log is no longer followed (the server stopped).
    func stop() {
        if let key = watching.withLock({ $0.take() }) { log.unwatch(key) }
    }

    /// Writes `first`, then `reader`'s events, to `channel` (whose response
    /// head is queued) until it ends: returns `.behind` when the page fell
    /// behind (its farewell is the caller's to write), `.closed` otherwise.
    /// `setUp` runs on the channel's event loop first.
    func serve(_ reader: ClassroomLog.Reader, on channel: any Channel, first: ByteBuffer,
               setUp: @escaping @Sendable () -> Void) async -> ClassroomLog.Delivery {
        let loop = self.loop(channel.eventLoop)
        return await withTaskCancellationHandler {
            await withCheckedContinuation { ended in
                loop.eventLoop.execute {
                    setUp()
                    loop.add(Stream(reader: reader, channel: channel, first: first, ended: ended))
                }
            }
        } onCancel: {
            reader.cancel()
        }
    }

    private func loop(_ eventLoop: any EventLoop) -> Loop {
        loops.withLock { loops in
            let key = ObjectIdentifier(eventLoop)
            if let loop = loops[key] { return loop }
            let loop = Loop(eventLoop)
            loops[key] = loop
            return loop
        }
    }

    /// Something may be there to hand: each event loop with streams flushes
    /// soon, or `now` (a reader ended: its page's seat is given back at once).
    private func kick(now: Bool) {
        for loop in loops.withLock({ Array($0.values) }) { loop.kick(now: now) }
    }

    /// One page's stream; touched only on its channel's event loop.
    private final class Stream: @unchecked Sendable {
        let reader: ClassroomLog.Reader
        let channel: any Channel
        var ended: CheckedContinuation<ClassroomLog.Delivery, Never>?
        var writing = false
        /// Written before any event.
        var first: ByteBuffer?
        /// Events handed at a line's first note, written at the flush with the rest of the line's.
        var held: [ClassroomLog.Event] = []

        init(reader: ClassroomLog.Reader, channel: any Channel, first: ByteBuffer,
             ended: CheckedContinuation<ClassroomLog.Delivery, Never>) {
            self.reader = reader
            self.channel = channel
            self.first = first
            self.ended = ended
        }
    }

    /// The streams of one event loop and their fan-out. `flushing` is set
    /// from any thread; the rest is touched only on `eventLoop`.
    private final class Loop: @unchecked Sendable {
        let eventLoop: any EventLoop
        private let flushing = Atomic<Bool>(false)
        private var streams: [ObjectIdentifier: Stream] = [:]
        /// The frames last written, and the ids they run from and to: the
        /// streams at the same place are written the same buffer.
        private var shared: (first: Int, last: Int, frames: ByteBuffer)?

        init(_ eventLoop: any EventLoop) { self.eventLoop = eventLoop }

        /// Called on any thread: a flush `gather` from now, unless one is due; or now.
        func kick(now: Bool) {
            if now { return eventLoop.execute { self.flush() } }
            guard !flushing.exchange(true, ordering: .acquiringAndReleasing) else { return }
            eventLoop.execute { self.hold() }
            eventLoop.scheduleTask(in: ClassroomStreams.gather) { self.flush() }
        }

        /// Each idle stream is handed what is there at once (it is no longer
        /// waiting for it: what counts towards letting a page go is what it
        /// was not handed), and written it at the flush.
        private func hold() {
            let idle = streams.values.filter { !$0.writing && $0.first == nil && $0.held.isEmpty }
            guard let log = idle.first?.reader.log else { return }
            // One lock for the class: the shell's thread is appending the line's events meanwhile.
            for (stream, events) in zip(idle, log.ready(idle.map(\.reader), upTo: ClassroomStreams.writeBytes)) {
                stream.held = events
            }
        }

        func add(_ stream: Stream) {
            streams[ObjectIdentifier(stream)] = stream
            pump(stream)
        }

        private func flush() {
            flushing.store(false, ordering: .releasing)
            for stream in streams.values { pump(stream) }
        }

        /// Hands `stream` what is next, unless a write to it is under way
        /// (its end calls this again).
        private func pump(_ stream: Stream) {
            guard !stream.writing, stream.ended != nil else { return }
            if let first = stream.first {
                stream.first = nil
                return write(first, to: stream)
            }
            if !stream.held.isEmpty {
                let size = stream.held.reduce(0) { $0 + $1.json.utf8.count }
                let events = stream.held + (size < ClassroomStreams.writeBytes ? stream.reader.ready(upTo: ClassroomStreams.writeBytes - size) : [])
                stream.held = []
                return write(frames(events), to: stream)
            }
            guard let delivery = stream.reader.poll(upTo: ClassroomStreams.writeBytes) else { return }
            let out: ByteBuffer
            switch delivery {
            case .events(let events): out = frames(events)
            case .live: out = ByteBuffer(staticString: ": live\n\n")
            case .heartbeat: out = ByteBuffer(staticString: ": beat\n\n")
            case .behind, .closed:
                end(stream, delivery)
                return
            }
            write(out, to: stream)
        }

        private func write(_ out: ByteBuffer, to stream: Stream) {
            stream.writing = true
            stream.channel.writeAndFlush(HTTPResponsePart.body(out)).whenComplete { result in
                stream.writing = false
                switch result {
                // On the loop's next turn: a stream catching up does not write its whole backlog in one call.
                case .success: self.eventLoop.execute { self.pump(stream) }
                case .failure: self.end(stream, .closed)
                }
            }
        }

        private func end(_ stream: Stream, _ why: ClassroomLog.Delivery) {
            streams[ObjectIdentifier(stream)] = nil
            stream.ended?.resume(returning: why)
            stream.ended = nil
        }

        /// The events as Server-Sent Events: built once for the streams at the same place.
        private func frames(_ events: [ClassroomLog.Event]) -> ByteBuffer {
            let (first, last) = (events[0].id, events[events.count - 1].id)
            if let shared, shared.first == first, shared.last == last { return shared.frames }
            var out = ByteBuffer()
            out.reserveCapacity(events.reduce(0) { $0 + $1.json.utf8.count + 24 })
            for event in events {
                out.writeString("id: \(event.id)\ndata: ")
                out.writeString(event.json)
                out.writeStaticString("\n\n")
            }
            shared = (first, last, out)
            return out
        }
    }
}
