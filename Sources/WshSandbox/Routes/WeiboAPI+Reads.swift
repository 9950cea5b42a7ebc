import FoundationEssentials
import Hummingbird

/// The GET endpoints: timelines with Weibo's cursors, single statuses,
/// comments, users, favourites, and the caller's rate limits.
extension WeiboAPI {
    // Every body may depend on who asks (`favorited`, `following`), so keys name the viewer.

    /// `statuses/public_timeline.json`: `count` (1–200), `page`.
    func publicTimeline(_ fields: [String: String], viewer: Int) throws -> ByteBuffer {
        let count = try integer(fields, "count", default: 20, in: 1...200)
        let page = try integer(fields, "page", default: 1, in: 1...Int(Int32.max))
        // A page past the end is still a page (empty), so this always renders.
        return try cached("v\(viewer) timeline \(count) \(page)") {
            WeiboRenderer(timeline: $0, viewer: viewer).timelinePage(count: count, page: page)
        }
    }

    /// `statuses/home_timeline.json` and `friends_timeline.json`.
    func homeTimeline(_ fields: [String: String], viewer: Int) throws -> ByteBuffer {
        try cursorTimeline(fields, key: "v\(viewer) home", viewer: viewer) { timeline in
            timeline.ordinals(byAnyOf: timeline.homeAuthors(of: viewer))
        }
    }

    /// `statuses/user_timeline.json`: no uid or screen_name means the token's own account, as on Weibo.
    func userTimeline(_ fields: [String: String], viewer: Int) throws -> ByteBuffer {
        let user = try user(fields, in: store.timeline, fallback: viewer)
        return try cursorTimeline(fields, key: "v\(viewer) user \(user.index)", viewer: viewer,
                                  total: { $0.statusesCount(of: user) }) { timeline in
            timeline.ordinals(of: user)
        }
    }

    /// `statuses/mentions.json`.
    func mentions(_ fields: [String: String], viewer: Int) throws -> ByteBuffer {
        let me = store.timeline.data.users[viewer]
        return try cursorTimeline(fields, key: "v\(viewer) mentions", viewer: viewer) { timeline in
            timeline.mentionOrdinals(of: me)
        }
    }

    /// `statuses/repost_timeline.json`: the reposts of `id`.
    func repostTimeline(_ fields: [String: String], viewer: Int) throws -> ByteBuffer {
        let id = try identifier(fields, "id")
        guard let original = store.timeline.weiboStatus(id: id) else { throw WeiboError.statusNotFound }
        return try cursorTimeline(fields, key: "v\(viewer) reposts \(id)", viewer: viewer, listKey: "reposts") { timeline in
            timeline.repostOrdinals(of: original.ordinal)
        }
    }

    /// `statuses/show.json`.
    func showStatus(_ fields: [String: String], viewer: Int) throws -> ByteBuffer {
        let id = try identifier(fields, "id")
        guard let body = store.response(for: "v\(viewer) status \(id)", render: { timeline in
            timeline.weiboStatus(id: id).map { WeiboRenderer(timeline: timeline, viewer: viewer).statusJSON($0) }
        }) else { throw WeiboError.statusNotFound }
        return body
    }

    /// `comments/show.json`: the comments on `id`, `count` (1–200), `page`.
    func comments(_ fields: [String: String], viewer: Int) throws -> ByteBuffer {
        let id = try identifier(fields, "id")
        let count = try integer(fields, "count", default: 50, in: 1...200)
        let page = try integer(fields, "page", default: 1, in: 1...Int(Int32.max))
        guard let body = store.response(for: "v\(viewer) comments \(id) \(count) \(page)", render: { timeline in
            timeline.weiboStatus(id: id).map {
                WeiboRenderer(timeline: timeline, viewer: viewer).commentsPage(of: $0, count: count, page: page)
            }
        }) else { throw WeiboError.statusNotFound }
        return body
    }

    /// `users/show.json`.
    func showUser(_ fields: [String: String], viewer: Int) throws -> ByteBuffer {
        let user = try user(fields, in: store.timeline)
        return try cached("v\(viewer) user \(user.index)") {
            WeiboRenderer(timeline: $0, viewer: viewer).userJSON(user)
        }
    }

    /// `favorites.json`: `count` (1–50), `page`.
    func favorites(_ fields: [String: String], viewer: Int) throws -> ByteBuffer {
        let count = try integer(fields, "count", default: 50, in: 1...50)
        let page = try integer(fields, "page", default: 1, in: 1...Int(Int32.max))
        return try cached("v\(viewer) favorites \(count) \(page)") { timeline in
            WeiboRenderer(timeline: timeline, viewer: viewer)
                .favoritesPage(timeline.favouriteList(of: viewer), count: count, page: page)
        }
    }

    /// `account/get_uid.json`.
    func uid(of viewer: Int) -> ByteBuffer {
        ByteBuffer(bytes: JSONWriter.object(capacity: 32) { $0.member("uid", store.timeline.data.users[viewer].id) })
    }

    /// A body rendered once and cached under `key`.
    private func cached(_ key: String, render: @escaping (Timeline) -> [UInt8]) throws -> ByteBuffer {
        guard let body = store.response(for: key, render: render) else { throw WeiboError.systemError }
        return body
    }

    /// One page of a timeline with Weibo's cursors: `count` (1–100), `page`,
    /// `since_id` (ids greater: strictly newer) and `max_id` (ids less than
    /// **or equal**, as Weibo documents; 0 or absent: no bound). `total` is
    /// the timeline's size before the cursors (its length, unless given).
    private func cursorTimeline(_ fields: [String: String], key: String, viewer: Int,
                                listKey: StaticString = "statuses", total: ((Timeline) -> Int)? = nil,
                                ordinals: @escaping (Timeline) -> [Int]) throws -> ByteBuffer {
        let count = try integer(fields, "count", default: 20, in: 1...100)
        let page = try integer(fields, "page", default: 1, in: 1...Int(Int32.max))
        let sinceID = try optionalIdentifier(fields, "since_id") ?? 0
        let maxID = try optionalIdentifier(fields, "max_id") ?? 0
        return try cached("\(key) \(count) \(page) \(sinceID) \(maxID)") { timeline in
            let all = ordinals(timeline)
            let matching = sinceID == 0 && maxID == 0 ? all : all.filter { ordinal in
                let id = SandboxStatus.firstID + Int64(ordinal)
                return id > sinceID && (maxID == 0 || id <= maxID)
            }
            return WeiboRenderer(timeline: timeline, viewer: viewer).cursorPage(
                ordinals: matching, count: count, page: page, total: total?(timeline) ?? all.count, listKey: listKey)
        }
    }

    /// `account/rate_limit_status.json`: what is left of `token`'s calls.
    func rateLimitStatus(token: String) -> ByteBuffer {
        let snapshot = rateLimiter.snapshot(token: token)
        return ByteBuffer(bytes: JSONWriter.object(capacity: 512) { json in
            json.key("api_rate_limits")
            json.arrayStart()
            for (api, limit) in [("statuses/update", 30), ("comments/create", 60), ("friendships/create", 60)] {
                json.objectStart()
                json.member("api", api)
                json.member("limit", limit)
                json.member("limit_time_unit", "HOURS")
                json.member("remaining_hits", max(0, limit - snapshot.callsByEndpoint[api, default: 0]))
                json.objectEnd()
            }
            json.arrayEnd()
            json.member("ip_limit", RateLimiter.ipLimit)
            json.member("limit_time_unit", "HOURS")
            json.member("remaining_ip_hits", max(0, RateLimiter.ipLimit - snapshot.ipCalls))
            json.member("remaining_user_hits", max(0, snapshot.userLimit - snapshot.userCalls))
            json.member("reset_time", Self.beijingTime(snapshot.resetTime))
            json.member("reset_time_in_seconds", snapshot.secondsToReset)
            json.member("user_limit", snapshot.userLimit)
        })
    }

    /// `2011-06-03 18:00:00`, in Beijing time as Weibo writes it.
    private static func beijingTime(_ date: Date) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(secondsFromGMT: 8 * 3600)!
        let c = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second], from: date)
        func two(_ n: Int?) -> String { n.map { $0 < 10 ? "0\($0)" : "\($0)" } ?? "00" }
        return "\(c.year ?? 1970)-\(two(c.month))-\(two(c.day)) \(two(c.hour)):\(two(c.minute)):\(two(c.second))"
    }
}
