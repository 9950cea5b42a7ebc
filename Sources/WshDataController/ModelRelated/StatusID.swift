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

    /// How `id` stands to `other`, when that can be told for sure: ids that
    /// are both decimal compare as numbers (Weibo's, Mastodon's snowflakes);
    /// other ids of letters and digits only when of one length, as the
    /// fixed-width ids that sort as text are (GoToSocial's ULIDs, Pleroma's
    /// flake ids, Misskey's aid). Nil otherwise: a Pleroma status from before
    /// its flake ids (a number) beside a flake id, ids of two widths, a UUID
    /// (a random one does not sort), an empty id. A walk stops on ids going
    /// the wrong way only when this tells (see `PageWalk`).
    static func order(_ id: String, _ other: String) -> Order? {
        guard !id.isEmpty, !other.isEmpty,
              id.allSatisfy(\.isASCIIAlphanumeric), other.allSatisfy(\.isASCIIAlphanumeric) else { return nil }
        let decimal = id.allSatisfy(\.isASCIIDigit) && other.allSatisfy(\.isASCIIDigit)
        guard decimal || id.count == other.count else { return nil }
        if isOlder(id, than: other) { return .older }
        return isOlder(other, than: id) ? .newer : .same
    }

    /// `StatusID.order`'s answer.
    enum Order {
        case older, same, newer
    }
}

private extension Character {
    var isASCIIDigit: Bool { isASCII && isNumber }
    var isASCIIAlphanumeric: Bool { isASCII && (isNumber || isLetter) }
}
