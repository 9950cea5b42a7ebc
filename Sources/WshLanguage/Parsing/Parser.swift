/// Turns source text into a ``Script``.
///
/// The parser works on UTF-8 bytes in one forward pass, so a 1 MB line or a
/// 100 000-line script parses in linear time. Input is validated first: invalid
/// UTF-8 and NUL bytes are syntax errors, never crashes.
public struct Parser {
    /// How deeply blocks, `$(…)` and parentheses may nest; deeper input is a syntax
    /// error instead of a native stack overflow.
    public static let maxNesting = 100

    private let bytes: [UInt8]
    private let file: String
    private var index = 0
    private var line: Int
    private var column = 1
    private var depth = 0

    private init(bytes: [UInt8], file: String, firstLine: Int) {
        self.bytes = bytes
        self.file = file
        self.line = firstLine
    }

    /// Parses `source`; `file` and `firstLine` label positions so errors read
    /// `FILE:LINE:`.
    public static func parse(
        _ source: String, file: String = "-", firstLine: Int = 1
    ) throws(LanguageError) -> Script {
        try parse(bytes: Array(source.utf8), file: file, firstLine: firstLine)
    }

    /// Parses raw bytes, rejecting invalid UTF-8 and NUL bytes with a syntax error.
    public static func parse(
        bytes: [UInt8], file: String = "-", firstLine: Int = 1
    ) throws(LanguageError) -> Script {
        try validate(bytes, file: file, firstLine: firstLine)
        var parser = Parser(bytes: bytes, file: file, firstLine: firstLine)
        return try parser.parseScript(terminator: nil, opener: nil)
    }

    /// Whether `source` is a complete chunk. False when it ends inside a quote,
    /// a block, a `$(` or after a trailing backslash, so a prompt should read more.
    /// Other syntax errors count as complete: running the chunk reports them.
    public static func isComplete(_ source: String) -> Bool {
        do {
            _ = try parse(source)
            return true
        } catch {
            return !error.isIncompleteInput
        }
    }

    // MARK: Validation

    private static func validate(_ bytes: [UInt8], file: String, firstLine: Int) throws(LanguageError) {
        var line = firstLine
        var i = 0
        let count = bytes.count
        while i < count {
            let byte = bytes[i]
            if byte < 0x80 {
                if byte == 0 { throw invalid("NUL byte in input", file, line) }
                if byte == 0x0A { line += 1 }
                i += 1
                continue
            }
            // Decode the sequence length and check continuation bytes and ranges.
            let length: Int
            var scalar: UInt32
            switch byte {
            case 0xC2...0xDF: length = 2; scalar = UInt32(byte & 0x1F)
            case 0xE0...0xEF: length = 3; scalar = UInt32(byte & 0x0F)
            case 0xF0...0xF4: length = 4; scalar = UInt32(byte & 0x07)
            default: throw invalid("invalid UTF-8 in input", file, line)
            }
            guard i + length <= count else { throw invalid("invalid UTF-8 in input", file, line) }
            for k in 1..<length {
                let next = bytes[i + k]
                guard next & 0xC0 == 0x80 else { throw invalid("invalid UTF-8 in input", file, line) }
                scalar = scalar << 6 | UInt32(next & 0x3F)
            }
            let minimum: UInt32 = length == 2 ? 0x80 : length == 3 ? 0x800 : 0x10000
            guard scalar >= minimum, scalar <= 0x10FFFF, !(0xD800...0xDFFF).contains(scalar) else {
                throw invalid("invalid UTF-8 in input", file, line)
            }
            i += length
        }
    }

    private static func invalid(_ message: String, _ file: String, _ line: Int) -> LanguageError {
        LanguageError(.syntax, message, position: SourcePosition(file: file, line: line, column: 1))
    }

    // MARK: Scanning helpers

    private var atEnd: Bool { index >= bytes.count }
    private var current: UInt8 { bytes[index] }
    private var position: SourcePosition { SourcePosition(file: file, line: line, column: column) }

    private func peek(_ offset: Int) -> UInt8? {
        index + offset < bytes.count ? bytes[index + offset] : nil
    }

    private mutating func advance() {
        let byte = bytes[index]
        index += 1
        if byte == UInt8(ascii: "\n") {
            line += 1
            column = 1
        } else if byte & 0xC0 != 0x80 {
            column += 1
        }
    }

    private func error(_ message: String, at position: SourcePosition, incomplete: Bool = false) -> LanguageError {
        LanguageError(.syntax, message, position: position, isIncompleteInput: incomplete)
    }

    private mutating func enterNesting(at opener: SourcePosition) throws(LanguageError) {
        depth += 1
        if depth > Parser.maxNesting {
            throw error("nesting deeper than \(Parser.maxNesting) levels", at: opener)
        }
    }

    private static func isHorizontalSpace(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") || byte == UInt8(ascii: "\r")
    }

    /// Skips spaces, tabs and backslash-newline continuations. Returns false at a
    /// trailing backslash at the end of input, which is incomplete.
    private mutating func skipHorizontalSpace() throws(LanguageError) {
        while !atEnd {
            if Parser.isHorizontalSpace(current) {
                advance()
            } else if current == UInt8(ascii: "\\") {
                guard let next = peek(1) else {
                    throw error("trailing backslash", at: position, incomplete: true)
                }
                guard next == UInt8(ascii: "\n") else { return }
                advance()
                advance()
            } else {
                return
            }
        }
    }

    /// After a command's first word, `#` starts a comment only when a space,
    /// a tab or the end of the line follows it, so `# note` comments while
    /// `#topic#` (a Weibo topic in `post`) stays a word and is not lost.
    private var startsTrailingComment: Bool {
        guard let next = peek(1) else { return true }
        return Parser.isHorizontalSpace(next) || next == UInt8(ascii: "\n")
    }

    private mutating func skipComment() {
        while !atEnd && current != UInt8(ascii: "\n") { advance() }
    }

    // MARK: Grammar

    private mutating func parseScript(terminator: UInt8?, opener: SourcePosition?) throws(LanguageError) -> Script {
        var commands: [CommandNode] = []
        while true {
            try skipHorizontalSpace()
            if atEnd {
                if let terminator, let opener {
                    let what = terminator == UInt8(ascii: "}") ? "missing close-brace" : "missing close-paren of $("
                    throw error(what, at: opener, incomplete: true)
                }
                return Script(commands: commands)
            }
            let byte = current
            if let terminator, byte == terminator {
                advance()
                return Script(commands: commands)
            }
            switch byte {
            case UInt8(ascii: "\n"), UInt8(ascii: ";"):
                advance()
            case UInt8(ascii: "#"):
                skipComment()
            case UInt8(ascii: "}"):
                throw error("unexpected close-brace", at: position)
            default:
                if let command = try parseCommand(terminator: terminator) {
                    commands.append(command)
                }
            }
        }
    }

    private mutating func parseCommand(terminator: UInt8?) throws(LanguageError) -> CommandNode? {
        let start = position
        var words: [Word] = []
        while true {
            try skipHorizontalSpace()
            if atEnd { break }
            let byte = current
            if byte == UInt8(ascii: "\n") || byte == UInt8(ascii: ";") { break }
            if let terminator, byte == terminator { break }
            if byte == UInt8(ascii: "#") && startsTrailingComment {
                skipComment()
                break
            }
            if byte == UInt8(ascii: "}") {
                throw error("unexpected close-brace", at: position)
            }
            words.append(try parseWord(terminator: terminator))
        }
        return words.isEmpty ? nil : CommandNode(words: words, position: start)
    }

    private mutating func parseWord(terminator: UInt8?) throws(LanguageError) -> Word {
        let start = position
        let form: Word.Form
        switch current {
        case UInt8(ascii: "{"): form = try parseBlock()
        case UInt8(ascii: "\""): form = .doubleQuoted(try parseDoubleQuoted())
        case UInt8(ascii: "'"): form = .singleQuoted(try parseSingleQuoted())
        default: return Word(form: .bare(try parseBare(terminator: terminator)), position: start)
        }
        // A quoted word or block must end where it closes; `"a"b` is a mistake.
        if !atEnd {
            let byte = current
            let separates =
                Parser.isHorizontalSpace(byte) || byte == UInt8(ascii: "\n") || byte == UInt8(ascii: ";")
                || byte == terminator || byte == UInt8(ascii: "}")
                || (byte == UInt8(ascii: "\\") && peek(1) == UInt8(ascii: "\n"))
            if !separates {
                throw error("extra characters after close-quote or close-brace", at: position)
            }
        }
        return Word(form: form, position: start)
    }

    private mutating func parseBlock() throws(LanguageError) -> Word.Form {
        let opener = position
        advance()
        try enterNesting(at: opener)
        let textStart = index
        let script = try parseScript(terminator: UInt8(ascii: "}"), opener: opener)
        depth -= 1
        let text = String(decoding: bytes[textStart..<(index - 1)], as: UTF8.self)
        return .block(text: text, script: script)
    }

    private mutating func parseSingleQuoted() throws(LanguageError) -> String {
        let opener = position
        advance()
        let textStart = index
        while !atEnd && current != UInt8(ascii: "'") { advance() }
        if atEnd { throw error("missing close-quote '", at: opener, incomplete: true) }
        let text = String(decoding: bytes[textStart..<index], as: UTF8.self)
        advance()
        return text
    }

    private mutating func parseDoubleQuoted() throws(LanguageError) -> [WordPart] {
        let opener = position
        advance()
        var parts = PartsBuilder()
        while true {
            if atEnd { throw error("missing close-quote \"", at: opener, incomplete: true) }
            let byte = current
            switch byte {
            case UInt8(ascii: "\""):
                advance()
                return parts.finish()
            case UInt8(ascii: "\\"):
                advance()
                if atEnd { throw error("missing close-quote \"", at: opener, incomplete: true) }
                let escaped = current
                advance()
                switch escaped {
                case UInt8(ascii: "n"): parts.append(byte: UInt8(ascii: "\n"))
                case UInt8(ascii: "t"): parts.append(byte: UInt8(ascii: "\t"))
                case UInt8(ascii: "\\"), UInt8(ascii: "\""), UInt8(ascii: "$"): parts.append(byte: escaped)
                case UInt8(ascii: "\n"): break  // line continuation inside quotes
                default:
                    parts.append(byte: UInt8(ascii: "\\"))
                    parts.append(byte: escaped)
                }
            case UInt8(ascii: "$"):
                try parseDollar(into: &parts)
            default:
                parts.append(byte: byte)
                advance()
            }
        }
    }

    private mutating func parseBare(terminator: UInt8?) throws(LanguageError) -> [WordPart] {
        var parts = PartsBuilder()
        // Inside `$(…)`, parentheses that open within a word close within it, so
        // `$(expr (1+2)*3)` keeps its inner parentheses.
        var parenDepth = 0
        while !atEnd {
            let byte = current
            if Parser.isHorizontalSpace(byte) || byte == UInt8(ascii: "\n") || byte == UInt8(ascii: ";")
                || byte == UInt8(ascii: "}")
            {
                break
            }
            if byte == UInt8(ascii: ")") && terminator == UInt8(ascii: ")") {
                if parenDepth == 0 { break }
                parenDepth -= 1
            } else if byte == UInt8(ascii: "(") {
                parenDepth += 1
            }
            switch byte {
            case UInt8(ascii: "\\"):
                guard let next = peek(1) else {
                    throw error("trailing backslash", at: position, incomplete: true)
                }
                if next == UInt8(ascii: "\n") { return parts.finish() }  // continuation ends the word
                advance()
                advance()
                switch next {
                case UInt8(ascii: "n"): parts.append(byte: UInt8(ascii: "\n"))
                case UInt8(ascii: "t"): parts.append(byte: UInt8(ascii: "\t"))
                default: parts.append(byte: next)
                }
            case UInt8(ascii: "$"):
                try parseDollar(into: &parts)
            default:
                parts.append(byte: byte)
                advance()
            }
        }
        return parts.finish()
    }

    /// Parses `$name`, `${name}`, `$(script)` or a lone `$` (literal).
    private mutating func parseDollar(into parts: inout PartsBuilder) throws(LanguageError) {
        let opener = position
        advance()
        guard !atEnd else {
            parts.append(byte: UInt8(ascii: "$"))
            return
        }
        let byte = current
        switch byte {
        case UInt8(ascii: "{"):
            advance()
            let nameStart = index
            while !atEnd && current != UInt8(ascii: "}") && current != UInt8(ascii: "\n") { advance() }
            if atEnd { throw error("missing close-brace of ${", at: opener, incomplete: true) }
            if current == UInt8(ascii: "\n") { throw error("missing close-brace of ${", at: opener) }
            let name = String(decoding: bytes[nameStart..<index], as: UTF8.self)
            advance()
            if name.isEmpty { throw error("empty variable name in ${}", at: opener) }
            parts.append(.variable(name))
        case UInt8(ascii: "("):
            advance()
            try enterNesting(at: opener)
            let script = try parseScript(terminator: UInt8(ascii: ")"), opener: opener)
            depth -= 1
            parts.append(.commandSubstitution(script))
        case UInt8(ascii: "?"), UInt8(ascii: "#"), UInt8(ascii: "@"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            advance()
            parts.append(.variable(String(UnicodeScalar(byte))))
        default:
            guard Parser.isNameStart(byte) else {
                parts.append(byte: UInt8(ascii: "$"))
                return
            }
            let nameStart = index
            while !atEnd && Parser.isNameContinue(current) { advance() }
            parts.append(.variable(String(decoding: bytes[nameStart..<index], as: UTF8.self)))
        }
    }

    static func isNameStart(_ byte: UInt8) -> Bool {
        (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z"))
            || (byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z")) || byte == UInt8(ascii: "_")
    }

    static func isNameContinue(_ byte: UInt8) -> Bool {
        isNameStart(byte) || (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9"))
    }
}

/// Collects literal bytes and substitutions into word parts, merging adjacent text.
private struct PartsBuilder {
    private var parts: [WordPart] = []
    private var pending: [UInt8] = []

    mutating func append(byte: UInt8) {
        pending.append(byte)
    }

    mutating func append(_ part: WordPart) {
        flush()
        parts.append(part)
    }

    private mutating func flush() {
        if !pending.isEmpty {
            parts.append(.literal(String(decoding: pending, as: UTF8.self)))
            pending.removeAll(keepingCapacity: true)
        }
    }

    mutating func finish() -> [WordPart] {
        flush()
        // `""` is one empty literal so the word still exists.
        if parts.isEmpty { parts.append(.literal("")) }
        return parts
    }
}
