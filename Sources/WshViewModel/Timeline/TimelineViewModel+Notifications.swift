import WshDataController
import WshModel
import WshRequest

/// The notifications and conversations screens, opened over the list.
/// An API without them (Weibo) refuses before any request.
extension TimelineViewModel {
    /// Opens the notifications screen: the newest `count`, only `types`
    /// (empty: all); with `all`, every page the server's `Link` header leads
    /// to, up to `limit`, each notification once. Replaces a notifications
    /// screen already on top. Returns how many arrived and, when a server
    /// that repeats itself or goes the wrong way stopped the walk (`PageWalk`),
    /// why: what arrived is shown all the same.
    @discardableResult
    public func showNotifications(count: Int, types: [String], all: Bool = false, limit: Int? = nil)
        async throws(ViewModelError) -> (loaded: Int, stopped: ViewModelError?) {
        try require(\.notifications, "notifications")
        let most = NotificationQuery.maximumCount
        guard (1...most).contains(count) else { throw fail(.invalidPaging(name: "count", value: count, allowed: 1...most)) }
        if let limit, limit < 1 { throw fail(.invalidPaging(name: "limit", value: limit, allowed: 1...Int(Int32.max))) }
        var stopped: PageWalk.Stop?
        let page = try await request { () async throws(RequestError) -> NotificationsPage in
            var page = try await dataController.notifications(NotificationQuery(count: count, types: types))
            var walk = dataController.notificationsWalk()
            var seen = Set(page.notifications.map(\.id))
            _ = walk.stop(afterPageWith: page.notifications.map(\.id), from: nil, next: page.next)
            while all, let next = page.next, limit.map({ page.notifications.count < $0 }) ?? true, !Task.isCancelled {
                let older = try await dataController.notifications(NotificationQuery(count: count, types: types, from: next))
                let fresh = older.notifications.filter { seen.insert($0.id).inserted }
                page.notifications += fresh
                stopped = walk.stop(afterPageWith: fresh.map(\.id), from: next, next: older.next)
                // A page that goes the wrong way is kept, but `more` asks it again rather than follow its cursor.
                if case .wrongWay? = stopped { break }
                page.next = older.next
                if stopped != nil { break }
            }
            if let limit, page.notifications.count > limit { page.notifications.removeLast(page.notifications.count - limit) }
            return dataController.shown(page)
        }
        var next = state
        if case .notifications? = next.screens.last { next.screens.removeLast() }
        next.screens.append(.notifications(page, types: types))
        commit(next)
        return (page.notifications.count, stopped.map(ViewModelError.init(walkStopped:)))
    }

    /// Appends the next older page (the server's `Link`) to the notifications
    /// screen on top; how many came (0 at the end).
    public func moreNotifications() async throws(ViewModelError) -> Int {
        guard case .notifications(let shown, let types)? = state.screens.last else { throw fail(.noNotificationsScreen) }
        guard let cursor = shown.next else { return 0 }
        let older = try await request { () async throws(RequestError) -> NotificationsPage in
            try await dataController.notifications(NotificationQuery(count: NotificationQuery.maximumCount, types: types, from: cursor))
        }
        let known = Set(shown.notifications.map(\.id))
        let fresh = dataController.shown(older).notifications.filter { !known.contains($0.id) }
        var page = shown
        page.notifications += fresh
        // A server that repeats its cursor would loop: the screen ends where it does.
        page.next = older.notifications.isEmpty || older.next == cursor ? nil : older.next
        var next = state
        next.screens[next.screens.count - 1] = .notifications(page, types: types)
        commit(next)
        return fresh.count
    }

    /// The notifications screen on top, for `dismiss`.
    public var notifications: NotificationsViewModel? { screen.notifications }

    /// The conversations screen on top.
    public var conversations: ConversationsViewModel? { screen.conversations }

    /// A notification dismissed: its id, and a note when the answer was lost or it was already gone.
    public struct Dismissed: Sendable, Hashable {
        public let id: String
        public let type: String
        public let note: String?
    }

    /// Dismisses row `index` of the notifications screen on top; the row goes.
    public func dismissNotification(index: Int) async throws(ViewModelError) -> Dismissed {
        try require(\.notifications, "notifications")
        guard case .notifications(var page, let types)? = state.screens.last else { throw fail(.noNotificationsScreen) }
        let notification: ActivityNotification
        do throws(ViewModelError) {
            notification = try NotificationsViewModel.notification(in: page, row: index)
        } catch {
            throw fail(error)
        }
        let outcome = try await write { () async throws(WriteError) in try await dataController.dismissNotification(id: notification.id) }
        page.notifications.remove(at: index - 1)
        var next = state
        next.screens[next.screens.count - 1] = .notifications(page, types: types)
        commit(next)
        return Dismissed(id: notification.id, type: notification.type, note: Self.note(outcome.resolution, "notification \(notification.id)"))
    }

    /// Dismisses every notification; the notifications screen on top, if any, empties.
    /// Returns how many rows it showed.
    public func clearNotifications() async throws(ViewModelError) -> (shown: Int, note: String?) {
        try require(\.notifications, "notifications")
        var shown = 0
        var newest: String?
        if case .notifications(let page, _)? = state.screens.last {
            shown = page.notifications.count
            newest = page.notifications.first?.id
        }
        let outcome = try await write { () async throws(WriteError) in try await dataController.clearNotifications(newestID: newest) }
        var next = state
        if case .notifications(_, let types)? = next.screens.last {
            next.screens[next.screens.count - 1] = .notifications(NotificationsPage(notifications: []), types: types)
        }
        commit(next)
        return (shown, Self.note(outcome.resolution, "the notifications"))
    }

    /// Dismisses notification `id` again, for `redo` of `operation`; a note on what the server did.
    func dismissAgain(id: String?, redoing operation: String) async throws(ViewModelError) -> String {
        do {
            if let id {
                let outcome = try await write { () async throws(WriteError) in try await dataController.dismissNotification(id: id) }
                finishLoading()
                return Self.note(outcome.resolution, "notification \(id)") ?? "dismissed notification \(id) again"
            }
            let outcome = try await write { () async throws(WriteError) in try await dataController.clearNotifications(newestID: nil) }
            finishLoading()
            return Self.note(outcome.resolution, "the notifications") ?? "cleared the notifications again"
        } catch {
            throw fail(.redoFailed(operation: operation, reason: error.description))
        }
    }

    /// Opens the direct conversations screen (replacing one on top). Returns how many arrived.
    @discardableResult
    public func showConversations(count: Int) async throws(ViewModelError) -> Int {
        try require(\.conversations, "direct conversations")
        let most = 40
        guard (1...most).contains(count) else { throw fail(.invalidPaging(name: "count", value: count, allowed: 1...most)) }
        let conversations = try await request { () async throws(RequestError) in try await dataController.conversations(count: count) }
        var next = state
        if case .conversations? = next.screens.last { next.screens.removeLast() }
        next.screens.append(.conversations(conversations))
        commit(next)
        return conversations.count
    }

    // MARK: Helpers

    /// Refuses, before any request, what the connected API does not have.
    private func require(_ capability: KeyPath<Capabilities, Bool>, _ feature: String) throws(ViewModelError) {
        guard dataController.capabilities[keyPath: capability] else {
            throw fail(.notOffered("this API (\(dataController.dialectName)) has no \(feature)"))
        }
    }

    /// Sends a dismissal (`write(nothing:advice:)`): what is left to say when it fails or its answer is lost.
    private func write<T: Sendable>(_ call: () async throws(WriteError) -> WriteOutcome<T>) async throws(ViewModelError) -> WriteOutcome<T> {
        try await write(nothing: "nothing was dismissed", advice: "check with `notifications` whether it is still there", call)
    }

    /// Ends the loading a write started when no state is committed after it.
    private func finishLoading() {
        commit(state)
    }

    /// What to tell about a write that was not plainly answered; nil when it was.
    private static func note<T>(_ resolution: WriteOutcome<T>.Resolution, _ what: String) -> String? {
        switch resolution {
        case .answered: nil
        case .recovered: "the answer was lost; the server shows \(what) dismissed"
        case .alreadyDone: "\(what) was already gone from the server"
        }
    }
}
