/// Status and comment ids, kept as the server sent them: Weibo's decimal
/// numbers (often past 2^53, so compared as digit strings, never through a
/// Double), Mastodon's numeric strings, GoToSocial's ULIDs and Pleroma's
/// flake ids (both ordered as text). Never parsed into an integer.
enum StatusID {
    /// The newest of `ids`; nil when there are none.
    static func newest(of ids: [String]) -> String? {
        ids.max { isOlder($0, than: $1) }
    }

    /// True when `id` is newer than `baseline` (any id is newer than none).
    static func isNewer(_ id: String?, than baseline: String?) -> Bool {
        guard let id else { return false }
        guard let baseline else { return true }
        return isOlder(baseline, than: id)
    }

    /// True when `id` is older (smaller) than `other`; ids that are not both
    /// decimal compare as text.
    static func isOlder(_ id: String, than other: String) -> Bool {
        let a = id.drop { $0 == "0" }, b = other.drop { $0 == "0" }
        if a.allSatisfy(\.isASCIIDigit) && b.allSatisfy(\.isASCIIDigit) && a.count != b.count {
            return a.count < b.count
        }
        return a < b
    }
}

private extension Character {
    var isASCIIDigit: Bool { isASCII && isNumber }
}
