import FoundationEssentials
import WshModel

/// Uploaded media and polls, as Mastodon's `MediaAttachment` and `Poll`.
extension MastodonRenderer {
    /// `MediaAttachment` of an upload; `url` is null while it is processed.
    func mediaJSON(_ media: SandboxMedia) -> [UInt8] {
        JSONWriter.bytes(capacity: 600) { writeUploadedMedia(media, into: &$0) }
    }

    func writeUploadedMedia(_ media: SandboxMedia, into json: inout JSONWriter) {
        let id = ids.render(media.id)
        let file = "\(origin)/system/media_attachments/files/\(id)"
        json.objectStart()
        json.member("id", id)
        json.member("type", media.type)
        if media.processed {
            json.member("url", "\(file)/original/\(id).\(media.fileExtension)")
        } else {
            json.null("url")
        }
        json.member("preview_url", "\(file)/small/\(id).\(media.type == "image" ? media.fileExtension : "png")")
        writeLocalMediaURLs(into: &json)
        json.key("meta")
        json.objectStart()
        json.objectEnd()
        json.key("description")
        if let description = media.description { json.string(description) } else { json.null() }
        json.null("blurhash")
        json.objectEnd()
    }

    /// `remote_url`, `preview_remote_url` and `text_url`: null for media this server holds.
    func writeLocalMediaURLs(into json: inout JSONWriter) {
        for name in ["remote_url", "preview_remote_url", "text_url"] as [StaticString] {
            json.key(name)
            json.null()
        }
    }

    /// A `Poll`.
    func pollJSON(_ poll: PollState) -> [UInt8] {
        JSONWriter.bytes(capacity: 600) { writePoll(poll, into: &$0) }
    }

    /// A poll: a generated one closes a day after its status, relative to the
    /// data's newest moment (not the clock), so the same seed renders the same bytes.
    func writePoll(_ poll: PollState, into json: inout JSONWriter) {
        json.objectStart()
        json.member("id", ids.render(Int64(poll.id)))
        json.member("expires_at", mastodonTime(poll.expiresAt.date))
        json.member("expired", poll.expired)
        json.member("multiple", poll.multiple)
        json.member("votes_count", poll.counts.reduce(0, +))
        json.member("voters_count", poll.voters)
        json.key("options")
        json.arrayStart()
        for (title, count) in zip(poll.options, poll.counts) {
            json.objectStart()
            json.member("title", title)
            json.member("votes_count", count)
            json.objectEnd()
        }
        json.arrayEnd()
        json.member("emojis", [])
        if viewer != nil {
            json.member("voted", poll.own != nil)
            json.key("own_votes")
            json.arrayStart()
            for choice in poll.own ?? [] { json.int(choice) }
            json.arrayEnd()
        }
        json.objectEnd()
    }
}
