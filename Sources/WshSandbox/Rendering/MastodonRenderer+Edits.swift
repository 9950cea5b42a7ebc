import FoundationEssentials
import WshModel

/// Mastodon's `StatusEdit`, `StatusSource` and `ScheduledStatus` entities.
extension MastodonRenderer {
    /// `[StatusEdit, …]`: each version of `status`, the original first.
    func history(of status: SandboxStatus) -> [UInt8] {
        let author = timeline.data.users[status.authorIndex]
        return array(timeline.versions(of: status), itemBytes: 2000) { version, json in
            json.objectStart()
            json.member("content", html.content(version.text))
            json.member("spoiler_text", version.spoilerText)
            json.member("sensitive", version.sensitive)
            json.member("created_at", mastodonTime(version.createdAt.date))
            json.key("account")
            writeAccount(author, into: &json)
            json.null("poll")
            json.member("media_attachments", [])
            json.member("emojis", [])
            json.objectEnd()
        }
    }

    /// `{id, text, spoiler_text}`: the status as its author wrote it.
    func source(of status: SandboxStatus) -> [UInt8] {
        JSONWriter.object(capacity: 500) { json in
            json.member("id", ids.render(status.id))
            json.member("text", status.text)
            json.member("spoiler_text", status.mastodon?.spoilerText ?? timeline.generatedSpoiler(status) ?? "")
        }
    }

    /// `[ScheduledStatus, …]`.
    func scheduledList(_ posts: [ScheduledPost], applicationID: (ScheduledPost) -> String) -> [UInt8] {
        array(posts, itemBytes: 600) { writeScheduled($0, applicationID: applicationID($0), into: &$1) }
    }

    /// One `ScheduledStatus`: its id, when, and the parameters it was posted with.
    func scheduledJSON(_ post: ScheduledPost, applicationID: String) -> [UInt8] {
        JSONWriter.bytes(capacity: 600) { writeScheduled(post, applicationID: applicationID, into: &$0) }
    }

    private func writeScheduled(_ post: ScheduledPost, applicationID: String, into json: inout JSONWriter) {
        json.objectStart()
        json.member("id", ids.render(post.publicID))
        json.member("scheduled_at", mastodonTime(post.scheduledAt))
        json.key("params")
        json.objectStart()
        json.member("text", post.text)
        json.key("poll")
        if let poll = post.poll {
            json.objectStart()
            json.key("options")
            json.arrayStart()
            for option in poll.options { json.string(option) }
            json.arrayEnd()
            json.member("expires_in", String(poll.expiresIn))
            json.member("multiple", poll.multiple)
            json.member("hide_totals", false)
            json.objectEnd()
        } else {
            json.null()
        }
        json.key("media_ids")
        if post.extras.mediaIDs.isEmpty {
            json.null()
        } else {
            json.arrayStart()
            for id in post.extras.mediaIDs { json.string(ids.render(id)) }
            json.arrayEnd()
        }
        json.member("sensitive", post.extras.sensitive)
        json.member("visibility", post.extras.visibility)
        json.null("idempotency")
        json.null("scheduled_at")
        json.member("spoiler_text", post.extras.spoilerText)
        json.member("application_id", Int(applicationID) ?? 1)
        json.key("in_reply_to_id")
        if let reply = post.inReplyToID { json.string(reply) } else { json.null() }
        json.key("language")
        if let language = post.extras.language { json.string(language) } else { json.null() }
        json.member("with_rate_limit", false)
        json.objectEnd()
        json.key("media_attachments")
        json.arrayStart()
        for media in post.extras.mediaIDs.compactMap({ timeline.media(id: $0) }) { writeUploadedMedia(media, into: &json) }
        json.arrayEnd()
        json.objectEnd()
    }
}
