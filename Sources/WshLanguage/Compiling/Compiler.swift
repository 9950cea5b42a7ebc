/// Compiles a ``Script`` into a ``CodeUnit`` once, so loops run without parsing or
/// looking up names.
///
/// Control forms (`if`, `while`, `for`, `repeat`, `def`, `try`, `break`, `continue`,
/// `return`) and the simple built-ins (`set`, `unset`, `let`, `expr`, `echo`,
/// `assert`, `exit`) compile to instructions; everything else becomes a call.
/// Mistakes found while compiling become `fail` instructions at the place of the
/// command, so a script runs up to its first bad command like any other failure.
///
/// With `echoing` (the host set ``Interpreter/commandWillRun``, wsh's `-x`) each
/// compiled command also tells the host its words once they are expanded, just
/// before it acts: an `echoCommand` instruction after the words or the expression,
/// and operands kept as they are evaluated. Without it none of that is emitted, so
/// the code is the same as if echoing did not exist.
struct Compiler {
    /// Names the compiler handles itself; they cannot be redefined.
    static let inlineForms: Set<String> = [
        "if", "elif", "else", "while", "for", "repeat", "def", "try", "catch", "break", "continue",
        "return", "set", "unset", "let", "expr", "echo", "assert", "exit", "global", "retry", "wait",
    ]

    private struct LoopContext {
        /// Jumps to the loop's next check, patched once the body is compiled
        /// (loops are compiled body first: the check sits at the bottom).
        var continueJumps: [Int] = []
        var breakJumps: [Int] = []
        var tryDepth: Int
        var hasState: Bool
        /// `retry` states on the loop stack when the loop started; `break` and
        /// `continue` drop the ones pushed since.
        var stateDepth: Int
    }

    private let unit: CodeUnit
    private let globals: GlobalVariables
    /// Whether to emit `-x` echo points.
    let echoing: Bool
    private var loops: [LoopContext] = []
    private var tryDepth = 0
    /// `retry` blocks being compiled, each with its state on the loop stack.
    private var stateDepth = 0
    /// Inside `$(…)` the enclosing loop and function are out of reach.
    private var substitutionDepth = 0
    /// `for`, `repeat` and `retry` blocks and `wait until` conditions around the code
    /// being compiled, each with its state on the loop stack (unlike `loops`,
    /// counted across `$(…)`).
    private var loopStateDepth = 0
    private var currentOrigin: Int32 = -1
    /// Parenthesis depth of the expressions being compiled, counted across `$(…)`
    /// inside expressions so nesting cannot exhaust the native stack.
    var expressionDepth = 0

    private init(unit: CodeUnit, globals: GlobalVariables) {
        self.unit = unit
        self.globals = globals
        self.echoing = unit.echoing
    }

    /// Compiles a chunk or sourced file that runs at script scope, or with
    /// `isFunction` a function's body, which `def` runs as a new frame with local
    /// variables.
    static func compile(
        _ script: Script, name: String, globals: GlobalVariables, echoing: Bool = false, isFunction: Bool = false
    ) -> CodeUnit {
        let unit = CodeUnit(name: name, isFunction: isFunction, echoing: echoing, body: isFunction ? script : nil)
        var compiler = Compiler(unit: unit, globals: globals)
        compiler.compileBody(script)
        compiler.emit(.returnFromFrame)
        unit.freeze()
        return unit
    }

    /// `function` compiled again with or without echo points, when the host turned
    /// echoing on or off after it was compiled.
    static func recompile(_ function: CodeUnit, echoing: Bool, globals: GlobalVariables) -> CodeUnit {
        guard function.echoing != echoing, let body = function.body else { return function }
        return compile(body, name: function.name, globals: globals, echoing: echoing, isFunction: true)
    }

    // MARK: Emitting

    /// Appends an instruction (its fields as ``Instruction`` reads them) and
    /// returns its index, for patching a jump.
    @discardableResult
    mutating func emit(_ opcode: Opcode, op: BinaryOperator = .add, a: Int = 0, b: Int = 0, c: Int = 0) -> Int {
        unit.instructions.append(Instruction(opcode, op: op, a: a, b: b, c: c))
        unit.instructionOrigins.append(currentOrigin)
        return unit.instructions.count - 1
    }

    var here: Int { unit.instructions.count }

    mutating func patch(_ index: Int, to target: Int) {
        if unit.instructions[index].opcode.jumps { unit.instructions[index].target = target }
    }

    /// Removes instruction `index` of the expression being compiled (an operand read
    /// that a later instruction now does itself). Only the expression's own
    /// instructions follow it, so only their jumps and deferred reads move.
    private mutating func removeInstruction(at index: Int) {
        unit.instructions.remove(at: index)
        unit.instructionOrigins.remove(at: index)
        for k in index..<unit.instructions.count where unit.instructions[k].opcode.jumps {
            if unit.instructions[k].target > index { unit.instructions[k].target -= 1 }
        }
        for k in unit.deferredLoads.indices {
            let range = unit.deferredLoads[k].range
            let lower = range.lowerBound > index ? range.lowerBound - 1 : range.lowerBound
            let upper = range.upperBound > index ? range.upperBound - 1 : range.upperBound
            unit.deferredLoads[k].range = lower..<upper
        }
    }

    /// Drops the instructions from `start` on (a command that failed to compile).
    private mutating func truncateCode(to start: Int) {
        unit.instructions.removeSubrange(start...)
        unit.instructionOrigins.removeSubrange(start...)
        unit.deferredLoads.removeAll { $0.range.upperBound > start }
    }

    private mutating func constant(_ value: Value) -> Int {
        unit.constants.append(value)
        return unit.constants.count - 1
    }

    mutating func emitConstant(_ value: Value) {
        emit(.constant, a: constant(value))
    }

    // MARK: Commands

    private mutating func compileBody(_ script: Script) {
        for command in script.commands { compileCommand(command) }
    }

    private mutating func compileCommand(_ command: CommandNode) {
        let name = command.words[0].bareText ?? command.words[0].literalText ?? "$"
        unit.origins.append(
            CodeUnit.CommandOrigin(
                name: name, position: command.position, captureDepth: substitutionDepth, loopDepth: loopStateDepth))
        let origin = unit.origins.count - 1
        let savedOrigin = currentOrigin
        currentOrigin = Int32(origin)
        defer {
            currentOrigin = savedOrigin
            unit.origins[origin].end = here
        }
        let start = here
        let savedLoops = loops
        let savedTryDepth = tryDepth
        let savedStateDepth = stateDepth
        let savedLoopStateDepth = loopStateDepth
        do {
            try compileForm(command)
        } catch {
            // Throw away the half-compiled command and fail at its place instead.
            truncateCode(to: start)
            loops = savedLoops
            tryDepth = savedTryDepth
            stateDepth = savedStateDepth
            loopStateDepth = savedLoopStateDepth
            unit.errors.append(error.located(command: name, position: command.position))
            emit(.fail, a: unit.errors.count - 1)
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
            let shown = try compileExpression(arguments, context: "expr")
            emitEcho("expr", shown)
            emit(.writeLine)
        case "echo":
            for word in arguments { try compileWord(word) }
            emitEcho("echo", Compiler.stackWords(arguments.count))
            emit(.echo, a: arguments.count)
        case "assert": try compileAssert(arguments)
        case "exit":
            guard arguments.count <= 1 else { throw Compiler.usage("exit", "exit [STATUS]") }
            if let status = arguments.first { try compileWord(status) }
            emitEcho("exit", Compiler.stackWords(arguments.count))
            emit(.exit, a: arguments.count)
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

    // MARK: Echo points (`-x`)

    /// Emits the `-x` echo of the command being compiled, `name` followed by
    /// `words`, where its words are expanded and it has not yet acted.
    private mutating func emitEcho(_ name: String, _ words: [EchoLayout.Piece]) {
        guard echoing else { return }
        unit.echoes.append(EchoLayout(name: name, words: words))
        emit(.echoCommand, a: unit.echoes.count - 1)
    }

    /// The top `count` values of the stack, in the order they were pushed.
    private static func stackWords(_ count: Int) -> [EchoLayout.Piece] {
        (0..<count).map { .stack(count - 1 - $0) }
    }

    /// Reserves `count` echo slots for an expression's operands and clears them
    /// when the expression starts.
    mutating func openEchoSlots(_ count: Int) -> Int {
        let first = unit.echoSlotCount
        unit.echoSlotCount += count
        emit(.echoOpen, a: first, b: count)
        return first
    }

    private mutating func compileCall(_ words: [Word], name: String?) throws(LanguageError) {
        unit.sites.append(CodeUnit.CallSite(name: name))
        let site = unit.sites.count - 1
        let arguments = name == nil ? words[...] : words.dropFirst()
        for word in arguments { try compileWord(word) }
        // `c` marks a computed name, pushed before the words.
        emit(.call, a: site, b: words.count - 1, c: name == nil ? 1 : 0)
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
            let shown = try compileExpression(Array(words[index..<bodyIndex]), context: "if")
            emitEcho(index == 0 ? "if" : "elif", shown)
            let skip = emitConditionalJump(ifTrue: false, to: 0)
            compileBody(try block(words[bodyIndex], "if", synopsis))
            index = bodyIndex + 1
            if index == words.count {
                patch(skip, to: here)
                break
            }
            endJumps.append(emit(.jump))
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

    /// `while COND { BODY }` compiles with its check at the bottom, so an iteration
    /// runs the body and one conditional jump back:
    ///
    ///         jump check
    ///     body: BODY
    ///     check: loopCheck; COND; jumpIfTrue body      (continue jumps to check)
    ///
    /// The step is counted before COND runs, as at the top of a loop.
    private mutating func compileWhile(_ words: [Word]) throws(LanguageError) {
        let synopsis = "while COND { … }"
        guard words.count >= 2 else { throw Compiler.usage("while", synopsis) }
        let body = try block(words.last, "while", synopsis)
        let entry = emit(.jump)
        let bodyStart = here
        loops.append(LoopContext(tryDepth: tryDepth, hasState: false, stateDepth: stateDepth))
        compileBody(body)
        let loop = loops.removeLast()
        let check = here
        patch(entry, to: check)
        for jump in loop.continueJumps { patch(jump, to: check) }
        emit(.loopCheck)
        let shown = try compileExpression(Array(words.dropLast()), context: "while")
        // Each check is echoed, the last (false) one too, as `sh -x` shows each test.
        emitEcho("while", shown)
        if here == check + 2, let last = pushedComparison {
            // `while $i < N`: the step count, the comparison and the jump in one.
            var fused = last
            fused.opcode = .loopCompareJump
            fused.target = bodyStart
            removeLastInstruction()
            unit.instructions[check] = fused
        } else {
            emitConditionalJump(ifTrue: true, to: bodyStart)
        }
        for jump in loop.breakJumps { patch(jump, to: here) }
    }

    /// Emits "jump to `target` when the condition is `ifTrue`", fusing a comparison
    /// that ends the condition into the jump. Returns the jump, for patching.
    @discardableResult
    private mutating func emitConditionalJump(ifTrue: Bool, to target: Int) -> Int {
        if let last = pushedComparison {
            var fused = last
            fused.opcode = ifTrue ? .compareJumpIfTrue : .compareJumpIfFalse
            fused.target = target
            unit.instructions[unit.instructions.count - 1] = fused
            return unit.instructions.count - 1
        }
        return emit(ifTrue ? .jumpIfTrue : .jumpIfFalse, c: target)
    }

    /// The last instruction when it is a comparison that pushes its result, which a
    /// jump on that result may take into itself.
    private var pushedComparison: Instruction? {
        guard let last = unit.instructions.last, last.opcode == .binary, last.op.isComparison,
            last.c == Operand.stack
        else { return nil }
        return last
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
        emit(.forBegin, a: items.count, b: constant(.int(splitMask)))
        // Once, with the list as split into items.
        emitEcho("for", [.value(name), .syntax("in"), .loopItems])
        // forNext counts the step, pushes the next item and jumps back, or
        // drops the loop and falls through.
        compileStatefulLoop(body, storingItemIn: name, next: .forNext)
    }

    private mutating func compileRepeat(_ words: [Word]) throws(LanguageError) {
        let synopsis = "repeat COUNT { … }"
        guard words.count >= 2 else { throw Compiler.usage("repeat", synopsis) }
        let body = try block(words.last, "repeat", synopsis)
        let shown = try compileExpression(Array(words.dropLast()), context: "repeat")
        emitEcho("repeat", shown)
        emit(.repeatBegin)
        compileStatefulLoop(body, next: .repeatNext)
    }

    /// The body of a loop that keeps its state on the stack (`for`,
    /// `repeat`), checked at the bottom as in `while`: `next(bodyStart)`
    /// steps the loop and jumps back to the body, or drops the state and
    /// falls through. Each pass first stores the item in `storingItemIn`
    /// when there is one.
    private mutating func compileStatefulLoop(_ body: Script, storingItemIn name: String? = nil, next: Opcode) {
        let entry = emit(.jump)
        let bodyStart = here
        if let name { emitStore(name, assign: false) }
        loops.append(LoopContext(tryDepth: tryDepth, hasState: true, stateDepth: stateDepth))
        loopStateDepth += 1
        compileBody(body)
        loopStateDepth -= 1
        let loop = loops.removeLast()
        patch(entry, to: here)
        for jump in loop.continueJumps { patch(jump, to: here) }
        emit(next, c: bodyStart)
        for jump in loop.breakJumps { patch(jump, to: here) }
    }

    private mutating func compileLoopJump(_ name: String, _ words: [Word]) throws(LanguageError) {
        guard words.isEmpty else { throw Compiler.usage(name, name) }
        guard var loop = loops.last else {
            throw LanguageError(.syntax, "\(name) outside a loop")
        }
        emitEcho(name, [])
        for _ in loop.tryDepth..<tryDepth { emit(.popTry) }
        for _ in loop.stateDepth..<stateDepth { emit(.popLoop) }
        if name == "continue" {
            loop.continueJumps.append(emit(.jump))
        } else {
            if loop.hasState { emit(.popLoop) }
            loop.breakJumps.append(emit(.jump))
        }
        loops[loops.count - 1] = loop
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
        unit.functions.append(Compiler.compile(body, name: name, globals: globals, echoing: echoing, isFunction: true))
        emitEcho("def", [.value(name)])
        emit(.define, a: unit.functions.count - 1, b: constant(.string(name)))
    }

    private mutating func compileTry(_ words: [Word]) throws(LanguageError) {
        let synopsis = "try { … } [catch { … }]"
        guard words.count == 1 || (words.count == 3 && words[1].bareText == "catch") else {
            throw Compiler.usage("try", synopsis)
        }
        let body = try block(words[0], "try", synopsis)
        let handler = words.count == 3 ? try block(words[2], "try", synopsis) : nil
        emitEcho("try", [])
        let enter = emit(.pushTry)
        tryDepth += 1
        compileBody(body)
        tryDepth -= 1
        emit(.popTry)
        let skip = emit(.jump)
        patch(enter, to: here)
        emit(.caught)
        emitStore("error", assign: false)
        emitStore("errcode", assign: false)
        emitStore("errkind", assign: false)
        if let handler {
            // Where the flow went after a failure in the body.
            emitEcho("catch", [])
            compileBody(handler)
        }
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
        // The options as given (defaults left out), once; the block's commands show each try.
        var shown: [EchoLayout.Piece] = []
        if options["times"] != nil { shown += [.value("--times"), .stack(1)] }
        if options["every"] != nil { shown += [.value("--every"), .stack(0)] }
        emitEcho("retry", shown)
        emit(.retryBegin)
        let top = here
        emit(.loopCheck)
        emit(.retryAttempt)
        emitStore("attempt", assign: false)
        let enter = emit(.pushTry)
        tryDepth += 1
        stateDepth += 1
        loopStateDepth += 1
        compileBody(body)
        loopStateDepth -= 1
        stateDepth -= 1
        tryDepth -= 1
        emit(.popTry)
        emit(.retryEnd)
        let skip = emit(.jump)
        patch(enter, to: here)
        emit(.retryFailed, c: top)
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
        // The condition runs with the wait's state on the loop stack.
        loopStateDepth += 1
        let shown = try compileExpression(condition, context: "wait")
        loopStateDepth -= 1
        emitEcho("wait", [.syntax("until")] + shown)
        let poll = emit(.waitPoll)
        emit(.jump, c: top)
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
        emitEcho("global", words.map { .value($0.literalText ?? "") })
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
        case .text(let text)?: emitConstant(.string(text))
        case nil: emitConstant(.int(fallback))
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
        emitEcho("return", Compiler.stackWords(words.count))
        emit(.returnFromFrame, a: words.count)
    }

    // MARK: Simple built-ins

    private mutating func compileSet(_ words: [Word]) throws(LanguageError) {
        guard words.count == 1 || words.count == 2 else {
            throw Compiler.usage("set", "set NAME [VALUE]")
        }
        if words.count == 1 {
            if let name = words[0].literalText {
                emitEcho("set", [.value(name)])
                emitLoad(name)
            } else {
                try compileWord(words[0])
                emitEcho("set", [.stack(0)])
                emit(.loadNamed)
            }
            emit(.writeLine)
            return
        }
        if let name = words[0].literalText {
            guard Parser.isValidName(name) else {
                throw LanguageError(.usage, "invalid variable name \"\(name)\"")
            }
            try Compiler.checkAssignable(name)
            // Echoing shows the whole new value, so it builds it as a plain `set` does.
            if !echoing, let parts = Compiler.appendedParts(words[1], to: name) {
                // `set t "$t$i,"`: append to the variable's string in place rather than
                // copying it into a new one, so building a string in a loop is linear.
                let operand = variableOperand(name)
                let start = here
                for part in parts { try compilePart(part) }
                if here > start {
                    unit.deferredLoads.append(CodeUnit.DeferredLoad(range: start..<here, operand: operand))
                }
                emit(.append, a: Int(operand), b: parts.count)
                return
            }
            try compileWord(words[1])
            emitEcho("set", [.value(name), .stack(0)])
            emitStore(name, assign: true)
        } else {
            try compileWord(words[0])
            try compileWord(words[1])
            emitEcho("set", [.stack(1), .stack(0)])
            emit(.assignNamed)
        }
    }

    /// The parts after `$name` when `word` is `$name` followed by text and variables
    /// (`"$t$i,"`, `${t}x`); nil for anything else, and when a part runs a command,
    /// which must not run before `$name` is found unset.
    private static func appendedParts(_ word: Word, to name: String) -> ArraySlice<WordPart>? {
        let parts: [WordPart]
        switch word.form {
        case .bare(let found), .doubleQuoted(let found): parts = found
        case .singleQuoted, .block: return nil
        }
        guard parts.count >= 2, case .variable(name) = parts[0], specialIndex(name) == nil else { return nil }
        for part in parts.dropFirst() {
            switch part {
            case .literal: continue
            case .variable(let other): if other == "result" { return nil }
            case .commandSubstitution: return nil
            }
        }
        return parts.dropFirst()
    }

    /// `unset NAME…`: every word is expanded first, as a shell does, then the
    /// variables go.
    private mutating func compileUnset(_ words: [Word]) throws(LanguageError) {
        guard !words.isEmpty else { throw Compiler.usage("unset", "unset NAME…") }
        for word in words { try compileWord(word) }
        emitEcho("unset", Compiler.stackWords(words.count))
        emit(.unsetNamed, a: words.count)
    }

    private mutating func compileLet(_ words: [Word]) throws(LanguageError) {
        guard words.count >= 3, let name = words[0].literalText, Parser.isValidName(name),
            words[1].bareText == "="
        else { throw Compiler.usage("let", "let NAME = EXPR") }
        try Compiler.checkAssignable(name)
        let shown = try compileExpression(Array(words.dropFirst(2)), context: "let")
        emitEcho("let", [.value(name), .syntax("=")] + shown)
        emitStore(name, assign: true)
    }

    private mutating func compileAssert(_ words: [Word]) throws(LanguageError) {
        guard !words.isEmpty else { throw Compiler.usage("assert", "assert COND [MESSAGE]") }
        // A quoted last word is the message when the words before it form the condition.
        if words.count >= 2, let last = words.last, Compiler.isQuoted(last) {
            let start = here
            let savedOrigin = currentOrigin
            do {
                let shown = try compileExpression(Array(words.dropLast()), context: "assert")
                try compileWord(last)
                emitEcho("assert", shown + [.stack(0)])
                emit(.assert, a: -1)
                return
            } catch {
                truncateCode(to: start)
                currentOrigin = savedOrigin
            }
        }
        let shown = try compileExpression(words, context: "assert")
        emitEcho("assert", shown)
        let text = words.map { Compiler.sourceText(of: $0) }.joined(separator: " ")
        emit(.assert, a: constant(.string("assertion failed: \(text)")))
    }

    private static func isQuoted(_ word: Word) -> Bool {
        switch word.form {
        case .singleQuoted, .doubleQuoted: true
        case .bare, .block: false
        }
    }

    /// An approximation of how a word was written, for assertion messages.
    static func sourceText(of word: Word) -> String {
        switch word.form {
        case .bare(let parts): parts.map(sourceText).joined()
        case .doubleQuoted(let parts): "\"" + parts.map(sourceText).joined() + "\""
        case .singleQuoted(let text): "'" + text + "'"
        case .block(let text, _): "{" + text + "}"
        }
    }

    static func sourceText(of part: WordPart) -> String {
        switch part {
        case .literal(let text): text
        case .variable(let name): "$" + name
        case .commandSubstitution: "$(…)"
        }
    }

    // MARK: Words and variables

    mutating func compileWord(_ word: Word) throws(LanguageError) {
        switch word.form {
        case .singleQuoted(let text):
            emitConstant(.string(text))
        case .block(let text, _):
            emitConstant(.string(text))
        case .bare(let parts), .doubleQuoted(let parts):
            for part in parts { try compilePart(part) }
            if parts.count > 1 { emit(.concat, a: parts.count) }
        }
    }

    mutating func compilePart(_ part: WordPart) throws(LanguageError) {
        switch part {
        case .literal(let text): emitConstant(.string(text))
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

    mutating func emitLoad(_ name: String) {
        if let special = Compiler.specialIndex(name) {
            emit(.loadSpecial, a: special)
        } else if isLocal(name) {
            emit(.loadLocal, a: localSlot(name), b: globals.slot(for: name))
        } else {
            emit(.loadGlobal, a: globals.slot(for: name))
        }
    }

    /// The ``Operand`` that reads variable `name` (not a special one).
    private mutating func variableOperand(_ name: String) -> Int32 {
        isLocal(name) ? Operand.local(localSlot(name)) : Operand.global(globals.slot(for: name))
    }

    /// Whether `name` is a function local here (not declared `global`).
    private func isLocal(_ name: String) -> Bool {
        unit.isFunction && !unit.globalNames.contains(name)
    }

    private mutating func emitStore(_ name: String, assign: Bool) {
        let local = isLocal(name)
        let slot = local ? localSlot(name) : globals.slot(for: name)
        // `let x = $y OP …`: the operation assigns its result itself (and sets `$?`).
        if assign, let last = unit.instructions.last, last.opcode == .binary, last.c == Operand.stack {
            unit.instructions[unit.instructions.count - 1].c = local ? Operand.local(slot) : Operand.global(slot)
            return
        }
        if local {
            emit(assign ? .assignLocal : .storeLocal, a: slot)
        } else {
            emit(assign ? .assignGlobal : .storeGlobal, a: slot)
        }
    }

    private func localSlot(_ name: String) -> Int {
        if let slot = unit.localSlots[name] { return slot }
        let slot = unit.localSlots.count
        unit.localSlots[name] = slot
        unit.localGlobalSlots.append(globals.slot(for: name))
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

    /// Compiles an expression; when echoing, returns how its `-x` line shows it.
    @discardableResult
    private mutating func compileExpression(_ words: [Word], context: String) throws(LanguageError)
        -> [EchoLayout.Piece]
    {
        guard !words.isEmpty else {
            throw LanguageError(.usage, "missing expression", command: context)
        }
        var expression = ExpressionCompiler(words: words)
        return try expression.compile(into: &self)
    }

    private mutating func removeLastInstruction() {
        unit.instructions.removeLast()
        unit.instructionOrigins.removeLast()
    }

    /// Emits `left op right`, the left operand's code starting at `leftStart` and the
    /// right's at `rightStart`. An operand that is one read of a variable or constant
    /// is read by the operation itself instead of being pushed and popped.
    ///
    /// The left read may move past the right operand's code only when that code has
    /// no effects (no command runs): then the only difference is which error comes
    /// first, and a ``CodeUnit/DeferredLoad`` restores that.
    mutating func emitBinary(_ op: BinaryOperator, leftStart: Int, rightStart: Int) {
        var right = Operand.stack
        if here - rightStart == 1, let operand = operand(of: unit.instructions[rightStart]) {
            removeLastInstruction()
            right = operand
        }
        var left = Operand.stack
        if rightStart - leftStart == 1, let operand = operand(of: unit.instructions[leftStart]) {
            if right != Operand.stack {
                removeLastInstruction()
                left = operand
            } else if isPure(rightStart..<here) {
                removeInstruction(at: leftStart)
                let kind = Operand.kind(operand)
                if kind == Operand.globalKind || kind == Operand.localKind {
                    unit.deferredLoads.append(CodeUnit.DeferredLoad(range: leftStart..<here, operand: operand))
                }
                left = operand
            }
        }
        emit(.binary, op: op, a: Int(left), b: Int(right), c: Int(Operand.stack))
    }

    /// The ``Operand`` for an instruction that only pushes a variable or constant.
    private func operand(of instruction: Instruction) -> Int32? {
        switch instruction.opcode {
        case .constant:
            let index = Int(instruction.a)
            if case .int(let value) = unit.constants[index], Operand.integerRange.contains(value) {
                return Operand.integer(value)
            }
            return Operand.constant(index)
        case .loadGlobal: return Operand.global(Int(instruction.a))
        case .loadLocal: return Operand.local(Int(instruction.a))
        default: return nil
        }
    }

    /// Whether the instructions only read and compute: no command, capture or
    /// host callback (`$result` may make its document).
    private func isPure(_ range: Range<Int>) -> Bool {
        unit.instructions[range].allSatisfy { instruction in
            switch instruction.opcode {
            case .constant, .loadGlobal, .loadLocal, .binary, .not, .negate, .toBool, .andJump, .orJump, .concat:
                true
            case .loadSpecial: Int(instruction.a) != Compiler.resultIndex
            default: false
            }
        }
    }
}

extension Parser {
    /// Whether `name` can be written as `$name`.
    static func isValidName(_ name: String) -> Bool {
        guard let first = name.utf8.first, isNameStart(first) else { return false }
        return name.utf8.allSatisfy(isNameContinue)
    }
}
