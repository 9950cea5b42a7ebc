/// Weibo status ids: decimal numbers that grow with time, often past 2^53,
/// so they are compared as digit strings, never through a Double.
enum StatusID {
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
