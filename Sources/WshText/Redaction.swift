#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Masks secrets in text before it leaves the process: printed, traced,
/// logged, or written to the history file.
///
/// The one redaction of wsh. A secret (an access token) is matched whole,
/// so ordinary text is never mangled: a secret of `minimumSubstringLength`
/// characters or more is masked wherever it occurs (a random token that long
/// does not occur by chance, and `mute x<token>` must not show it); a shorter
/// one only where it stands as a word of its own, so a one-letter token `t`
/// masks the word `t` but not every `t` of `detail`. The value of every
/// `access_token=` query parameter is masked too.
public enum Redaction {
    /// What a secret is replaced with.
    public static let mask = "***"

    /// Secrets at least this long are masked anywhere; shorter ones as whole words.
    public static let minimumSubstringLength = 8

    /// `text` with every `access_token=` value and every occurrence of `secrets` masked.
    public static func redact(_ text: String, secrets: [String] = []) -> String {
        var result = maskQueryToken(text)
        for secret in secrets where !secret.isEmpty {
            result = mask(secret, in: result)
        }
        return result
    }

    /// `text` with `secret` masked under the whole-token rule.
    static func mask(_ secret: String, in text: String) -> String {
        guard contains(text, secret) else { return text }
        let wholeWordsOnly = secret.count < minimumSubstringLength
        let characters = Array(text)
        let needle = Array(secret)
        guard characters.count >= needle.count else { return text }
        var output = ""
        var start = 0          // the first character not yet copied
        var index = 0
        while index + needle.count <= characters.count {
            if characters[index] == needle[0], Array(characters[index..<(index + needle.count)]) == needle,
               !wholeWordsOnly || (isWordBoundary(characters, before: index) && isWordBoundary(characters, after: index + needle.count)) {
                output += String(characters[start..<index]) + mask
                index += needle.count
                start = index
            } else {
                index += 1
            }
        }
        guard start > 0 else { return text }
        return output + String(characters[start...])
    }

    private static func isWordBoundary(_ characters: [Character], before index: Int) -> Bool {
        index == 0 || !isWordCharacter(characters[index - 1])
    }

    private static func isWordBoundary(_ characters: [Character], after index: Int) -> Bool {
        index == characters.count || !isWordCharacter(characters[index])
    }

    private static func isWordCharacter(_ character: Character) -> Bool {
        character.isLetter || character.isNumber || character == "_"
    }

    /// Masks the value of `access_token=` wherever it appears.
    static func maskQueryToken(_ text: String) -> String {
        let key = "access_token="
        guard contains(text, key) else { return text }
        var output = ""
        var rest = Substring(text)
        while let range = rest.firstRange(of: key) {
            output += rest[..<range.upperBound]
            output += mask
            rest = rest[range.upperBound...]
            let end = rest.firstIndex { $0 == "&" || $0 == " " || $0 == "#" || $0 == "\"" || $0 == "'" || $0.isNewline } ?? rest.endIndex
            rest = rest[end...]
        }
        return output + rest
    }

    /// Whether `needle` occurs in `text`, by bytes: called on everything
    /// written, so it avoids the generic string searching of the standard
    /// library (whose first use costs a start-up scan).
    static func contains(_ text: String, _ needle: String) -> Bool {
        var text = text
        var needle = needle
        return text.withUTF8 { haystack in
            needle.withUTF8 { pattern in
                guard let first = pattern.first, pattern.count <= haystack.count else { return pattern.isEmpty }
                var index = 0
                let last = haystack.count - pattern.count
                while index <= last {
                    if haystack[index] == first && memcmp(haystack.baseAddress! + index, pattern.baseAddress!, pattern.count) == 0 {
                        return true
                    }
                    index += 1
                }
                return false
            }
        }
    }
}
