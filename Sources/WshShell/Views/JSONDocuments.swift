import Foundation
import WshModel

/// The `--json` forms of Model values, with stable field names (README lists
/// them). A status keeps the API's own names (`id`, `idstr`, `created_at`,
/// `text`, `user.screen_name`, …). Every string from the API is stripped of
/// terminal control sequences first, since JSON tools print them decoded.
enum JSONDocuments {
    static func status(_ status: Status, index: Int? = nil) -> [String: Any] {
        var object: [String: Any] = [:]
        object["index"] = index
        object["id"] = status.id
        object["idstr"] = status.identifier
        object["mid"] = status.mid
        object["created_at"] = status.createdAt?.weiboText
        object["text"] = clean(status.text)
        object["source"] = clean(status.source.map(appName))
        object["reposts_count"] = status.repostsCount ?? 0
        object["comments_count"] = status.commentsCount ?? 0
        object["attitudes_count"] = status.attitudesCount ?? 0
        object["pic_urls"] = status.picURLs.map { clean($0) ?? "" }
        if let user = status.user { object["user"] = self.user(user) }
        if let retweeted = status.retweetedStatus { object["retweeted_status"] = self.status(retweeted) }
        return object
    }

    static func user(_ user: User) -> [String: Any] {
        var object: [String: Any] = [:]
        object["id"] = user.id
        object["idstr"] = user.identifier
        object["screen_name"] = clean(user.screenName)
        object["name"] = clean(user.name)
        object["location"] = clean(user.location)
        object["description"] = clean(user.description)
        object["followers_count"] = user.followersCount
        object["friends_count"] = user.friendsCount
        object["statuses_count"] = user.statusesCount
        object["verified"] = user.verified
        return object
    }

    static func comment(_ comment: Comment, index: Int) -> [String: Any] {
        var object: [String: Any] = ["index": index]
        object["id"] = comment.id
        object["idstr"] = comment.identifier
        object["created_at"] = comment.createdAt?.weiboText
        object["text"] = clean(comment.text)
        if let user = comment.user { object["user"] = self.user(user) }
        return object
    }

    /// Pretty JSON text with sorted keys, ending in a newline.
    static func text(_ value: Any) -> String {
        guard let data = try? JSONSerialization.data(withJSONObject: value, options: [.sortedKeys, .withoutEscapingSlashes, .prettyPrinted]) else {
            return "null\n"
        }
        return String(decoding: data, as: UTF8.self) + "\n"
    }

    private static func clean(_ text: String?) -> String? {
        text.map { Sanitizer.clean($0, keepNewlines: true) }
    }

    /// `iPhone客户端` from `<a href="…">iPhone客户端</a>`.
    static func appName(_ html: String) -> String {
        var text = ""
        var inTag = false
        for character in html {
            if character == "<" { inTag = true } else if character == ">" { inTag = false } else if !inTag { text.append(character) }
        }
        return text.trimmingCharacters(in: .whitespaces)
    }
}
