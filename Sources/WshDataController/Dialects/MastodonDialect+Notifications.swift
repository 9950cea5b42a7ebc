import FoundationEssentials
import WshModel
import WshRequest

/// Notifications (`/api/v1/notifications…`) and direct conversations
/// (`/api/v1/conversations`) on Mastodon.
extension MastodonDialect {
    public func notifications(_ query: NotificationQuery, _ exchange: DialectExchange) async throws(RequestError) -> NotificationsPage {
        let call = Call(exchange)
        var parameters = [("limit", String(min(max(query.count, 1), NotificationQuery.maximumCount)))]
        parameters += query.types.map { ("types[]", $0) }
        if let maxID = query.maxID { parameters.append(("max_id", maxID)) }
        let notifications = try await call.get([MastodonNotification].self, "api/v1/notifications", parameters)
        // The next page starts where the server's Link header says, never at a rebuilt id.
        let next = exchange.response?.headers["link"].flatMap { LinkHeader.next(in: $0)?["max_id"] }
        return NotificationsPage(notifications: notifications.map(\.notification), nextMaxID: next)
    }

    public func notification(id: String, _ exchange: DialectExchange) async throws(RequestError) -> ActivityNotification {
        try await Call(exchange).get(MastodonNotification.self, "api/v1/notifications/\(Call.segment(id))").notification
    }

    public func dismissNotification(id: String, _ exchange: DialectExchange) async throws(RequestError) {
        _ = try await Call(exchange).exchange(.post, "api/v1/notifications/\(Call.segment(id))/dismiss", [])
    }

    public func clearNotifications(_ exchange: DialectExchange) async throws(RequestError) {
        _ = try await Call(exchange).exchange(.post, "api/v1/notifications/clear", [])
    }

    public func conversations(count: Int, _ exchange: DialectExchange) async throws(RequestError) -> [Conversation] {
        let limit = String(min(max(count, 1), Self.pageLimit))
        return try await Call(exchange).get([MastodonConversation].self, "api/v1/conversations", [("limit", limit)]).map(\.conversation)
    }
}
