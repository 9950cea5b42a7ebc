import FoundationEssentials
import Hummingbird
import HTTPTypes
import NIOCore

/// The follow graph read both ways (`accounts/:id/followers`, `following`),
/// blocks and server-side mutes: the lists (`/api/v1/blocks`, `/api/v1/mutes`)
/// and the writes (`accounts/:id/block`, `unblock`, `mute`, `unmute`),
/// answered with the Relationship. Blocking and muting are idempotent, as on Mastodon.
extension MastodonAPI {
    // MARK: Lists

    /// `accounts/:id/followers` and `accounts/:id/following`, paged by `Link`.
    func followList(_ call: Call, viewer: Int?, id: String, followers: Bool) throws -> Reply {
        let timeline = store.timeline
        guard let user = timeline.user(id: try identifier(id)) else { throw MastodonError.notFound }
        let indices = followers ? timeline.followerList(of: user.index) : timeline.followingList(of: user.index)
        return try accountPage(indices.map { ($0, timeline.data.users[$0].id) }, call, timeline: timeline, viewer: viewer)
    }

    /// `GET /api/v1/blocks`: whom the viewer blocks.
    func blockList(_ call: Call, viewer: Int) throws -> Reply {
        let timeline = store.timeline
        let blocked = timeline.blockList(of: viewer).sorted(by: >).map { ($0, timeline.data.users[$0].id) }
        return try accountPage(blocked, call, timeline: timeline, viewer: viewer)
    }

    /// `GET /api/v1/mutes`: whom the viewer mutes, each with `mute_expires_at`.
    func muteList(_ call: Call, viewer: Int) throws -> Reply {
        let timeline = store.timeline
        let mutes = timeline.muteList(of: viewer).sorted { $0.user > $1.user }
        return try pagedReply(mutes, by: { timeline.data.users[$0.user].id }, call, default: 40, maximum: 80) {
            renderer(timeline, viewer: viewer).mutedAccounts($0)
        }
    }

    /// A page of accounts with its paging header: `entries` newest first by
    /// `id` (the account's own, or the favourite's or boost's that lists it),
    /// 40 by default, at most 80.
    func accountPage(_ entries: [(user: Int, id: Int64)], _ call: Call, timeline: Timeline, viewer: Int?) throws -> Reply {
        try pagedReply(entries, by: \.id, call, default: 40, maximum: 80) {
            renderer(timeline, viewer: viewer).accounts($0.map { timeline.data.users[$0.user] })
        }
    }

    // MARK: Writes

    /// `accounts/:id/block`, `unblock`, `mute` (`notifications`, default true;
    /// `duration` in seconds, 0 for ever) and `unmute`, answered with the Relationship.
    func relate(_ call: Call, actor: Int, id: String, action: String) throws -> Reply {
        guard let target = store.timeline.user(id: try identifier(id)) else { throw MastodonError.notFound }
        guard target.index != actor else { throw MastodonError.notAllowed }
        let notifications = call.parameters.optionalFlag("notifications") ?? true
        var duration = 0
        if let text = call.parameters["duration"], !text.isEmpty {
            guard let seconds = Int(text), seconds >= 0 else {
                throw MastodonError.validation("Duration must be a number of seconds, got \(text)")
            }
            duration = seconds
        }
        let now = self.now
        return write(as: actor) { timeline, render in
            switch action {
            case "block": _ = timeline.block(target.index, by: actor)
            case "unblock": timeline.unblock(target.index, by: actor)
            case "mute": _ = timeline.mute(target.index, by: actor, notifications: notifications, duration: duration, now: now)
            default: timeline.unmute(target.index, by: actor)
            }
            return render(timeline).relationshipJSON(target)
        }
    }
}
