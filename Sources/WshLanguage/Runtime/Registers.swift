/// The machine's hot state while instructions run, held in a local variable so
/// accesses need no dynamic exclusivity checks (see `Interpreter.run`).
struct Registers {
    /// What a run may use, read once when it starts.
    struct Limits {
        let steps: Int
        let stringLength: Int
        let interrupt: () -> Bool
    }

    var stack = Buffer<Value>()
    /// The script-scope variables: `GlobalVariables.values`, whose memory moves only
    /// while compiling (with the registers parked), so it is read again on unpark.
    var globals: UnsafeMutablePointer<Value?>
    var locals = Buffer<Value?>()
    var loops: [LoopState] = []
    var status: Int32
    var steps: Int
    /// True while the state lives in the interpreter's properties instead.
    var parked = true

    init(status: Int32, steps: Int, globals: UnsafeMutablePointer<Value?>) {
        self.status = status
        self.steps = steps
        self.globals = globals
    }

    @inline(__always)
    mutating func pop() -> Value { stack.removeLast() }

    /// Counts a call against the budget and checks for interrupts.
    @inline(__always)
    mutating func countStep(_ limits: Limits) throws(LanguageError) {
        steps &+= 1
        if steps > limits.steps { throw Registers.stepLimitExceeded(limits) }
        if limits.interrupt() { throw LanguageError(.interrupted, "interrupted") }
    }

    /// How many loop iterations may pass between two checks for interrupts: calling
    /// the host's hook on every iteration would cost more than a simple iteration.
    static let interruptInterval = 64

    /// Counts a loop iteration against the budget, checking for interrupts on every
    /// ``interruptInterval``-th step.
    @inline(__always)
    mutating func countLoopStep(_ limits: Limits) throws(LanguageError) {
        steps &+= 1
        if steps > limits.steps { throw Registers.stepLimitExceeded(limits) }
        if steps & (Registers.interruptInterval - 1) == 0, limits.interrupt() {
            throw LanguageError(.interrupted, "interrupted")
        }
    }

    @inline(never)
    static func stepLimitExceeded(_ limits: Limits) -> LanguageError {
        LanguageError(.stepLimitExceeded, "step limit of \(limits.steps) exceeded")
    }

    /// An operand as an integer when it is one, without touching reference counts;
    /// `depth` is its distance from the top when it is on the stack.
    ///
    /// Tested in the order loops meet them (an integer in the instruction, then a
    /// variable), with a variable's slot chosen by a conditional move: a `switch`
    /// here compiled to a jump table, an indirect jump per operand.
    @inline(__always)
    func integer(_ operand: Int32, depth: Int, localsBase: Int, constants: UnsafePointer<Value>) -> Int? {
        let index = Operand.index(operand)
        let kind = Operand.kind(operand)
        if kind == Operand.integerKind { return index }
        if UInt32(bitPattern: kind &- Operand.globalKind) < 2 {
            let slot = kind == Operand.globalKind ? globals + index : locals.base + (localsBase + index)
            if case .int(let value)? = slot.pointee { return value }
            return nil
        }
        return otherInteger(operand, depth: depth, constants: constants)
    }

    /// ``integer(_:depth:localsBase:constants:)`` for a constant or a stack operand.
    @inline(__always)
    private func otherInteger(_ operand: Int32, depth: Int, constants: UnsafePointer<Value>) -> Int? {
        if Operand.kind(operand) == Operand.constantKind {
            if case .int(let value) = constants[Operand.index(operand)] { return value }
        } else if case .int(let value) = stack[stack.count - 1 - depth] {
            return value
        }
        return nil
    }

    /// Both operands of `instruction` (`a` and `b`) when they are integers, their
    /// stack operands dropped; nil, with nothing dropped, otherwise.
    @inline(__always)
    mutating func integerOperands(_ instruction: Instruction, _ cursor: Cursor) -> (Int, Int)? {
        let left = instruction.a
        let right = instruction.b
        guard let b = integer(right, depth: 0, localsBase: cursor.localsBase, constants: cursor.constants),
            let a = integer(
                left, depth: right == Operand.stack ? 1 : 0, localsBase: cursor.localsBase, constants: cursor.constants)
        else { return nil }
        if right == Operand.stack { stack.forgetLast() }
        if left == Operand.stack { stack.forgetLast() }
        return (a, b)
    }

    /// Pushes a result or assigns it to a variable (which sets `$?` to 0, as `let`).
    @inline(__always)
    mutating func put(_ value: __owned Value, _ destination: Int32, localsBase: Int) {
        if destination == Operand.stack {
            stack.append(value)
        } else {
            Registers.overwrite(slot(destination, localsBase: localsBase), with: value)
            status = 0
        }
    }

    /// ``put(_:_:localsBase:)`` for an integer result.
    @inline(__always)
    mutating func put(int value: Int, _ destination: Int32, localsBase: Int) {
        if destination == Operand.stack {
            stack.append(.int(value))
        } else {
            Registers.overwrite(slot(destination, localsBase: localsBase), with: .int(value))
            status = 0
        }
    }

    /// The slot of a variable ``Operand`` (global or local), chosen without a branch.
    @inline(__always)
    func slot(_ operand: Int32, localsBase: Int) -> UnsafeMutablePointer<Value?> {
        let index = Operand.index(operand)
        return Operand.kind(operand) == Operand.globalKind ? globals + index : locals.base + (localsBase + index)
    }

    /// Assigns a variable; an integer there needs no release, so it is simply
    /// written over.
    @inline(__always)
    static func overwrite(_ slot: UnsafeMutablePointer<Value?>, with value: __owned Value) {
        if case .int? = slot.pointee {
            slot.initialize(to: value)
        } else {
            slot.pointee = value
        }
    }

    /// Pops `count` values and joins their text.
    mutating func joined(_ count: Int, separator: String, limit: Int) throws(LanguageError) -> String {
        var text = ""
        for index in (stack.count - count)..<stack.count {
            if index > stack.count - count { text += separator }
            text += stack[index].description
        }
        stack.removeLast(count)
        guard text.utf8.count <= limit else {
            throw .commandFailed("string longer than \(limit) bytes")
        }
        return text
    }
}

/// Where the machine is reading: the running unit's frozen tables and the frame's
/// bases, copied into a local so each instruction fetch is a plain pointer read.
/// It holds no references: the frame keeps the unit alive.
struct Cursor {
    unowned(unsafe) let unit: CodeUnit
    let code: UnsafePointer<Instruction>
    let constants: UnsafePointer<Value>
    let localsBase: Int

    init(_ frame: Frame) {
        unit = frame.unit
        code = UnsafePointer(frame.unit.frozenCode.baseAddress!)
        constants = UnsafePointer(frame.unit.frozenConstants.baseAddress!)
        localsBase = frame.localsBase
    }
}

/// A growable array in memory the machine manages itself: pushing and popping cost a
/// compare and a store, with no copy-on-write uniqueness checks.
///
/// It is a plain pointer, so copies share the elements: the interpreter holds the
/// one owner and swaps it into ``Registers`` while instructions run, and releases
/// it with ``release()`` when it goes away. An empty buffer owns no memory.
struct Buffer<Element> {
    private(set) var base: UnsafeMutablePointer<Element>
    private(set) var count = 0
    private var capacity = 0

    init() {
        base = Buffer.noStorage
    }

    private static var noStorage: UnsafeMutablePointer<Element> {
        UnsafeMutablePointer(bitPattern: MemoryLayout<Element>.alignment)!
    }

    var isEmpty: Bool { count == 0 }

    var last: Element? { count > 0 ? base[count - 1] : nil }

    subscript(index: Int) -> Element {
        @inline(__always) unsafeAddress { UnsafePointer(base + index) }
        @inline(__always) nonmutating unsafeMutableAddress { base + index }
    }

    @inline(__always)
    mutating func append(_ element: __owned Element) {
        if count == capacity { grow(to: count + 1) }
        (base + count).initialize(to: element)
        count += 1
    }

    mutating func append(repeating element: Element, count added: Int) {
        guard added > 0 else { return }
        if count + added > capacity { grow(to: count + added) }
        (base + count).initialize(repeating: element, count: added)
        count += added
    }

    @inline(__always)
    mutating func removeLast() -> Element {
        count -= 1
        return (base + count).move()
    }

    mutating func removeLast(_ removed: Int) {
        count -= removed
        (base + count).deinitialize(count: removed)
    }

    /// Drops the top element without destroying it: only for trivial values
    /// (integers), which need no release.
    @inline(__always)
    mutating func forgetLast() {
        count -= 1
    }

    /// Drops elements past `newCount`; a no-op when the buffer is already that short.
    mutating func truncate(to newCount: Int) {
        if count > newCount { removeLast(count - newCount) }
    }

    @inline(never)
    private mutating func grow(to minimum: Int) {
        let newCapacity = Swift.max(16, capacity * 2, minimum)
        let newBase = UnsafeMutablePointer<Element>.allocate(capacity: newCapacity)
        newBase.moveInitialize(from: base, count: count)
        if capacity > 0 { base.deallocate() }
        base = newBase
        capacity = newCapacity
    }

    /// Destroys the elements and frees the memory.
    mutating func release() {
        truncate(to: 0)
        if capacity > 0 { base.deallocate() }
        base = Buffer.noStorage
        capacity = 0
    }
}
