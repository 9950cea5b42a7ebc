import FoundationEssentials
import Hummingbird
import HTTPTypes
import NIOCore

/// The streaming API (server-sent events): `/api/v1/streaming/health`, and
/// `/api/v1/streaming/{public,public/local,user,user/notification,hashtag,hashtag/local,list}`
/// (or `/api/v1/streaming?stream=…`). A stream opens with a `:)` comment,
/// sends `event: update` with the Status for each status posted after it
/// opened that belongs to it (the user stream also `event: notification`),
/// and a `:thump` heartbeat every `heartbeat`; it ends when the client goes.
extension MastodonAPI {
    /// How often a stream looks for new statuses.
    static let streamPoll = Duration.milliseconds(100)
    /// How often a quiet stream sends a heartbeat comment.
    static let heartbeat = Duration.seconds(3)

    /// Which statuses and events a stream carries.
    enum Stream: Sendable {
        case publicTimeline(local: Bool)
        case user(notificationsOnly: Bool)
        case hashtag(String)
        case list(String)

        /// The stream named by the path after `streaming/` (or `stream=`), with its parameters; nil for none.
        init?(_ name: String, _ parameters: Parameters) {
            switch name {
            case "public", "public:local", "public/local", "public:media", "public/media", "public:remote", "public/remote":
                self = .publicTimeline(local: name.hasSuffix("local"))
            case "user": self = .user(notificationsOnly: false)
            case "user:notification", "user/notification": self = .user(notificationsOnly: true)
            case "hashtag", "hashtag:local", "hashtag/local":
                guard let tag = parameters["tag"], !tag.isEmpty else { return nil }
                self = .hashtag(tag)
            case "list":
                guard let list = parameters["list"], !list.isEmpty else { return nil }
                self = .list(list)
            default: return nil
            }
        }

        var needsUser: Bool {
            switch self {
            case .user, .list: true
            case .publicTimeline, .hashtag: false
            }
        }
    }

    /// `GET /api/v1/streaming/health`: `OK`.
    func streamingHealth() -> Reply {
        Reply(body: ByteBuffer(string: "OK"), contentType: "text/plain; charset=utf-8")
    }

    /// `GET /api/v1/streaming/NAME` or `/api/v1/streaming?stream=NAME`.
    /// A sandbox that serves the WebSocket only (`--streaming websocket`, as
    /// GoToSocial) has no event streams: 404. A WebSocket upgrade that reaches
    /// this route (the sandbox serves no WebSocket) is 404 too, never an event stream.
    func stream(_ call: Call, name: String) throws -> Reply {
        guard state.streamingTransports.servesServerSentEvents, !call.asksWebSocketUpgrade else {
            throw MastodonError(status: .notFound, error: "Not Found")
        }
        guard let stream = Stream(name, call.parameters) else {
            throw MastodonError(status: .badRequest, error: "Unknown stream type")
        }
        let viewer = try stream.needsUser ? signedIn(call.caller) : previewer(call.caller)
        let store = self.store
        let state = self.state
        let opened = StreamCursor(store: store, viewer: viewer)
        var reply = Reply(body: ByteBuffer(), contentType: "text/event-stream")
        reply.headers[.cacheControl] = "no-store"
        reply.stream = { writer in
            try await writer.write(ByteBuffer(string: ":)\n"))
            var cursor = opened
            var quiet = ContinuousClock.now
            while !Task.isCancelled {
                try await Task.sleep(for: Self.streamPoll)
                let events = Self.newEvents(stream, viewer: viewer, cursor: &cursor, store: store, state: state)
                    .map { "event: \($0.event)\ndata: \($0.payload)\n\n" }.joined()
                if !events.isEmpty {
                    try await writer.write(ByteBuffer(string: events))
                    quiet = .now
                } else if ContinuousClock.now - quiet >= Self.heartbeat {
                    try await writer.write(ByteBuffer(string: ":thump\n"))
                    quiet = .now
                }
            }
            try await writer.finish(nil)
        }
        return reply
    }

    /// Where a stream has got to: the next status (by ordinal) to look at,
    /// and the newest notification already sent. A stream starts after what
    /// was there when it opened.
    struct StreamCursor: Sendable {
        var next: Int
        var lastNotification: Int64

        init(store: SandboxStore, viewer: Int?) {
            let opened = store.timeline
            next = opened.ordinalCount + 1
            lastNotification = viewer.map { opened.notifications(for: $0).first?.id ?? 0 } ?? 0
        }
    }

    /// The events `stream` carries since `cursor`, which moves past them:
    /// `update` with a Status's JSON, and for the user stream `notification`
    /// with a Notification's, oldest first.
    static func newEvents(_ stream: Stream, viewer: Int?, cursor: inout StreamCursor, store: SandboxStore,
                          state: MastodonState) -> [(event: String, payload: String)] {
        let timeline = store.timeline
        // Each status carries the viewer's filters it matches in `filtered`, as a page would.
        let renderer = MastodonRenderer(timeline: timeline, viewer: viewer, origin: state.origin, ids: state.ids,
                                        flavour: state.flavour)
        var events: [(event: String, payload: String)] = []
        while cursor.next <= timeline.ordinalCount {
            defer { cursor.next += 1 }
            guard !timeline.isDeleted(ordinal: cursor.next), let status = timeline.status(ordinal: cursor.next),
                  carries(stream, status, timeline: timeline, viewer: viewer, state: state) else { continue }
            events.append(("update", String(decoding: renderer.statusJSON(status), as: UTF8.self)))
        }
        if case .user = stream, let viewer {
            let arrived = timeline.notifications(for: viewer).filter { $0.id > cursor.lastNotification }
            for notification in arrived.reversed() {
                events.append(("notification", String(decoding: renderer.notificationJSON(notification), as: UTF8.self)))
            }
            cursor.lastNotification = max(cursor.lastNotification, arrived.first?.id ?? 0)
        }
        return events
    }

    /// Whether `stream` carries `status`.
    static func carries(_ stream: Stream, _ status: SandboxStatus, timeline: Timeline, viewer: Int?,
                        state: MastodonState) -> Bool {
        let visibility = status.mastodon?.visibility ?? "public"
        switch stream {
        case .publicTimeline:
            return visibility == "public" && !timeline.isBoost(status)
        case .hashtag(let tag):
            return visibility == "public" && !timeline.isBoost(status) && Hashtags.text(status.text, has: tag)
        case .user(let notificationsOnly):
            guard !notificationsOnly, let viewer else { return false }
            return timeline.homeAuthors(of: viewer).contains(status.authorIndex) && visibility != "direct"
        case .list(let id):
            // The viewer's list `id`: its members' statuses, as `timelines/list/:id` has them.
            guard let viewer, let number = state.ids.parse(id).flatMap({ Int(exactly: $0) }),
                  let list = timeline.list(id: number, of: viewer) else { return false }
            return visibility != "direct" && list.members.contains(status.authorIndex)
                && timeline.isOnList(status.ordinal, list, owner: viewer)
        }
    }
}
