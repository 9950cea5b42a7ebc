import FoundationEssentials
import WshText
import WshModel

/// Renders the timeline's records as Mastodon 4.x entities: Status, Account,
/// Relationship, Notification, Context, with the key order Mastodon uses.
///
/// The same records as `WeiboRenderer`, seen through Mastodon: a Weibo repost with
/// no remark of its own (`转发微博`) is a boost (`reblog`); one with a remark is
/// a status of its own quoting the one it reposts (a `quote-inline` paragraph
/// in `content` and Mastodon 4.5's `quote`); comments are replies. `viewer`
/// (nil: no token) decides `favourited`, `reblogged` and relationships.
struct MastodonRenderer {
    let timeline: Timeline
    var viewer: Int?
    /// `http://127.0.0.1:PORT`.
    let origin: String
    /// How ids are written.
    let ids: MastodonIDStyle
    /// The server imitated: its extra members go in through `writeFlavourMembers`.
    let flavour: SandboxFlavour

    var html: MastodonHTML {
        let names = timeline.data.userIndexByScreenName
        return MastodonHTML(origin: origin, isUser: { names[$0] != nil })
    }

    /// The custom emoji some statuses carry.
    static let emojiShortcode = "wsh"

    // MARK: Lists

    /// `[item, …]`, each written by `write`; `itemBytes` is about what one item takes.
    func array<Item>(_ items: [Item], itemBytes: Int, _ write: (Item, inout JSONWriter) -> Void) -> [UInt8] {
        JSONWriter.bytes(capacity: itemBytes * max(1, items.count)) { json in
            json.arrayStart()
            for item in items { write(item, &json) }
            json.arrayEnd()
        }
    }

    /// `[Status, …]` for `ordinals`, in that order.
    func statuses(_ ordinals: [Int]) -> [UInt8] {
        array(ordinals, itemBytes: 2500) { ordinal, json in
            if let status = timeline.status(ordinal: ordinal) { writeStatus(status, into: &json) }
        }
    }

    // MARK: Status

    /// One status; `withText` adds the source `text`, as a deletion answers.
    func statusJSON(_ status: SandboxStatus, withText: Bool = false) -> [UInt8] {
        JSONWriter.bytes(capacity: 3000) { writeStatus(status, into: &$0, withText: withText) }
    }

    /// A comment, as the reply status it is on the Mastodon side.
    func replyJSON(_ comment: SandboxComment, on status: SandboxStatus, withText: Bool = false) -> [UInt8] {
        JSONWriter.bytes(capacity: 2000) { writeReply(comment, on: status, into: &$0, withText: withText) }
    }

    /// `{"ancestors":[…],"descendants":[…]}` of a status: no ancestors; its
    /// comments as replies, depth first, each thread oldest first.
    func context(of status: SandboxStatus) -> [UInt8] {
        // A reply's context is its Weibo face's: the thread above it and below it.
        if let link = status.replyTo, let (comment, root) = timeline.comment(id: link.commentID) {
            return context(of: comment, on: root)
        }
        // One of the seed's direct messages: the conversation's messages before it and after it.
        let thread = status.ordinal > 0 ? [] : timeline.data.directMessages.filter {
            ($0.replyTo?.rootOrdinal ?? $0.ordinal) == (status.replyTo?.rootOrdinal ?? status.ordinal)
                && !timeline.isDeleted(ordinal: $0.ordinal)
        }
        return contextJSON { json in
            for message in thread where message.ordinal < status.ordinal {
                writeStatus(timeline.edited(message), into: &json)
            }
        } descendants: { json in
            for message in thread where message.ordinal > status.ordinal {
                writeStatus(timeline.edited(message), into: &json)
            }
            writeThread(under: nil, on: status, into: &json)
        }
    }

    /// The context of a reply: the status and the replies above it, then the replies below it.
    func context(of comment: SandboxComment, on status: SandboxStatus) -> [UInt8] {
        var chain: [SandboxComment] = []
        var parent = comment.replyToID
        while let id = parent, let (above, _) = timeline.comment(id: id), chain.count < 100 {
            chain.insert(above, at: 0)
            parent = above.replyToID
        }
        return contextJSON { json in
            writeStatus(status, into: &json)
            for above in chain { writeCommentOrReply(above, on: status, into: &json) }
        } descendants: {
            writeThread(under: comment.id, on: status, into: &$0)
        }
    }

    /// `{"ancestors":[…],"descendants":[…]}`, each list's items written by its closure.
    private func contextJSON(ancestors: (inout JSONWriter) -> Void,
                             descendants: (inout JSONWriter) -> Void) -> [UInt8] {
        JSONWriter.object(capacity: 8000) { json in
            json.key("ancestors")
            json.arrayStart()
            ancestors(&json)
            json.arrayEnd()
            json.key("descendants")
            json.arrayStart()
            descendants(&json)
            json.arrayEnd()
        }
    }

    /// The replies to `parent` (nil: to the status itself), oldest first, each followed by its own.
    private func writeThread(under parent: Int64?, on status: SandboxStatus, into json: inout JSONWriter,
                             depth: Int = 0) {
        guard depth < 50 else { return }
        let all = timeline.comments(on: status).reversed()
        for comment in all where comment.replyToID == parent {
            writeCommentOrReply(comment, on: status, into: &json)
            writeThread(under: comment.id, on: status, into: &json, depth: depth + 1)
        }
    }

    /// A comment as the reply it is: the reply status it is the Weibo face of, else the comment.
    private func writeCommentOrReply(_ comment: SandboxComment, on status: SandboxStatus, into json: inout JSONWriter) {
        if let reply = timeline.replyStatus(forComment: comment.id) {
            writeStatus(reply, into: &json)
        } else {
            writeReply(comment, on: status, into: &json)
        }
    }

    func writeStatus(_ status: SandboxStatus, into json: inout JSONWriter, withText: Bool = false,
                             nested: Bool = false) {
        let author = timeline.data.users[status.authorIndex]
        let boost = !nested && timeline.isBoost(status)
        let quotedOrdinal = !nested && !boost ? status.retweetedOrdinal.map { status.repostedOrdinal ?? $0 } : nil
        let quoted = quotedOrdinal.flatMap { timeline.status(ordinal: $0) }
        let extras = status.mastodon
        let spoiler = extras?.spoilerText ?? timeline.generatedSpoiler(status) ?? ""
        var text = status.text
        if timeline.hasGeneratedEmoji(status) { text += " :\(Self.emojiShortcode):" }

        json.objectStart()
        json.member("id", ids.render(status.id))
        json.member("created_at", mastodonTime(status.createdAt.date))
        if let link = status.replyTo, !boost {
            json.member("in_reply_to_id", ids.render(link.parentID))
            json.member("in_reply_to_account_id", ids.render(timeline.data.users[link.parentAuthor].id))
        } else {
            json.null("in_reply_to_id")
            json.null("in_reply_to_account_id")
        }
        json.member("sensitive", boost ? false : extras?.sensitive ?? !spoiler.isEmpty)
        json.member("spoiler_text", boost ? "" : spoiler)
        json.member("visibility", extras?.visibility ?? "public")
        if boost { json.key("language"); json.null() } else { json.member("language", language(extras, text)) }
        json.member("uri", statusURI(author, status.id) + (boost ? "/activity" : ""))
        json.member("url", statusURL(author, status.id))
        json.member("replies_count", boost ? 0 : timeline.repliesCount(of: status))
        json.member("reblogs_count", boost ? 0 : timeline.repostsCount(of: status))
        json.member("favourites_count", boost ? 0 : status.attitudesCount + timeline.favouritersCount(of: status.ordinal))
        json.key("edited_at")
        if let edited = status.editedAt { json.string(mastodonTime(edited.date)) } else { json.null() }
        if let viewer {
            json.member("favourited", !boost && timeline.favouritedTime(status.ordinal, by: viewer) != nil)
            json.member("reblogged", !boost && timeline.boost(of: status.ordinal, by: viewer) != nil)
            json.member("muted", false)
            json.member("bookmarked", !boost && timeline.isBookmarked(status.ordinal, by: viewer))
            if status.authorIndex == viewer { json.member("pinned", timeline.isPinned(status.ordinal, by: viewer)) }
        }
        if boost {
            json.member("content", "")
        } else {
            var content = html.content(text)
            if let quoted {
                let url = statusURL(timeline.data.users[quoted.authorIndex], quoted.id)
                content += "<p class=\"quote-inline\">RE: <a href=\"\(url)\">\(url)</a></p>"
            }
            json.member("content", content)
        }
        if withText { json.member("text", status.text) }
        // A boost carries what its original matches, as the original does inside it.
        writeFilterResults(timeline.filterResults(boost ? timeline.boosted(by: status) ?? status : status, for: viewer),
                           into: &json)
        json.key("reblog")
        if boost, let original = timeline.boosted(by: status) {
            writeStatus(original, into: &json, nested: true)
        } else {
            json.null()
        }
        json.key("application")
        writeApplication(status.source, into: &json)
        json.key("account")
        writeAccount(author, into: &json)
        json.key("media_attachments")
        json.arrayStart()
        if !boost, let uploaded = extras?.mediaIDs, !uploaded.isEmpty {
            for media in uploaded.compactMap({ timeline.media(id: $0) }) { writeUploadedMedia(media, into: &json) }
        } else if !boost {
            for (index, key) in status.pictureKeys.enumerated() {
                writeMedia(key, id: ids.render(status.id * 10 + Int64(index)), alt: timeline.generatedAltText(status, picture: index),
                           into: &json)
            }
        }
        json.arrayEnd()
        writeMentionsTagsEmojis(boost ? "" : text, into: &json)
        json.key("card")
        if !boost, let link = Hashtags.tokens(in: text).lazy.compactMap({ token -> String? in
            if case .link(let url) = token { return url } else { return nil }
        }).first {
            writeCard(link, into: &json)
        } else {
            json.null()
        }
        json.key("poll")
        if !boost, let poll = timeline.poll(of: status, viewer: viewer) { writePoll(poll, into: &json) } else { json.null() }
        if let quotedOrdinal { writeQuote(by: status, of: quotedOrdinal, into: &json) }
        writeFlavourMembers(StatusFacts(id: status.id, text: status.text, spoiler: boost ? "" : spoiler,
                                        conversation: status.ordinal,
                                        favourites: status.attitudesCount + timeline.favouritersCount(of: status.ordinal)),
                            into: &json)
        json.objectEnd()
    }

    func writeReply(_ comment: SandboxComment, on status: SandboxStatus, into json: inout JSONWriter,
                            withText: Bool = false) {
        let author = timeline.data.users[comment.authorIndex]
        let parentAuthor: Int = comment.replyToID.flatMap { timeline.comment(id: $0)?.comment.authorIndex }
            ?? status.authorIndex
        let extras = comment.mastodon
        json.objectStart()
        json.member("id", ids.render(comment.id))
        json.member("created_at", mastodonTime(comment.createdAt.date))
        json.member("in_reply_to_id", ids.render(timeline.mastodonParentID(of: comment) ?? status.id))
        json.member("in_reply_to_account_id", ids.render(timeline.data.users[parentAuthor].id))
        json.member("sensitive", extras?.sensitive ?? false)
        json.member("spoiler_text", extras?.spoilerText ?? "")
        json.member("visibility", extras?.visibility ?? "public")
        json.member("language", language(extras, comment.text))
        json.member("uri", statusURI(author, comment.id))
        json.member("url", statusURL(author, comment.id))
        json.member("replies_count", timeline.replies(toComment: comment.id, on: status).count)
        json.member("reblogs_count", 0)
        json.member("favourites_count", 0)
        json.null("edited_at")
        if viewer != nil {
            json.member("favourited", false)
            json.member("reblogged", false)
            json.member("muted", false)
            json.member("bookmarked", false)
        }
        json.member("content", html.content(comment.text))
        if withText { json.member("text", comment.text) }
        writeFilterResults(timeline.filterResults(text: comment.text, for: viewer), into: &json)
        json.null("reblog")
        json.key("application")
        writeApplication(comment.source, into: &json)
        json.key("account")
        writeAccount(author, into: &json)
        json.member("media_attachments", [])
        writeMentionsTagsEmojis(comment.text, into: &json)
        json.null("card")
        json.null("poll")
        writeFlavourMembers(StatusFacts(id: comment.id, text: comment.text, spoiler: extras?.spoilerText ?? "",
                                        conversation: status.ordinal, favourites: 0,
                                        replyTo: timeline.data.users[parentAuthor]),
                            into: &json)
        json.objectEnd()
    }

    private func writeApplication(_ source: (name: String, href: String), into json: inout JSONWriter) {
        json.objectStart()
        json.member("name", source.name)
        json.member("website", source.href)
        json.objectEnd()
    }

    private func writeMedia(_ key: String, id: String, alt: String?, into json: inout JSONWriter) {
        // On the sandbox itself (`SandboxMediaFiles`), as Mastodon serves its own media.
        let pictures = origin + SandboxMediaFiles.prefix + "pictures"
        json.objectStart()
        json.member("id", id)
        json.member("type", "image")
        json.member("url", "\(pictures)/large/\(key).png")
        json.member("preview_url", "\(pictures)/thumbnail/\(key).png")
        writeLocalMediaURLs(into: &json)
        json.key("meta")
        json.objectStart()
        for (name, width, height) in [("original", 1080, 1440), ("small", 360, 480)] as [(StaticString, Int, Int)] {
            json.key(name)
            json.objectStart()
            json.member("width", width)
            json.member("height", height)
            json.member("size", "\(width)x\(height)")
            json.raw(key: "aspect", "0.75")
            json.objectEnd()
        }
        json.objectEnd()
        json.key("description")
        if let alt { json.string(alt) } else { json.null() }
        json.null("blurhash")
        json.objectEnd()
    }

    private func writeMentionsTagsEmojis(_ text: String, into json: inout JSONWriter) {
        let tokens = text.isEmpty ? [] : Hashtags.tokens(in: text)
        json.key("mentions")
        json.arrayStart()
        var mentioned = Set<Int>()
        for case .mention(let name) in tokens {
            guard let index = timeline.data.userIndexByScreenName[name], mentioned.insert(index).inserted else { continue }
            let user = timeline.data.users[index]
            json.objectStart()
            json.member("id", ids.render(user.id))
            json.member("username", user.screenName)
            json.member("url", html.profileURL(user.screenName))
            json.member("acct", user.screenName)
            json.objectEnd()
        }
        json.arrayEnd()
        json.key("tags")
        json.arrayStart()
        var tagged = Set<String>()
        for case .hashtag(let name, _) in tokens where tagged.insert(name.lowercased()).inserted {
            json.objectStart()
            json.member("name", name.lowercased())
            json.member("url", html.tagURL(name.lowercased()))
            json.objectEnd()
        }
        json.arrayEnd()
        json.key("emojis")
        json.arrayStart()
        if text.contains(":\(Self.emojiShortcode):") { writeEmoji(into: &json) }
        json.arrayEnd()
    }

    /// The seed's one custom emoji; `category` as `custom_emojis` lists it.
    func writeEmoji(into json: inout JSONWriter, category: String? = nil) {
        json.objectStart()
        json.member("shortcode", Self.emojiShortcode)
        json.member("url", origin + SandboxMediaFiles.prefix + "emoji/wsh.png")
        json.member("static_url", origin + SandboxMediaFiles.prefix + "emoji/wsh_static.png")
        json.member("visible_in_picker", true)
        if let category { json.member("category", category) }
        json.objectEnd()
    }

    private func writeCard(_ link: String, into json: inout JSONWriter) {
        let host = URLComponents(string: link)?.host ?? ""
        json.objectStart()
        json.member("url", link)
        json.member("title", "\(host) 短链接")
        json.member("description", "A link shortened by \(host)")
        json.null("language")
        json.member("type", "link")
        json.member("author_name", "")
        json.member("author_url", "")
        json.member("provider_name", host)
        json.member("provider_url", "http://\(host)/")
        json.member("html", "")
        json.member("width", 0)
        json.member("height", 0)
        json.null("image")
        json.member("image_description", "")
        json.member("embed_url", "")
        json.null("blurhash")
        json.null("published_at")
        json.objectEnd()
    }

    private func language(_ extras: MastodonExtras?, _ text: String) -> String {
        if let language = extras?.language { return language }
        return text.unicodeScalars.contains { (0x4E00...0x9FFF).contains($0.value) } ? "zh" : "en"
    }

    func statusURL(_ author: SandboxUser, _ id: Int64) -> String { html.profileURL(author.screenName) + "/" + ids.render(id) }

    private func statusURI(_ author: SandboxUser, _ id: Int64) -> String {
        origin + "/users/" + PercentEncoding.encoded(author.screenName) + "/statuses/" + ids.render(id)
    }

    // MARK: Account, Relationship

    /// An Account; `withSource` adds `source` and `role`, as verify_credentials answers.
    func accountJSON(_ user: SandboxUser, withSource: Bool = false) -> [UInt8] {
        JSONWriter.bytes(capacity: 1200) { writeAccount(user, into: &$0, withSource: withSource) }
    }

    func writeAccount(_ user: SandboxUser, into json: inout JSONWriter, withSource: Bool = false) {
        let avatar = origin + SandboxMediaFiles.prefix + "avatars/180/" + user.avatarKey + ".png"
        let profile = timeline.profile(of: user.index)
        let noteText = profile.note ?? user.description
        let note = noteText.isEmpty ? "" : "<p>" + HTMLText.escaped(noteText)
            .split(separator: "\n", omittingEmptySubsequences: false).joined(separator: "<br />") + "</p>"
        json.objectStart()
        json.member("id", ids.render(user.id))
        json.member("username", user.screenName)
        json.member("acct", user.screenName)
        json.member("display_name", profile.displayName ?? user.screenName)
        json.member("locked", profile.locked ?? false)
        json.member("bot", profile.bot ?? false)
        json.member("discoverable", profile.discoverable ?? true)
        json.member("group", false)
        // Mastodon gives the day an account was made, at midnight UTC.
        json.member("created_at", String(mastodonTime(user.createdAt.date).prefix(10)) + "T00:00:00.000Z")
        json.member("note", note)
        json.member("url", html.profileURL(user.screenName))
        json.member("avatar", avatar)
        json.member("avatar_static", avatar)
        json.member("header", origin + SandboxMediaFiles.prefix + "headers/missing.png")
        json.member("header_static", origin + SandboxMediaFiles.prefix + "headers/missing.png")
        json.member("followers_count", timeline.followersCount(of: user))
        json.member("following_count", timeline.friendsCount(of: user))
        json.member("statuses_count", timeline.statusesCount(of: user))
        json.key("last_status_at")
        if let latest = timeline.latestStatus(of: user) { json.string(mastodonDay(latest.createdAt.date)) } else { json.null() }
        writeAccountEmojis(user, into: &json)
        json.key("fields")
        json.arrayStart()
        if let fields = profile.fields {
            // Fields set through update_credentials replace the generated ones, as on Mastodon.
            for field in fields {
                json.objectStart()
                json.member("name", field.name)
                json.member("value", HTMLText.escaped(field.value))
                json.null("verified_at")
                json.objectEnd()
            }
        } else {
        json.objectStart()
        json.member("name", "Location")
        json.member("value", HTMLText.escaped(user.location))
        json.null("verified_at")
        json.objectEnd()
        if user.verified {
            json.objectStart()
            json.member("name", "Verified")
            json.member("value", HTMLText.escaped(user.verifiedReason))
            json.member("verified_at", mastodonTime(user.createdAt.date))
            json.objectEnd()
        }
        writeExtraFields(user, into: &json)
        }
        json.arrayEnd()
        if withSource {
            json.key("source")
            json.objectStart()
            json.member("privacy", profile.privacy ?? "public")
            json.member("sensitive", profile.sensitive ?? false)
            json.member("language", profile.language ?? "zh")
            json.member("note", noteText)
            json.key("fields")
            json.arrayStart()
            for field in profile.fields ?? [(name: "Location", value: user.location)] {
                json.objectStart()
                json.member("name", field.name)
                json.member("value", field.value)
                json.null("verified_at")
                json.objectEnd()
            }
            json.arrayEnd()
            json.member("follow_requests_count", 0)
            json.objectEnd()
        }
        writeFlavourMembers(user, into: &json)
        json.objectEnd()
    }

    /// `[Relationship, …]` between the viewer and each of `users`.
    func relationships(_ users: [SandboxUser]) -> [UInt8] {
        array(users, itemBytes: 300) { writeRelationship($0, into: &$1) }
    }

    func relationshipJSON(_ user: SandboxUser) -> [UInt8] {
        JSONWriter.bytes(capacity: 300) { writeRelationship(user, into: &$0) }
    }

    private func writeRelationship(_ user: SandboxUser, into json: inout JSONWriter) {
        let following = viewer.map { timeline.isFollowing($0, user.index) } ?? false
        json.objectStart()
        json.member("id", ids.render(user.id))
        json.member("following", following)
        let settings = viewer.map { timeline.followSettings(of: user.index, by: $0) } ?? FollowSettings()
        json.member("showing_reblogs", following && settings.reblogs)
        json.member("notifying", following && settings.notify)
        if following, let languages = settings.languages {
            json.key("languages")
            json.arrayStart()
            for language in languages { json.string(language) }
            json.arrayEnd()
        } else {
            json.null("languages")
        }
        json.member("followed_by", viewer.map { timeline.isFollowing(user.index, $0) } ?? false)
        let mute = viewer.flatMap { timeline.mute(of: user.index, by: $0) }
        json.member("blocking", viewer.map { timeline.isBlocking($0, user.index) } ?? false)
        json.member("blocked_by", viewer.map { timeline.isBlocking(user.index, $0) } ?? false)
        json.member("muting", mute != nil)
        json.member("muting_notifications", mute?.notifications ?? false)
        json.member("requested", false)
        json.member("requested_by", false)
        json.member("domain_blocking", false)
        json.member("endorsed", false)
        json.member("note", "")
        json.objectEnd()
    }
}

extension JSONWriter {
    /// A member whose value is already JSON text (a decimal number, say).
    mutating func raw(key name: StaticString, _ value: String) {
        key(name)
        json(Array(value.utf8))
    }
}
