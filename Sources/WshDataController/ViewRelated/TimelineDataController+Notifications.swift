import WshModel
import WshRequest

/// Notifications and direct conversations, through the dialect's typed
/// operations (traced like every call). Dismissing resolves a lost answer
/// by reading the notification back, as the other writes do.
extension TimelineDataController {
    private var api: TracedCall { statuses.api }

    /// A page of notifications; their accounts and statuses are remembered on the way.
    public func notifications(_ query: NotificationQuery) async throws(RequestError) -> NotificationsPage {
        try await notifications(query, body: nil)
    }

    /// `notifications(_:)`, the answer's body also put in `body` (for the archive).
    func notifications(_ query: NotificationQuery, body: KeptBody?) async throws(RequestError) -> NotificationsPage {
        let types = query.types.isEmpty ? "" : ", types: \(query.types.joined(separator: ","))"
        let page = try await api.run("TimelineDataController.notifications(count: \(query.count)\(types)\(query.from.map { ", from: \($0)" } ?? ""))",
                                     count: { $0.notifications.count }) {
            let page = try await $0.notifications(query, $1)
            body?.data = $1.response?.body
            return page
        }
        users.remember(authorsOf: page.notifications.compactMap(\.status))
        var shown = page
        for index in shown.notifications.indices {
            shown.notifications[index].status = shown.notifications[index].status?.filtered(in: "notifications")
        }
        return shown
    }

    /// The notifications of `page` the screen shows: those whose status no
    /// filter of the server's says to hide (`filtered` with `hide`).
    public func shown(_ page: NotificationsPage) -> NotificationsPage {
        var page = page
        page.notifications.removeAll { $0.status?.isHiddenByFilter == true }
        return page
    }

    /// Dismisses notification `id`. One already gone is `.alreadyDone`; a
    /// lost answer is resolved by reading it back: gone means dismissed
    /// (`.recovered`), still there `.notApplied`, a failed read `.unknown`.
    public func dismissNotification(id: String) async throws(WriteError) -> WriteOutcome<String> {
        try await api.removal(id, what: "notification", call: "TimelineDataController.dismissNotification(id: \(id))",
                              check: "TimelineDataController.notification(id: \(id)): was it dismissed?",
                              { try await $0.dismissNotification(id: id, $1) },
                              read: { _ = try await $0.notification(id: id, $1) })
    }

    /// Dismisses every notification. A lost answer is resolved by reading
    /// the newest: none left means cleared, one as old as `newestID` or
    /// older means not, a failed read or only newer ones cannot tell.
    public func clearNotifications(newestID: String?) async throws(WriteError) -> WriteOutcome<Void> {
        let lost: RequestError
        do {
            try await api.run("TimelineDataController.clearNotifications()", count: { _ in 0 }) {
                try await $0.clearNotifications($1)
            }
            return WriteOutcome(())
        } catch {
            guard error.leavesWriteOutcomeUnknown else { throw .rejected(error) }
            lost = error
        }
        let left: NotificationsPage
        do {
            left = try await notifications(NotificationQuery(count: 1))
        } catch {
            throw .unknown(lostAnswer: lost, check: "reading the notifications failed: \(error.description)")
        }
        guard let newest = left.notifications.first else { return WriteOutcome((), resolution: .recovered(lostAnswer: lost.description)) }
        if newest.id == newestID { throw .notApplied(lostAnswer: lost) }
        throw .unknown(lostAnswer: lost, check: "notifications are there that may have arrived since")
    }

    /// The direct conversations, newest first.
    public func conversations(count: Int) async throws(RequestError) -> [Conversation] {
        let conversations = try await api.run("TimelineDataController.conversations(count: \(count))", count: { $0.count }) {
            try await $0.conversations(count: count, $1)
        }
        users.remember(authorsOf: conversations.compactMap(\.lastStatus))
        return conversations
    }
}
