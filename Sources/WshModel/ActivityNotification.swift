/// Something another account did that concerns the token's owner (a
/// Mastodon notification): a mention, a favourite, a boost, a follow, a
/// poll that ended, an edit. `status` is the status it is about, nil for a follow.
public struct ActivityNotification: Sendable, Hashable {
    /// The server's id, opaque.
    public var id: String
    /// `mention`, `favourite`, `reblog`, `follow`, `poll`, `update`, … as the server names it.
    public var type: String
    public var createdAt: Timestamp?
    /// Who did it.
    public var account: User?
    public var status: Status?
    /// The emoji of a reaction (Pleroma's `pleroma:emoji_reaction`, its `emoji`); nil for other types.
    public var emoji: String? = nil
    /// The notification as the server sent it, for `--json`; nil when not kept.
    public var serverJSON: ServerJSON? = nil
}

/// A page of notifications, newest first, with where the next older page starts.
public struct NotificationsPage: Sendable, Hashable {
    public var notifications: [ActivityNotification]
    /// Where the next older page starts, opaque (on Mastodon the query of the
    /// server's `next` link, as sent); nil when there is no older page.
    public var next: String?

    public init(notifications: [ActivityNotification], next: String? = nil) {
        self.notifications = notifications
        self.next = next
    }
}

/// Which notifications to ask for.
public struct NotificationQuery: Sendable, Hashable {
    /// The most a page holds (Mastodon's limit).
    public static let maximumCount = 80
    /// How many (the server caps it).
    public var count: Int
    /// Only these types; empty: every type.
    public var types: [String]
    /// The older page a previous page's `next` names (opaque; it then says
    /// everything, `count` and `types` included).
    public var from: String?

    public init(count: Int = 20, types: [String] = [], from: String? = nil) {
        self.count = count
        self.types = types
        self.from = from
    }
}

/// A direct conversation: who is in it besides the token's owner, and its newest status.
public struct Conversation: Sendable, Hashable {
    public var id: String
    public var unread: Bool
    public var accounts: [User]
    public var lastStatus: Status?
    /// The conversation as the server sent it, for `--json`; nil when not kept.
    public var serverJSON: ServerJSON? = nil
}

/// What a timeline's stream delivers.
public enum TimelineStreamEvent: Sendable, Hashable {
    /// The stream is open, over this transport.
    case opened(StreamTransport)
    /// A new status.
    case status(Status)
}

/// How a stream reaches wsh: what `watch --stream` says it is using.
public enum StreamTransport: Sendable, Hashable {
    /// Server-sent events (`text/event-stream` on `/api/v1/streaming/NAME`).
    case serverSentEvents
    /// A WebSocket (`/api/v1/streaming?stream=NAME` upgraded); `why` says why
    /// not server-sent events (`the server has no server-sent events`), nil when it was the first choice.
    case webSocket(why: String?)

    /// One line for the user: `streaming over server-sent events`.
    public var description: String {
        switch self {
        case .serverSentEvents: "streaming over server-sent events"
        case .webSocket(let why): "streaming over a WebSocket" + (why.map { " (\($0))" } ?? "")
        }
    }
}
