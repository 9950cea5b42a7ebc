import FoundationEssentials
import WshModel
import WshRequest

/// Notifications (`/api/v1/notifications…`) and direct conversations
/// (`/api/v1/conversations`) on Mastodon.
extension MastodonDialect {
    public func notifications(_ query: NotificationQuery, _ exchange: DialectExchange) async throws(RequestError) -> NotificationsPage {
        let call = Call(exchange)
        let limit = [("limit", String(min(max(query.count, 1), NotificationQuery.maximumCount)))]
        let notifications = try await call.page([MastodonNotification].self, "api/v1/notifications",
                                                PageQuery(count: query.count, link: query.from),
                                                limit + query.types.map { ("types[]", $0) }, limited: false)
        // The next page is the server's Link header's, followed as sent, never a rebuilt id.
        return NotificationsPage(notifications: call.kept(notifications.map(\.notification), \.serverJSON), next: call.link("next"))
    }

    public func notification(id: String, _ exchange: DialectExchange) async throws(RequestError) -> ActivityNotification {
        let call = Call(exchange)
        return call.kept(try await call.get(MastodonNotification.self, "api/v1/notifications/\(Call.segment(id))").notification, \.serverJSON)
    }

    public func dismissNotification(id: String, _ exchange: DialectExchange) async throws(RequestError) {
        _ = try await Call(exchange).exchange(.post, "api/v1/notifications/\(Call.segment(id))/dismiss", [])
    }

    public func clearNotifications(_ exchange: DialectExchange) async throws(RequestError) {
        _ = try await Call(exchange).exchange(.post, "api/v1/notifications/clear", [])
    }

    public func conversations(count: Int, _ exchange: DialectExchange) async throws(RequestError) -> [Conversation] {
        let limit = String(min(max(count, 1), Self.pageLimit))
        let call = Call(exchange)
        let conversations = try await call.get([MastodonConversation].self, "api/v1/conversations", [("limit", limit)])
        // Each conversation as the server sent it: its accounts and last status keep theirs too.
        return call.kept(conversations.map(\.conversation), \.serverJSON).map { conversation in
            guard let json = conversation.serverJSON else { return conversation }
            var conversation = conversation
            conversation.accounts = call.kept(conversation.accounts, \.serverJSON, from: ServerJSON.elements(of: json.bytes, member: "accounts"))
            conversation.lastStatus?.serverJSON = ServerJSON.member("last_status", of: json.bytes)
            return conversation
        }
    }
}
