import WshModel
import WshText

/// One row of the timeline list: every string the row shows, ready to print.
public struct StatusCellViewModel: Sendable, Hashable {
    /// The row number, from 1, as `detail N` takes it.
    public let index: Int
    /// The status id, empty when the API sent none.
    public let id: String
    /// `@screen_name`.
    public let author: String
    /// `05-31 17:46`, in the local zone.
    public let time: String
    /// The text on one line; a content warning instead of the text it hides
    /// (`CW: spoilers`); a boost as `↻ @who boosted · ` and the boosted text.
    public let text: String
    public let reposts: Int
    public let comments: Int
    public let likes: Int
    /// `↻3 ✎5 ♥10`: reposts, comments, likes.
    public let countsText: String
    /// True when the status reposts another.
    public let isRetweet: Bool
    /// How many pictures it carries (videos and audio included: every attachment).
    public let pictureCount: Int
    /// `[CW] [RT] [poll] [2 pics] [1 video]`, empty when none applies.
    public let markers: String

    /// The row for `status` at row number `index`.
    public init(status: Status, index: Int) {
        self.index = index
        id = TerminalText.sanitize(status.identifier)
        author = DisplayText.author(status.user)
        time = DisplayText.shortTime(status.createdAt)
        text = DisplayText.rowText(status)
        reposts = status.repostsCount ?? 0
        comments = status.commentsCount ?? 0
        likes = status.attitudesCount ?? 0
        countsText = "↻\(reposts) ✎\(comments) ♥\(likes)"
        isRetweet = status.retweetedStatus != nil
        pictureCount = status.picURLs.isEmpty ? (status.thumbnailPic == nil ? 0 : 1) : status.picURLs.count
        // Put together one by one: `joined(separator:)` is the standard library's generic,
        // which looks the array's conformances up by name on its first call in a run.
        var markers = ""
        func mark(_ marker: String) { markers += markers.isEmpty ? marker : " " + marker }
        if status.contentWarning != nil { mark("[CW]") }
        if isRetweet && !status.isBoost { mark("[RT]") }
        if status.poll != nil { mark("[poll]") }
        if status.quote != nil { mark("❝") }
        if status.sensitive == true && status.contentWarning == nil && pictureCount > 0 { mark("[sensitive]") }
        for (kind, count) in MediaKind.counts(of: status, total: pictureCount) {
            mark("[\(DisplayText.plural(count, kind.word))]")
        }
        self.markers = markers
    }
}

/// What an attachment is, for the Views: Weibo attaches pictures only;
/// Mastodon names each attachment's `type` (`image`, `gifv`, `video`,
/// `audio`, `unknown`), and a video must not be counted as a picture.
public enum MediaKind: String, Sendable, Hashable, CaseIterable {
    case picture, video, audio, media

    /// The kind an API's type names; nil (Weibo) is a picture.
    public init(apiType: String?) {
        switch apiType?.lowercased() {
        case nil, "image", "gifv": self = .picture
        case "video": self = .video
        case "audio": self = .audio
        default: self = .media
        }
    }

    /// The word a count takes: `2 pics`, `1 video`.
    public var word: String {
        switch self {
        case .picture: "pic"
        case .video: "video"
        case .audio: "audio"
        case .media: "attachment"
        }
    }

    /// The count of each kind among `status`'s `total` attachments, pictures first.
    static func counts(of status: Status, total: Int) -> [(MediaKind, Int)] {
        var counts: [MediaKind: Int] = [:]
        for index in 0..<total {
            counts[MediaKind(apiType: index < status.mediaTypes.count ? status.mediaTypes[index] : nil), default: 0] += 1
        }
        return MediaKind.allCases.compactMap { kind in counts[kind].map { (kind, $0) } }
    }
}
