/// A command about to run, as a host shows it for `-x` (``Interpreter/commandWillRun``):
/// its name and its words expanded, and how deeply it is nested.
public struct CommandEcho: Sendable, Equatable {
    /// One word of the line after the command's name.
    public enum Word: Sendable, Equatable {
        /// A value: a word as expanded, an expression operand as evaluated. A host
        /// quotes it when it needs quoting.
        case value(String)
        /// Text shown as written: an operator, `=` in `let`, `in` in `for`, braces of
        /// an expression, or the source of an operand that was not evaluated
        /// (`$b` in `$a == 1 && $b == 2` when `$a` is not 1).
        case syntax(String)

        /// The word's text, unquoted.
        public var text: String {
            switch self {
            case .value(let text), .syntax(let text): text
            }
        }
    }

    /// 1 for a command of the chunk being executed, one more inside each function
    /// call, sourced file and `$(…)`: `sh`'s one `+` per level.
    public var depth: Int
    /// The command's name (`fetch`, `set`, `if`, `elif`), computed names expanded.
    public var name: String
    /// The words after the name.
    public var words: [Word]

    /// The command as one line: the name and values passed through `quote`,
    /// syntax as written, separated by spaces.
    public func line(quoting quote: (String) -> String) -> String {
        ([quote(name)] + words.map { word in
            switch word {
            case .value(let text): quote(text)
            case .syntax(let text): text
            }
        }).joined(separator: " ")
    }
}
