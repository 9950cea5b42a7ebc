import WshModel
import WshText

/// `notifications --json`: `{types, has_more, notifications: [{index, id, type, created_at, account, status}]}`.
public struct NotificationsDocument: Encodable, Sendable, Hashable {
    /// Only these types were asked for; empty: every type.
    public var types: [String]
    /// True when the server has older notifications.
    public var hasMore: Bool
    public var notifications: [NotificationDocument]

    enum CodingKeys: String, CodingKey {
        case types, notifications
        case hasMore = "has_more"
    }

    init(page: NotificationsPage, types: [String]) {
        self.types = types
        hasMore = page.next != nil
        notifications = page.notifications.enumerated().map { NotificationDocument($1, index: $0 + 1) }
    }
}

/// One notification: its row, id, type, time, who did it, and the status (null for a follow).
public struct NotificationDocument: Encodable, Sendable, Hashable {
    public var index: Int
    public var id: String
    public var type: String
    @JSONNull public var createdAt: String?
    /// The screen name of who did it.
    @JSONNull public var account: String?
    @JSONNull public var status: StatusDocument?
    /// A reaction's emoji (Pleroma's `pleroma:emoji_reaction`); absent for other types.
    public var emoji: String?
    /// The notification as the server sent it, sanitized (see `StatusDocument.server`).
    var server: JSONValue?

    enum CodingKeys: String, CodingKey {
        case index, id, type, account, status, emoji
        case createdAt = "created_at"
    }

    init(_ notification: ActivityNotification, index: Int) {
        self.index = index
        id = StatusDocument.clean(notification.id)
        type = StatusDocument.clean(notification.type)
        createdAt = notification.createdAt?.iso8601Text
        account = notification.account?.screenName.map(StatusDocument.clean)
        server = ServerFields.sanitized(notification.serverJSON)
        status = notification.status.map { [server] in StatusDocument($0, server: server?["status"]) }
        emoji = notification.emoji.map(StatusDocument.clean)
    }

    /// wsh's fields (`account` is who did it, by name), over every other field the server sent.
    public func encode(to encoder: Encoder) throws {
        try ServerFields.encode(server, typed: { encoder throws in
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(index, forKey: .index)
            try container.encode(id, forKey: .id)
            try container.encode(type, forKey: .type)
            try container.encode(createdAt, forKey: .createdAt)
            try container.encode(account, forKey: .account)
            try container.encode(status, forKey: .status)
            try container.encodeIfPresent(emoji, forKey: .emoji)
        }, to: encoder)
    }
}

/// One conversation: `{index, id, unread, accounts, last_status}`.
public struct ConversationDocument: Encodable, Sendable, Hashable {
    public var index: Int
    public var id: String
    public var unread: Bool
    /// The screen names of who is in it besides you.
    public var accounts: [String]
    @JSONNull public var lastStatus: StatusDocument?
    /// The conversation as the server sent it, sanitized (see `StatusDocument.server`).
    var server: JSONValue?

    enum CodingKeys: String, CodingKey {
        case index, id, unread, accounts
        case lastStatus = "last_status"
    }

    init(_ conversation: Conversation, index: Int) {
        self.index = index
        id = StatusDocument.clean(conversation.id)
        unread = conversation.unread
        accounts = conversation.accounts.compactMap { $0.screenName.map(StatusDocument.clean) }
        server = ServerFields.sanitized(conversation.serverJSON)
        lastStatus = conversation.lastStatus.map { [server] in StatusDocument($0, server: server?["last_status"]) }
    }

    /// wsh's fields (`accounts` by name), over every other field the server sent;
    /// `last_status` keeps every field of its own.
    public func encode(to encoder: Encoder) throws {
        try ServerFields.encode(server, typed: { [self] encoder throws in
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(index, forKey: .index)
            try container.encode(id, forKey: .id)
            try container.encode(unread, forKey: .unread)
            try container.encode(accounts, forKey: .accounts)
            try container.encode(_lastStatus, forKey: .lastStatus)
        }, to: encoder)
    }
}
