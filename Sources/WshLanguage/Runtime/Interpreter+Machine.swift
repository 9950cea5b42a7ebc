/// The stack machine that runs compiled code.
///
/// Calls, `source` and `$(…)` push state on explicit stacks instead of recursing in
/// Swift, so a script's recursion depth is limited by ``Interpreter/maxCallDepth``,
/// never by the thread's stack size.
extension Interpreter {
    /// Runs `root` as a new frame until that frame returns.
    func run(_ root: CodeUnit, arguments: [String], isSource: Bool = false) throws(LanguageError) {
        let baseDepth = frames.count
        guard baseDepth < maxCallDepth else { throw .commandFailed("recursion too deep") }
        pushFrame(root, returnPC: -1, arguments: arguments, isSource: isSource)
        let handlerBase = handlers.count
        var unit = root
        var code = unit.instructions
        var constants = unit.constants
        var localsBase = locals.count - unit.localSlots.count
        var pc = 0

        // Switches the local copies to the frame on top after a call or return.
        func enterTopFrame() {
            let frame = frames[frames.count - 1]
            unit = frame.unit
            code = unit.instructions
            constants = unit.constants
            localsBase = frame.localsBase
        }

        while true {
            let instruction = code[pc]
            pc += 1
            do throws(LanguageError) {
                switch instruction {
                case .constant(let index):
                    stack.append(constants[index])
                case .loadGlobal(let slot):
                    guard let value = globals.values[slot] else { throw unsetVariable(globals.names[slot]) }
                    stack.append(value)
                case .loadLocal(let slot, let global):
                    if let value = locals[localsBase + slot] {
                        stack.append(value)
                    } else if let value = globals.values[global] {
                        stack.append(value)
                    } else {
                        throw unsetVariable(globals.names[global])
                    }
                case .loadSpecial(let index):
                    stack.append(specialValue(index))
                case .loadNamed:
                    let name = stack.removeLast().description
                    guard let value = currentVariable(name) else { throw unsetVariable(name) }
                    stack.append(value)
                case .assignGlobal(let slot):
                    globals.values[slot] = stack.removeLast()
                    lastStatus = 0
                case .assignLocal(let slot):
                    locals[localsBase + slot] = stack.removeLast()
                    lastStatus = 0
                case .storeGlobal(let slot):
                    globals.values[slot] = stack.removeLast()
                case .storeLocal(let slot):
                    locals[localsBase + slot] = stack.removeLast()
                case .assignNamed:
                    let value = stack.removeLast()
                    let name = stack.removeLast().description
                    guard !name.isEmpty else { throw .usage("empty variable name") }
                    setCurrentVariable(name, to: value)
                    lastStatus = 0
                case .unsetNamed:
                    setCurrentVariable(stack.removeLast().description, to: nil)
                    lastStatus = 0
                case .echo(let count):
                    let line = try joined(count, separator: " ") + "\n"
                    try checkedWrite(line)
                    lastStatus = 0
                case .writeLine:
                    try checkedWrite(stack.removeLast().description + "\n")
                    lastStatus = 0
                case .concat(let count):
                    stack.append(.string(try joined(count, separator: "")))
                case .binary(let op):
                    let right = stack.removeLast()
                    let left = stack.removeLast()
                    stack.append(try op.apply(left, right))
                case .binaryGlobalConstant(let op, let slot, let constant):
                    guard let left = globals.values[slot] else { throw unsetVariable(globals.names[slot]) }
                    stack.append(try op.apply(left, constants[constant]))
                case .not:
                    let value = stack.removeLast()
                    stack.append(.int(try value.truth() ? 0 : 1))
                case .negate:
                    let value = stack.removeLast()
                    stack.append(try BinaryOperator.subtract.apply(.int(0), value))
                case .toBool:
                    let value = stack.removeLast()
                    stack.append(.int(try value.truth() ? 1 : 0))
                case .jump(let target):
                    pc = target
                case .jumpIfFalse(let target):
                    let condition = stack.removeLast()
                    if case .int(let flag) = condition {
                        if flag == 0 { pc = target }
                    } else if try !condition.truth() {
                        pc = target
                    }
                case .andJump(let target):
                    if try !stack[stack.count - 1].truth() {
                        stack[stack.count - 1] = .int(0)
                        pc = target
                    } else {
                        stack.removeLast()
                    }
                case .orJump(let target):
                    if try stack[stack.count - 1].truth() {
                        stack[stack.count - 1] = .int(1)
                        pc = target
                    } else {
                        stack.removeLast()
                    }
                case .call(let siteIndex, let argc):
                    try countStep()
                    let words = stack[(stack.count - argc)...].map(\.description)
                    stack.removeLast(argc)
                    let name = unit.sites[siteIndex].name ?? stack.removeLast().description
                    if let function = functions[name] {
                        guard frames.count <= maxCallDepth else {
                            throw .commandFailed("recursion too deep (more than \(maxCallDepth) nested calls)")
                        }
                        pushFrame(function, returnPC: pc, arguments: words, isSource: false)
                        enterTopFrame()
                        pc = 0
                    } else if let sourced = try callCommand(name, words) {
                        pushFrame(sourced, returnPC: pc, arguments: currentArguments, isSource: true)
                        sourceDepth += 1
                        enterTopFrame()
                        pc = 0
                    }
                case .beginCapture:
                    captures.append("")
                case .endCapture:
                    var text = captures.removeLast()
                    while text.utf8.last == UInt8(ascii: "\n") { text.removeLast() }
                    stack.append(.string(text))
                case .pushTry(let target):
                    handlers.append(
                        TryHandler(
                            catchPC: target, frameDepth: frames.count, stackDepth: stack.count,
                            loopDepth: loopStates.count, captureDepth: captures.count))
                case .popTry:
                    handlers.removeLast()
                case .caught:
                    let error = pendingError ?? .commandFailed("unknown error")
                    pendingError = nil
                    lastStatus = error.status
                    stack.append(.string(error.message))
                case .forBegin(let argc, let splitMask):
                    var items: [String] = []
                    for (offset, value) in stack[(stack.count - argc)...].enumerated() {
                        let text = value.description
                        if offset < Int.bitWidth - 1, splitMask & (1 << offset) != 0 {
                            items += text.split(whereSeparator: \.isWhitespace).map(String.init)
                        } else {
                            items.append(text)
                        }
                    }
                    stack.removeLast(argc)
                    loopStates.append(LoopState(items: items, index: 0, remaining: 0))
                case .forNext(let exit):
                    let last = loopStates.count - 1
                    let index = loopStates[last].index
                    if index < loopStates[last].items.count {
                        stack.append(.string(loopStates[last].items[index]))
                        loopStates[last].index = index + 1
                    } else {
                        loopStates.removeLast()
                        pc = exit
                    }
                case .repeatBegin:
                    let value = stack.removeLast()
                    guard let count = value.numeric?.intValue, count >= 0 else {
                        throw .usage("count must be a non-negative integer, not \"\(value)\"")
                    }
                    loopStates.append(LoopState(items: [], index: 0, remaining: count))
                case .repeatNext(let exit):
                    let last = loopStates.count - 1
                    if loopStates[last].remaining > 0 {
                        loopStates[last].remaining -= 1
                    } else {
                        loopStates.removeLast()
                        pc = exit
                    }
                case .popLoop:
                    loopStates.removeLast()
                case .loopCheck:
                    try countStep()
                case .define(let function, let name):
                    functions[constants[name].description] = unit.functions[function]
                    lastStatus = 0
                case .returnFromFrame(let hasStatus):
                    if hasStatus { lastStatus = try exitStatus(stack.removeLast(), command: "return") }
                    let frame = popFrame()
                    if frame.isSource { sourceDepth -= 1 }
                    if frames.count == baseDepth { return }
                    enterTopFrame()
                    pc = frame.returnPC
                case .exit(let hasStatus):
                    let status = hasStatus ? try exitStatus(stack.removeLast(), command: "exit") : 0
                    throw LanguageError(.exit(status), "exit \(status)")
                case .assert(let message):
                    let text = message >= 0 ? constants[message].description : stack.removeLast().description
                    guard try stack.removeLast().truth() else { throw .commandFailed(text) }
                    lastStatus = 0
                case .fail(let index):
                    throw unit.errors[index]
                }
            } catch {
                let origin = unit.origin(at: pc - 1)
                let located = error.located(command: origin?.name, position: origin?.position)
                if located.isCatchable, handlers.count > handlerBase {
                    let handler = handlers.removeLast()
                    while frames.count > handler.frameDepth {
                        if popFrame().isSource { sourceDepth -= 1 }
                    }
                    stack.removeSubrange(handler.stackDepth...)
                    loopStates.removeSubrange(handler.loopDepth...)
                    captures.removeSubrange(handler.captureDepth...)
                    pendingError = located
                    enterTopFrame()
                    pc = handler.catchPC
                    continue
                }
                while frames.count > baseDepth {
                    if popFrame().isSource { sourceDepth -= 1 }
                }
                throw located
            }
        }
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
        locals.removeSubrange(frame.localsBase...)
        stack.removeSubrange(frame.stackBase...)
        handlers.removeSubrange(frame.handlerBase...)
        loopStates.removeSubrange(frame.loopBase...)
        captures.removeSubrange(frame.captureBase...)
        return frame
    }

    private func unsetVariable(_ name: String) -> LanguageError {
        .commandFailed("no such variable: $\(name)")
    }

    private func countStep() throws(LanguageError) {
        steps &+= 1
        if let stepLimit, steps > stepLimit {
            throw LanguageError(.stepLimitExceeded, "step limit of \(stepLimit) exceeded")
        }
        if interruptRequested() { throw LanguageError(.interrupted, "interrupted") }
    }

    private func joined(_ count: Int, separator: String) throws(LanguageError) -> String {
        var text = ""
        var first = true
        for value in stack[(stack.count - count)...] {
            if !first { text += separator }
            first = false
            text += value.description
        }
        stack.removeLast(count)
        guard text.utf8.count <= maxStringLength else {
            throw .commandFailed("string longer than \(maxStringLength) bytes")
        }
        return text
    }

    private func checkedWrite(_ text: String) throws(LanguageError) {
        if let capture = captures.last, capture.utf8.count + text.utf8.count > maxStringLength {
            throw .commandFailed("output of $(…) longer than \(maxStringLength) bytes")
        }
        write(text)
    }

    private func exitStatus(_ value: Value, command: String) throws(LanguageError) -> Int32 {
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
            throw .commandFailed("\(name) is part of the language and must be written literally")
        }
    }
}
