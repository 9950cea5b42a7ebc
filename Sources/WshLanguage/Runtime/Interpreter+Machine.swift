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
    /// would pay for a dynamic exclusivity check. It is "parked" back into the
    /// interpreter around anything that may look at it (commands, calls, errors).
    func run(_ root: CodeUnit, arguments: [String], isSource: Bool = false) throws(LanguageError) {
        let baseDepth = frames.count
        guard baseDepth < maxCallDepth else { throw .commandFailed("recursion too deep") }
        pushFrame(root, returnPC: -1, arguments: arguments, isSource: isSource)
        let handlerBase = handlers.count
        var cursor = Cursor(frames[frames.count - 1])
        var pc = 0
        // `r` is short on purpose: nearly every instruction touches the hot state.
        var r = Registers(status: lastStatus, steps: steps)
        let limits = Registers.Limits(
            steps: stepLimit ?? Int.max, stringLength: maxStringLength, interrupt: interruptRequested)

        unpark(&r)
        while true {
            let instruction = cursor.code[pc]
            pc += 1
            do throws(LanguageError) {
                switch instruction {
                case .constant(let index):
                    r.stack.append(cursor.constants[index])
                case .loadGlobal(let slot):
                    guard let value = r.globals[slot] else { throw unsetVariable(globals.names[slot]) }
                    r.stack.append(value)
                case .loadLocal(let slot, let global):
                    if let value = r.locals[cursor.localsBase + slot] {
                        r.stack.append(value)
                    } else if let value = r.globals[global] {
                        r.stack.append(value)
                    } else {
                        throw unsetVariable(globals.names[global])
                    }
                case .assignGlobal(let slot):
                    r.globals[slot] = r.pop()
                    r.status = 0
                case .assignLocal(let slot):
                    r.locals[cursor.localsBase + slot] = r.pop()
                    r.status = 0
                case .storeGlobal(let slot):
                    r.globals[slot] = r.pop()
                case .storeLocal(let slot):
                    r.locals[cursor.localsBase + slot] = r.pop()
                case .binary(let op):
                    let right = r.pop()
                    let top = r.stack.count - 1
                    r.stack[top] = try op.apply(r.stack[top], right)
                case .binaryGlobalConstant(let op, let slot, let constant):
                    guard let left = r.globals[slot] else { throw unsetVariable(globals.names[slot]) }
                    r.stack.append(try op.apply(left, cursor.constants[constant]))
                // The integer fast paths are spelled out here so they inline into the loop.
                case .binaryGlobalInt(let op, let slot, let value):
                    if case .int(let left)? = r.globals[slot] {
                        r.stack.append(try op.applyInts(left, value))
                    } else {
                        r.stack.append(try slowGlobalOperation(op, r.globals[slot], slot, value))
                    }
                case .binaryGlobalIntAssign(let op, let slot, let value, let target):
                    if case .int(let left)? = r.globals[slot] {
                        r.globals[target] = try op.applyInts(left, value)
                    } else {
                        r.globals[target] = try slowGlobalOperation(op, r.globals[slot], slot, value)
                    }
                    r.status = 0
                case .compareGlobalIntJumpIfFalse(let op, let slot, let value, let target):
                    if case .int(let left)? = r.globals[slot] {
                        if !op.compareInts(left, value) { pc = target }
                    } else if case .int(0) = try slowGlobalOperation(op, r.globals[slot], slot, value) {
                        pc = target
                    }
                case .binaryGlobalConstantAssign(let op, let slot, let constant, let target):
                    guard let left = r.globals[slot] else { throw unsetVariable(globals.names[slot]) }
                    r.globals[target] = try op.apply(left, cursor.constants[constant])
                    r.status = 0
                case .binaryAssignGlobal(let op, let target):
                    let right = r.pop()
                    let left = r.pop()
                    r.globals[target] = try op.apply(left, right)
                    r.status = 0
                case .compareGlobalConstantJumpIfFalse(let op, let slot, let constant, let target):
                    guard let left = r.globals[slot] else { throw unsetVariable(globals.names[slot]) }
                    if case .int(let flag) = try op.apply(left, cursor.constants[constant]), flag == 0 {
                        pc = target
                    }
                case .jump(let target):
                    pc = target
                case .jumpIfFalse(let target):
                    let condition = r.pop()
                    if case .int(let flag) = condition {
                        if flag == 0 { pc = target }
                    } else if try !condition.truth() {
                        pc = target
                    }
                case .loopCheck:
                    try r.countStep(limits)
                case .echo(let count):
                    let line = try r.joined(count, separator: " ", limit: limits.stringLength) + "\n"
                    try checkedWrite(line)
                    r.status = 0
                case .writeLine:
                    try checkedWrite(r.pop().description + "\n")
                    r.status = 0
                case .concat(let count):
                    r.stack.append(.string(try r.joined(count, separator: "", limit: limits.stringLength)))
                case .not:
                    let value = r.pop()
                    r.stack.append(.int(try value.truth() ? 0 : 1))
                case .negate:
                    let value = r.pop()
                    r.stack.append(try BinaryOperator.subtract.apply(.int(0), value))
                case .toBool:
                    let value = r.pop()
                    r.stack.append(.int(try value.truth() ? 1 : 0))
                case .andJump(let target):
                    if try !r.stack[r.stack.count - 1].truth() {
                        r.stack[r.stack.count - 1] = .int(0)
                        pc = target
                    } else {
                        r.stack.removeLast()
                    }
                case .orJump(let target):
                    if try r.stack[r.stack.count - 1].truth() {
                        r.stack[r.stack.count - 1] = .int(1)
                        pc = target
                    } else {
                        r.stack.removeLast()
                    }
                case .forBegin(let argc, let splitMask):
                    var items: [String] = []
                    for (offset, value) in r.stack[(r.stack.count - argc)...].enumerated() {
                        let text = value.description
                        if offset < Int.bitWidth - 1, splitMask & (1 << offset) != 0 {
                            items += text.split(whereSeparator: \.isWhitespace).map(String.init)
                        } else {
                            items.append(text)
                        }
                    }
                    r.stack.removeLast(argc)
                    r.loops.append(LoopState(items: items, index: 0, remaining: 0))
                case .forNext(let exit):
                    let last = r.loops.count - 1
                    let index = r.loops[last].index
                    if index < r.loops[last].items.count {
                        r.stack.append(.string(r.loops[last].items[index]))
                        r.loops[last].index = index + 1
                    } else {
                        r.loops.removeLast()
                        pc = exit
                    }
                case .repeatBegin:
                    let value = r.pop()
                    guard let count = value.numeric?.intValue, count >= 0 else {
                        throw .usage("count must be a non-negative integer, not \"\(value)\"")
                    }
                    r.loops.append(LoopState(items: [], index: 0, remaining: count))
                case .repeatNext(let exit):
                    let last = r.loops.count - 1
                    if r.loops[last].remaining > 0 {
                        r.loops[last].remaining -= 1
                    } else {
                        r.loops.removeLast()
                        pc = exit
                    }
                case .popLoop:
                    r.loops.removeLast()
                case .beginCapture:
                    captures.append("")
                case .endCapture:
                    var text = captures.removeLast()
                    while text.utf8.last == UInt8(ascii: "\n") { text.removeLast() }
                    r.stack.append(.string(text))
                case .caught:
                    let error = pendingError ?? .commandFailed("unknown error")
                    pendingError = nil
                    r.status = error.status
                    r.stack.append(.string(error.code ?? ""))
                    r.stack.append(.string(error.message))
                case .assert(let message):
                    let text = message >= 0 ? cursor.constants[message].description : r.pop().description
                    guard try r.pop().truth() else { throw .commandFailed(text) }
                    r.status = 0
                case .exit(let hasStatus):
                    let code = hasStatus ? try exitStatus(r.pop()) : 0
                    throw LanguageError(.exit(code), "exit \(code)")
                case .fail(let index):
                    throw cursor.unit.errors[index]
                case .define(let function, let name):
                    functions[cursor.constants[name].description] = cursor.unit.functions[function]
                    r.status = 0

                // The rest may look at or change the parked state.
                case .loadSpecial(let index):
                    park(&r)
                    defer { unpark(&r) }
                    let value = specialValue(index)
                    self.stack.append(value)
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
                    setCurrentVariable(self.stack.removeLast().description, to: nil)
                    lastStatus = 0
                case .pushTry(let target):
                    handlers.append(
                        TryHandler(
                            catchPC: target, frameDepth: frames.count, stackDepth: r.stack.count,
                            loopDepth: r.loops.count, captureDepth: captures.count))
                case .popTry:
                    handlers.removeLast()
                case .call(let siteIndex, let argc):
                    try r.countStep(limits)
                    let words = r.stack[(r.stack.count - argc)...].map(\.description)
                    r.stack.removeLast(argc)
                    let name = cursor.unit.sites[siteIndex].name ?? r.pop().description
                    park(&r)
                    defer { unpark(&r) }
                    commandWillRun?(name, words)
                    if let function = functions[name] {
                        guard frames.count <= maxCallDepth else {
                            throw .commandFailed("recursion too deep (more than \(maxCallDepth) nested calls)")
                        }
                        pushFrame(function, returnPC: pc, arguments: words, isSource: false)
                        cursor = Cursor(frames[frames.count - 1])
                        pc = 0
                    } else if let sourced = try callCommand(name, words) {
                        pushFrame(sourced, returnPC: pc, arguments: currentArguments, isSource: true)
                        sourceDepth += 1
                        cursor = Cursor(frames[frames.count - 1])
                        pc = 0
                    }
                case .retryBegin, .retryAttempt, .retryEnd, .retryFailed, .waitBegin, .waitPoll:
                    park(&r)
                    defer { unpark(&r) }
                    if let target = try runTimed(instruction) { pc = target }
                case .returnFromFrame(let hasStatus):
                    if hasStatus { r.status = try exitStatus(r.pop()) }
                    park(&r)
                    let frame = popFrame()
                    if frame.isSource { sourceDepth -= 1 }
                    if frames.count == baseDepth { return }
                    unpark(&r)
                    cursor = Cursor(frames[frames.count - 1])
                    pc = frame.returnPC
                }
            } catch {
                park(&r)
                let origin = cursor.unit.origin(at: pc - 1)
                let located = error.located(command: origin?.name, position: origin?.position)
                if located.isCatchable, handlers.count > handlerBase {
                    let handler = handlers.removeLast()
                    while frames.count > handler.frameDepth {
                        if popFrame().isSource { sourceDepth -= 1 }
                    }
                    self.stack.truncate(to: handler.stackDepth)
                    self.loopStates.truncate(to: handler.loopDepth)
                    captures.truncate(to: handler.captureDepth)
                    pendingError = located
                    cursor = Cursor(frames[frames.count - 1])
                    pc = handler.catchPC
                    unpark(&r)
                    continue
                }
                while frames.count > baseDepth {
                    if popFrame().isSource { sourceDepth -= 1 }
                }
                throw located
            }
        }
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
        r.status = lastStatus
        r.steps = steps
    }

    private func swapRegisters(_ r: inout Registers) {
        swap(&r.stack, &stack)
        swap(&r.globals, &globals.values)
        swap(&r.locals, &locals)
        swap(&r.loops, &loopStates)
    }

    private func pushFrame(_ unit: CodeUnit, returnPC: Int, arguments: [String], isSource: Bool) {
        frames.append(
            Frame(
                unit: unit, returnPC: returnPC, localsBase: locals.count, arguments: arguments,
                isSource: isSource, stackBase: stack.count, handlerBase: handlers.count,
                loopBase: loopStates.count, captureBase: captures.count))
        locals.append(contentsOf: repeatElement(nil, count: unit.localSlots.count))
    }

    /// Pops the top frame and everything it left on the other stacks.
    private func popFrame() -> Frame {
        let frame = frames.removeLast()
        locals.truncate(to: frame.localsBase)
        stack.truncate(to: frame.stackBase)
        handlers.truncate(to: frame.handlerBase)
        loopStates.truncate(to: frame.loopBase)
        captures.truncate(to: frame.captureBase)
        return frame
    }

    /// `variable OP integer` when the variable is not an integer (or unset).
    @inline(never)
    private func slowGlobalOperation(
        _ op: BinaryOperator, _ left: Value?, _ slot: Int, _ right: Int
    ) throws(LanguageError) -> Value {
        guard let left else { throw unsetVariable(globals.names[slot]) }
        return try op.apply(left, .int(right))
    }

    private func unsetVariable(_ name: String) -> LanguageError {
        .commandFailed("no such variable: $\(name)")
    }

    private func checkedWrite(_ text: String) throws(LanguageError) {
        if let capture = captures.last, capture.utf8.count + text.utf8.count > maxStringLength {
            throw .commandFailed("output of $(…) longer than \(maxStringLength) bytes")
        }
        write(text)
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
        guard let spec = commands.lookup(name) else {
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
            return Compiler.compile(script, name: path, globals: globals)
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
