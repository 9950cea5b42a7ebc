import FoundationEssentials

/// Everything one `post` says beyond nothing: its text and the options an
/// API may take with it (Mastodon's visibility, content warning, reply,
/// language, media and poll). One value is handed down to `Dialect.post`, so
/// a new option is a field here, not a parameter on every layer; redo posts
/// the same draft again (re-using the media it uploaded).
///
/// Scheduling (`scheduled_at`) belongs here too when it comes: one more field.
public struct StatusDraft: Sendable, Hashable, Codable {
    public var text: String
    /// `public`, `unlisted`, `private` or `direct`; nil: the account's default.
    public var visibility: Visibility?
    /// A content warning (Mastodon's `spoiler_text`); nil: none.
    public var spoiler: String?
    /// The status this one answers (`in_reply_to_id`).
    public var inReplyTo: String?
    /// An ISO 639-1 code (`en`, `zh`).
    public var language: String?
    /// Files to upload before posting, each with its alt text, in order.
    public var media: [MediaFile]
    /// Ids of media already uploaded (from `media` once sent), in order.
    public var mediaIDs: [String]
    public var poll: PollDraft?

    public init(text: String, visibility: Visibility? = nil, spoiler: String? = nil, inReplyTo: String? = nil,
                language: String? = nil, media: [MediaFile] = [], mediaIDs: [String] = [], poll: PollDraft? = nil) {
        self.text = text
        self.visibility = visibility
        self.spoiler = spoiler
        self.inReplyTo = inReplyTo
        self.language = language
        self.media = media
        self.mediaIDs = mediaIDs
        self.poll = poll
    }

    /// True when the draft is text alone, which every API can post.
    public var isPlainText: Bool {
        visibility == nil && spoiler == nil && inReplyTo == nil && language == nil && media.isEmpty && mediaIDs.isEmpty
            && poll == nil
    }

    /// The options set, as the shell names them (`--cw`, `--poll`…), for a refusal.
    public var optionNames: [String] {
        var names: [String] = []
        if visibility != nil { names.append("--visibility") }
        if spoiler != nil { names.append("--cw") }
        if inReplyTo != nil { names.append("--reply") }
        if language != nil { names.append("--language") }
        if !media.isEmpty || !mediaIDs.isEmpty { names.append("--media") }
        if poll != nil { names.append("--poll") }
        return names
    }

    /// Who may see a status.
    public enum Visibility: String, Sendable, Hashable, Codable, CaseIterable {
        case `public`, unlisted, `private`, direct
    }

    /// Whether `code` has the shape of an ISO 639-1 language code: two ASCII letters.
    public static func isLanguageCode(_ code: String) -> Bool {
        code.utf8.count == 2 && code.utf8.allSatisfy { (UInt8(ascii: "a")...UInt8(ascii: "z")).contains($0 | 0x20) }
    }
}

/// A file to attach, with its alt text.
public struct MediaFile: Sendable, Hashable, Codable {
    public var path: String
    public var description: String?

    public init(path: String, description: String? = nil) {
        self.path = path
        self.description = description
    }

    /// The name sent with the file: the path's last component.
    public var filename: String {
        path.split(separator: "/").last.map(String.init) ?? path
    }

    /// The MIME type its extension says (the server reads the content itself).
    public var contentType: String {
        let ext = filename.split(separator: ".").last.map { $0.lowercased() } ?? ""
        return Self.types[ext] ?? "application/octet-stream"
    }

    static let types = [
        "png": "image/png", "jpg": "image/jpeg", "jpeg": "image/jpeg", "gif": "image/gif", "webp": "image/webp",
        "mp4": "video/mp4", "webm": "video/webm", "mov": "video/quicktime", "mp3": "audio/mpeg", "ogg": "audio/ogg",
        "wav": "audio/wav",
    ]
}

/// A poll to attach: its options, how long it stays open, whether several choices count.
public struct PollDraft: Sendable, Hashable, Codable {
    public var options: [String]
    /// Seconds until it closes.
    public var expiresIn: Int
    public var multiple: Bool

    public init(options: [String], expiresIn: Int = 86_400, multiple: Bool = false) {
        self.options = options
        self.expiresIn = expiresIn
        self.multiple = multiple
    }

    /// Seconds from `1h`, `30m`, `2d`, `90s` or a plain number of seconds; nil for anything else.
    public static func seconds(_ text: String) -> Int? {
        guard let last = text.last else { return nil }
        let units: [Character: Int] = ["s": 1, "m": 60, "h": 3600, "d": 86_400]
        if let unit = units[last], let number = Int(text.dropLast()), number > 0 { return number * unit }
        if let number = Int(text), number > 0 { return number }
        return nil
    }
}

/// A media attachment the server holds: what an upload answers.
public struct MediaAttachment: Sendable, Hashable {
    public var id: String
    public var type: String?
    /// Nil while the server still processes the file.
    public var url: String?
    public var description: String?
}
