/// A word written so that the wsh language reads it back as that one word,
/// for text wsh writes as commands: `-x` lines and `history --save` scripts.
public enum ShellWord {
    /// `word` bare when it is plain, else single-quoted (literal text), else
    /// double-quoted with the escapes `\\ \" \$ \n \t`.
    public static func quoted(_ word: String) -> String {
        let special = "\"'{}[]()$;\\#"
        if !word.isEmpty, word.unicodeScalars.allSatisfy({ $0.value > 0x20 && $0.value != 0x7F && !special.unicodeScalars.contains($0) }) {
            return word
        }
        if !word.contains("'"), !word.contains(where: \.isNewline) { return "'\(word)'" }
        return "\"" + word.escaped(with: Self.escapes) + "\""
    }

    /// What the language reads back inside double quotes.
    static let escapes: [Character: String] = ["\\": "\\\\", "\"": "\\\"", "$": "\\$", "\n": "\\n", "\t": "\\t"]
}
