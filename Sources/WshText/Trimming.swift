// What Foundation's `trimmingCharacters(in:)` did for wsh, without Foundation's
// character sets (which live in the ICU-backed part of Foundation).

extension StringProtocol {
    /// Without the spaces and tabs at either end: Foundation's
    /// `CharacterSet.whitespaces` (tab and Unicode's space separators).
    public var trimmingSpaces: String {
        trimming(where: { $0 == "\t" || $0.unicodeScalars.allSatisfy { $0.properties.generalCategory == .spaceSeparator } })
    }

    /// Without white space and line breaks at either end:
    /// `CharacterSet.whitespacesAndNewlines`.
    public var trimmingWhitespace: String {
        trimming(where: { $0.isWhitespace })
    }

    /// Without `character` repeated at either end.
    public func trimming(_ character: Character) -> String {
        trimming(where: { $0 == character })
    }

    /// Without the characters at either end for which `isTrimmed` is true.
    public func trimming(where isTrimmed: (Character) -> Bool) -> String {
        guard let first = firstIndex(where: { !isTrimmed($0) }) else { return "" }
        let last = lastIndex(where: { !isTrimmed($0) })!
        return String(self[first...last])
    }
}
