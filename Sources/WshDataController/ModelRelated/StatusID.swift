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
        // On the UTF-8 bytes: a walk compares every id of every page, and Character's
        // Unicode properties cost more than the rest of the comparison.
        let a = id.utf8.drop { $0 == UInt8(ascii: "0") }, b = other.utf8.drop { $0 == UInt8(ascii: "0") }
        let aDecimal = a.allSatisfy(\.isASCIIDigit), bDecimal = b.allSatisfy(\.isASCIIDigit)
        if aDecimal && bDecimal && a.count != b.count {
            return a.count < b.count
        }
        if (aDecimal || a.allSatisfy(\.isASCII)) && (bDecimal || b.allSatisfy(\.isASCII)) {
            return a.lexicographicallyPrecedes(b)
        }
        return Substring(a) < Substring(b)
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
              id.utf8.allSatisfy(\.isASCIIAlphanumeric), other.utf8.allSatisfy(\.isASCIIAlphanumeric) else { return nil }
        let decimal = id.utf8.allSatisfy(\.isASCIIDigit) && other.utf8.allSatisfy(\.isASCIIDigit)
        guard decimal || id.utf8.count == other.utf8.count else { return nil }
        if isOlder(id, than: other) { return .older }
        return isOlder(other, than: id) ? .newer : .same
    }

    /// `StatusID.order`'s answer.
    enum Order {
        case older, same, newer
    }
}

private extension UInt8 {
    var isASCIIDigit: Bool { self &- UInt8(ascii: "0") < 10 }
    var isASCIIAlphanumeric: Bool { isASCIIDigit || (self | 0x20) &- UInt8(ascii: "a") < 26 }
    var isASCII: Bool { self < 0x80 }
}
