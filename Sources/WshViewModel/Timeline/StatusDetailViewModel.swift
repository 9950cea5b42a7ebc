import WshModel
import WshText

/// The detail screen of one status: full text, author, app, time, counts,
/// pictures, and the status it reposts, nested.
public struct StatusDetailViewModel: Sendable, Hashable {
    /// The status id, empty when the API sent none.
    public let id: String
    /// `@screen_name`.
    public let author: String
    /// The author's display name, empty when the API sent none.
    public let authorName: String
    /// `2011-05-31 17:46:55 +0800`, in the local zone.
    public let time: String
    /// The full text, line breaks kept.
    public let text: String
    /// The posting app without its HTML, e.g. `Weibo Web`.
    public let source: String
    public let reposts: Int
    public let comments: Int
    public let likes: Int
    /// `3 reposts · 5 comments · 10 likes`.
    public let countsText: String
    /// The URL of every picture.
    public let pictureURLs: [String]
    /// The description (alt text) of each picture, "" where it has none.
    public let pictureDescriptions: [String]
    /// The kind of each attachment, in order (a picture, a video, audio).
    public let mediaKinds: [MediaKind]
    /// `pictures:` when every attachment is a picture, else `media:`.
    public let mediaHeading: String
    /// `sensitive media (marked by the author)`, "" when not so marked.
    public let sensitiveNote: String
    /// What the token's owner did to it, as the server says: `you favourited · reposted · bookmarked`
    /// (those that hold); "" when none does or the server does not say.
    public let yoursNote: String
    /// Emoji reactions (Pleroma's, Akkoma's): `❤️ 5 · 👍 1 (you)`, "" when none.
    public let reactionsLine: String
    /// `edited 2024-11-06 07:08:38 +0000`, "" when never edited.
    public let editedNote: String
    /// The link preview: `title — url`, "" when there is none.
    public let cardLine: String
    /// `#a #b` and `@x @y`: the tags and mentions the server lists, "" when none.
    public let tagsLine: String
    public let mentionsLine: String
    /// The content warning the text hides behind, "" when it has none.
    public let contentWarning: String
    /// `filtered by your filter "spoilers" (warn)`: the server's filters that
    /// matched it, which the list shows in place of its text; "" when none.
    public let filterNote: String
    /// Who may see it (`public`, `unlisted`, `private`, `direct`), "" when the API does not say.
    public let visibility: String
    /// The poll's options with their votes (`yes · 3 votes`), and whether it closed; empty without a poll.
    public let pollLines: [String]
    /// `↻ @who boosted` for a boost (the boosted status is `retweeted`), "" otherwise.
    public let boostedBy: String
    /// `:blobcat: :verified:`: the custom emojis the text names, "" when none.
    public let emojiLine: String
    /// The quoted status, itself a detail, when the server sent it and it may be shown.
    public var quoted: StatusDetailViewModel? { quotedStorage.first }
    private let quotedStorage: [StatusDetailViewModel]
    /// Why a quoted status is not shown (`quote pending (…)`, `quote removed by its author`), "" otherwise.
    public let quoteNote: String
    /// The reposted status, itself a detail (and possibly reposting another).
    public var retweeted: StatusDetailViewModel? { retweetedStorage.first }
    // An array gives the nested detail the indirection a recursive struct needs.
    private let retweetedStorage: [StatusDetailViewModel]

    /// The status as `detail N --json` shows it.
    public let document: StatusDocument

    /// The detail of `status`.
    public init(status: Status) {
        document = StatusDocument(status)
        id = TerminalText.sanitize(status.identifier)
        author = DisplayText.author(status.user)
        authorName = TerminalText.sanitize(status.user?.name)
        time = DisplayText.fullTime(status.createdAt)
        text = TerminalText.sanitize(status.text, .multiline)
        source = DisplayText.sourceName(status.source)
        reposts = status.repostsCount ?? 0
        comments = status.commentsCount ?? 0
        likes = status.attitudesCount ?? 0
        countsText = [DisplayText.plural(reposts, "repost"), DisplayText.plural(comments, "comment"),
                      DisplayText.plural(likes, "like")].joined(separator: " · ")
        pictureURLs = (status.picURLs.isEmpty ? [status.originalPic ?? status.thumbnailPic].compactMap { $0 } : status.picURLs)
            .map { TerminalText.sanitize($0) }
        pictureDescriptions = pictureURLs.indices.map { index in
            index < status.mediaDescriptions.count ? TerminalText.sanitize(status.mediaDescriptions[index]) : ""
        }
        mediaKinds = pictureURLs.indices.map { MediaKind(apiType: $0 < status.mediaTypes.count ? status.mediaTypes[$0] : nil) }
        mediaHeading = mediaKinds.allSatisfy { $0 == .picture } ? "pictures:" : "media:"
        sensitiveNote = status.sensitive == true && !pictureURLs.isEmpty ? "sensitive media (marked by the author)" : ""
        let yours = [(status.favorited, "favourited"), (status.reposted, "reposted"), (status.bookmarked, "bookmarked")]
            .filter { $0.0 == true }.map(\.1)
        yoursNote = yours.isEmpty ? "" : "you " + yours.joined(separator: " · ")
        reactionsLine = TerminalText.sanitize(status.reactions.map { "\($0.name) \($0.count)" + ($0.me ? " (you)" : "") }
            .joined(separator: " · "))
        editedNote = status.editedAt.map { "edited " + DisplayText.fullTime($0) } ?? ""
        cardLine = status.card.map { card in
            TerminalText.sanitize(card.title.isEmpty ? card.url : card.title + " — " + card.url)
        } ?? ""
        tagsLine = TerminalText.sanitize(status.tags.map { "#" + $0 }.joined(separator: " "))
        mentionsLine = TerminalText.sanitize(status.mentions.map { "@" + $0 }.joined(separator: " "))
        contentWarning = TerminalText.sanitize(status.contentWarning)
        filterNote = status.filterMatches.isEmpty ? ""
            : "filtered by your filter " + status.filterMatches.map { "\"\(TerminalText.sanitize($0.title))\" (\(TerminalText.sanitize($0.action)))" }
                .joined(separator: ", ")
        visibility = TerminalText.sanitize(status.visibility)
        if let poll = status.poll {
            // Numbered as `vote N CHOICE…` takes them; a mark on the options the token's owner chose.
            pollLines = poll.options.enumerated().map { index, option in
                "\(index + 1). " + TerminalText.sanitize(option.title)
                    + (option.votes.map { " · " + DisplayText.plural($0, "vote") } ?? "")
                    + (poll.ownVotes.contains(index) ? " ✓" : "")
            } + [(poll.expired ? "(closed)" : poll.expiresAt.map { "(open until \(DisplayText.fullTime($0)))" } ?? "(open)")
                 + (poll.votersCount.map { " · " + DisplayText.plural($0, "voter") } ?? "")
                 + (poll.multiple == true ? " · several choices" : "") + (poll.voted == true ? " · you voted" : "")]
        } else {
            pollLines = []
        }
        emojiLine = TerminalText.sanitize(status.emojis.map { ":\($0.shortcode):" }.joined(separator: " "))
        let showsQuote = status.quote.map { $0.hiddenReason.isEmpty } ?? false
        quotedStorage = showsQuote ? status.quote?.status.map { [StatusDetailViewModel(status: $0)] } ?? [] : []
        quoteNote = TerminalText.sanitize(status.quote?.hiddenReason)
        boostedBy = status.isBoost ? "↻ \(author) boosted" : ""
        retweetedStorage = status.retweetedStatus.map { [StatusDetailViewModel(status: $0)] } ?? []
    }
}
