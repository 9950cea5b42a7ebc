import FoundationEssentials

/// Notifications and conversations, as Mastodon 4.x renders them.
extension MastodonRenderer {
    /// `[Notification, …]`.
    func notifications(_ notifications: [SandboxNotification]) -> [UInt8] {
        array(notifications, itemBytes: 3000, writeNotification)
    }

    /// One `Notification`.
    func notificationJSON(_ notification: SandboxNotification) -> [UInt8] {
        JSONWriter.bytes(capacity: 3000) { writeNotification(notification, &$0) }
    }

    /// `{id, type, created_at, group_key, account, status}`; `status` only where there is one.
    private func writeNotification(_ notification: SandboxNotification, _ json: inout JSONWriter) {
        let id = ids.render(notification.id)
        json.objectStart()
        json.member("id", id)
        json.member("type", flavour.notificationType(of: notification))
        json.member("created_at", mastodonTime(notification.createdAt.date))
        json.member("group_key", "ungrouped-\(id)")
        json.key("account")
        writeAccount(timeline.data.users[notification.account], into: &json)
        if let commentID = notification.commentID, let (comment, status) = timeline.comment(id: commentID) {
            json.key("status")
            writeReply(comment, on: status, into: &json)
        } else if let ordinal = notification.ordinal, let status = timeline.status(ordinal: ordinal) {
            json.key("status")
            writeStatus(status, into: &json)
        }
        writeFlavourMembers(notification, into: &json)
        json.objectEnd()
    }

    /// `[Conversation, …]`: `{id, unread, accounts, last_status}`.
    func conversations(_ conversations: [SandboxConversation]) -> [UInt8] {
        array(conversations, itemBytes: 3000, writeConversation)
    }

    /// One `Conversation`.
    func conversationJSON(_ conversation: SandboxConversation) -> [UInt8] {
        JSONWriter.bytes(capacity: 3000) { writeConversation(conversation, &$0) }
    }

    private func writeConversation(_ conversation: SandboxConversation, _ json: inout JSONWriter) {
        json.objectStart()
        json.member("id", ids.render(conversation.id))
        json.member("unread", conversation.unread)
        json.key("accounts")
        json.arrayStart()
        for account in conversation.others { writeAccount(timeline.data.users[account], into: &json) }
        json.arrayEnd()
        json.key("last_status")
        writeStatus(conversation.last, into: &json)
        json.objectEnd()
    }
}
