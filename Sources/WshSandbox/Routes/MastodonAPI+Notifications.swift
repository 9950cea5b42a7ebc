import FoundationEssentials
import Hummingbird
import HTTPTypes
import NIOCore

/// Notifications (`/api/v1/notifications…`) and conversations
/// (`/api/v1/conversations…`), for the token's owner.
extension MastodonAPI {
    /// `GET /api/v1/notifications`: `types[]`, `exclude_types[]`, `account_id`,
    /// paged by `max_id`, `since_id`, `min_id`, `limit` (at most 80) with a `Link` header.
    func notifications(_ call: Call, viewer: Int) throws -> Reply {
        let timeline = store.timeline
        let types = Set(call.parameters.list("types"))
        let excluded = Set(call.parameters.list("exclude_types"))
        let from = try call.parameters.nonEmpty("account_id").map { try identifier($0) }
        let (slice, link) = try page(ascending: timeline.notificationIndex(for: viewer), \.id, call, maximum: 80) { notification in
            let type = state.flavour.notificationType(of: notification)
            if !types.isEmpty && !types.contains(type) { return false }
            if excluded.contains(type) { return false }
            if let from, timeline.data.users[notification.account].id != from { return false }
            return timeline.isShown(notification, to: viewer)
        }
        // Their statuses carry every filter of the viewer's they match in `filtered`,
        // as everywhere: the client applies those whose context is `notifications`.
        var reply = Self.json(renderer(timeline, viewer: viewer).notifications(slice))
        setPageLink(link, on: &reply)
        return reply
    }

    /// `GET /api/v1/notifications/:id`.
    func notification(_ call: Call, viewer: Int, id: String) throws -> Reply {
        let timeline = store.timeline
        guard let notification = timeline.notification(id: try identifier(id), for: viewer) else { throw MastodonError.notFound }
        return Self.json(renderer(timeline, viewer: viewer).notificationJSON(notification))
    }

    /// `POST /api/v1/notifications/:id/dismiss`: `{}`; 404 for one not there (any more).
    func dismissNotification(_ call: Call, viewer: Int, id: String) throws -> Reply {
        let id = try identifier(id)
        return try emptyWrite { $0.dismissNotification(id: id, for: viewer) }
    }

    /// `POST /api/v1/notifications/clear`: `{}`.
    func clearNotifications(_ call: Call, viewer: Int) throws -> Reply {
        try emptyWrite { $0.clearNotifications(for: viewer); return true }
    }

    /// `GET /api/v1/conversations`: newest first, paged as notifications.
    func conversations(_ call: Call, viewer: Int) throws -> Reply {
        let timeline = store.timeline
        return try pagedReply(timeline.conversations(for: viewer), by: \.last.id, call, maximum: 40) {
            renderer(timeline, viewer: viewer).conversations($0)
        }
    }

    /// `POST /api/v1/conversations/:id/read`: the conversation, read.
    func readConversation(_ call: Call, viewer: Int, id: String) throws -> Reply {
        let id = try identifier(id)
        return try write(as: viewer) { timeline, render in
            guard timeline.readConversation(id: id, for: viewer),
                  let conversation = timeline.conversations(for: viewer).first(where: { $0.id == id }) else {
                throw MastodonError.notFound
            }
            return render(timeline).conversationJSON(conversation)
        }
    }

    /// `DELETE /api/v1/conversations/:id`: `{}`; the conversation leaves the
    /// token owner's list (its statuses stay) until a newer message comes.
    func removeConversation(_ call: Call, viewer: Int, id: String) throws -> Reply {
        let id = try identifier(id)
        return try emptyWrite { $0.removeConversation(id: id, for: viewer) }
    }

    /// One page of `items` (oldest first, `id` increasing), those `keep` holds
    /// for, as `page(byID:…)` pages them listed newest first; but read from the
    /// cursor on (found by binary search) and only as far as the page and its
    /// `rel="next"` need, so a page costs the same however many items there are.
    func page<Items: RandomAccessCollection>(ascending items: Items, _ id: (Items.Element) -> Int64, _ call: Call,
                                             default defaultLimit: Int = 20, maximum: Int,
                                             keep: (Items.Element) -> Bool) throws -> (items: [Items.Element], link: String?) {
        let (limit, maxID, lower, fromBelow) = try cursors(call, default: defaultLimit, maximum: maximum)
        let start = items.partitioningIndex { id($0) > lower }
        let end = maxID.map { upper in items.partitioningIndex { id($0) >= upper } } ?? items.endIndex
        var slice: [Items.Element] = []
        if fromBelow {
            // The `limit` just above `min_id`: read upwards, then turned newest first.
            var position = start
            while position < end, slice.count < limit {
                if keep(items[position]) { slice.append(items[position]) }
                position = items.index(after: position)
            }
            slice.reverse()
        } else {
            var position = end
            while position > start, slice.count < limit {
                position = items.index(before: position)
                if keep(items[position]) { slice.append(items[position]) }
            }
        }
        let link = pageLink(call, newest: slice.first.map(id), oldest: slice.last.map(id)) {
            let older = items.partitioningIndex { id($0) >= id(slice.last!) }
            return items[..<older].reversed().contains(where: keep)
        }
        return (slice, link)
    }

    /// A page of `items` (newest first, `id` decreasing) by the cursors and
    /// `limit` of `call`, with its `Link` header (`next`: older, `prev`: newer).
    /// `max_id` keeps ids **less than** it (exclusive), `since_id` ids greater
    /// (the newest `limit` of them), `min_id` ids greater too, but the `limit`
    /// just above it (the page adjacent to it); the page is newest first in every case.
    func page<Item>(byID items: [Item], _ id: (Item) -> Int64, _ call: Call, default defaultLimit: Int = 20, maximum: Int)
        throws -> (items: [Item], link: String?) {
        let (limit, maxID, lower, fromBelow) = try cursors(call, default: defaultLimit, maximum: maximum)
        let matching = items.filter { item in
            id(item) > lower && (maxID.map { id(item) < $0 } ?? true)
        }
        let slice = fromBelow ? Array(matching.suffix(limit)) : Array(matching.prefix(limit))
        let link = pageLink(call, newest: slice.first.map(id), oldest: slice.last.map(id)) {
            items.contains { id($0) < id(slice.last!) }
        }
        return (slice, link)
    }
}
