/// Compiles the words of an expression (`$i < 1000000`, `$s + $i % 7`) into
/// instructions once, at compile time.
///
/// Literal text is split into numbers, operators and parentheses; `$var`, `$(…)` and
/// quoted words are operands. Pieces of one word with no operator between them form
/// one operand by concatenation (`${name}_x`). So `$x==3` and `$x == 3` mean the same,
/// and `$i` stays a variable reference instead of text parsed on every iteration.
struct ExpressionCompiler {
    private enum Piece {
        case constant(Value)
        case part(WordPart)
        case word(Word)
    }

    private enum Token {
        case operand([Piece])
        case symbol(String)
    }

    private var tokens: [Token] = []
    /// Indexes of the `(` and `)` tokens that were a braced word's braces, which an
    /// echo shows as braces.
    private var braceTokens: Set<Int> = []
    private var index = 0
    private var depth = 0
    /// When echoing: the first echo slot of this expression's operands, and how
    /// many operands have been compiled (operands are compiled in token order).
    private var firstEchoSlot: Int?
    private var operandsCompiled = 0

    init(words: [Word]) {
        self.words = words
    }

    private let words: [Word]

    /// Emits the expression's instructions; when the compiler is echoing, also
    /// keeps each operand as it is evaluated and returns how the `-x` line shows the
    /// expression: operators as written, operands by their kept values.
    mutating func compile(into compiler: inout Compiler) throws(LanguageError) -> [EchoLayout.Piece] {
        depth = compiler.expressionDepth
        for word in words { try tokenize(word) }
        var shown: [EchoLayout.Piece] = []
        if compiler.echoing {
            let operands = tokens.filter { if case .operand = $0 { true } else { false } }.count
            let first = compiler.openEchoSlots(operands)
            firstEchoSlot = first
            var slot = first
            for (position, token) in tokens.enumerated() {
                switch token {
                case .symbol(let symbol):
                    let brace = symbol == "(" ? "{" : "}"
                    shown.append(.syntax(braceTokens.contains(position) ? brace : symbol))
                case .operand(let pieces):
                    shown.append(.kept(slot: slot, source: ExpressionCompiler.sourceText(of: pieces)))
                    slot += 1
                }
            }
        }
        try parseLogical(&compiler)
        if index < tokens.count {
            throw LanguageError(.syntax, "unexpected \(describe(tokens[index])) in expression")
        }
        return shown
    }

    /// An operand as written, for an echo that shows one not evaluated.
    private static func sourceText(of pieces: [Piece]) -> String {
        pieces.map { piece in
            switch piece {
            case .constant(let value): value.description
            case .part(let part): Compiler.sourceText(of: part)
            case .word(let word): Compiler.sourceText(of: word)
            }
        }.joined()
    }

    // MARK: Tokens

    private mutating func tokenize(_ word: Word) throws(LanguageError) {
        switch word.form {
        case .singleQuoted, .doubleQuoted:
            tokens.append(.operand([.word(word)]))
        case .block(_, let script):
            // `{$x > 1}`: a braced expression, as in Tcl.
            guard script.commands.count == 1 else {
                throw LanguageError(.syntax, "a braced expression must hold one expression")
            }
            braceTokens.insert(tokens.count)
            tokens.append(.symbol("("))
            for inner in script.commands[0].words { try tokenize(inner) }
            braceTokens.insert(tokens.count)
            tokens.append(.symbol(")"))
        case .bare(let parts):
            // Operands of one word glue together unless an operator separates them.
            var glue = false
            for part in parts {
                guard case .literal(let text) = part else {
                    appendOperand(.part(part), glue: glue)
                    glue = true
                    continue
                }
                try tokenize(text: text, glue: &glue)
            }
        }
    }

    private mutating func appendOperand(_ piece: Piece, glue: Bool) {
        if glue, case .operand(var pieces) = tokens.last {
            pieces.append(piece)
            tokens[tokens.count - 1] = .operand(pieces)
        } else {
            tokens.append(.operand([piece]))
        }
    }

    private mutating func tokenize(text: String, glue: inout Bool) throws(LanguageError) {
        let bytes = Array(text.utf8)
        var i = 0
        func isOperatorByte(_ byte: UInt8) -> Bool {
            "+-*/%=!<>&|()".utf8.contains(byte)
        }
        while i < bytes.count {
            let byte = bytes[i]
            if byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") || byte == UInt8(ascii: "\n") {
                glue = false
                i += 1
                continue
            }
            if isOperatorByte(byte) {
                let pair = i + 1 < bytes.count ? String(decoding: bytes[i...(i + 1)], as: UTF8.self) : ""
                if ["==", "!=", "<=", ">=", "&&", "||"].contains(pair) {
                    tokens.append(.symbol(pair))
                    i += 2
                } else if byte == UInt8(ascii: "=") || byte == UInt8(ascii: "&") || byte == UInt8(ascii: "|") {
                    throw LanguageError(.syntax, "unknown operator \(String(UnicodeScalar(byte))) in expression")
                } else {
                    tokens.append(.symbol(String(UnicodeScalar(byte))))
                    i += 1
                }
                glue = false
                continue
            }
            let start = i
            if byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") || byte == UInt8(ascii: ".") {
                i = ExpressionCompiler.scanNumber(bytes, from: i)
            }
            if i == start || (i < bytes.count && !isOperatorByte(bytes[i]) && bytes[i] != UInt8(ascii: " ")) {
                // Not (only) a number: a text operand such as `alice` or `3abc`.
                while i < bytes.count && !isOperatorByte(bytes[i]) && bytes[i] != UInt8(ascii: " ") { i += 1 }
                appendOperand(.constant(.string(String(decoding: bytes[start..<i], as: UTF8.self))), glue: glue)
            } else {
                let literal = String(decoding: bytes[start..<i], as: UTF8.self)
                let isInteger = !literal.contains(where: { ".eE".contains($0) })
                guard let number = Value.parseNumber(literal), !isInteger || Int(literal) != nil else {
                    throw LanguageError(.syntax, "number \(literal) is out of range")
                }
                appendOperand(.constant(number), glue: glue)
            }
            glue = true
        }
    }

    /// The end of a decimal literal: digits, an optional fraction and exponent.
    private static func scanNumber(_ bytes: [UInt8], from start: Int) -> Int {
        var i = start
        func digits() { while i < bytes.count && bytes[i] >= 48 && bytes[i] <= 57 { i += 1 } }
        digits()
        if i < bytes.count && bytes[i] == UInt8(ascii: ".") {
            i += 1
            digits()
        }
        if i < bytes.count && (bytes[i] == UInt8(ascii: "e") || bytes[i] == UInt8(ascii: "E")) {
            var j = i + 1
            if j < bytes.count && (bytes[j] == UInt8(ascii: "+") || bytes[j] == UInt8(ascii: "-")) { j += 1 }
            if j < bytes.count && bytes[j] >= 48 && bytes[j] <= 57 {
                i = j
                digits()
            }
        }
        return i
    }

    private func describe(_ token: Token) -> String {
        switch token {
        case .symbol(let symbol): "\"\(symbol)\""
        case .operand: "operand"
        }
    }

    // MARK: Grammar, emitting as it goes

    private var peekSymbol: String? {
        guard index < tokens.count, case .symbol(let symbol) = tokens[index] else { return nil }
        return symbol
    }

    /// `||` (`and` false) or `&&` (`and` true): each operand after the first is
    /// reached only when the ones before do not decide the result.
    private mutating func parseLogical(_ compiler: inout Compiler, and: Bool = false) throws(LanguageError) {
        if and { try parseBinary(&compiler, level: 0) } else { try parseLogical(&compiler, and: true) }
        while peekSymbol == (and ? "&&" : "||") {
            index += 1
            let jump = compiler.emit(and ? .andJump : .orJump)
            if and { try parseBinary(&compiler, level: 0) } else { try parseLogical(&compiler, and: true) }
            compiler.emit(.toBool)
            compiler.patch(jump, to: compiler.here)
        }
    }

    private static let levels: [[String]] = [["==", "!="], ["<", "<=", ">", ">="], ["+", "-"], ["*", "/", "%"]]

    private mutating func parseBinary(_ compiler: inout Compiler, level: Int) throws(LanguageError) {
        guard level < ExpressionCompiler.levels.count else {
            try parseUnary(&compiler)
            return
        }
        let leftStart = compiler.here
        try parseBinary(&compiler, level: level + 1)
        while let symbol = peekSymbol, ExpressionCompiler.levels[level].contains(symbol),
            let op = BinaryOperator(symbol: symbol)
        {
            index += 1
            let rightStart = compiler.here
            try parseBinary(&compiler, level: level + 1)
            compiler.emitBinary(op, leftStart: leftStart, rightStart: rightStart)
        }
    }

    private mutating func parseUnary(_ compiler: inout Compiler) throws(LanguageError) {
        depth += 1
        defer { depth -= 1 }
        if depth > Parser.maxNesting {
            throw LanguageError(.syntax, "expression nested deeper than \(Parser.maxNesting) levels")
        }
        switch peekSymbol {
        case let symbol? where symbol == "!" || symbol == "-":
            index += 1
            try parseUnary(&compiler)
            compiler.emit(symbol == "!" ? .not : .negate)
        case "+":
            index += 1
            try parseUnary(&compiler)
        default:
            try parsePrimary(&compiler)
        }
    }

    private mutating func parsePrimary(_ compiler: inout Compiler) throws(LanguageError) {
        guard index < tokens.count else {
            throw LanguageError(.syntax, "expression ends too early")
        }
        let token = tokens[index]
        index += 1
        switch token {
        case .symbol("("):
            try parseLogical(&compiler)
            guard peekSymbol == ")" else { throw LanguageError(.syntax, "missing ) in expression") }
            index += 1
        case .symbol(let symbol):
            throw LanguageError(.syntax, "unexpected \"\(symbol)\" in expression")
        case .operand(let pieces):
            let outerDepth = compiler.expressionDepth
            compiler.expressionDepth = depth
            defer { compiler.expressionDepth = outerDepth }
            for piece in pieces {
                switch piece {
                case .constant(let value): compiler.emitConstant(value)
                case .part(let part): try compiler.compilePart(part)
                case .word(let word): try compiler.compileWord(word)
                }
            }
            if pieces.count > 1 { compiler.emit(.concat, a: pieces.count) }
            if let firstEchoSlot {
                compiler.emit(.keepOperand, a: firstEchoSlot + operandsCompiled)
                operandsCompiled += 1
            }
        }
    }
}
