/// The syntax tree of a script: commands made of words, each with its position.
///
/// Blocks are parsed eagerly (they are code), so `{ echo "}" }` works and an
/// unclosed quote inside a block is a syntax error.
public struct Script: Sendable, Equatable {
    /// The commands in source order.
    public var commands: [CommandNode]
}

/// One command: its words, the first being the command name.
public struct CommandNode: Sendable, Equatable {
    /// The words, at least one.
    public var words: [Word]
    /// Where the command's first word starts.
    public var position: SourcePosition
}

/// One word of a command.
public struct Word: Sendable, Equatable {
    /// How the word was written.
    public enum Form: Sendable, Equatable {
        /// A bare word; `$` substitutions apply.
        case bare([WordPart])
        /// `'text'`: taken literally.
        case singleQuoted(String)
        /// `"text"`: escapes and `$` substitutions apply.
        case doubleQuoted([WordPart])
        /// `{ … }`: a block of code, kept with its source text.
        case block(text: String, script: Script)
    }

    /// How the word was written.
    public var form: Form
    /// Where the word starts.
    public var position: SourcePosition

    /// The word's text when it contains no substitutions (blocks give their text).
    public var literalText: String? {
        switch form {
        case .singleQuoted(let text): return text
        case .block(let text, _): return text
        case .bare(let parts), .doubleQuoted(let parts):
            var text = ""
            for part in parts {
                guard case .literal(let piece) = part else { return nil }
                text += piece
            }
            return text
        }
    }

    /// The word's text when it is a bare word without substitutions, such as a
    /// command name or keyword.
    var bareText: String? {
        if case .bare = form { return literalText }
        return nil
    }
}

/// A piece of a bare or double-quoted word.
public enum WordPart: Sendable, Equatable {
    /// Literal text, escapes already applied.
    case literal(String)
    /// `$name` or `${name}`; `?`, `#`, `@` and `1`…`9` are the special names.
    case variable(String)
    /// `$(script)`: the script's output, trailing newlines trimmed.
    case commandSubstitution(Script)
}
