/// Compiled code for a chunk, a sourced file or a function body, with the tables its
/// instructions index into.
///
/// The tables are filled while compiling and only read while running (apart from
/// the call-site cache), on the interpreter's one thread, so they opt out of
/// dynamic exclusivity checks.
final class CodeUnit {
    /// Where a call goes: a fixed name, or nil when the name is the first word's value.
    struct CallSite {
        var name: String?
    }

    /// The command an instruction belongs to, for error messages, and where the
    /// machine goes on when it fails under ``Interpreter/continueAfterFailure``.
    struct CommandOrigin {
        var name: String
        var position: SourcePosition
        /// The instruction after the command's last one.
        var end = 0
        /// How many `$(…)` of this unit the command is inside.
        var captureDepth = 0
        /// How many loop states of this frame are on the loop stack while it runs:
        /// the `for`, `repeat` and `retry` blocks and `wait until` conditions of this
        /// unit it is inside.
        var loopDepth = 0
    }

    /// A variable that an expression reads before the instructions `range`, but that
    /// the compiler fused into the instruction after them (`$s + $i % 7` reads `$s`
    /// in the `+`). When one of those instructions fails, the variable being unset is
    /// the error instead, as if it had been read first.
    struct DeferredLoad {
        var range: Range<Int>
        var operand: Int32
    }

    /// A label for messages: the function name or the file.
    let name: String
    /// Whether variables are local to a call of this unit.
    let isFunction: Bool
    /// Whether the unit was compiled with `-x` echo points.
    let echoing: Bool
    /// A function's body, kept to compile it again when the host turns echoing on
    /// or off; nil for chunks and files.
    let body: Script?

    @exclusivity(unchecked) var instructions: [Instruction] = []
    /// For each instruction, an index into `origins`.
    @exclusivity(unchecked) var instructionOrigins: [Int32] = []
    @exclusivity(unchecked) var origins: [CommandOrigin] = []
    @exclusivity(unchecked) var constants: [Value] = []
    @exclusivity(unchecked) var sites: [CallSite] = []
    /// What a call site's fixed name meant when the interpreter had seen
    /// `generation` definitions: a function, or nil for a table command.
    struct SiteCache {
        var generation = -1
        /// Not retained: while the generation matches, the interpreter's `functions`
        /// still holds it (every `def` starts a new generation).
        var function: Unmanaged<CodeUnit>?
    }
    @exclusivity(unchecked) var functions: [CodeUnit] = []
    @exclusivity(unchecked) var errors: [LanguageError] = []
    /// Local variable slots of a function unit, by name.
    @exclusivity(unchecked) var localSlots: [String: Int] = [:]
    /// For each local slot, the script-scope slot of the same name, read when the
    /// local is unset.
    @exclusivity(unchecked) var localGlobalSlots: [Int] = []
    /// Names a function declared `global`: they read and set script scope.
    @exclusivity(unchecked) var globalNames: Set<String> = []
    /// Reads moved past the instructions that follow them; consulted only on errors.
    @exclusivity(unchecked) var deferredLoads: [DeferredLoad] = []
    /// The `-x` lines of the commands compiled to instructions (`Opcode.echoCommand`).
    @exclusivity(unchecked) var echoes: [EchoLayout] = []
    /// Slots a frame keeps expression operands in for their `-x` line; they follow
    /// the local variables' slots.
    @exclusivity(unchecked) var echoSlotCount = 0
    /// Where the echo slots start in a frame's locals, and how many slots a frame of
    /// this unit takes: set by ``freeze()``.
    private(set) var echoSlotBase = 0
    private(set) var frameLocalCount = 0

    /// The instructions and constants where the machine reads them: copies made by
    /// ``freeze()`` in memory that stays put while the unit lives, so a running
    /// frame reads them through plain pointers, with no reference counting.
    private(set) var frozenCode = UnsafeMutableBufferPointer<Instruction>(start: nil, count: 0)
    private(set) var frozenConstants = UnsafeMutableBufferPointer<Value>(start: nil, count: 0)
    /// One entry per call site, made by ``freeze()``.
    private(set) var siteCache = UnsafeMutableBufferPointer<SiteCache>(start: nil, count: 0)

    init(name: String, isFunction: Bool, echoing: Bool, body: Script? = nil) {
        self.name = name
        self.isFunction = isFunction
        self.echoing = echoing
        self.body = body
    }

    deinit {
        frozenCode.deallocate()
        _ = frozenConstants.deinitialize()
        frozenConstants.deallocate()
        siteCache.deallocate()
    }

    /// Ends compiling: makes the copies the machine reads and the call-site caches.
    func freeze() {
        frozenCode = .allocate(capacity: instructions.count)
        _ = frozenCode.initialize(from: instructions)
        for index in frozenCode.indices.dropLast() {
            let this = frozenCode[index]
            let next = frozenCode[index + 1]
            if this.opcode == .binary, this.c == Operand.stack, next.opcode == .binary,
                next.b == Operand.stack, next.a != Operand.stack
            {
                let accumulates =
                    CodeUnit.isVariable(this.a) && Operand.kind(this.b) == Operand.integerKind
                    && CodeUnit.isVariable(next.a) && next.c == next.a
                frozenCode[index].opcode = accumulates ? .accumulateIntoNext : .binaryIntoNext
            } else if this.opcode == .binary, this.c != Operand.stack, next.opcode == .loopCompareJump {
                let steps =
                    CodeUnit.isVariable(this.a) && Operand.kind(this.b) == Operand.integerKind
                    && this.c == this.a && next.a == this.a && next.b != Operand.stack
                frozenCode[index].opcode = steps ? .stepThenLoopJump : .binaryThenLoopJump
            }
        }
        frozenConstants = .allocate(capacity: Swift.max(constants.count, 1))
        _ = frozenConstants.initialize(from: constants)
        frozenConstants = UnsafeMutableBufferPointer(rebasing: frozenConstants[..<constants.count])
        siteCache = .allocate(capacity: Swift.max(sites.count, 1))
        siteCache.initialize(repeating: SiteCache())
        echoSlotBase = localSlots.count
        frameLocalCount = localSlots.count + echoSlotCount
    }

    /// Whether an ``Operand`` reads a variable (script-scope or local).
    private static func isVariable(_ operand: Int32) -> Bool {
        Operand.kind(operand) == Operand.globalKind || Operand.kind(operand) == Operand.localKind
    }

    /// The command that instruction `index` belongs to.
    func origin(at index: Int) -> CommandOrigin? {
        guard index >= 0, index < instructionOrigins.count else { return nil }
        let origin = Int(instructionOrigins[index])
        return origin >= 0 ? origins[origin] : nil
    }
}
