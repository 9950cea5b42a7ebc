import FoundationEssentials
import WshText
import Hummingbird
import NIOCore

/// `friendships/friends.json` and `friendships/followers.json` (the follow
/// graph, paged by `cursor`, an offset: `{"users": […], "next_cursor": N,
/// "previous_cursor": N, "total_number": N}`, `next_cursor` 0 at the end) and
/// `search/topics.json` (statuses whose text has `q`, newest first).
extension WeiboAPI {
    /// `search/topics.json`: `q`, `count` (1–50), `page`.
    func searchTopics(_ fields: [String: String], viewer: Int) throws -> ByteBuffer {
        let timeline = store.timeline
        let query = (fields["q"] ?? "").trimmingSpaces
        guard !query.isEmpty else { throw WeiboError.parameter("parameter (q) is required") }
        let count = try integer(fields, "count", default: 10, in: 1...50)
        let page = try integer(fields, "page", default: 1, in: 1...Int(Int32.max))
        let ordinals = timeline.allOrdinals().filter { ordinal in
            timeline.status(ordinal: ordinal)?.text.lowercased().contains(query.lowercased()) == true
        }
        return ByteBuffer(bytes: WeiboRenderer(timeline: timeline, viewer: viewer)
            .cursorPage(ordinals: ordinals, count: count, page: page, total: ordinals.count))
    }

    /// `friendships/friends.json` (`following`) or `followers.json`: `count` (1–200), `cursor`.
    func followList(_ fields: [String: String], viewer: Int, following: Bool) throws -> ByteBuffer {
        let timeline = store.timeline
        let user = try user(fields, in: timeline, fallback: viewer)
        let count = try integer(fields, "count", default: 50, in: 1...200)
        let cursor = try integer(fields, "cursor", default: 0, in: 0...Int(Int32.max))
        let all = following ? timeline.followingList(of: user.index) : timeline.followerList(of: user.index)
        let slice = all.dropFirst(cursor).prefix(count)
        let renderer = WeiboRenderer(timeline: timeline, viewer: viewer)
        return ByteBuffer(bytes: JSONWriter.object(capacity: 1500 * max(1, slice.count)) { json in
            json.key("users")
            json.arrayStart()
            for index in slice { json.json(renderer.userJSON(timeline.data.users[index])) }
            json.arrayEnd()
            json.member("next_cursor", cursor + slice.count < all.count ? cursor + slice.count : 0)
            json.member("previous_cursor", max(0, cursor - count))
            json.member("total_number", all.count)
        })
    }
}
