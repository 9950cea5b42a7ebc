import WshModel

/// Renders sandbox records as the JSON Weibo API v2 sends, field for field in
/// the order the real service uses.
///
/// `viewer` is the account asking (a user index): it decides `favorited`,
/// `following` and `follow_me`, as on Weibo.
struct WeiboRenderer {
    let timeline: Timeline
    var viewer: Int? = nil

    /// `{"statuses":[…],"total_number":N,"previous_cursor":0,"next_cursor":…}`.
    func timelinePage(count: Int, page: Int) -> [UInt8] {
        let positions = (0..<timeline.count).weiboPage(page, of: count)
        return JSONWriter.object(capacity: 3000 * max(1, positions.count)) { json in
            writeStatuses("statuses", positions.compactMap(timeline.status(atPosition:)), into: &json)
            json.member("hasvisible", false)
            json.member("previous_cursor", 0)
            // The cursor names the next, older status, 0 when none is left.
            let next = timeline.status(atPosition: positions.upperBound).map(\.id) ?? 0
            json.member("next_cursor", next)
            json.member("total_number", timeline.count)
        }
    }

    /// `{"statuses":[…],"marks":[],…,"total_number":N}` for one page of a
    /// cursor timeline (user, home, mentions; `reposts` for repost_timeline):
    /// `ordinals` are all that match the cursors, newest first; `total` is
    /// how many the timeline holds without them. `next_cursor` is the id of
    /// the next, older status (a `max_id` for the next page), 0 at the end.
    func cursorPage(ordinals: [Int], count: Int, page: Int, total: Int, listKey: StaticString = "statuses") -> [UInt8] {
        let slice = ordinals.weiboPage(page, of: count)
        return JSONWriter.object(capacity: 3000 * max(1, slice.count)) { json in
            writeStatuses(listKey, slice.compactMap { timeline.status(ordinal: $0) }, into: &json)
            json.member("marks", [])
            json.member("hasvisible", false)
            json.member("previous_cursor", 0)
            let next = slice.endIndex < ordinals.count ? timeline.status(ordinal: ordinals[slice.endIndex])?.id ?? 0 : 0
            json.member("next_cursor", next)
            json.member("total_number", total)
            json.member("interval", 0)
        }
    }

    /// `"key":[Status, …]`, each as `statusJSON` writes it.
    private func writeStatuses(_ key: StaticString, _ statuses: [SandboxStatus], into json: inout JSONWriter) {
        json.key(key)
        json.arrayStart()
        for status in statuses { json.json(statusJSON(status)) }
        json.arrayEnd()
    }

    /// `{"favorites":[{"status":…,"tags":[],"favorited_time":…}],"total_number":N}`.
    func favoritesPage(_ favourites: [(ordinal: Int, time: Timestamp)], count: Int, page: Int) -> [UInt8] {
        let slice = favourites.weiboPage(page, of: count)
        return JSONWriter.object(capacity: 3000 * max(1, slice.count)) { json in
            json.key("favorites")
            json.arrayStart()
            for favourite in slice {
                if let status = timeline.status(ordinal: favourite.ordinal) { json.json(favoriteJSON(status, time: favourite.time)) }
            }
            json.arrayEnd()
            json.member("total_number", favourites.count)
        }
    }

    /// `{"status":…,"tags":[],"favorited_time":…}`, as favorites/create and destroy answer.
    func favoriteJSON(_ status: SandboxStatus, time: Timestamp) -> [UInt8] {
        JSONWriter.object { json in
            json.key("status")
            json.json(statusJSON(status))
            json.member("tags", [])
            json.member("favorited_time", time.weiboText)
        }
    }

    /// `{"comments":[…],"total_number":N,…}` for one page of a status's comments.
    func commentsPage(of status: SandboxStatus, count: Int, page: Int) -> [UInt8] {
        let all = timeline.comments(on: status)
        let slice = all.weiboPage(page, of: count)
        let statusBytes = statusJSON(status, withRetweet: false)
        return JSONWriter.object(capacity: 600 * slice.count + 4000) { json in
            json.key("comments")
            json.arrayStart()
            for comment in slice {
                writeComment(comment, statusBytes: statusBytes, into: &json)
            }
            json.arrayEnd()
            json.member("hasvisible", false)
            json.member("previous_cursor", 0)
            json.member("next_cursor", slice.endIndex < all.count ? all[slice.endIndex].id : 0)
            json.member("total_number", timeline.commentsCount(of: status))
        }
    }

    /// One comment with its `user` and `status` (and `reply_comment` for a reply).
    func commentJSON(_ comment: SandboxComment, on status: SandboxStatus) -> [UInt8] {
        JSONWriter.bytes { writeComment(comment, statusBytes: statusJSON(status, withRetweet: false), into: &$0) }
    }

    private func writeComment(_ comment: SandboxComment, statusBytes: [UInt8], into json: inout JSONWriter,
                              withReply: Bool = true) {
        json.objectStart()
        json.member("created_at", comment.createdAt.weiboText)
        json.member("id", comment.id)
        json.member("idstr", String(comment.id))
        json.member("mid", String(comment.id))
        json.member("text", comment.text)
        json.member("source", anchor(comment.source))
        json.key("user")
        writeUser(timeline.data.users[comment.authorIndex], into: &json, latest: nil)
        json.key("status")
        json.json(statusBytes)
        if withReply, let replyID = comment.replyToID, let replied = timeline.comment(id: replyID) {
            json.key("reply_comment")
            writeComment(replied.comment, statusBytes: statusBytes, into: &json, withReply: false)
        }
        json.objectEnd()
    }

    /// A user with their latest status nested (without its `user`).
    func userJSON(_ user: SandboxUser) -> [UInt8] {
        JSONWriter.bytes { writeUser(user, into: &$0, latest: timeline.latestStatus(of: user)) }
    }

    /// A full status: with its user and, one level deep, what it reposts.
    func statusJSON(_ status: SandboxStatus, withRetweet: Bool = true) -> [UInt8] {
        JSONWriter.bytes { json in
            json.escaping = status.escapesUnicode ? .php : .plain
            writeStatus(status, into: &json, withUser: true, withRetweet: withRetweet)
        }
    }

    private func writeStatus(_ status: SandboxStatus, into json: inout JSONWriter, withUser: Bool, withRetweet: Bool) {
        json.objectStart()
        json.member("created_at", status.createdAt.weiboText)
        json.member("id", status.id)
        json.member("idstr", String(status.id))
        json.member("mid", String(status.id))
        json.member("can_edit", false)
        json.member("text", status.text)
        json.member("textLength", weiboLength(status.text))
        json.member("source_allowclick", 0)
        json.member("source_type", 1)
        json.member("source", anchor(status.source))
        json.member("favorited", viewer.map { timeline.favouritedTime(status.ordinal, by: $0) != nil } ?? false)
        json.member("truncated", false)
        json.member("in_reply_to_status_id", "")
        json.member("in_reply_to_user_id", "")
        json.member("in_reply_to_screen_name", "")
        if let first = status.pictureKeys.first {
            json.member("thumbnail_pic", pictureURL(first, size: "thumbnail"))
            json.member("bmiddle_pic", pictureURL(first, size: "bmiddle"))
            json.member("original_pic", pictureURL(first, size: "large"))
        }
        json.key("pic_urls")
        json.arrayStart()
        for key in status.pictureKeys {
            json.objectStart()
            json.member("thumbnail_pic", pictureURL(key, size: "thumbnail"))
            json.objectEnd()
        }
        json.arrayEnd()
        json.null("geo")
        if withUser {
            json.key("user")
            writeUser(timeline.data.users[status.authorIndex], into: &json, latest: nil)
        }
        if withRetweet, let ordinal = status.retweetedOrdinal, let original = timeline.status(ordinal: ordinal) {
            json.key("retweeted_status")
            writeStatus(original, into: &json, withUser: true, withRetweet: false)
        }
        json.member("reposts_count", timeline.repostsCount(of: status))
        json.member("comments_count", timeline.commentsCount(of: status))
        json.member("attitudes_count", status.attitudesCount)
        json.member("mlevel", 0)
        json.key("visible")
        json.objectStart()
        json.member("type", 0)
        json.member("list_id", 0)
        json.objectEnd()
        json.objectEnd()
    }

    private func writeUser(_ user: SandboxUser, into json: inout JSONWriter, latest: SandboxStatus?) {
        json.objectStart()
        json.member("id", user.id)
        json.member("idstr", String(user.id))
        json.member("class", 1)
        json.member("screen_name", user.screenName)
        json.member("name", user.screenName)
        json.member("province", "11")
        json.member("city", "8")
        json.member("location", user.location)
        json.member("description", user.description)
        json.member("url", "")
        json.member("profile_image_url", avatarURL(user, size: 50))
        json.member("profile_url", "u/\(user.id)")
        json.member("domain", "")
        json.member("weihao", "")
        json.member("gender", user.gender)
        json.member("followers_count", timeline.followersCount(of: user))
        json.member("friends_count", timeline.friendsCount(of: user))
        json.member("pagefriends_count", 0)
        json.member("statuses_count", timeline.statusesCount(of: user))
        json.member("favourites_count", timeline.favouritesCount(of: user))
        json.member("created_at", user.createdAt.weiboText)
        json.member("following", viewer.map { timeline.isFollowing($0, user.index) } ?? false)
        json.member("allow_all_act_msg", false)
        json.member("geo_enabled", true)
        json.member("verified", user.verified)
        json.member("verified_type", user.verified ? 0 : -1)
        json.member("remark", "")
        if let latest {
            json.key("status")
            let escaping = json.escaping
            json.escaping = latest.escapesUnicode ? .php : .plain
            writeStatus(latest, into: &json, withUser: false, withRetweet: true)
            json.escaping = escaping
        }
        json.member("ptype", 0)
        json.member("allow_all_comment", true)
        json.member("avatar_large", avatarURL(user, size: 180))
        json.member("avatar_hd", avatarURL(user, size: 1024))
        json.member("verified_reason", user.verifiedReason)
        json.member("follow_me", viewer.map { timeline.isFollowing(user.index, $0) } ?? false)
        json.member("online_status", 0)
        json.member("bi_followers_count", min(timeline.friendsCount(of: user), timeline.followersCount(of: user)))
        json.member("lang", "zh-cn")
        json.objectEnd()
    }

    // These are joined with appends into storage reserved once: interpolation
    // took five times as long (a page of 20 statuses writes 60 avatar URLs).

    private func anchor(_ source: (name: String, href: String)) -> String {
        var text = "<a href=\""
        text.reserveCapacity(40 + source.href.utf8.count + source.name.utf8.count)
        text += source.href
        text += "\" rel=\"nofollow\">"
        text += source.name
        text += "</a>"
        return text
    }

    // Pictures and avatars are on the sandbox itself (`SandboxMediaFiles`), not on Weibo's wx1…wx4
    // and tva1…tva4 hosts, so a client can fetch them.

    private func pictureURL(_ key: String, size: String) -> String {
        var url = timeline.mediaOrigin
        url.reserveCapacity(url.utf8.count + 40 + size.utf8.count + key.utf8.count)
        url += SandboxMediaFiles.prefix
        url += "pictures/"
        url += size
        url += "/"
        url += key
        url += ".png"
        return url
    }

    private func avatarURL(_ user: SandboxUser, size: Int) -> String {
        var url = timeline.mediaOrigin
        url.reserveCapacity(url.utf8.count + 40 + user.avatarKey.utf8.count)
        url += SandboxMediaFiles.prefix
        url += "avatars/"
        url += String(size)
        url += "/"
        url += user.avatarKey
        url += ".png"
        return url
    }
}

/// Weibo's length of a text: a CJK character or an emoji counts 1, two
/// ASCII characters count 1, rounded up; the limit is 140.
func weiboLength(_ text: String) -> Int {
    // Counted on scalars while each one is a character of its own (all but
    // CR LF, in the scripts a status mostly holds); counted on characters,
    // ten times slower, once a scalar that can join another turns up.
    var halves = 0
    var previous: UInt32 = 0
    for scalar in text.unicodeScalars {
        let value = scalar.value
        if value < 0x80 {
            if value != 0x0A || previous != 0x0D { halves += 1 }
        } else if standsAlone(value) {
            halves += 2
        } else {
            halves = text.reduce(0) { $0 + ($1.isASCII ? 1 : 2) }
            break
        }
        previous = value
    }
    return (halves + 1) / 2
}

/// Whether a non-ASCII scalar is always a character of its own: no rule of
/// Unicode's grapheme clusters joins it to a scalar before or after it
/// (Latin-1 and Latin Extended, CJK ideographs, kana, full-width forms and
/// general punctuation; not combining marks, jamo, emoji or joiners).
private func standsAlone(_ value: UInt32) -> Bool {
    switch value {
    case 0x80..<0x300, 0x2010...0x2027, 0x2030...0x205E, 0x3000...0x3029, 0x3030...0x303F, 0x3041...0x3096,
         0x30A0...0x30FF, 0x3400...0x4DBF, 0x4E00...0x9FFF, 0xFF01...0xFF60, 0xFFE0...0xFFE6:
        return true
    default:
        return false
    }
}

extension RandomAccessCollection where Index == Int {
    /// Weibo's `page` (from 1) of `count` items: the items it holds, none past the end.
    func weiboPage(_ page: Int, of count: Int) -> SubSequence {
        let first = Swift.min(endIndex, startIndex + (page - 1) * count)
        return self[first..<Swift.min(endIndex, first + count)]
    }
}
