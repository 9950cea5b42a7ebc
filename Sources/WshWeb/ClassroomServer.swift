import Dispatch
import Glibc
import FoundationEssentials
import Hummingbird
import HummingbirdCore
import Logging
import NIOCore
import NIOPosix
import ServiceLifecycle
import Synchronization

/// The classroom page's server (`wsh --web`, `web on`): it serves the page
/// from inside the binary and streams the session's events to every page.
///
/// Who may do what:
/// - `/` is the teacher's page, for this machine only (a loopback peer, or
///   one connecting from the address the server listens on); another
///   machine gets 403.
/// - `/join/KEY/` is a student's read-only copy; a wrong or missing key is 403.
/// - `POST /control` (Next and Back while presenting, `replay N`) needs this
///   machine, the control key that only the teacher's page holds, and no
///   foreign `Origin`: no request from a student's page can run a command.
///
/// Events go out as Server-Sent Events with ids (`/events`, or
/// `/join/KEY/events`); a page that reconnects sends `Last-Event-ID` and is
/// sent what it missed. Older events than a page holds come from `/older`.
///
/// Pages that read slowly, or not at all, cost the teacher neither memory
/// nor time (`Limits`): each stream holds one write at a time, a page that
/// falls too far behind is let go and catches up when it reconnects, and
/// the streams an address may hold, and the other machines in all, are capped.
public final class ClassroomServer: Sendable {
    /// How the server is started.
    public struct Configuration: Sendable {
        /// The address to listen on: loopback unless `--web-host` says otherwise.
        public var host: String
        /// The port; 0 picks a free one.
        public var port: Int
        /// Whether the teacher's page shows Next and Back (a lesson is presented).
        public var presenting: Bool
        /// What the page's header names after `wsh`: `sandbox`, `mastodon.social`.
        public var title: String

        /// How many pages it serves, and how far behind one may fall.
        public var limits: Limits

        public init(host: String = "127.0.0.1", port: Int = 0, presenting: Bool = false, title: String = "sandbox",
                    limits: Limits = Limits()) {
            self.host = host
            self.port = port
            self.presenting = presenting
            self.title = title
            self.limits = limits
        }

        /// True when the server listens beyond this machine.
        public var listensBeyondLoopback: Bool {
            !(host == "127.0.0.1" || host == "::1" || host == "localhost" || host.hasPrefix("127."))
        }
    }

    /// What the event streams may cost: a classroom of 30 to 100 students
    /// fits, a page that stops reading or a flood of connections does not
    /// grow the teacher's memory.
    public struct Limits: Sendable {
        /// Event streams one address may hold at once (this machine counts as
        /// one, with seats of its own): a student's few tabs, not a flood.
        public var streamsPerAddress: Int
        /// Event streams all other machines may hold together.
        public var streamsFromOthers: Int
        /// Bytes of events a page may have waiting for it before it is let go
        /// (4 MB: a dozen rounds of a busy lesson's commands, seconds of
        /// reading on any network a class is on). It reconnects, and
        /// `Last-Event-ID` catches it up from the window.
        public var behindBytes: Int
        /// How long a page that was let go has to read its last words (that
        /// it fell behind) before its connection is closed.
        public var dropGrace: Duration

        public init(streamsPerAddress: Int = 8, streamsFromOthers: Int = 128, behindBytes: Int = 4 << 20,
                    dropGrace: Duration = .seconds(5)) {
            self.streamsPerAddress = streamsPerAddress
            self.streamsFromOthers = streamsFromOthers
            self.behindBytes = behindBytes
            self.dropGrace = dropGrace
        }
    }

    /// A control from the teacher's page: the presenter's Next and Back, or
    /// "Replay from here" (a fresh session runs the commands up to `step`).
    public enum Control: Equatable, Sendable {
        case next, back
        /// `replay N`: the page's step N (the `line` of its events), from 1.
        case replay(step: Int)

        /// The body of `POST /control`: `next`, `back` or `replay N` (N ≥ 1); nil for anything else.
        public init?(body: String) {
            let words = body.split(whereSeparator: \.isWhitespace)
            switch (words.first, words.count) {
            case ("next", 1): self = .next
            case ("back", 1): self = .back
            case ("replay", 2):
                guard words[1].allSatisfy(\.isASCII), let step = Int(words[1]), step >= 1 else { return nil }
                self = .replay(step: step)
            default: return nil
            }
        }
    }

    /// Whether the session can replay to a step: nil when it can, else why
    /// not, in one line. Asked with nil for the teacher's page (its `replay`
    /// setting), and with the step for each `replay N` before it is handed on.
    public typealias ReplayRefusal = @Sendable (_ step: Int?) -> String?

    /// Why the server did not start.
    public struct StartError: Error, CustomStringConvertible {
        public let description: String
    }

    public let configuration: Configuration
    /// The bound port.
    public let port: Int
    /// The events every page reads.
    public let log: ClassroomLog
    /// The key in a student's URL.
    public let joinKey: String

    private let streams: ClassroomStreams
    private let loops: MultiThreadedEventLoopGroup
    private let group: ServiceGroup
    private let finished: DispatchSemaphore
    private let stopped = Mutex(false)

    /// The teacher's page on this machine, e.g. `http://127.0.0.1:8080/`.
    public var teacherURL: String {
        "http://\(Self.urlHost(configuration.listensBeyondLoopback && !Self.isWildcard(configuration.host) ? configuration.host : "127.0.0.1")):\(port)/"
    }

    /// A student's read-only copy, e.g. `http://192.168.1.20:8080/join/3f…/`.
    public var studentURL: String {
        let host = Self.isWildcard(configuration.host) ? (Self.firstAddress() ?? "127.0.0.1") : configuration.host
        return "http://\(Self.urlHost(host)):\(port)/join/\(joinKey)/"
    }

    private init(configuration: Configuration, port: Int, log: ClassroomLog, joinKey: String,
                 streams: ClassroomStreams, loops: MultiThreadedEventLoopGroup, group: ServiceGroup, finished: DispatchSemaphore) {
        self.streams = streams
        self.configuration = configuration
        self.port = port
        self.log = log
        self.joinKey = joinKey
        self.loops = loops
        self.group = group
        self.finished = finished
    }

    /// Starts serving and returns once the port is bound. Blocks the calling
    /// thread while it binds (the shell's main thread, which waits anyway).
    /// `control` hears Next, Back and `replay N` from the teacher's page, on a
    /// server thread: Next and Back only while presenting, `replay N` only when
    /// `replayRefusal` has no reason against it.
    public static func start(_ configuration: Configuration, log: ClassroomLog,
                             control: @escaping @Sendable (Control) -> Void,
                             replayRefusal: @escaping ReplayRefusal = { _ in "this session cannot replay" })
        throws -> ClassroomServer {
        let keys = (join: Self.randomKey(), control: Self.randomKey())
        let nonce = Self.randomKey()
        let seats = ClassroomSeats(perAddress: configuration.limits.streamsPerAddress,
                                   fromOthers: configuration.limits.streamsFromOthers)
        let streams = ClassroomStreams(log: log)
        let routes = ClassroomRoutes(configuration: configuration, log: log, streams: streams, seats: seats, joinKey: keys.join,
                                     controlKey: keys.control, nonce: nonce, control: control,
                                     replayRefusal: replayRefusal)
        var logger = Logger(label: "wsh-web")
        // Hummingbird's own messages would interleave with the shell's output.
        logger.logLevel = .critical
        let bound = Mutex<Result<Int, StartError>?>(nil)
        let ready = DispatchSemaphore(value: 0)
        let loops = try backgroundLoop()
        let app = Application(
            router: routes.router(),
            configuration: .init(address: .hostname(configuration.host, port: configuration.port), serverName: nil),
            onServerRunning: { channel in
                bound.withLock { $0 = .success(channel.localAddress?.port ?? configuration.port) }
                ready.signal()
            },
            eventLoopGroupProvider: .shared(loops),
            logger: logger)
        var groupConfiguration = ServiceGroupConfiguration(
            services: [.init(service: app, serviceName: "wsh-web")], gracefulShutdownSignals: [],
            cancellationSignals: [], logger: logger)
        // A page's open event stream must not hold up a stop.
        groupConfiguration.maximumGracefulShutdownDuration = .seconds(1)
        let group = ServiceGroup(configuration: groupConfiguration)
        let finished = DispatchSemaphore(value: 0)
        Task.detached {
            var failure = "stopped before listening"
            do {
                try await group.run()
            } catch {
                failure = "\(error)"
            }
            bound.withLock { if $0 == nil { $0 = .failure(StartError(description: Self.reason(failure, configuration))) } }
            ready.signal()
            finished.signal()
        }
        _ = ready.wait(timeout: .now() + 30)
        guard let result = bound.withLock({ $0 }) else {
            streams.stop()
            Task { await group.triggerGracefulShutdown(); try? await loops.shutdownGracefully() }
            throw StartError(description: "timed out binding \(configuration.host):\(configuration.port)")
        }
        let port: Int
        do {
            port = try result.get()
        } catch {
            streams.stop()
            try? loops.syncShutdownGracefully()
            throw error
        }
        let server = ClassroomServer(configuration: configuration, port: port, log: log, joinKey: keys.join,
                                     streams: streams, loops: loops, group: group, finished: finished)
        // A beat every 15 s keeps proxies from closing a quiet stream and finds pages that went away.
        Task.detached { [weak server] in
            while let server, !server.stopped.withLock({ $0 }) {
                try? await Task.sleep(for: .seconds(15))
                server.log.heartbeat()
            }
        }
        return server
    }

    /// Stops serving (once) and waits until the server has: open streams end.
    public func stop() {
        let first = stopped.withLock { stopped in
            defer { stopped = true }
            return !stopped
        }
        guard first else { return }
        log.close()
        streams.stop()
        let group = self.group
        Task.detached { await group.triggerGracefulShutdown() }
        _ = finished.wait(timeout: .now() + 10)
        try? loops.syncShutdownGracefully()
    }

    /// How much less the pages' thread weighs than the shell's, as `nice` counts.
    /// At 10 the kernel gives it about a tenth of a core the shell wants, and
    /// all it wants of an idle one.
    static let backgroundNice: Int32 = 10

    /// The pages' own event loop, one thread at a lower priority than the
    /// shell's: serving a class (a hundred pages, each event written to each)
    /// is background work, so it takes what the teacher's commands leave and
    /// never the other way round. The sandbox's loops and the shell's thread
    /// keep theirs.
    private static func backgroundLoop() throws -> MultiThreadedEventLoopGroup {
        let loops = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        try loops.next().submit {
            // A thread's own nice value (Linux: PRIO_PROCESS of its thread id, which /proc/thread-self
            // names: `PID/task/TID`); raising it needs no privilege.
            var link = [CChar](repeating: 0, count: 64)
            let length = readlink("/proc/thread-self", &link, link.count - 1)
            guard length > 0, let tid = String(decoding: link[..<length].map { UInt8(bitPattern: $0) }, as: UTF8.self)
                .split(separator: "/").last.flatMap({ id_t($0) }) else { return }
            _ = setpriority(__priority_which_t(PRIO_PROCESS.rawValue), tid, backgroundNice)
        }.wait()
        return loops
    }

    /// `web save`: the same page, reading its events from inside the file.
    public func savedPage() -> String {
        ClassroomPage.saved(title: configuration.title, events: log.events)
    }

    // MARK: Helpers

    /// 32 hex digits from the system's random source.
    static func randomKey() -> String {
        var generator = SystemRandomNumberGenerator()
        return (0..<4).map { _ in
            let word = UInt32.random(in: .min ... .max, using: &generator)
            let hex = String(word, radix: 16)
            return String(repeating: "0", count: 8 - hex.count) + hex
        }.joined()
    }

    static func isWildcard(_ host: String) -> Bool { host == "0.0.0.0" || host == "::" }

    static func urlHost(_ host: String) -> String { host.contains(":") ? "[\(host)]" : host }

    /// The first non-loopback IPv4 address of this machine, for a student URL when listening on every address.
    static func firstAddress() -> String? {
        var list: UnsafeMutablePointer<ifaddrs>?
        guard getifaddrs(&list) == 0, let first = list else { return nil }
        defer { freeifaddrs(list) }
        var cursor: UnsafeMutablePointer<ifaddrs>? = first
        while let entry = cursor {
            defer { cursor = entry.pointee.ifa_next }
            guard let address = entry.pointee.ifa_addr, address.pointee.sa_family == sa_family_t(AF_INET) else { continue }
            var host = [CChar](repeating: 0, count: 64)
            guard getnameinfo(address, socklen_t(MemoryLayout<sockaddr_in>.size), &host, socklen_t(host.count), nil, 0,
                              NI_NUMERICHOST) == 0 else { continue }
            let text = String(cString: host)
            if !text.hasPrefix("127.") { return text }
        }
        return nil
    }

    /// Why the server could not listen, in the words a user acts on: NIO's
    /// bind errors name the system call, not the port.
    static func reason(_ failure: String, _ configuration: Configuration) -> String {
        let address = "\(urlHost(configuration.host)):\(configuration.port)"
        if failure.contains("Address already in use") { return "\(address) is in use (web on 0 picks a free port)" }
        if failure.contains("Cannot assign requested address") { return "\(configuration.host) is not an address of this machine" }
        if failure.contains("Permission denied") { return "\(address) needs privileges (pick a port above 1023)" }
        return plain(failure)
    }

    /// An error's text on one line.
    static func plain(_ text: String) -> String {
        text.split(whereSeparator: \.isNewline).joined(separator: " ")
    }
}
