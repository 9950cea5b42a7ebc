/// The machine's hot state while instructions run, held in a local variable so
/// accesses need no dynamic exclusivity checks (see `Interpreter.run`).
struct Registers {
    /// What a run may use, read once when it starts.
    struct Limits {
        let steps: Int
        let stringLength: Int
        let interrupt: () -> Bool
    }

    var stack: [Value] = []
    var globals: [Value?] = []
    var locals: [Value?] = []
    var loops: [LoopState] = []
    var status: Int32
    var steps: Int
    /// True while the state lives in the interpreter's properties instead.
    var parked = true

    init(status: Int32, steps: Int) {
        self.status = status
        self.steps = steps
    }

    @inline(__always)
    mutating func pop() -> Value { stack.removeLast() }

    /// Counts a loop iteration or call against the budget and checks for interrupts.
    @inline(__always)
    mutating func countStep(_ limits: Limits) throws(LanguageError) {
        steps &+= 1
        if steps > limits.steps {
            throw LanguageError(.stepLimitExceeded, "step limit of \(limits.steps) exceeded")
        }
        if limits.interrupt() { throw LanguageError(.interrupted, "interrupted") }
    }

    /// Pops `count` values and joins their text.
    mutating func joined(_ count: Int, separator: String, limit: Int) throws(LanguageError) -> String {
        var text = ""
        var first = true
        for value in stack[(stack.count - count)...] {
            if !first { text += separator }
            first = false
            text += value.description
        }
        stack.removeLast(count)
        guard text.utf8.count <= limit else {
            throw .commandFailed("string longer than \(limit) bytes")
        }
        return text
    }
}

/// Where the machine is reading: the running unit and its tables, copied into a local
/// so each instruction fetch is a plain array read.
struct Cursor {
    let unit: CodeUnit
    let code: [Instruction]
    let constants: [Value]
    let localsBase: Int

    init(_ frame: Frame) {
        unit = frame.unit
        code = frame.unit.instructions
        constants = frame.unit.constants
        localsBase = frame.localsBase
    }
}
