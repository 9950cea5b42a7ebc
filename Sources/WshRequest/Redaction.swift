import Foundation

/// Removes secrets from text before it is stored in an error, printed, traced or logged.
public enum Redaction {
    /// What a secret is replaced with.
    public static let mask = "***"

    /// `text` with every `access_token=` value and every occurrence of `secrets` masked.
    public static func redact(_ text: String, secrets: [String] = []) -> String {
        var result = maskQueryToken(text)
        for secret in secrets where !secret.isEmpty {
            result = result.replacingOccurrences(of: secret, with: mask)
        }
        return result
    }

    /// Masks the value of `access_token=` wherever it appears.
    static func maskQueryToken(_ text: String) -> String {
        let key = "access_token="
        guard text.contains(key) else { return text }
        var output = ""
        var rest = Substring(text)
        while let range = rest.range(of: key) {
            output += rest[..<range.upperBound]
            output += mask
            rest = rest[range.upperBound...]
            let end = rest.firstIndex { $0 == "&" || $0 == " " || $0 == "#" || $0 == "\"" || $0 == "'" || $0.isNewline } ?? rest.endIndex
            rest = rest[end...]
        }
        return output + rest
    }
}
