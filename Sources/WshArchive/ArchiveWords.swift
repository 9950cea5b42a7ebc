/// The text of `search_words`, the archive's second full-text table: how a
/// word of one or two characters is found through an index.
///
/// `search` (the trigram tokenizer) finds any part of a word from three
/// characters up, but a trigram has three characters: `天气` or `go` has
/// none. `search_words` (the unicode61 tokenizer) holds the same text with
/// each run of Chinese, Japanese or Korean characters written as its
/// overlapping two-character words, then its last character alone
/// (`今天北京` → `今天 天北 北京 京`): a two-character word is one token,
/// and a single character is the prefix of a token (`"天"*`). Other
/// scripts stay as they are, words unicode61 splits at spaces and
/// punctuation; a one- or two-letter query matches the start of a word.
public enum ArchiveWords {
    /// Whether `scalar` is written without spaces between words: Han, kana, Hangul.
    public static func isCJK(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x4E00...0x9FFF, 0x3400...0x4DBF, 0x20000...0x2FFFF, 0xF900...0xFAFF,  // Han
             0x3007, 0x3040...0x30FF, 0x31F0...0x31FF, 0xFF66...0xFF9F,  // 〇, kana
             0xAC00...0xD7AF, 0x1100...0x11FF, 0x3130...0x318F:  // Hangul
            true
        default:
            false
        }
    }

    /// `text` as `search_words` indexes it.
    public static func indexed(_ text: String) -> String {
        var bytes: [UInt8] = []
        append(text, to: &bytes, escapingJSON: false)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Appends `text` as `search_words` indexes it to `bytes` (UTF-8), with
    /// `escapingJSON` as the inside of a JSON string. Works on the bytes:
    /// a page's worth of Strings appended a character at a time cost more
    /// than SQLite's work on them.
    static func append(_ text: String, to bytes: inout [UInt8], escapingJSON: Bool) {
        var text = text
        text.withUTF8 { utf8 in
            // The CJK character before, as its range in `utf8`, while a run goes on.
            var previous: Range<Int>?
            var index = 0
            while index < utf8.count {
                let lead = utf8[index]
                let length = lead < 0x80 ? 1 : lead < 0xE0 ? 2 : lead < 0xF0 ? 3 : 4
                let end = min(utf8.count, index + length)
                var value = UInt32(lead)
                if length > 1 {
                    value = UInt32(lead) & (length == 2 ? 0x1F : length == 3 ? 0x0F : 0x07)
                    for offset in (index + 1)..<end { value = value << 6 | UInt32(utf8[offset] & 0x3F) }
                }
                if let scalar = Unicode.Scalar(value), isCJK(scalar) {
                    if let before = previous {
                        bytes.append(UInt8(ascii: " "))
                        bytes += utf8[before]
                        bytes += utf8[index..<end]
                    }
                    previous = index..<end
                } else {
                    if let before = previous {
                        bytes.append(UInt8(ascii: " "))
                        bytes += utf8[before]
                        bytes.append(UInt8(ascii: " "))
                        previous = nil
                    }
                    if escapingJSON, length == 1 {
                        JSONText.appendEscaped(lead, to: &bytes)
                    } else {
                        bytes += utf8[index..<end]
                    }
                }
                index = end
            }
            if let before = previous {
                bytes.append(UInt8(ascii: " "))
                bytes += utf8[before]
            }
        }
    }

    /// How one word of a query is looked up.
    public enum Term: Sendable, Hashable {
        /// Three characters or more: a phrase of `search` (trigram).
        case trigram(String)
        /// One or two characters of one script: an FTS5 query of `search_words`.
        case word(String)
        /// Anything else short (punctuation, mixed scripts): a scan with LIKE.
        case scan(String)
    }

    /// How `word` (no spaces) is looked up.
    public static func term(_ word: String) -> Term {
        let scalars = Array(word.unicodeScalars)
        if scalars.count >= 3 { return .trigram(word) }
        if scalars.allSatisfy(isCJK) {
            // Two characters are one token; one character starts tokens (or is the last of a run).
            return .word(quoted(word) + (scalars.count == 1 ? "*" : ""))
        }
        if scalars.allSatisfy({ !isCJK($0) && ($0.properties.isAlphabetic || $0.properties.numericType != nil) }) {
            return .word(quoted(word) + "*")
        }
        return .scan(word)
    }

    /// `text` as an FTS5 string: between double quotes, a quote doubled.
    public static func quoted(_ text: String) -> String {
        "\"" + text.replacing("\"", with: "\"\"") + "\""
    }
}
