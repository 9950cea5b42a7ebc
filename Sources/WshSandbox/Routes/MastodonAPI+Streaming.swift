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
    func stream(_ call: Call, name: String) throws -> Reply {
        guard let stream = Stream(name, call.parameters) else {
            throw MastodonError(status: .badRequest, error: "Unknown stream type")
        }
        let viewer = try viewer(call, stream.needsUser ? .user : .preview)
        let store = self.store
        let state = self.state
        let opened = store.timeline
        let firstNew = opened.ordinalCount + 1
        let notificationsSeen = viewer.map { opened.notifications(for: $0).first?.id ?? 0 } ?? 0
        var reply = Reply(body: ByteBuffer(), contentType: "text/event-stream")
        reply.headers[.cacheControl] = "no-store"
        reply.stream = { writer in
            try await writer.write(ByteBuffer(string: ":)\n"))
            var next = firstNew
            var lastNotification = notificationsSeen
            var quiet = ContinuousClock.now
            while !Task.isCancelled {
                try await Task.sleep(for: Self.streamPoll)
                let timeline = store.timeline
                let renderer = MastodonRenderer(timeline: timeline, viewer: viewer, origin: state.origin, ids: state.ids,
                                                flavour: state.flavour)
                var events = ""
                while next <= timeline.ordinalCount {
                    defer { next += 1 }
                    guard !timeline.isDeleted(ordinal: next), let status = timeline.status(ordinal: next),
                          Self.carries(stream, status, timeline: timeline, viewer: viewer) else { continue }
                    events += "event: update\ndata: " + String(decoding: renderer.statusJSON(status), as: UTF8.self) + "\n\n"
                }
                if case .user = stream, let viewer {
                    let arrived = timeline.notifications(for: viewer).filter { $0.id > lastNotification }
                    for notification in arrived.reversed() {
                        events += "event: notification\ndata: "
                            + String(decoding: renderer.notificationJSON(notification), as: UTF8.self) + "\n\n"
                    }
                    lastNotification = max(lastNotification, arrived.first?.id ?? 0)
                }
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

    /// Whether `stream` carries `status`.
    private static func carries(_ stream: Stream, _ status: SandboxStatus, timeline: Timeline, viewer: Int?) -> Bool {
        let visibility = status.mastodon?.visibility ?? "public"
        switch stream {
        case .publicTimeline:
            return visibility == "public" && !timeline.isBoost(status)
        case .hashtag(let tag):
            return visibility == "public" && !timeline.isBoost(status) && Hashtags.text(status.text, has: tag)
        case .user(let notificationsOnly):
            guard !notificationsOnly, let viewer else { return false }
            return timeline.homeAuthors(of: viewer).contains(status.authorIndex) && visibility != "direct"
        case .list:
            return false
        }
    }
}
