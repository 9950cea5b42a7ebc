/// One step of compiled code for the machine: an opcode and up to three 32-bit
/// operands in 16 bytes, so fetching one is two loads and decoding it costs nothing.
///
/// Fields by convention: `a` and `b` are sources (slots, constants, ``Operand``s,
/// counts), `c` is a destination (an ``Operand``: the stack, or a variable
/// assigned) or a jump target, so patching a forward jump always writes `c`.
struct Instruction: Sendable {
    var opcode: Opcode
    /// The operator of `binary` and the compare-and-jump forms.
    var op: BinaryOperator = .add
    var a: Int32 = 0
    var b: Int32 = 0
    var c: Int32 = 0

    init(_ opcode: Opcode, op: BinaryOperator = .add, a: Int = 0, b: Int = 0, c: Int = 0) {
        self.opcode = opcode
        self.op = op
        self.a = Int32(truncatingIfNeeded: a)
        self.b = Int32(truncatingIfNeeded: b)
        self.c = Int32(truncatingIfNeeded: c)
    }

    /// The jump target (`c`) of the opcodes that jump.
    var target: Int {
        @inline(__always) get { Int(c) }
        set { c = Int32(truncatingIfNeeded: newValue) }
    }
}

enum Opcode: UInt8, Sendable {
    /// Push `constants[a]`.
    case constant
    /// Push script-scope variable `a`; unset is an error.
    case loadGlobal
    /// Push local `a`, falling back to script-scope slot `b`.
    case loadLocal
    /// Push `$?` (0), `$#` (1), `$@` (2), `$N` (3 + N) or `$result`: `a`.
    case loadSpecial
    /// Pop a name, push that variable's value.
    case loadNamed
    /// Pop into script-scope variable `a` and set `$?` to 0 (`set`, `let`).
    case assignGlobal
    /// Pop into local `a` and set `$?` to 0.
    case assignLocal
    /// Pop into script-scope variable `a`, leaving `$?` alone (loop variables, `$error`).
    case storeGlobal
    /// Pop into local `a`, leaving `$?` alone.
    case storeLocal
    /// Pop a value and a name, assign it in the current scope, set `$?` to 0.
    case assignNamed
    /// Pop `a` names and remove those variables.
    case unsetNamed
    /// `set NAME "$NAME…"`: pop `b` values and append their text to the variable
    /// ``Operand`` `a` in place, setting `$?` to 0.
    case append
    /// Pop `a` values and write them space-separated as one line.
    case echo
    /// Pop `a` values and join them into one string.
    case concat
    /// `left op right` with ``Operand``s `a` and `b`, the result pushed or assigned to
    /// the variable ``Operand`` `c` (which sets `$?` to 0, as `let` does).
    case binary
    /// A `binary` that pushes its result, put where the next instruction is a
    /// `binary` taking the stack's top as its right operand (`$s + $i % 7`): when
    /// the operands are integers the machine does both in one step, without the
    /// push and the pop, and goes on after the second. Otherwise, and when the
    /// second is reached by a jump, each runs as a `binary`. Made by
    /// ``CodeUnit/freeze()`` in the code the machine reads.
    case binaryIntoNext
    /// A `binary` into a variable, put where the next instruction is a loop's
    /// `loopCompareJump` (`let i = $i + 1` at the end of a `while` body): the
    /// machine runs the back edge right after it, without dispatching it. A jump
    /// to the back edge (`continue`) runs it alone. Made by ``CodeUnit/freeze()``.
    case binaryThenLoopJump
    /// A `binaryIntoNext` whose first operation reads a variable and an integer in
    /// the instruction and whose second adds to a variable its result and assigns
    /// it there (`let s = $s + $i % 7`): when both variables hold integers the
    /// machine reads each once, by a slot known from the code, and writes the sum
    /// in place; otherwise the pair runs as a `binaryIntoNext`. Made by
    /// ``CodeUnit/freeze()``.
    case accumulateIntoNext
    /// A `binaryThenLoopJump` that changes a variable by an integer in the
    /// instruction (`let i = $i + 1`) where the loop's condition then reads that
    /// variable first (`while $i < N`): when it holds an integer the machine
    /// reads it once, writes the result in place and compares the result. Otherwise
    /// it runs as a `binaryThenLoopJump`. Made by ``CodeUnit/freeze()``.
    case stepThenLoopJump
    /// Compare ``Operand``s `a` and `b` with `op` (a comparison) and jump to `c` when
    /// the result is false.
    case compareJumpIfFalse
    /// The same, jumping when the result is true (a rotated loop's condition).
    case compareJumpIfTrue
    /// A loop's back edge: count a step (as `loopCheck`), then compare `a op b` and
    /// jump to `c` when it holds.
    case loopCompareJump
    /// Pop a value, push its logical negation.
    case not
    /// Pop a value, push its arithmetic negation.
    case negate
    /// Pop a value, push 1 or 0 for its truth.
    case toBool
    /// Continue at `c`.
    case jump
    /// Pop a condition; continue at `c` when it is false.
    case jumpIfFalse
    /// Pop a condition; continue at `c` when it is true.
    case jumpIfTrue
    /// `&&`: if the top is false replace it with 0 and jump to `c`, else pop it.
    case andJump
    /// `||`: if the top is true replace it with 1 and jump to `c`, else pop it.
    case orJump
    /// Pop `b` words and run `sites[a]`; a dynamic site pops its name too.
    case call
    /// Start capturing output for `$(…)`.
    case beginCapture
    /// Stop capturing and push the captured text, trailing newlines trimmed.
    case endCapture
    /// Enter a `try` whose `catch` starts at `c`.
    case pushTry
    /// Leave a `try` body normally.
    case popTry
    /// Start of a `catch`: set `$?` to the failed status, push the error's code (or
    /// "") and then its message.
    case caught
    /// Pop `a` words into a `for` list; words whose bit is set in the integer
    /// `constants[b]` are split on whitespace.
    case forBegin
    /// A `for` loop's back edge: count a step, then push the next item and jump to
    /// `c`, or drop the loop and go on.
    case forNext
    /// Pop a count and start a `repeat` loop.
    case repeatBegin
    /// A `repeat` loop's back edge: count a step, then count down and jump to `c`,
    /// or drop the loop and go on.
    case repeatNext
    /// Drop the innermost `for`/`repeat` state (`break`).
    case popLoop
    /// A loop iteration: check the interrupt hook and the step budget.
    case loopCheck
    /// Define `functions[a]` under the name `constants[b]`.
    case define
    /// Return from the current function or file; pops a status when `a` is 1.
    case returnFromFrame
    /// Request `exit`; pops a status when `a` is 1.
    case exit
    /// Pop a condition; fail with `constants[a]` when it is false (`a` < 0: pop the
    /// message first).
    case assert
    /// Pop a value and write it as a line (`expr`).
    case writeLine
    /// Throw `errors[a]` (a compile-time error, raised in order at run time).
    case fail
    /// Pop `--every` and `--times` and push a `retry`'s state on the loop stack.
    case retryBegin
    /// Count the next try of the innermost `retry` and push its number (`$attempt`).
    case retryAttempt
    /// Drop the innermost `retry`'s state after its block succeeded.
    case retryEnd
    /// A try failed: wait and continue at `c`, or drop the state and raise the
    /// failure when tries are used up (or it is a usage or syntax error).
    case retryFailed
    /// Pop `--every` and `--timeout` and push a `wait until`'s state.
    case waitBegin
    /// Pop the condition: when it holds, drop the state and continue at `c`; when
    /// the time is up, fail; otherwise wait for the next check.
    case waitPoll

    // `-x`: emitted only in code compiled while `Interpreter.commandWillRun` is set.
    /// Clear echo slots `a..<a+b` before an expression fills them, so an operand
    /// left out by `&&` or `||` shows as written.
    case echoOpen
    /// Copy the top of the stack (an expression operand) into echo slot `a`.
    case keepOperand
    /// Tell the host that the command of `echoes[a]` is about to act, its words
    /// expanded.
    case echoCommand

    /// Whether ``CodeUnit/freeze()`` makes it from a `binary` and the instruction
    /// after it, in the code the machine reads only.
    var isFrozenPair: Bool {
        switch self {
        case .binaryIntoNext, .binaryThenLoopJump, .accumulateIntoNext, .stepThenLoopJump: true
        default: false
        }
    }

    /// Whether `c` holds a jump target.
    var jumps: Bool {
        switch self {
        case .compareJumpIfFalse, .compareJumpIfTrue, .loopCompareJump, .jump, .jumpIfFalse, .jumpIfTrue,
            .andJump, .orJump, .pushTry, .forNext, .repeatNext, .retryFailed, .waitPoll:
            true
        default: false
        }
    }
}

/// Where an operand of `binary` and the compare forms comes from, and where
/// `binary` puts its result (the stack or a variable), in 32 bits: the kind in
/// the low 3 bits, an index or a small integer above them.
///
/// Reading variables and constants in place saves a push and a pop per operand,
/// and integers in the instruction need no table read.
enum Operand {
    /// Popped from the stack (the right operand first), or pushed as a result.
    static let stack: Int32 = 0
    static let globalKind: Int32 = 1
    /// A local slot, falling back to the script-scope slot of the same name
    /// (`CodeUnit.localGlobalSlots`).
    static let localKind: Int32 = 2
    static let constantKind: Int32 = 3
    static let integerKind: Int32 = 4

    /// The integers that fit in an operand; others go to the constant table.
    static let integerRange = -(1 << 27)..<(1 << 27)

    static func global(_ slot: Int) -> Int32 { Int32(slot) << 3 | globalKind }
    static func local(_ slot: Int) -> Int32 { Int32(slot) << 3 | localKind }
    static func constant(_ index: Int) -> Int32 { Int32(index) << 3 | constantKind }
    static func integer(_ value: Int) -> Int32 { Int32(value) << 3 | integerKind }

    @inline(__always) static func kind(_ operand: Int32) -> Int32 { operand & 7 }
    @inline(__always) static func index(_ operand: Int32) -> Int { Int(operand >> 3) }
}
