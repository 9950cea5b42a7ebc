import WshModel

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
