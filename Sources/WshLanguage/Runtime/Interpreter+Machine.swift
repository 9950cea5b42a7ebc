/// The stack machine that runs compiled code.
///
/// Calls, `source` and `$(…)` push state on explicit stacks instead of recursing in
/// Swift, so a script's recursion depth is limited by ``Interpreter/maxCallDepth``,
/// never by the thread's stack size.
extension Interpreter {
    /// Runs `root` as a new frame until that frame returns.
    ///
    /// The hot state (value stack, variables, loop states, `$?`, the step count) lives
    /// in local variables while instructions run: as class properties every access
    /// would pay for a dynamic exclusivity check and could not stay in registers. It
    /// is "parked" back into the interpreter around anything that may look at it
    /// (table commands, name lookups, errors that leave the run).
    func run(_ root: CodeUnit, arguments: [Value], isSource: Bool = false) throws(LanguageError) {
        let baseDepth = frames.count
        guard baseDepth < maxCallDepth else { throw .commandFailed("recursion too deep") }
        let handlerBase = handlers.count
        // `r` is short on purpose: nearly every instruction touches the hot state.
        var r = Registers(status: lastStatus, steps: steps, globals: globals.values.base)
        let limits = Registers.Limits(
            steps: stepLimit ?? Int.max, stringLength: maxStringLength, interrupt: interruptRequested)

        unpark(&r)
        let floor = r.stack.count
        for argument in arguments { r.stack.append(argument) }
        var cursor = pushFrame(
            root, returnPC: -1, argumentsBase: floor, argumentCount: arguments.count, stackBase: floor,
            isSource: isSource, &r)
        var pc = 0
        while true {
            let instruction = cursor.code[pc]
            pc &+= 1
            do throws(LanguageError) {
                switch instruction.opcode {
                case .constant:
                    r.stack.append(cursor.constants[Int(instruction.a)])
                case .loadGlobal:
                    let slot = Int(instruction.a)
                    guard let value = r.globals[slot] else { throw unsetVariable(globals.names[slot]) }
                    r.stack.append(value)
                case .loadLocal:
                    if let value = r.locals[cursor.localsBase + Int(instruction.a)] {
                        r.stack.append(value)
                    } else if let value = r.globals[Int(instruction.b)] {
                        r.stack.append(value)
                    } else {
                        throw unsetVariable(globals.names[Int(instruction.b)])
                    }
                case .assignGlobal:
                    r.globals[Int(instruction.a)] = r.pop()
                    r.status = 0
                case .assignLocal:
                    r.locals[cursor.localsBase + Int(instruction.a)] = r.pop()
                    r.status = 0
                case .storeGlobal:
                    r.globals[Int(instruction.a)] = r.pop()
                case .storeLocal:
                    r.locals[cursor.localsBase + Int(instruction.a)] = r.pop()
                // The helpers of operations on two integers are `@inline(__always)`, so they
                // inline into the loop.
                case .binary:
                    try binary(instruction, &r, cursor)
                case .accumulateIntoNext:
                    // `let s = $s + $i % 7`, both variables integers: read each once,
                    // add in place (the tag of an integer slot stays as it is).
                    let next = cursor.code[pc]
                    let source = r.slot(instruction.a, localsBase: cursor.localsBase)
                    let total = r.slot(next.a, localsBase: cursor.localsBase)
                    if case .int(let a)? = source.pointee, case .int(let sum)? = total.pointee {
                        let right = try instruction.op.intResult(a, Operand.index(instruction.b))
                        // The next instruction's errors are its own.
                        pc &+= 1
                        total.initialize(to: .int(try next.op.intResult(sum, right)))
                        r.status = 0
                        break
                    }
                    fallthrough
                case .binaryIntoNext:
                    if let (a, b) = r.integerOperands(instruction, cursor) {
                        let right = try instruction.op.intResult(a, b)
                        let next = cursor.code[pc]
                        if let left = r.integer(
                            next.a, depth: 0, localsBase: cursor.localsBase, constants: cursor.constants)
                        {
                            // The next instruction's errors are its own.
                            pc &+= 1
                            r.put(int: try next.op.intResult(left, right), next.c, localsBase: cursor.localsBase)
                        } else {
                            r.stack.append(.int(right))
                        }
                    } else {
                        r.stack.append(try slowBinary(instruction, &r, cursor))
                    }
                case .stepThenLoopJump:
                    // `let i = $i + 1` and `while $i < N`, `$i` an integer: one read,
                    // the result written in place and compared as it is.
                    let slot = r.slot(instruction.a, localsBase: cursor.localsBase)
                    if case .int(let a)? = slot.pointee {
                        let value = try instruction.op.intResult(a, Operand.index(instruction.b))
                        slot.initialize(to: .int(value))
                        r.status = 0
                        // The back edge, whose errors are its own.
                        let next = cursor.code[pc]
                        pc &+= 1
                        try r.countLoopStep(limits)
                        if let b = r.integer(
                            next.b, depth: 0, localsBase: cursor.localsBase, constants: cursor.constants)
                        {
                            if next.op.compare(value, b) { pc = next.target }
                        } else if try compare(next, &r, cursor) {
                            pc = next.target
                        }
                        break
                    }
                    fallthrough
                case .binaryThenLoopJump:
                    try binary(instruction, &r, cursor)
                    // The back edge, whose errors are its own.
                    let next = cursor.code[pc]
                    pc &+= 1
                    try r.countLoopStep(limits)
                    if try compare(next, &r, cursor) { pc = next.target }
                case .compareJumpIfFalse:
                    if try !compare(instruction, &r, cursor) { pc = instruction.target }
                case .compareJumpIfTrue:
                    if try compare(instruction, &r, cursor) { pc = instruction.target }
                case .loopCompareJump:
                    try r.countLoopStep(limits)
                    if try compare(instruction, &r, cursor) { pc = instruction.target }
                case .jump:
                    pc = instruction.target
                case .jumpIfFalse:
                    let condition = r.pop()
                    if case .int(let flag) = condition {
                        if flag == 0 { pc = instruction.target }
                    } else if try !condition.truth() {
                        pc = instruction.target
                    }
                case .jumpIfTrue:
                    let condition = r.pop()
                    if case .int(let flag) = condition {
                        if flag != 0 { pc = instruction.target }
                    } else if try condition.truth() {
                        pc = instruction.target
                    }
                case .loopCheck:
                    try r.countLoopStep(limits)
                case .append:
                    try append(instruction, &r, cursor, limit: limits.stringLength)
                case .echo:
                    try writeLine(r.joined(Int(instruction.a), separator: " ", limit: limits.stringLength), &r)
                case .writeLine:
                    try writeLine(r.pop().description, &r)
                case .concat:
                    let text = try r.joined(Int(instruction.a), separator: "", limit: limits.stringLength)
                    r.stack.append(.string(text))
                case .not:
                    let value = r.pop()
                    r.stack.append(.int(try value.truth() ? 0 : 1))
                case .negate:
                    let value = r.pop()
                    r.stack.append(try BinaryOperator.subtract.apply(.int(0), value))
                case .toBool:
                    let value = r.pop()
                    r.stack.append(.int(try value.truth() ? 1 : 0))
                case .andJump:
                    if try !r.stack[r.stack.count - 1].truth() {
                        r.stack[r.stack.count - 1] = .int(0)
                        pc = instruction.target
                    } else {
                        _ = r.pop()
                    }
                case .orJump:
                    if try r.stack[r.stack.count - 1].truth() {
                        r.stack[r.stack.count - 1] = .int(1)
                        pc = instruction.target
                    } else {
                        _ = r.pop()
                    }
                case .forBegin:
                    let argc = Int(instruction.a)
                    guard case .int(let splitMask) = cursor.constants[Int(instruction.b)] else { break }
                    var items: [String] = []
                    for offset in 0..<argc {
                        let text = r.stack[r.stack.count - argc + offset].description
                        if offset < Int.bitWidth - 1, splitMask & (1 << offset) != 0 {
                            items += text.split(whereSeparator: \.isWhitespace).map(String.init)
                        } else {
                            items.append(text)
                        }
                    }
                    r.stack.removeLast(argc)
                    r.loops.append(LoopState(items: items, index: 0, remaining: 0))
                case .forNext:
                    try r.countLoopStep(limits)
                    let last = r.loops.count - 1
                    let index = r.loops[last].index
                    if index < r.loops[last].items.count {
                        r.stack.append(.string(r.loops[last].items[index]))
                        r.loops[last].index = index + 1
                        pc = instruction.target
                    } else {
                        r.loops.removeLast()
                    }
                case .repeatBegin:
                    let value = r.pop()
                    guard let count = value.numeric?.intValue, count >= 0 else {
                        throw .usage("count must be a non-negative integer, not \"\(value)\"")
                    }
                    r.loops.append(LoopState(items: [], index: 0, remaining: count))
                case .repeatNext:
                    try r.countLoopStep(limits)
                    let last = r.loops.count - 1
                    if r.loops[last].remaining > 0 {
                        r.loops[last].remaining -= 1
                        pc = instruction.target
                    } else {
                        r.loops.removeLast()
                    }
                case .popLoop:
                    r.loops.removeLast()
                case .beginCapture:
                    captures.append(Capture(stackHeight: r.stack.count))
                case .endCapture:
                    var text = captures.removeLast().text
                    while text.utf8.last == UInt8(ascii: "\n") { text.removeLast() }
                    r.stack.append(.string(text))
                case .caught:
                    let error = pendingError ?? .commandFailed("unknown error")
                    pendingError = nil
                    r.status = error.status
                    r.stack.append(.string(error.category ?? ""))
                    r.stack.append(.string(error.code ?? ""))
                    r.stack.append(.string(error.message))
                case .assert:
                    let message = Int(instruction.a)
                    let text = message >= 0 ? cursor.constants[message].description : r.pop().description
                    guard try r.pop().truth() else { throw .commandFailed(text) }
                    r.status = 0
                case .exit:
                    let code = instruction.a != 0 ? try exitStatus(r.pop()) : 0
                    throw LanguageError(.exit(code), "exit \(code)")
                case .fail:
                    throw cursor.unit.errors[Int(instruction.a)]
                case .define:
                    var function = cursor.unit.functions[Int(instruction.a)]
                    if function.echoing != (commandWillRun != nil) {
                        // The hook was set or removed since this code was compiled.
                        function = Compiler.recompile(function, echoing: commandWillRun != nil, globals: globals)
                    }
                    functions[cursor.constants[Int(instruction.b)].description] = function
                    functionGeneration += 1
                    r.status = 0
                case .loadSpecial:
                    let index = Int(instruction.a)
                    switch index {
                    case 0: r.stack.append(.int(Int(r.status)))
                    case 1: r.stack.append(.int(frames[frames.count - 1].argumentCount))
                    case 2:
                        let base = frames[frames.count - 1].argumentsBase
                        let words = (0..<frames[frames.count - 1].argumentCount).map { r.stack[base + $0].description }
                        r.stack.append(.string(words.joined(separator: " ")))
                    case 3: r.stack.append(.string(cursor.unit.name))
                    case 4..<Compiler.resultIndex:
                        let position = index - 4
                        if position < frames[frames.count - 1].argumentCount {
                            r.stack.append(r.stack[frames[frames.count - 1].argumentsBase + position])
                        } else {
                            r.stack.append(.string(""))
                        }
                    default:
                        // `$result`, whose document the host may make now.
                        park(&r)
                        let value = specialValue(index)
                        unpark(&r)
                        r.stack.append(value)
                    }
                case .pushTry:
                    handlers.append(
                        TryHandler(
                            catchPC: instruction.target, frameDepth: frames.count, stackDepth: r.stack.count,
                            loopDepth: r.loops.count, captureDepth: captures.count))
                case .popTry:
                    handlers.removeLast()
                case .call:
                    try r.countStep(limits)
                    let site = Int(instruction.a)
                    let argc = Int(instruction.b)
                    // A computed name (`$cmd ARGS`) was pushed before the words.
                    let computed = instruction.c != 0
                    let argumentsBase = r.stack.count - argc
                    if let hook = commandWillRun {
                        // Before the name is resolved: the host's hook may define it.
                        let words = (argumentsBase..<r.stack.count).map { CommandEcho.Word.value(r.stack[$0].description) }
                        let name = callName(site, argc: argc, cursor, r)
                        park(&r)
                        hook(CommandEcho(depth: echoDepth, name: name, words: words))
                        unpark(&r)
                    }
                    // Unretained: `functions` holds it until the frame does.
                    let function: Unmanaged<CodeUnit>?
                    let cache = cursor.unit.siteCache.baseAddress! + site
                    if !computed && cache.pointee.generation == functionGeneration {
                        function = cache.pointee.function
                    } else {
                        function = functions[callName(site, argc: argc, cursor, r)].map(Unmanaged.passUnretained)
                        if !computed { cache.pointee = CodeUnit.SiteCache(generation: functionGeneration, function: function) }
                    }
                    if let function {
                        guard frames.count <= maxCallDepth else {
                            throw .commandFailed("recursion too deep (more than \(maxCallDepth) nested calls)")
                        }
                        // The words stay on the stack as the call's `$1…`.
                        cursor = pushFrame(
                            function.takeUnretainedValue(), returnPC: pc, argumentsBase: argumentsBase, argumentCount: argc,
                            stackBase: computed ? argumentsBase - 1 : argumentsBase, isSource: false, &r)
                        pc = 0
                    } else {
                        let name = callName(site, argc: argc, cursor, r)
                        let words = (argumentsBase..<r.stack.count).map { r.stack[$0].description }
                        r.stack.truncate(to: computed ? argumentsBase - 1 : argumentsBase)
                        park(&r)
                        let sourced = try callCommand(name, words)
                        unpark(&r)
                        if let sourced {
                            sourceDepth += 1
                            let caller = frames.count - 1
                            cursor = pushFrame(
                                sourced, returnPC: pc, argumentsBase: frames[caller].argumentsBase,
                                argumentCount: frames[caller].argumentCount, stackBase: r.stack.count, isSource: true,
                                &r)
                            pc = 0
                        }
                    }
                case .returnFromFrame:
                    if instruction.a != 0 { r.status = try exitStatus(r.pop()) }
                    let frame = popFrame(&r)
                    if frames.count == baseDepth {
                        park(&r)
                        return
                    }
                    cursor = currentCursor()
                    pc = frame.returnPC

                // The rest look at or change the parked state.
                case .loadNamed:
                    park(&r)
                    defer { unpark(&r) }
                    let name = self.stack.removeLast().description
                    guard let value = currentVariable(name) else { throw unsetVariable(name) }
                    self.stack.append(value)
                case .assignNamed:
                    park(&r)
                    defer { unpark(&r) }
                    let value = self.stack.removeLast()
                    let name = self.stack.removeLast().description
                    guard Parser.isValidName(name) else { throw .usage("invalid variable name \"\(name)\"") }
                    setCurrentVariable(name, to: value)
                    lastStatus = 0
                case .unsetNamed:
                    park(&r)
                    defer { unpark(&r) }
                    for _ in 0..<Int(instruction.a) {
                        setCurrentVariable(self.stack.removeLast().description, to: nil)
                    }
                    lastStatus = 0
                // The `-x` instructions (only in code compiled with a hook) share this
                // way out of the loop, so the loop's own code is as it was without them.
                case .retryBegin, .retryAttempt, .retryEnd, .retryFailed, .waitBegin, .waitPoll,
                    .echoOpen, .keepOperand, .echoCommand:
                    park(&r)
                    defer { unpark(&r) }
                    if let target = try runParked(instruction) { pc = target }
                }
            } catch {
                // Errors raised while parked (in a command) arrive parked.
                unpark(&r)
                // `-x` and `--keep-going` do their part in `failure`, out of line, so
                // the instruction loop compiles as it did without them.
                let located = failure(error, at: pc - 1, cursor, &r)
                if located.isCatchable, handlers.count > handlerBase {
                    let handler = handlers.removeLast()
                    while frames.count > handler.frameDepth { popFrame(&r) }
                    r.stack.truncate(to: handler.stackDepth)
                    r.loops.truncate(to: handler.loopDepth)
                    captures.truncate(to: handler.captureDepth)
                    pendingError = located
                    cursor = currentCursor()
                    pc = handler.catchPC
                    continue
                }
                while frames.count > baseDepth { popFrame(&r) }
                park(&r)
                throw located
            }
        }
    }

    /// `left op right` when an operand is not an integer: pops stack operands (the
    /// right one first), reads the others left to right, so an unset variable is
    /// reported as it would be read.
    @inline(never)
    private func slowBinary(_ instruction: Instruction, _ r: inout Registers, _ cursor: Cursor) throws(LanguageError)
        -> Value
    {
        let left: Value
        let right: Value
        if instruction.b == Operand.stack {
            right = r.pop()
            left = try read(instruction.a, &r, cursor)
        } else {
            left = try read(instruction.a, &r, cursor)
            right = try read(instruction.b, &r, cursor)
        }
        return try instruction.op.apply(left, right)
    }

    /// `binary`: `left op right` to its destination.
    @inline(__always)
    private func binary(_ instruction: Instruction, _ r: inout Registers, _ cursor: Cursor) throws(LanguageError) {
        if let (a, b) = r.integerOperands(instruction, cursor) {
            r.put(int: try instruction.op.intResult(a, b), instruction.c, localsBase: cursor.localsBase)
        } else {
            r.put(try slowBinary(instruction, &r, cursor), instruction.c, localsBase: cursor.localsBase)
        }
    }

    /// A comparison's outcome for the compare-and-jump forms.
    @inline(__always)
    private func compare(_ instruction: Instruction, _ r: inout Registers, _ cursor: Cursor) throws(LanguageError)
        -> Bool
    {
        if let (a, b) = r.integerOperands(instruction, cursor) {
            return instruction.op.compare(a, b)
        }
        // Comparisons give 1 or 0.
        guard case .int(let flag) = try slowBinary(instruction, &r, cursor) else { return false }
        return flag != 0
    }

    /// The value of an ``Operand``, popping it when it is on the stack.
    private func read(_ operand: Int32, _ r: inout Registers, _ cursor: Cursor) throws(LanguageError) -> Value {
        let index = Operand.index(operand)
        switch Operand.kind(operand) {
        case Operand.globalKind:
            guard let value = r.globals[index] else { throw unsetVariable(globals.names[index]) }
            return value
        case Operand.localKind:
            if let value = r.locals[cursor.localsBase + index] { return value }
            let global = cursor.unit.localGlobalSlots[index]
            guard let value = r.globals[global] else { throw unsetVariable(globals.names[global]) }
            return value
        case Operand.constantKind:
            return cursor.constants[index]
        case Operand.integerKind:
            return .int(index)
        default:
            return r.pop()
        }
    }

    /// `set NAME "$NAME…"`: appends the popped parts' text to the variable's string.
    /// The string is taken out of its slot while it grows, so it has one owner and
    /// grows in place (amortised linear) instead of being copied on every append.
    private func append(_ instruction: Instruction, _ r: inout Registers, _ cursor: Cursor, limit: Int)
        throws(LanguageError)
    {
        let operand = instruction.a
        let count = Int(instruction.b)
        let index = Operand.index(operand)
        let slot: UnsafeMutablePointer<Value?>
        var fallback: Value?
        if Operand.kind(operand) == Operand.globalKind {
            slot = r.globals + index
            if slot.pointee == nil { throw unsetVariable(globals.names[index]) }
        } else {
            slot = r.locals.base + (cursor.localsBase + index)
            if slot.pointee == nil {
                // An unset local reads the script-scope variable of the same name.
                let global = cursor.unit.localGlobalSlots[index]
                guard let value = r.globals[global] else { throw unsetVariable(globals.names[global]) }
                fallback = value
            }
        }
        var text: String
        switch fallback ?? slot.pointee {
        case .string(let current)?: text = current
        case let value?: text = value.description
        case nil: text = ""
        }
        var length = text.utf8.count
        let first = r.stack.count - count
        for position in first..<r.stack.count {
            if case .string(let part) = r.stack[position] {
                length += part.utf8.count
            } else {
                length += r.stack[position].description.utf8.count
            }
        }
        guard length <= limit else { throw .commandFailed("string longer than \(limit) bytes") }
        // Drop the slot's reference, so `text` is the only one and appends in place.
        slot.pointee = nil
        fallback = nil
        for position in first..<r.stack.count {
            if case .string(let part) = r.stack[position] {
                text += part
            } else {
                text += r.stack[position].description
            }
        }
        r.stack.removeLast(count)
        slot.pointee = .string(text)
        r.status = 0
    }

    /// When instruction `index` failed inside the range of a ``CodeUnit/DeferredLoad``
    /// whose variable is unset, that is the error: the code as written reads the
    /// variable first. The outermost (latest registered) read comes first.
    private func deferredLoadError(_ cursor: Cursor, at index: Int, _ r: inout Registers) -> LanguageError? {
        for deferred in cursor.unit.deferredLoads.reversed() where deferred.range.contains(index) {
            let slot = Operand.index(deferred.operand)
            let global: Int
            switch Operand.kind(deferred.operand) {
            case Operand.globalKind:
                global = slot
            case Operand.localKind:
                if r.locals[cursor.localsBase + slot] != nil { continue }
                global = cursor.unit.localGlobalSlots[slot]
            default:
                continue
            }
            if r.globals[global] == nil { return unsetVariable(globals.names[global]) }
        }
        return nil
    }

    private func park(_ r: inout Registers) {
        guard !r.parked else { return }
        r.parked = true
        swapRegisters(&r)
        lastStatus = r.status
        steps = r.steps
    }

    private func unpark(_ r: inout Registers) {
        guard r.parked else { return }
        r.parked = false
        swapRegisters(&r)
        // Compiling (`source`) may have given new names slots and moved the values.
        r.globals = globals.values.base
        r.status = lastStatus
        r.steps = steps
    }

    private func swapRegisters(_ r: inout Registers) {
        swap(&r.stack, &stack)
        swap(&r.locals, &locals)
        swap(&r.loops, &loopStates)
    }

    /// The error instruction `index` raised, as the code reads (a deferred variable
    /// read's when there is one) and located at its command.
    ///
    /// With `-x`, the command is echoed first when an operator of its expression
    /// failed (``echoBeforeFailure(at:_:)``). Under ``Interpreter/continueAfterFailure``,
    /// when no `try` anywhere would catch the error, it is reported and a handler
    /// of its own is pushed for the machine to take as it takes a `try`'s: it goes
    /// on after the failed command, with the value stack, loop states and captures
    /// of the frame as they were when that command started.
    @inline(never)
    private func failure(_ error: LanguageError, at index: Int, _ cursor: Cursor, _ r: inout Registers)
        -> LanguageError
    {
        if cursor.unit.echoing {
            park(&r)
            echoBeforeFailure(at: index, cursor)
            unpark(&r)
        }
        let origin = cursor.unit.origin(at: index)
        let located = (deferredLoadError(cursor, at: index, &r) ?? error)
            .located(command: origin?.name, position: origin?.position)
        guard let proceed = continueAfterFailure, located.isCatchable, handlers.isEmpty, let origin,
            origin.end > index
        else { return located }
        let frame = frames[frames.count - 1]
        // A command runs inside as many of its frame's `$(…)` and loop states as
        // enclose it in the source.
        let captureDepth = frame.captureBase + origin.captureDepth
        let loopDepth = frame.loopBase + origin.loopDepth
        guard captures.count >= captureDepth, r.loops.count >= loopDepth else { return located }
        let stackDepth = origin.captureDepth > 0 ? captures[captureDepth - 1].stackHeight : frame.bodyStackHeight
        r.status = located.status
        park(&r)
        proceed(located)
        unpark(&r)
        handlers.append(
            TryHandler(
                catchPC: origin.end, frameDepth: frames.count, stackDepth: stackDepth, loopDepth: loopDepth,
                captureDepth: captureDepth))
        return located
    }

    /// `-x`: how deeply the running command is nested: one for each frame (the
    /// chunk, each function call and sourced file) and each open `$(…)`.
    private var echoDepth: Int { frames.count + captures.count }

    /// `-x`: when an operator fails (division by zero, overflow, a value that is no
    /// boolean) the expression's words were all expanded, so its command is echoed
    /// before the error, as `sh -x` shows `let y=1/0`. A failure to expand a word (an
    /// unset variable) comes before the command runs, and shows no line. The
    /// registers are parked.
    @inline(never)
    private func echoBeforeFailure(at index: Int, _ cursor: Cursor) {
        guard commandWillRun != nil, index >= 0, let end = cursor.unit.origin(at: index)?.end else { return }
        switch cursor.code[index].opcode {
        case .binary, .binaryIntoNext, .binaryThenLoopJump, .accumulateIntoNext, .stepThenLoopJump, .not, .negate,
            .toBool, .andJump, .orJump:
            break
        default: return
        }
        // The command's echo point is the next of its own instructions that echoes
        // (an operator belongs to an expression, and its echo follows it).
        let origin = cursor.unit.instructionOrigins[index]
        for next in (index + 1)..<end
        where cursor.unit.instructionOrigins[next] == origin && cursor.code[next].opcode == .echoCommand {
            echo(cursor.unit.echoes[Int(cursor.code[next].a)], cursor)
            return
        }
    }

    /// The `-x` instructions, with the machine's state parked: `echoOpen` empties
    /// the echo slots an expression is about to fill (so an operand `&&` or `||`
    /// skips shows as written, not as an earlier value), `keepOperand` copies the
    /// operand on top of the stack into its slot, `echoCommand` tells the host.
    func runEcho(_ instruction: Instruction) {
        let cursor = currentCursor()
        let slots = cursor.localsBase + cursor.unit.echoSlotBase + Int(instruction.a)
        switch instruction.opcode {
        case .echoOpen:
            for slot in slots..<(slots + Int(instruction.b)) { locals[slot] = nil }
        case .keepOperand:
            locals[slots] = stack[stack.count - 1]
        default:
            echo(cursor.unit.echoes[Int(instruction.a)], cursor)
        }
    }

    /// Tells the host about a compiled command about to act (`echoCommand`), its
    /// words taken from the layout; the registers are parked.
    @inline(never)
    private func echo(_ layout: EchoLayout, _ cursor: Cursor) {
        guard let hook = commandWillRun else { return }
        var words: [CommandEcho.Word] = []
        for piece in layout.words {
            switch piece {
            case .value(let text): words.append(.value(text))
            case .syntax(let text): words.append(.syntax(text))
            case .stack(let depth):
                // Before a failure inside the command's expression the words
                // above it are not all pushed yet: those show as `…`, never
                // read from past the top of the stack.
                let index = stack.count - 1 - depth
                words.append(index >= 0 && index < stack.count ? .value(stack[index].description) : .syntax("…"))
            case .kept(let slot, let source):
                if let value = locals[cursor.localsBase + cursor.unit.echoSlotBase + slot] {
                    words.append(.value(value.description))
                } else {
                    words.append(.syntax(source))
                }
            case .loopItems:
                words += (loopStates.last?.items ?? []).map(CommandEcho.Word.value)
            }
        }
        hook(CommandEcho(depth: echoDepth, name: layout.name, words: words))
    }

    /// The name a call site calls: fixed, or computed and pushed below its words.
    private func callName(_ site: Int, argc: Int, _ cursor: Cursor, _ r: Registers) -> String {
        cursor.unit.sites[site].name ?? r.stack[r.stack.count - argc - 1].description
    }

    /// Pushes a frame (with the registers unparked) and returns where it reads.
    private func pushFrame(
        _ unit: consuming CodeUnit, returnPC: Int, argumentsBase: Int, argumentCount: Int, stackBase: Int, isSource: Bool,
        _ r: inout Registers
    ) -> Cursor {
        let localCount = unit.frameLocalCount
        frames.append(
            Frame(
                unit: unit, returnPC: returnPC, localsBase: r.locals.count, argumentsBase: argumentsBase,
                argumentCount: argumentCount, isSource: isSource, stackBase: stackBase,
                handlerBase: handlers.count, loopBase: r.loops.count, captureBase: captures.count))
        r.locals.append(repeating: nil, count: localCount)
        return currentCursor()
    }

    /// Where the top frame reads.
    @inline(__always)
    private func currentCursor() -> Cursor {
        Cursor(frames[frames.count - 1])
    }

    /// Pops the top frame and everything it left on the other stacks (registers
    /// unparked).
    @discardableResult
    private func popFrame(_ r: inout Registers) -> Frame {
        let frame = frames.removeLast()
        if frame.isSource { sourceDepth -= 1 }
        r.locals.truncate(to: frame.localsBase)
        r.stack.truncate(to: frame.stackBase)
        handlers.truncate(to: frame.handlerBase)
        r.loops.truncate(to: frame.loopBase)
        captures.truncate(to: frame.captureBase)
        return frame
    }

    private func unsetVariable(_ name: String) -> LanguageError {
        .commandFailed("no such variable: $\(name)")
    }

    /// `echo` and `expr`: `text` and a newline to the output, with the registers
    /// parked around it, as the host's sink may look at the interpreter.
    private func writeLine(_ text: String, _ r: inout Registers) throws(LanguageError) {
        let line = text + "\n"
        if let capture = captures.last, capture.text.utf8.count + line.utf8.count > maxStringLength {
            throw .commandFailed("output of $(…) longer than \(maxStringLength) bytes")
        }
        park(&r)
        write(line)
        unpark(&r)
        r.status = 0
    }

    private func exitStatus(_ value: Value) throws(LanguageError) -> Int32 {
        guard let status = value.numeric?.intValue, (0...255).contains(status) else {
            throw LanguageError(.usage, "status must be an integer from 0 to 255, not \"\(value)\"")
        }
        return Int32(status)
    }

    /// Runs a table command. Returns a compiled file when the command is `source`, for
    /// the machine to run as a new frame.
    private func callCommand(_ name: String, _ words: [String]) throws(LanguageError) -> CodeUnit? {
        guard let spec = command(named: name) else {
            throw LanguageError(.failed, "unknown command", command: name)
        }
        switch spec.action {
        case .host(let handler):
            let arguments = try ArgumentBinder.bind(words, to: spec)
            let context = CommandContext(name: name, words: words, arguments: arguments, interpreter: self)
            do {
                try handler(context)
            } catch let error as LanguageError {
                throw error
            } catch {
                throw .commandFailed(String(describing: error))
            }
            lastStatus = 0
            return nil
        case .help:
            let arguments = try ArgumentBinder.bind(words, to: spec)
            if let topic = arguments["COMMAND"] {
                guard let text = commands.renderHelp(for: topic) else {
                    throw .commandFailed("no such command: \(topic)")
                }
                write(text)
            } else {
                write(commands.renderHelp())
            }
            lastStatus = 0
            return nil
        case .source:
            let arguments = try ArgumentBinder.bind(words, to: spec)
            let path = arguments["FILE"] ?? ""
            guard sourceDepth < maxSourceDepth else {
                throw .commandFailed("source nested deeper than \(maxSourceDepth) files")
            }
            guard frames.count <= maxCallDepth else { throw .commandFailed("recursion too deep") }
            let bytes: [UInt8]
            do {
                bytes = try sourceLoader(path)
            } catch let error as LanguageError {
                throw error
            } catch {
                throw .commandFailed("cannot read \(path): \(error)")
            }
            // Errors inside the file carry its name and line, so they are not re-labelled.
            let script = try Parser.parse(bytes: bytes, file: path, firstLine: 1)
            lastStatus = 0
            return Compiler.compile(script, name: path, globals: globals, echoing: commandWillRun != nil)
        case .syntax:
            throw LanguageError(.failed, "part of the language; write the name literally", command: name)
        }
    }
}

extension Array {
    /// Drops elements past `count`; a no-op when the array is already that short,
    /// as when an enclosing frame or handler already unwound them.
    mutating func truncate(to count: Int) {
        if self.count > count { removeSubrange(count...) }
    }
}
