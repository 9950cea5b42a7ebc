import FoundationEssentials
import WshModel

/// What the Mastodon side reads from the one timeline: boosts, favourite
/// counts, hashtags, replies, and what generated statuses carry only there
/// (content warnings, polls, a custom emoji, alt text).
extension Timeline {
    /// The text of a Weibo repost with no remark of its own; such a repost is a
    /// Mastodon boost, any other repost a status quoting what it reposts.
    static let boostText = "转发微博"

    /// True when `status` is a boost on the Mastodon side.
    func isBoost(_ status: SandboxStatus) -> Bool {
        status.retweetedOrdinal != nil && status.text == Self.boostText
    }

    /// What a boost boosts: the status reposted directly (Weibo nests the
    /// original at the root of a chain; Mastodon boosts the status itself).
    func boosted(by boost: SandboxStatus) -> SandboxStatus? {
        (boost.repostedOrdinal ?? boost.retweetedOrdinal).flatMap { status(ordinal: $0) }
    }

    /// `user`'s boost of the status with `ordinal` still there, if any.
    func boost(of ordinal: Int, by user: Int) -> SandboxStatus? {
        let candidates = (postedReposts[ordinal] ?? []) + (data.repostOrdinalsByOrdinal[ordinal] ?? [])
        for candidate in candidates where !isDeleted(ordinal: candidate) {
            if let status = status(ordinal: candidate), status.authorIndex == user, isBoost(status),
               (status.repostedOrdinal ?? status.retweetedOrdinal) == ordinal { return status }
        }
        return nil
    }

    /// How many users favourited the status with `ordinal` through the API.
    func favouritersCount(of ordinal: Int) -> Int {
        favourites.values.reduce(0) { $0 + ($1.contains { $0.ordinal == ordinal } ? 1 : 0) }
    }

    /// Every status on the timeline, newest first.
    func allOrdinals() -> [Int] {
        var ordinals: [Int] = []
        ordinals.reserveCapacity(count)
        var ordinal = ordinalCount
        while ordinal >= 1 {
            if !isDeleted(ordinal: ordinal) { ordinals.append(ordinal) }
            ordinal -= 1
        }
        return ordinals
    }

    /// The comments replying to the comment with `id` (made through the API), oldest first.
    func replies(toComment id: Int64, on status: SandboxStatus) -> [SandboxComment] {
        (createdComments[status.ordinal] ?? []).filter { $0.replyToID == id && !deletedCommentIDs.contains($0.id) }
    }

    // MARK: Generated extras (a pure function of the ordinal)

    /// A content warning on about 1 generated status in 17.
    func generatedSpoiler(_ status: SandboxStatus) -> String? {
        status.ordinal <= data.statuses.count && status.ordinal % 17 == 7 ? "剧透 spoiler" : nil
    }

    /// The `:wsh:` custom emoji ends about 1 generated status in 10 on the Mastodon side.
    func hasGeneratedEmoji(_ status: SandboxStatus) -> Bool {
        status.ordinal <= data.statuses.count && status.ordinal % 10 == 3 && status.retweetedOrdinal == nil
    }

    /// A poll on about 1 generated status in 23 without pictures or a repost.
    func hasGeneratedPoll(_ status: SandboxStatus) -> Bool {
        status.ordinal <= data.statuses.count && status.ordinal % 23 == 11
            && status.pictureKeys.isEmpty && status.retweetedOrdinal == nil
    }

    /// Alt text on the first picture of about 1 status in 3 with pictures.
    func generatedAltText(_ status: SandboxStatus, picture: Int) -> String? {
        picture == 0 && status.ordinal % 3 == 0 ? "照片 photo \(status.ordinal)" : nil
    }
}

/// Hashtags in a text: Weibo's `#topic#` and Mastodon's `#tag`.
enum Hashtags {
    /// The tags of `text`, each once, in order, as written (case kept).
    static func names(in text: String) -> [String] {
        var found: [String] = []
        for token in tokens(in: text) {
            if case .hashtag(let name, _) = token, !found.contains(where: { $0.lowercased() == name.lowercased() }) {
                found.append(name)
            }
        }
        return found
    }

    /// True when `text` has the tag `name` (case-insensitive).
    static func text(_ text: String, has name: String) -> Bool {
        let wanted = name.lowercased()
        return text.contains("#") && names(in: text).contains { $0.lowercased() == wanted }
    }

    /// A piece of a status's text, as the Mastodon content renders it.
    enum Token: Equatable {
        case text(String)
        case newline
        /// `http://…` or `https://…` up to a space or a character not in URLs.
        case link(String)
        case mention(String)
        /// The tag's name and how it was written (`#Swift#` or `#Swift`).
        case hashtag(String, written: String)
    }

    /// Splits a text into plain runs, line breaks, links, `@mentions` and hashtags.
    /// A mention is `@` and the name characters of `DataSet.mentionedUsers`.
    static func tokens(in text: String) -> [Token] {
        var tokens: [Token] = []
        var plain = ""
        let characters = Array(text)
        var i = 0
        func flush() {
            if !plain.isEmpty { tokens.append(.text(plain)); plain = "" }
        }
        func isNameCharacter(_ c: Character) -> Bool { c.isLetter || c.isNumber || c == "_" || c == "-" }
        func isTagCharacter(_ c: Character) -> Bool { c.isLetter || c.isNumber || c == "_" }
        while i < characters.count {
            let c = characters[i]
            if c == "\n" {
                flush()
                tokens.append(.newline)
                i += 1
            } else if c == "h", String(characters[i..<min(characters.count, i + 8)]).hasPrefix("https://")
                        || String(characters[i..<min(characters.count, i + 7)]) == "http://" {
                var end = i
                while end < characters.count, characters[end].isASCII, !characters[end].isWhitespace,
                      !"<>\"".contains(characters[end]) { end += 1 }
                flush()
                tokens.append(.link(String(characters[i..<end])))
                i = end
            } else if c == "@", i + 1 < characters.count, isNameCharacter(characters[i + 1]),
                      i == 0 || !isNameCharacter(characters[i - 1]) {
                var end = i + 1
                while end < characters.count, isNameCharacter(characters[end]) { end += 1 }
                flush()
                tokens.append(.mention(String(characters[(i + 1)..<end])))
                i = end
            } else if c == "#", i + 1 < characters.count, isTagCharacter(characters[i + 1]),
                      i == 0 || !isTagCharacter(characters[i - 1]) {
                var end = i + 1
                while end < characters.count, isTagCharacter(characters[end]) { end += 1 }
                let name = String(characters[(i + 1)..<end])
                // Weibo closes a topic with a second `#`; it belongs to the tag.
                if end < characters.count, characters[end] == "#" { end += 1 }
                flush()
                tokens.append(.hashtag(name, written: String(characters[i..<end])))
                i = end
            } else {
                plain.append(c)
                i += 1
            }
        }
        flush()
        return tokens
    }
}
