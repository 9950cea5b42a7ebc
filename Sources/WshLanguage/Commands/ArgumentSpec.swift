/// A positional argument of a command: its name for synopsis and help, and how many
/// words it takes.
public struct ArgumentSpec: Sendable, Equatable {
    /// How many words an argument takes.
    public enum Arity: Sendable, Equatable {
        /// Exactly one word.
        case required
        /// Zero or one word.
        case optional
        /// Any number of words, including none; only the last argument may be variadic.
        case variadic
        /// One or more words; only the last argument may be.
        case oneOrMore
    }

    /// The name shown in synopsis and help, by convention upper case: `NAME`.
    public var name: String
    /// One line saying what the argument is.
    public var help: String
    /// How many words it takes.
    public var arity: Arity

    /// Creates an argument.
    public init(_ name: String, help: String = "", arity: Arity = .required) {
        self.name = name
        self.help = help
        self.arity = arity
    }

    var synopsis: String {
        switch arity {
        case .required: name
        case .optional: "[\(name)]"
        case .variadic: "[\(name)…]"
        case .oneOrMore: "\(name)…"
        }
    }
}
