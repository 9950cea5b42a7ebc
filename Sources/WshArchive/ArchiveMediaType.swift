/// What a downloaded file is, judged from what the server says it is (its
/// `Content-Type`) and from its first bytes: `archive media` keeps a file
/// only when both say the same picture, video or sound. A login page, an
/// error page in HTML or a JSON answer is refused, whatever its type says.
public enum ArchiveMediaType {
    /// The bytes kept from the start of a file: what a check reads (12 at
    /// most), and enough of a text to show what it is (`<!DOCTYPE html>`).
    public static let headLength = 32

    /// The media type the first bytes of a file show, or nil when they show none wsh checks.
    public static func sniffed(_ head: [UInt8]) -> String? {
        func starts(_ prefix: [UInt8], at offset: Int = 0) -> Bool {
            head.count >= offset + prefix.count && Array(head[offset..<offset + prefix.count]) == prefix
        }
        if starts([0xFF, 0xD8, 0xFF]) { return "image/jpeg" }
        if starts([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) { return "image/png" }
        if starts(Array("GIF8".utf8)) { return "image/gif" }
        if starts(Array("RIFF".utf8)) && starts(Array("WEBP".utf8), at: 8) { return "image/webp" }
        if starts(Array("RIFF".utf8)) && starts(Array("WAVE".utf8), at: 8) { return "audio/wav" }
        if starts(Array("ftyp".utf8), at: 4) {
            // ISO media: the brand says a still picture (AVIF), a QuickTime movie, or MPEG-4.
            if starts(Array("avif".utf8), at: 8) || starts(Array("avis".utf8), at: 8) { return "image/avif" }
            if starts(Array("qt  ".utf8), at: 8) { return "video/quicktime" }
            return "video/mp4"
        }
        if starts([0x1A, 0x45, 0xDF, 0xA3]) { return "video/webm" }
        if starts(Array("OggS".utf8)) { return "audio/ogg" }
        if starts(Array("ID3".utf8)) || (head.count >= 2 && head[0] == 0xFF && head[1] & 0xE0 == 0xE0) { return "audio/mpeg" }
        return nil
    }

    /// The type to keep a file as, when the server's `contentType` and its
    /// first bytes `head` agree; else why it is refused, in a few words.
    public static func checked(contentType: String?, head: [UInt8]) -> Result<String, Refusal> {
        let declared = contentType?.split(separator: ";").first.map { $0.filter { $0 != " " && $0 != "\t" }.lowercased() } ?? ""
        guard ["image/", "video/", "audio/"].contains(where: declared.hasPrefix) else {
            return .failure(Refusal(declared.isEmpty ? "the server gave no type" : "the server says it is \(declared)",
                                    head: head))
        }
        guard let sniffed = sniffed(head) else {
            return .failure(Refusal("it says \(declared), but its bytes are no picture, video or sound wsh knows", head: head))
        }
        guard compatible(declared, sniffed) else {
            return .failure(Refusal("it says \(declared), but its bytes are \(sniffed)", head: head))
        }
        // A name the folder has no extension for (`image/pjpeg`) is kept as what the bytes are.
        return .success(ArchiveMediaFolder.extensionText(declared).isEmpty ? sniffed : declared)
    }

    /// Types that name the same bytes: MP4 and QuickTime share their box
    /// format, as Ogg and WebM carry sound or video.
    private static func compatible(_ declared: String, _ sniffed: String) -> Bool {
        if declared == sniffed { return true }
        let families: [Set<String>] = [
            ["image/jpeg", "image/jpg", "image/pjpeg"],
            ["video/mp4", "video/quicktime", "audio/mp4", "audio/x-m4a", "video/x-m4v", "video/3gpp"],
            ["video/webm", "audio/webm"],
            ["audio/ogg", "video/ogg", "audio/opus", "application/ogg"],
            ["audio/wav", "audio/x-wav", "audio/wave"],
            ["audio/mpeg", "audio/mp3"],
        ]
        return families.contains { $0.contains(declared) && $0.contains(sniffed) }
    }

    /// Why a file was not kept.
    public struct Refusal: Error, Sendable, Hashable {
        /// The reason, in a few words.
        public let reason: String
        /// What the file starts with, when it is text (`<!DOCTYPE html>`): what a user recognises.
        public let start: String?

        init(_ reason: String, head: [UInt8]) {
            self.reason = reason
            let printable = head.prefix { (0x20..<0x7F).contains($0) || $0 == 0x0A || $0 == 0x0D || $0 == 0x09 }
            let text = String(decoding: printable, as: UTF8.self).split(whereSeparator: \.isNewline).first.map(String.init) ?? ""
            start = printable.count == head.count && !text.isEmpty ? text : nil
        }

        /// The reason with how the file starts: `the server says it is text/html (it starts with <!DOCTYPE ht…)`.
        public var line: String {
            start.map { "\(reason) (it starts with \($0)…)" } ?? reason
        }
    }
}
