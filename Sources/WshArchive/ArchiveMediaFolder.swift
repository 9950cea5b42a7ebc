/// Where `archive media` keeps the files of an archive: a folder beside the
/// file (`archive.sqlite` → `archive-media/`), each file named by the SHA-256
/// of its content, under a folder of the hash's first two characters, with
/// the extension of the type it was checked to be. The same content from
/// two URLs is one file; `media_files` maps each URL to its hash.
public struct ArchiveMediaFolder: Sendable, Hashable {
    /// The folder.
    public let path: String

    /// The folder of the archive at `archivePath`.
    public init(archivePath: String) {
        let base = archivePath.hasSuffix(".sqlite") ? String(archivePath.dropLast(7)) : archivePath
        path = base + "-media"
    }

    /// The file of `sha256`, a media type `type`, relative to the folder.
    public static func relativePath(sha256: String, type: String?) -> String {
        String(sha256.prefix(2)) + "/" + sha256 + extensionText(type)
    }

    /// The file of `sha256`, a media type `type`, as a whole path.
    public func file(sha256: String, type: String?) -> String {
        path + "/" + Self.relativePath(sha256: sha256, type: type)
    }

    /// `.jpg` for `image/jpeg`, and so on; nothing for a type not listed.
    static func extensionText(_ type: String?) -> String {
        switch type?.split(separator: ";").first.map({ $0.filter { $0 != " " }.lowercased() }) {
        case "image/jpeg": ".jpg"
        case "image/png": ".png"
        case "image/gif": ".gif"
        case "image/webp": ".webp"
        case "image/avif": ".avif"
        case "image/svg+xml": ".svg"
        case "video/mp4": ".mp4"
        case "video/webm": ".webm"
        case "video/quicktime": ".mov"
        case "audio/mpeg": ".mp3"
        case "audio/ogg": ".ogg"
        case "audio/mp4": ".m4a"
        case "audio/wav", "audio/x-wav": ".wav"
        default: ""
        }
    }
}
