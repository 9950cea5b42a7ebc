extension String {
    /// This text with each character that `escapes` names written as it says:
    /// the one loop behind wsh's escapers, each with its own table.
    func escaped(with escapes: [Character: String]) -> String {
        var out = ""
        out.reserveCapacity(utf8.count + 16)
        for character in self {
            if let escape = escapes[character] { out += escape } else { out.append(character) }
        }
        return out
    }
}
