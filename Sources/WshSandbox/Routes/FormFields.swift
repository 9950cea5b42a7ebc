import Foundation

/// Decodes `application/x-www-form-urlencoded` text: a query string or a POST body.
enum FormFields {
    /// The fields, first value winning; nil when a percent escape is not valid UTF-8.
    static func parse(_ text: Substring) -> [String: String]? {
        var fields: [String: String] = [:]
        for pair in text.split(separator: "&", omittingEmptySubsequences: true) {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            guard let name = decode(parts[0]), let value = decode(parts.count > 1 ? parts[1] : "") else { return nil }
            if fields[name] == nil { fields[name] = value }
        }
        return fields
    }

    private static func decode(_ text: Substring) -> String? {
        // Forms write spaces as `+`; a literal plus arrives as %2B.
        String(text).replacingOccurrences(of: "+", with: " ").removingPercentEncoding
    }
}
