import FoundationEssentials
import Hummingbird
import NIOCore

/// The writes: posting (a reply is a status, and a comment on the Weibo side), deleting,
/// boosting (a Weibo repost without a remark), favouriting and following.
/// Boosts, favourites and follows are idempotent, as on Mastodon.
extension MastodonAPI {
    /// The most characters a status may have, as `/api/v1/instance` says.
    static let maximumCharacters = 500

    /// `POST /api/v1/statuses`: `status`, `in_reply_to_id`, `spoiler_text`,
    /// `visibility`, `sensitive`, `language`, `media_ids[]`, `poll[…]`; an `Idempotency-Key` answers a
    /// repeat with the first answer instead of posting again.
    func postStatus(_ call: Call, actor: Int) throws -> Reply {
        let keptKey = call.idempotencyKey.map { "\(actor) \($0)" }
        if let keptKey, let kept = state.idempotentAnswer(keptKey) { return Reply(body: kept) }
        let parameters = call.parameters
        let text = parameters["status"] ?? ""
        let (media, poll) = try attachments(parameters)
        guard !text.allSatisfy(\.isWhitespace) || !media.isEmpty else { throw MastodonError.validation("Text can't be blank") }
        guard text.count <= Self.maximumCharacters else {
            throw MastodonError.validation("Text character limit of \(Self.maximumCharacters) exceeded")
        }
        let visibility = parameters.nonEmpty("visibility") ?? "public"
        guard ["public", "unlisted", "private", "direct"].contains(visibility) else {
            throw MastodonError.validation("Visibility is not included in the list")
        }
        let spoiler = parameters["spoiler_text"] ?? ""
        let extras = MastodonExtras(visibility: visibility, sensitive: parameters.flag("sensitive") || !spoiler.isEmpty,
                                    spoilerText: spoiler,
                                    language: parameters.nonEmpty("language"), mediaIDs: media)
        if let at = parameters["scheduled_at"], !at.isEmpty {
            return try scheduleStatus(call, actor: actor, at: at, text: text, extras: extras, poll: poll, keptKey: keptKey)
        }
        let source = self.source(of: call.caller)
        let ids = state.ids
        let replyTo = parameters.nonEmpty("in_reply_to_id")
        let reply = try write(as: actor, effect: .post) { timeline, render in
            try Self.checkAttachable(media, by: actor, in: timeline)
            let status: SandboxStatus
            if let replyTo {
                // A reply is a status (Timeline+Replies.swift); the Weibo side sees it as a comment too.
                guard let reply = timeline.postReply(text: text, to: ids.parse(replyTo) ?? 0, source: source,
                                                     author: actor, mastodon: extras) else {
                    throw MastodonError(status: .notFound,
                                        error: "The post you are trying to reply to does not appear to exist.")
                }
                status = reply
            } else {
                status = timeline.post(text: text, source: source, author: actor, mastodon: extras)
            }
            timeline.attach(media, poll: poll, to: status)
            return render(timeline).statusJSON(status)
        }
        if let keptKey { state.keepIdempotentAnswer(keptKey, reply.body) }
        return reply
    }

    /// `DELETE /api/v1/statuses/:id`: the author's own status or reply, answered as it was, with `text`.
    func deleteStatus(_ call: Call, actor: Int, id: String) throws -> Reply {
        let id = try identifier(id)
        return try write(as: actor, effect: .deletion) { timeline, render in
            if timeline.status(id: id) != nil {
                switch timeline.delete(id: id, by: actor) {
                case .success(let status):
                    return render(timeline).statusJSON(status, withText: true)
                case .failure(.notTheAuthor): throw MastodonError.notAllowed
                case .failure: throw MastodonError.notFound
                }
            }
            switch timeline.deleteComment(id: id, by: actor) {
            case .success(let (comment, status)):
                return render(timeline).replyJSON(comment, on: status, withText: true)
            case .failure(.notTheCommentAuthor): throw MastodonError.notAllowed
            case .failure: throw MastodonError.notFound
            }
        }
    }

    /// `reblog`, `unreblog`, `favourite`, `unfavourite`, `bookmark`, `unbookmark`, `pin`, `unpin` (one's own)
    /// of a status (a boost stands for its original); all but `reblog` are
    /// idempotent. `reblog` answers the boost, the others the status.
    func statusAction(_ call: Call, actor: Int, id: String, action: String) throws -> Reply {
        let id = try identifier(id)
        let source = self.source(of: call.caller)
        return try write(as: actor) { timeline, render in
            guard var status = timeline.status(id: id) else {
                if timeline.comment(id: id) != nil {
                    let verb = action == "unbookmark" ? "bookmark" : action
                    throw MastodonError.validation("wsh-sandbox cannot \(verb) a reply (a Weibo comment)")
                }
                throw MastodonError.notFound
            }
            if action == "pin" || action == "unpin" {
                // Only one's own statuses, and not a boost, as on Mastodon.
                guard status.authorIndex == actor, !timeline.isBoost(status) else {
                    throw MastodonError.validation("Status cannot be pinned")
                }
                timeline.setPinned(action == "pin", status, by: actor)
                return render(timeline).statusJSON(status)
            }
            if timeline.isBoost(status), let original = timeline.boosted(by: status) { status = original }
            switch action {
            case "reblog":
                if let visibility = status.mastodon?.visibility, visibility == "private" || visibility == "direct" {
                    throw MastodonError.validation("Reblog of private status not allowed")
                }
                if let existing = timeline.boost(of: status.ordinal, by: actor) {
                    return render(timeline).statusJSON(existing)
                }
                let boost = timeline.post(text: Timeline.boostText, source: source, author: actor, reposting: status)
                return render(timeline).statusJSON(boost)
            case "unreblog":
                if let existing = timeline.boost(of: status.ordinal, by: actor) {
                    _ = timeline.delete(id: existing.id, by: actor)
                }
            case "favourite":
                _ = timeline.favourite(status, by: actor)
            case "bookmark":
                timeline.bookmark(status, by: actor)
            case "unbookmark":
                timeline.unbookmark(status, by: actor)
            default:
                _ = timeline.unfavourite(status, by: actor)
            }
            return render(timeline).statusJSON(status)
        }
    }

    /// `accounts/:id/follow` and `unfollow`, answered with the Relationship.
    func follow(_ call: Call, actor: Int, id: String, follow: Bool) throws -> Reply {
        guard let target = store.timeline.user(id: try identifier(id)) else { throw MastodonError.notFound }
        guard target.index != actor else { throw MastodonError.notAllowed }
        let (reblogs, notify) = (call.parameters.optionalFlag("reblogs"), call.parameters.optionalFlag("notify"))
        let languages = call.parameters.all["languages[]"] ?? call.parameters.all["languages"]
        return write(as: actor) { timeline, render in
            _ = follow ? timeline.follow(target.index, by: actor) : timeline.unfollow(target.index, by: actor)
            if follow, timeline.isFollowing(actor, target.index) {
                timeline.setFollowSettings(of: target.index, by: actor, reblogs: reblogs, notify: notify, languages: languages)
            }
            return render(timeline).relationshipJSON(target)
        }
    }

    /// The app a post is made through: the caller's registered app, else the sandbox.
    func source(of caller: Caller) -> (name: String, href: String) {
        if case .user(_, _, let appKey) = caller, let app = state.app(clientID: appKey), app.id != "1" {
            return (app.name, app.website ?? "")
        }
        return WeiboAPI.source
    }
}
