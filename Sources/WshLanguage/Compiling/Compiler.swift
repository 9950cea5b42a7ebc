/// Compiles a ``Script`` into a ``CodeUnit`` once, so loops run without parsing or
/// looking up names.
///
/// Control forms (`if`, `while`, `for`, `repeat`, `def`, `try`, `break`, `continue`,
/// `return`) and the simple built-ins (`set`, `unset`, `let`, `expr`, `echo`,
/// `assert`, `exit`) compile to instructions; everything else becomes a call.
/// Mistakes found while compiling become `fail` instructions at the place of the
/// command, so a script runs up to its first bad command like any other failure.
struct Compiler {
    /// Names the compiler handles itself; they cannot be redefined.
    static let inlineForms: Set<String> = [
        "if", "elif", "else", "while", "for", "repeat", "def", "try", "catch", "break", "continue",
        "return", "set", "unset", "let", "expr", "echo", "assert", "exit", "global", "retry", "wait",
    ]

    private struct LoopContext {
        var continueTarget: Int
        var breakJumps: [Int] = []
        var tryDepth: Int
        var hasState: Bool
        /// `retry` states on the loop stack when the loop started; `break` and
        /// `continue` drop the ones pushed since.
        var stateDepth: Int
    }

    private let unit: CodeUnit
    private let globals: GlobalVariables
    private var loops: [LoopContext] = []
    private var tryDepth = 0
    /// `retry` blocks being compiled, each with its state on the loop stack.
    private var stateDepth = 0
    /// Inside `$(…)` the enclosing loop and function are out of reach.
    private var substitutionDepth = 0
    private var currentOrigin: Int32 = -1
    /// Parenthesis depth of the expressions being compiled, counted across `$(…)`
    /// inside expressions so nesting cannot exhaust the native stack.
    var expressionDepth = 0

    private init(unit: CodeUnit, globals: GlobalVariables) {
        self.unit = unit
        self.globals = globals
    }

    /// Compiles a chunk or sourced file that runs at script scope.
    static func compile(_ script: Script, name: String, globals: GlobalVariables) -> CodeUnit {
        let unit = CodeUnit(name: name, isFunction: false)
        var compiler = Compiler(unit: unit, globals: globals)
        compiler.compileBody(script)
        compiler.emit(.returnFromFrame(hasStatus: false))
        return unit
    }

    private static func compileFunction(_ script: Script, name: String, globals: GlobalVariables) -> CodeUnit {
        let unit = CodeUnit(name: name, isFunction: true)
        var compiler = Compiler(unit: unit, globals: globals)
        compiler.compileBody(script)
        compiler.emit(.returnFromFrame(hasStatus: false))
        return unit
    }

    // MARK: Emitting

    @discardableResult
    private mutating func emit(_ instruction: Instruction) -> Int {
        unit.instructions.append(instruction)
        unit.instructionOrigins.append(currentOrigin)
        return unit.instructions.count - 1
    }

    private var here: Int { unit.instructions.count }

    private mutating func patch(_ index: Int, to target: Int) {
        switch unit.instructions[index] {
        case .jump: unit.instructions[index] = .jump(target)
        case .jumpIfFalse: unit.instructions[index] = .jumpIfFalse(target)
        case .andJump: unit.instructions[index] = .andJump(target)
        case .orJump: unit.instructions[index] = .orJump(target)
        case .pushTry: unit.instructions[index] = .pushTry(target)
        case .forNext: unit.instructions[index] = .forNext(target)
        case .repeatNext: unit.instructions[index] = .repeatNext(target)
        case .waitPoll: unit.instructions[index] = .waitPoll(target)
        case .compareGlobalIntJumpIfFalse(let op, let global, let value, _):
            unit.instructions[index] = .compareGlobalIntJumpIfFalse(op, global: global, value: value, target: target)
        case .compareGlobalConstantJumpIfFalse(let op, let global, let constant, _):
            unit.instructions[index] = .compareGlobalConstantJumpIfFalse(
                op, global: global, constant: constant, target: target)
        default: break
        }
    }

    private mutating func constant(_ value: Value) -> Int {
        unit.constants.append(value)
        return unit.constants.count - 1
    }

    // MARK: Commands

    private mutating func compileBody(_ script: Script) {
        for command in script.commands { compileCommand(command) }
    }

    private mutating func compileCommand(_ command: CommandNode) {
        let name = command.words[0].bareText ?? command.words[0].literalText ?? "$"
        unit.origins.append(CodeUnit.CommandOrigin(name: name, position: command.position))
        let savedOrigin = currentOrigin
        currentOrigin = Int32(unit.origins.count - 1)
        defer { currentOrigin = savedOrigin }
        let start = here
        let savedLoops = loops
        let savedTryDepth = tryDepth
        let savedStateDepth = stateDepth
        do {
            try compileForm(command)
        } catch {
            // Throw away the half-compiled command and fail at its place instead.
            unit.instructions.removeSubrange(start...)
            unit.instructionOrigins.removeSubrange(start...)
            loops = savedLoops
            tryDepth = savedTryDepth
            stateDepth = savedStateDepth
            unit.errors.append(error.located(command: name, position: command.position))
            emit(.fail(unit.errors.count - 1))
        }
    }

    private mutating func compileForm(_ command: CommandNode) throws(LanguageError) {
        let words = command.words
        guard let name = words[0].bareText ?? words[0].literalText.flatMap({ text in
            // A quoted name runs a command, never a control form.
            Compiler.inlineForms.contains(text) ? nil : text
        }) else {
            try compileCall(words, name: nil)
            return
        }
        let arguments = Array(words.dropFirst())
        switch name {
        case "if": try compileIf(arguments)
        case "while": try compileWhile(arguments)
        case "for": try compileFor(arguments)
        case "repeat": try compileRepeat(arguments)
        case "def": try compileDef(arguments)
        case "try": try compileTry(arguments)
        case "retry": try compileRetry(arguments)
        case "wait": try compileWait(arguments)
        case "global": try compileGlobal(arguments)
        case "break", "continue": try compileLoopJump(name, arguments)
        case "return": try compileReturn(arguments)
        case "set": try compileSet(arguments)
        case "unset": try compileUnset(arguments)
        case "let": try compileLet(arguments)
        case "expr":
            try compileExpression(arguments, context: "expr")
            emit(.writeLine)
        case "echo":
            for word in arguments { try compileWord(word) }
            emit(.echo(arguments.count))
        case "assert": try compileAssert(arguments)
        case "exit":
            guard arguments.count <= 1 else { throw Compiler.usage("exit", "exit [STATUS]") }
            if let status = arguments.first { try compileWord(status) }
            emit(.exit(hasStatus: !arguments.isEmpty))
        case "elif", "else", "catch":
            throw LanguageError(.syntax, "\(name) without a matching \(name == "catch" ? "try" : "if")")
        default:
            if Compiler.inlineForms.contains(name) {
                throw LanguageError(.syntax, "\(name) cannot be used here")
            }
            try compileCall(words, name: name)
        }
    }

    static func usage(_ command: String, _ synopsis: String) -> LanguageError {
        LanguageError(.usage, "wrong arguments (usage: \(synopsis))", command: command)
    }

    private mutating func compileCall(_ words: [Word], name: String?) throws(LanguageError) {
        unit.sites.append(CodeUnit.CallSite(name: name))
        let site = unit.sites.count - 1
        let arguments = name == nil ? words[...] : words.dropFirst()
        for word in arguments { try compileWord(word) }
        emit(.call(site: site, argc: words.count - 1))
    }

    // MARK: Control forms

    private func block(_ word: Word?, _ command: String, _ synopsis: String) throws(LanguageError) -> Script {
        guard let word, case .block(_, let script) = word.form else {
            throw Compiler.usage(command, synopsis)
        }
        return script
    }

    private static func isBlock(_ word: Word) -> Bool {
        if case .block = word.form { return true }
        return false
    }

    private mutating func compileIf(_ words: [Word]) throws(LanguageError) {
        let synopsis = "if COND { … } [elif COND { … }]… [else { … }]"
        var endJumps: [Int] = []
        var index = 0
        while true {
            // The body is the first block followed by the end, `elif` or `else`, so a
            // braced condition (`if {$x > 1} { … }`) also works.
            guard let bodyIndex = words.indices.dropFirst(index).first(where: { k in
                Compiler.isBlock(words[k])
                    && (k + 1 == words.count || ["elif", "else"].contains(words[k + 1].bareText ?? ""))
            }), bodyIndex > index else { throw Compiler.usage("if", synopsis) }
            try compileExpression(Array(words[index..<bodyIndex]), context: "if")
            let skip = emit(.jumpIfFalse(0))
            compileBody(try block(words[bodyIndex], "if", synopsis))
            index = bodyIndex + 1
            if index == words.count {
                patch(skip, to: here)
                break
            }
            endJumps.append(emit(.jump(0)))
            patch(skip, to: here)
            if words[index].bareText == "else" {
                guard index + 2 == words.count else { throw Compiler.usage("if", synopsis) }
                compileBody(try block(words[index + 1], "if", synopsis))
                break
            }
            index += 1  // past `elif`
        }
        for jump in endJumps { patch(jump, to: here) }
    }

    private mutating func compileWhile(_ words: [Word]) throws(LanguageError) {
        let synopsis = "while COND { … }"
        guard words.count >= 2 else { throw Compiler.usage("while", synopsis) }
        let body = try block(words.last, "while", synopsis)
        let top = here
        emit(.loopCheck)
        try compileExpression(Array(words.dropLast()), context: "while")
        let exit = emitConditionalExit()
        loops.append(LoopContext(continueTarget: top, tryDepth: tryDepth, hasState: false, stateDepth: stateDepth))
        compileBody(body)
        emit(.jump(top))
        let loop = loops.removeLast()
        patch(exit, to: here)
        for jump in loop.breakJumps { patch(jump, to: here) }
    }

    /// Emits "jump out unless the condition holds", fusing `$global < CONSTANT`
    /// into one instruction: the common shape of loop conditions.
    private mutating func emitConditionalExit() -> Int {
        switch unit.instructions.last {
        case .binaryGlobalConstant(let op, let global, let constant)? where op.isComparison:
            unit.instructions[unit.instructions.count - 1] = .compareGlobalConstantJumpIfFalse(
                op, global: global, constant: constant, target: 0)
            return unit.instructions.count - 1
        case .binaryGlobalInt(let op, let global, let value)? where op.isComparison:
            unit.instructions[unit.instructions.count - 1] = .compareGlobalIntJumpIfFalse(
                op, global: global, value: value, target: 0)
            return unit.instructions.count - 1
        default:
            break
        }
        return emit(.jumpIfFalse(0))
    }

    private mutating func compileFor(_ words: [Word]) throws(LanguageError) {
        let synopsis = "for NAME in WORDS… { … }"
        guard words.count >= 3, let name = words[0].bareText, words[1].bareText == "in",
            Parser.isValidName(name)
        else { throw Compiler.usage("for", synopsis) }
        try Compiler.checkAssignable(name)
        let body = try block(words.last, "for", synopsis)
        let items = words[2..<(words.count - 1)]
        var splitMask = 0
        for (offset, word) in items.enumerated() {
            try compileWord(word)
            // Unquoted substitutions give lists: `for w in $(words)` iterates each word.
            if case .bare(let parts) = word.form, offset < Int.bitWidth - 1,
                parts.contains(where: { if case .literal = $0 { false } else { true } })
            {
                splitMask |= 1 << offset
            }
        }
        emit(.forBegin(argc: items.count, splitMask: splitMask))
        let top = here
        emit(.loopCheck)
        let next = emit(.forNext(0))
        emitStore(name, assign: false)
        loops.append(LoopContext(continueTarget: top, tryDepth: tryDepth, hasState: true, stateDepth: stateDepth))
        compileBody(body)
        emit(.jump(top))
        let loop = loops.removeLast()
        patch(next, to: here)
        for jump in loop.breakJumps { patch(jump, to: here) }
    }

    private mutating func compileRepeat(_ words: [Word]) throws(LanguageError) {
        let synopsis = "repeat COUNT { … }"
        guard words.count >= 2 else { throw Compiler.usage("repeat", synopsis) }
        let body = try block(words.last, "repeat", synopsis)
        try compileExpression(Array(words.dropLast()), context: "repeat")
        emit(.repeatBegin)
        let top = here
        emit(.loopCheck)
        let next = emit(.repeatNext(0))
        loops.append(LoopContext(continueTarget: top, tryDepth: tryDepth, hasState: true, stateDepth: stateDepth))
        compileBody(body)
        emit(.jump(top))
        let loop = loops.removeLast()
        patch(next, to: here)
        for jump in loop.breakJumps { patch(jump, to: here) }
    }

    private mutating func compileLoopJump(_ name: String, _ words: [Word]) throws(LanguageError) {
        guard words.isEmpty else { throw Compiler.usage(name, name) }
        guard var loop = loops.last else {
            throw LanguageError(.syntax, "\(name) outside a loop")
        }
        for _ in loop.tryDepth..<tryDepth { emit(.popTry) }
        for _ in loop.stateDepth..<stateDepth { emit(.popLoop) }
        if name == "continue" {
            emit(.jump(loop.continueTarget))
        } else {
            if loop.hasState { emit(.popLoop) }
            loop.breakJumps.append(emit(.jump(0)))
            loops[loops.count - 1] = loop
        }
    }

    private mutating func compileDef(_ words: [Word]) throws(LanguageError) {
        let synopsis = "def NAME { … }"
        guard words.count == 2, let name = words[0].literalText, !name.isEmpty else {
            throw Compiler.usage("def", synopsis)
        }
        if Compiler.inlineForms.contains(name) {
            throw LanguageError(.usage, "cannot redefine built-in \(name)")
        }
        let body = try block(words[1], "def", synopsis)
        unit.functions.append(Compiler.compileFunction(body, name: name, globals: globals))
        emit(.define(unit: unit.functions.count - 1, name: constant(.string(name))))
    }

    private mutating func compileTry(_ words: [Word]) throws(LanguageError) {
        let synopsis = "try { … } [catch { … }]"
        guard words.count == 1 || (words.count == 3 && words[1].bareText == "catch") else {
            throw Compiler.usage("try", synopsis)
        }
        let body = try block(words[0], "try", synopsis)
        let handler = words.count == 3 ? try block(words[2], "try", synopsis) : nil
        let enter = emit(.pushTry(0))
        tryDepth += 1
        compileBody(body)
        tryDepth -= 1
        emit(.popTry)
        let skip = emit(.jump(0))
        patch(enter, to: here)
        emit(.caught)
        emitStore("error", assign: false)
        emitStore("errcode", assign: false)
        if let handler { compileBody(handler) }
        patch(skip, to: here)
    }

    /// `retry [--times N] [--every S] { … }`: the block runs inside a `try` whose
    /// `catch` decides whether to wait and go round again or to raise the failure.
    private mutating func compileRetry(_ words: [Word]) throws(LanguageError) {
        let synopsis = "retry [--times N] [--every SECONDS] { … }"
        guard let last = words.last else { throw Compiler.usage("retry", synopsis) }
        let body = try block(last, "retry", synopsis)
        let (options, rest) = try Compiler.splitOptions(
            Array(words.dropLast()), allowed: ["times", "every"], command: "retry", synopsis: synopsis)
        guard rest.isEmpty else { throw Compiler.usage("retry", synopsis) }
        try compileOption(options["times"], default: 3)
        try compileOption(options["every"], default: 1)
        emit(.retryBegin)
        let top = here
        emit(.loopCheck)
        emit(.retryAttempt)
        emitStore("attempt", assign: false)
        let enter = emit(.pushTry(0))
        tryDepth += 1
        stateDepth += 1
        compileBody(body)
        stateDepth -= 1
        tryDepth -= 1
        emit(.popTry)
        emit(.retryEnd)
        let skip = emit(.jump(0))
        patch(enter, to: here)
        emit(.retryFailed(top))
        patch(skip, to: here)
    }

    /// `wait until COND [--every S] [--timeout S]`: a loop that evaluates COND,
    /// leaves when it holds, and otherwise waits or times out.
    private mutating func compileWait(_ words: [Word]) throws(LanguageError) {
        let synopsis = "wait until COND [--every SECONDS] [--timeout SECONDS]"
        guard words.first?.bareText == "until" else { throw Compiler.usage("wait", synopsis) }
        let (options, condition) = try Compiler.splitOptions(
            Array(words.dropFirst()), allowed: ["every", "timeout"], command: "wait", synopsis: synopsis)
        guard !condition.isEmpty else { throw Compiler.usage("wait", synopsis) }
        try compileOption(options["timeout"], default: 60)
        try compileOption(options["every"], default: 1)
        emit(.waitBegin)
        let top = here
        emit(.loopCheck)
        try compileExpression(condition, context: "wait")
        let poll = emit(.waitPoll(0))
        emit(.jump(top))
        patch(poll, to: here)
    }

    /// `global NAME…`: for the rest of a function, NAME is the script-scope variable.
    private mutating func compileGlobal(_ words: [Word]) throws(LanguageError) {
        guard !words.isEmpty else { throw Compiler.usage("global", "global NAME…") }
        for word in words {
            guard let name = word.literalText, Parser.isValidName(name) else {
                throw LanguageError(.usage, "invalid variable name \"\(Compiler.sourceText(of: word))\"")
            }
            try Compiler.checkAssignable(name)
            if unit.isFunction { unit.globalNames.insert(name) }
        }
    }

    private enum OptionValue {
        case word(Word)
        case text(String)
    }

    /// Takes `--name VALUE` and `--name=VALUE` out of `words`; the rest stay in order.
    private static func splitOptions(
        _ words: [Word], allowed: Set<String>, command: String, synopsis: String
    ) throws(LanguageError) -> ([String: OptionValue], [Word]) {
        var options: [String: OptionValue] = [:]
        var rest: [Word] = []
        var index = 0
        while index < words.count {
            let word = words[index]
            index += 1
            guard let text = word.bareText, text.hasPrefix("--") else {
                rest.append(word)
                continue
            }
            var name = String(text.dropFirst(2))
            if let equals = name.firstIndex(of: "=") {
                let value = String(name[name.index(after: equals)...])
                name = String(name[..<equals])
                guard allowed.contains(name) else { throw Compiler.unknownOption(text, command, synopsis) }
                options[name] = .text(value)
                continue
            }
            guard allowed.contains(name) else { throw Compiler.unknownOption(text, command, synopsis) }
            guard index < words.count else {
                throw LanguageError(.usage, "--\(name) needs a value (usage: \(synopsis))", command: command)
            }
            options[name] = .word(words[index])
            index += 1
        }
        return (options, rest)
    }

    private static func unknownOption(_ text: String, _ command: String, _ synopsis: String) -> LanguageError {
        LanguageError(.usage, "unknown option \(text) (usage: \(synopsis))", command: command)
    }

    private mutating func compileOption(_ value: OptionValue?, default fallback: Int) throws(LanguageError) {
        switch value {
        case .word(let word)?: try compileWord(word)
        case .text(let text)?: emit(.constant(constant(.string(text))))
        case nil: emit(.constant(constant(.int(fallback))))
        }
    }

    /// `$result` and the other special names are read-only.
    private static func checkAssignable(_ name: String) throws(LanguageError) {
        if specialIndex(name) != nil {
            throw LanguageError(.usage, "$\(name) is read-only")
        }
    }

    private mutating func compileReturn(_ words: [Word]) throws(LanguageError) {
        guard words.count <= 1 else { throw Compiler.usage("return", "return [STATUS]") }
        guard substitutionDepth == 0 else {
            throw LanguageError(.syntax, "return inside $(…)")
        }
        if let status = words.first { try compileWord(status) }
        emit(.returnFromFrame(hasStatus: !words.isEmpty))
    }

    // MARK: Simple built-ins

    private mutating func compileSet(_ words: [Word]) throws(LanguageError) {
        guard words.count == 1 || words.count == 2 else {
            throw Compiler.usage("set", "set NAME [VALUE]")
        }
        if words.count == 1 {
            try compileVariableLoad(words[0])
            emit(.writeLine)
            return
        }
        if let name = words[0].literalText {
            guard Parser.isValidName(name) else {
                throw LanguageError(.usage, "invalid variable name \"\(name)\"")
            }
            try Compiler.checkAssignable(name)
            try compileWord(words[1])
            emitStore(name, assign: true)
        } else {
            try compileWord(words[0])
            try compileWord(words[1])
            emit(.assignNamed)
        }
    }

    private mutating func compileUnset(_ words: [Word]) throws(LanguageError) {
        guard !words.isEmpty else { throw Compiler.usage("unset", "unset NAME…") }
        for word in words {
            try compileWord(word)
            emit(.unsetNamed)
        }
    }

    private mutating func compileLet(_ words: [Word]) throws(LanguageError) {
        guard words.count >= 3, let name = words[0].literalText, Parser.isValidName(name),
            words[1].bareText == "="
        else { throw Compiler.usage("let", "let NAME = EXPR") }
        try Compiler.checkAssignable(name)
        try compileExpression(Array(words.dropFirst(2)), context: "let")
        emitStore(name, assign: true)
    }

    private mutating func compileAssert(_ words: [Word]) throws(LanguageError) {
        guard !words.isEmpty else { throw Compiler.usage("assert", "assert COND [MESSAGE]") }
        // A quoted last word is the message when the words before it form the condition.
        if words.count >= 2, let last = words.last, Compiler.isQuoted(last) {
            let start = here
            let savedOrigin = currentOrigin
            do {
                try compileExpression(Array(words.dropLast()), context: "assert")
                try compileWord(last)
                emit(.assert(message: -1))
                return
            } catch {
                unit.instructions.removeSubrange(start...)
                unit.instructionOrigins.removeSubrange(start...)
                currentOrigin = savedOrigin
            }
        }
        try compileExpression(words, context: "assert")
        let text = words.map { Compiler.sourceText(of: $0) }.joined(separator: " ")
        emit(.assert(message: constant(.string("assertion failed: \(text)"))))
    }

    private static func isQuoted(_ word: Word) -> Bool {
        switch word.form {
        case .singleQuoted, .doubleQuoted: true
        case .bare, .block: false
        }
    }

    /// An approximation of how a word was written, for assertion messages.
    static func sourceText(of word: Word) -> String {
        func render(_ parts: [WordPart]) -> String {
            parts.map { part in
                switch part {
                case .literal(let text): text
                case .variable(let name): "$" + name
                case .commandSubstitution: "$(…)"
                }
            }.joined()
        }
        switch word.form {
        case .bare(let parts): return render(parts)
        case .doubleQuoted(let parts): return "\"" + render(parts) + "\""
        case .singleQuoted(let text): return "'" + text + "'"
        case .block(let text, _): return "{" + text + "}"
        }
    }

    // MARK: Words and variables

    mutating func compileWord(_ word: Word) throws(LanguageError) {
        switch word.form {
        case .singleQuoted(let text):
            emit(.constant(constant(.string(text))))
        case .block(let text, _):
            emit(.constant(constant(.string(text))))
        case .bare(let parts), .doubleQuoted(let parts):
            for part in parts { try compilePart(part) }
            if parts.count > 1 { emit(.concat(parts.count)) }
        }
    }

    mutating func compilePart(_ part: WordPart) throws(LanguageError) {
        switch part {
        case .literal(let text): emit(.constant(constant(.string(text))))
        case .variable(let name): emitLoad(name)
        case .commandSubstitution(let script): compileSubstitution(script)
        }
    }

    mutating func compileSubstitution(_ script: Script) {
        emit(.beginCapture)
        let savedLoops = loops
        let savedTryDepth = tryDepth
        loops = []
        substitutionDepth += 1
        compileBody(script)
        substitutionDepth -= 1
        loops = savedLoops
        tryDepth = savedTryDepth
        emit(.endCapture)
    }

    private mutating func compileVariableLoad(_ word: Word) throws(LanguageError) {
        if let name = word.literalText {
            emitLoad(name)
        } else {
            try compileWord(word)
            emit(.loadNamed)
        }
    }

    mutating func emitLoad(_ name: String) {
        if let special = Compiler.specialIndex(name) {
            emit(.loadSpecial(special))
        } else if isLocal(name) {
            emit(.loadLocal(localSlot(name), global: globals.slot(for: name)))
        } else {
            emit(.loadGlobal(globals.slot(for: name)))
        }
    }

    /// The global slot of `name` when this unit reads it straight from script scope.
    func directGlobalSlot(_ name: String) -> Int? {
        isLocal(name) || Compiler.specialIndex(name) != nil ? nil : globals.slot(for: name)
    }

    /// Whether `name` is a function local here (not declared `global`).
    private func isLocal(_ name: String) -> Bool {
        unit.isFunction && !unit.globalNames.contains(name)
    }

    private mutating func emitStore(_ name: String, assign: Bool) {
        if isLocal(name) {
            let slot = localSlot(name)
            emit(assign ? .assignLocal(slot) : .storeLocal(slot))
        } else {
            let slot = globals.slot(for: name)
            // Fuse `let x = $y OP …` so the result goes straight into the variable.
            switch (assign, unit.instructions.last) {
            case (true, .binaryGlobalConstant(let op, let global, let constant)?):
                unit.instructions[unit.instructions.count - 1] = .binaryGlobalConstantAssign(
                    op, global: global, constant: constant, target: slot)
            case (true, .binaryGlobalInt(let op, let global, let value)?):
                unit.instructions[unit.instructions.count - 1] = .binaryGlobalIntAssign(
                    op, global: global, value: value, target: slot)
            case (true, .binary(let op)?):
                unit.instructions[unit.instructions.count - 1] = .binaryAssignGlobal(op, target: slot)
            default:
                emit(assign ? .assignGlobal(slot) : .storeGlobal(slot))
            }
        }
    }

    private func localSlot(_ name: String) -> Int {
        if let slot = unit.localSlots[name] { return slot }
        let slot = unit.localSlots.count
        unit.localSlots[name] = slot
        return slot
    }

    /// `$result`, the host's JSON document.
    static let resultIndex = 13

    /// `$?` → 0, `$#` → 1, `$@` → 2, `$N` → 3 + N, `$result` → 13.
    static func specialIndex(_ name: String) -> Int? {
        switch name {
        case "?": 0
        case "#": 1
        case "@": 2
        case "result": resultIndex
        default:
            if name.utf8.count == 1, let digit = Int(name) { 3 + digit } else { nil }
        }
    }

    // MARK: Expressions

    private mutating func compileExpression(_ words: [Word], context: String) throws(LanguageError) {
        guard !words.isEmpty else {
            throw LanguageError(.usage, "missing expression", command: context)
        }
        var expression = ExpressionCompiler(words: words)
        try expression.compile(into: &self)
    }

    // Entry points for ExpressionCompiler.
    mutating func emitInstruction(_ instruction: Instruction) -> Int { emit(instruction) }
    mutating func emitConstant(_ value: Value) { emit(.constant(constant(value))) }
    mutating func constantIndex(_ value: Value) -> Int { constant(value) }
    mutating func patchJump(_ index: Int, to target: Int) { patch(index, to: target) }
    var nextInstructionIndex: Int { here }
    var lastInstruction: Instruction? { unit.instructions.last }
    mutating func replaceLastInstruction(with instruction: Instruction) {
        unit.instructions[unit.instructions.count - 1] = instruction
    }
    mutating func removeLastInstruction() {
        unit.instructions.removeLast()
        unit.instructionOrigins.removeLast()
    }
    func constantValue(_ index: Int) -> Value { unit.constants[index] }
}

extension Parser {
    /// Whether `name` can be written as `$name`.
    static func isValidName(_ name: String) -> Bool {
        guard let first = name.utf8.first, isNameStart(first) else { return false }
        return name.utf8.allSatisfy(isNameContinue)
    }
}
