import WshModel
import WshText

/// One row of the notifications screen: every string it shows, ready to print.
public struct NotificationCellViewModel: Sendable, Hashable {
    /// The row number, from 1, as `detail N` and `dismiss N` take it.
    public let index: Int
    /// The notification's id.
    public let id: String
    /// `mention`, `favourite`, `reblog`, `follow`, `poll`, `update`, …
    public let type: String
    /// `@who` did it.
    public let who: String
    /// `05-31 17:46`.
    public let time: String
    /// The status's text on one line, after a reaction's emoji (`😮 text`); empty for a follow.
    public let text: String

    init(_ notification: ActivityNotification, index: Int) {
        self.index = index
        id = TerminalText.sanitize(notification.id)
        type = TerminalText.sanitize(notification.type)
        who = DisplayText.author(notification.account)
        time = DisplayText.shortTime(notification.createdAt)
        let emoji = notification.emoji.map { TerminalText.sanitize($0) }.flatMap { $0.isEmpty ? nil : $0 }
        text = [emoji, notification.status.map(DisplayText.rowText)].compactMap { $0 }.joined(separator: " ")
    }
}

/// The notifications screen: numbered rows, newest first.
public struct NotificationsViewModel: Sendable, Hashable {
    public let rows: [NotificationCellViewModel]
    /// Only these types were asked for; empty: every type.
    public let types: [String]
    /// True when the server has older notifications than these.
    public let hasMore: Bool
    /// The screen as `notifications --json` shows it.
    public let document: NotificationsDocument

    init(page: NotificationsPage, types: [String]) {
        rows = page.notifications.enumerated().map { NotificationCellViewModel($1, index: $0 + 1) }
        self.types = types
        hasMore = page.next != nil
        document = NotificationsDocument(page: page, types: types)
    }

    /// The status of row `index` of `page`, for `detail N`.
    static func status(in page: NotificationsPage, row index: Int) throws(ViewModelError) -> Status {
        let notification = try notification(in: page, row: index)
        guard let status = notification.status else {
            throw .noStatusInRow(index: index, what: "a \(TerminalText.sanitize(notification.type)) notification")
        }
        return status
    }

    /// Row `index` of `page`.
    static func notification(in page: NotificationsPage, row index: Int) throws(ViewModelError) -> ActivityNotification {
        guard index >= 1, index <= page.notifications.count else {
            throw .noRow(index: index, count: page.notifications.count)
        }
        return page.notifications[index - 1]
    }
}

/// One row of the conversations screen.
public struct ConversationCellViewModel: Sendable, Hashable {
    public let index: Int
    public let id: String
    /// `@a, @b`: who is in it besides you.
    public let with: String
    public let unread: Bool
    /// The last status's time.
    public let time: String
    /// The last status's text on one line.
    public let text: String

    init(_ conversation: Conversation, index: Int) {
        self.index = index
        id = TerminalText.sanitize(conversation.id)
        with = conversation.accounts.isEmpty ? "(yourself)" : conversation.accounts.map(DisplayText.author).joined(separator: ", ")
        unread = conversation.unread
        time = DisplayText.shortTime(conversation.lastStatus?.createdAt)
        text = conversation.lastStatus.map(DisplayText.rowText) ?? ""
    }
}

/// The direct conversations screen: numbered rows, newest first.
public struct ConversationsViewModel: Sendable, Hashable {
    public let rows: [ConversationCellViewModel]
    /// The screen as `conversations --json` shows it.
    public let document: [ConversationDocument]

    init(conversations: [Conversation]) {
        rows = conversations.enumerated().map { ConversationCellViewModel($1, index: $0 + 1) }
        document = conversations.enumerated().map { ConversationDocument($1, index: $0 + 1) }
    }

    /// The last status of row `index`, for `detail N`.
    static func status(in conversations: [Conversation], row index: Int) throws(ViewModelError) -> Status {
        guard index >= 1, index <= conversations.count else { throw .noRow(index: index, count: conversations.count) }
        guard let status = conversations[index - 1].lastStatus else {
            throw .noStatusInRow(index: index, what: "a conversation without a last status")
        }
        return status
    }
}
