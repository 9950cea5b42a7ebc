import FoundationEssentials
import Glibc

/// An embeddable interpreter of the wsh command language.
///
/// A host creates one, registers its commands, supplies output sinks and hooks,
/// and feeds it complete chunks of source with ``execute(_:file:firstLine:)``.
/// Source is compiled once per chunk to instructions that run on an explicit stack,
/// so deep recursion in scripts never grows the native stack.
///
/// An interpreter is confined to the thread that uses it; it is not `Sendable`.
/// Nothing in it prints to stdout or calls `exit`: results go to ``output``, notes to
/// ``diagnostics`` and `exit N` arrives as a ``LanguageError`` of kind `.exit(N)`.
public final class Interpreter {
    /// Receives results: `echo`, `expr`, `help` and command output. Text arrives with
    /// its newlines.
    public var output: (String) -> Void
    /// Receives notes and warnings that are not results (stderr in a shell).
    public var diagnostics: (String) -> Void
    /// Asked on every command call and every 64th loop iteration (so a loop stops
    /// within microseconds, without paying for a call on each iteration); returning
    /// true stops execution with an `interrupted` error (status 130).
    public var interruptRequested: () -> Bool = { false }
    /// The most loop iterations and command calls one ``execute(_:file:firstLine:)``
    /// may take, or nil for no limit; exceeding it is a `stepLimitExceeded` error that
    /// `try` cannot catch. Fuzzers and untrusted input use it.
    public var stepLimit: Int?
    /// How deeply functions and sourced files may nest before "recursion too deep".
    public var maxCallDepth = 1000
    /// How deeply `source` may nest.
    public var maxSourceDepth = 64
    /// The longest string (in UTF-8 bytes) a word, capture or output line may become.
    public var maxStringLength = 64 << 20
    /// Reads a file for `source`; the default reads from the file system. Hosts may
    /// replace it, for example to resolve paths against a script's directory.
    public var sourceLoader: (String) throws -> [UInt8] = { path in
        guard let data = FileManager.default.contents(atPath: path) else {
            throw LanguageError.commandFailed("cannot read \(path)")
        }
        return [UInt8](data)
    }
    /// Whether `env NAME` may read the process environment; when false it fails
    /// with "reading the environment is turned off by the host".
    public var allowsEnvironment = true
    /// Where `env NAME` looks a name up; the default reads the process environment.
    public var environment: (String) -> String? = { name in getenv(name).map { String(cString: $0) } }
    /// How `retry` and `wait until` wait between tries, or nil for the default:
    /// `nanosleep` in slices of at most 20 ms that returns early once
    /// ``interruptRequested`` is true. A replacement need not return early; the
    /// interpreter asks ``interruptRequested`` after every wait. Tests inject a fake
    /// that records the durations.
    public var sleep: ((Duration) -> Void)?
    /// The clock `wait until --timeout` measures with; tests pair it with a fake
    /// ``sleep`` that advances it.
    public var now: () -> ContinuousClock.Instant = { ContinuousClock.now }
    /// The arguments of the top-level script: `$1…$9`, `$#` and `$@`.
    public var scriptArguments: [String] = []
    /// Called before each command runs, with its name, its words expanded and how
    /// deeply it is nested (wsh's `-x`): every call of a host command, built-in or
    /// function — before its name is looked up, so the hook may define it — and
    /// every form the compiler turns into instructions, once its words are expanded
    /// and before it acts. Control forms report their head, not their blocks: each
    /// condition `if`, `elif`, `while` and `wait until` evaluate, `for NAME in
    /// ITEMS…` once with its items, `repeat COUNT`, `try`, `catch` when it runs,
    /// `retry` with its options, `def NAME`. Commands that do not run (an untaken
    /// branch) report nothing.
    ///
    /// The forms compiled to instructions report only from code compiled while the
    /// hook is set: set it before running code. Functions already defined are
    /// compiled again when it is set or removed. Without a hook, code carries no
    /// trace of it.
    public var commandWillRun: ((CommandEcho) -> Void)? {
        didSet {
            guard (oldValue == nil) != (commandWillRun == nil) else { return }
            let echoing = commandWillRun != nil
            for (name, function) in functions {
                functions[name] = Compiler.recompile(function, echoing: echoing, globals: globals)
            }
            functionGeneration += 1
        }
    }
    /// When set, a command that fails outside any `try` does not end the run: the
    /// error (located, as ``execute(_:file:firstLine:)`` would throw it) is passed
    /// here to be reported, `$?` becomes its status, and execution goes on with the
    /// next command — on the same line, in the same block, loop body or function,
    /// or inside the same `$(…)` — as a shell without `set -e` does (wsh's
    /// `--keep-going`). A `try` still catches first; interrupts, `exit` and the step
    /// limit still end the run.
    public var continueAfterFailure: ((LanguageError) -> Void)?
    /// `$?`: the status of the last command.
    public var lastStatus: Int32 = 0

    /// The commands this interpreter knows, built-ins and language forms included.
    ///
    /// Reading it declares every command still pending (`help`, completion); a
    /// call declares only the batches up to the one that has its command
    /// (``command(named:)``), and a script that calls none, such as `echo hi`,
    /// declares nothing (see ``register(lazily:)``).
    public var commands: CommandTable {
        if builtinsPending || firstPending != nil { registerPendingCommands() }
        return table
    }
    private var table = CommandTable()
    /// The built-ins are registered when the whole table is read, or one of them is looked up.
    private var builtinsPending = true
    /// What ``register(lazily:)`` was given and has not made yet, in order: a
    /// chain of nodes, not an array, whose element type (a function type) the
    /// runtime would build metadata for at every start (27 000 of the 480 000
    /// instructions of `wsh -c 'echo hi'`).
    private final class PendingCommands {
        let make: () -> [CommandSpec]
        var next: PendingCommands?
        init(_ make: @escaping () -> [CommandSpec]) { self.make = make }
    }
    private var firstPending: PendingCommands?
    private var lastPending: PendingCommands?

    let globals = GlobalVariables()
    @exclusivity(unchecked) var functions: [String: CodeUnit] = [:]
    /// Counts `def`s, so call sites can cache which function a name means.
    @exclusivity(unchecked) var functionGeneration = 0
    var steps = 0

    // Machine state; see Interpreter+Machine.swift. The interpreter runs on one
    // thread and the machine never holds an access across a call that could
    // overlap, so these opt out of dynamic exclusivity checks.
    @exclusivity(unchecked) var stack = Buffer<Value>()
    @exclusivity(unchecked) var frames = Buffer<Frame>()
    @exclusivity(unchecked) var locals = Buffer<Value?>()
    @exclusivity(unchecked) var handlers: [TryHandler] = []
    @exclusivity(unchecked) var loopStates: [LoopState] = []
    @exclusivity(unchecked) var captures: [Capture] = []
    @exclusivity(unchecked) var pendingError: LanguageError?
    @exclusivity(unchecked) var sourceDepth = 0

    // `$result`: the host's document, produced on first read.
    var resultProducer: (() -> String?)?
    var resultText: String?
    var resultIsValid = false

    /// Creates an interpreter with the built-in commands.
    ///
    /// - Parameters:
    ///   - output: receives results (stdout).
    ///   - diagnostics: receives notes (stderr).
    public init(output: @escaping (String) -> Void = { _ in }, diagnostics: @escaping (String) -> Void = { _ in }) {
        self.output = output
        self.diagnostics = diagnostics
    }

    deinit {
        stack.release()
        locals.release()
        frames.release()
    }

    /// Adds or replaces a host command.
    ///
    /// The language's own forms and built-ins (`if`, `set`, `echo`, …, `help`,
    /// `source`) cannot be replaced; registering one of their names is a programming
    /// error.
    public func register(_ command: CommandSpec) {
        // What was registered earlier goes in first, so a later command still replaces it.
        registerPendingCommands()
        registerChecked(command)
    }

    /// Adds host commands that `make` declares when the table is first read
    /// (``commands``), in the order of the calls to this and ``register(_:)``.
    /// A host with many commands passes them here, so that a script that calls
    /// none of them does not pay for declaring them.
    public func register(lazily make: @escaping () -> [CommandSpec]) {
        let pending = PendingCommands(make)
        if let last = lastPending { last.next = pending } else { firstPending = pending }
        lastPending = pending
    }

    private func registerPendingCommands() {
        registerBuiltinsIfPending()
        while registerNextPending() {}
    }

    /// The command a call names: the commands given to ``register(lazily:)``
    /// are declared a batch at a time, in order, until one batch declares it
    /// (a script that calls `fetch` does not declare the archive's commands).
    /// The same as reading it from ``commands``: a batch never redeclares a
    /// command an earlier batch declared (checked in debug builds).
    /// The built-ins are declared only for one of their names, or when no
    /// host command has the name: no host command shares a name with one
    /// (`registerChecked`), so `fetch` never declares them, and `source`
    /// declares no host batch.
    func command(named name: String) -> CommandSpec? {
        if Self.builtinCommandNames.contains(name) {
            registerBuiltinsIfPending()
            return table.lookup(name)
        }
        repeat {
            if let spec = table.lookup(name) { return spec }
        } while registerNextPending()
        // A language form named as a command (`set c if; $c …`): its entry says so.
        registerBuiltinsIfPending()
        return table.lookup(name)
    }

    /// The table commands of the language (`Builtins`), which hosts cannot replace.
    static let builtinCommandNames: Set<String> = ["help", "source", "json", "env"]

    private func registerBuiltinsIfPending() {
        guard builtinsPending else { return }
        builtinsPending = false
        for spec in Builtins.specs {
            if case .syntax = spec.action {} else {
                assert(Self.builtinCommandNames.contains(spec.name), "\(spec.name): a table built-in missing from builtinCommandNames")
            }
            table.register(spec)
        }
    }

    /// Declares the oldest batch given to ``register(lazily:)``; false when none is left.
    private func registerNextPending() -> Bool {
        guard let pending = firstPending else { return false }
        firstPending = pending.next
        if firstPending == nil { lastPending = nil }
        for command in pending.make() {
            assert(([command.name] + command.aliases).allSatisfy { table.lookup($0) == nil },
                   "\(command.name) is declared by two batches of lazily registered commands")
            registerChecked(command)
        }
        return true
    }

    private func registerChecked(_ command: CommandSpec) {
        // A host naming its command as a built-in is the host's bug, found by its tests
        // (debug builds); checking it in every release run cost a warm fetch 0.2 M instructions.
        for name in [command.name] + command.aliases {
            assert(
                Compiler.inlineForms.contains(name) == false && !Self.builtinCommandNames.contains(name),
                "\(name) is a built-in of the language")
        }
        table.register(command)
    }

    /// Parses, compiles and runs one complete chunk of source.
    ///
    /// - Parameters:
    ///   - file: labels positions in errors (`FILE:LINE:`), e.g. a path or `-c`.
    ///   - firstLine: the line number of the chunk's first line in that file.
    /// - Throws: the first error not handled by `try`; `exit N` arrives as kind
    ///   `.exit(N)`. ``lastStatus`` holds the error's status afterwards.
    public func execute(_ source: String, file: String = "-c", firstLine: Int = 1) throws(LanguageError) {
        try execute(bytes: Array(source.utf8), file: file, firstLine: firstLine)
    }

    /// Like ``execute(_:file:firstLine:)`` for raw bytes; invalid UTF-8 and NUL bytes
    /// are syntax errors (status 2).
    public func execute(bytes: [UInt8], file: String = "-c", firstLine: Int = 1) throws(LanguageError) {
        do {
            let script = try Parser.parse(bytes: bytes, file: file, firstLine: firstLine)
            let unit = Compiler.compile(script, name: file, globals: globals, echoing: commandWillRun != nil)
            if frames.isEmpty { steps = 0 }
            try run(unit, arguments: currentArguments)
        } catch {
            lastStatus = error.status
            throw error
        }
    }

    /// Runs a script file with arguments, as `wsh FILE ARGS…` does: `$1…`, `$#` and
    /// `$@` become `arguments`.
    public func executeFile(_ path: String, arguments: [String] = []) throws(LanguageError) {
        let bytes: [UInt8]
        do {
            bytes = try sourceLoader(path)
        } catch {
            lastStatus = 1
            throw (error as? LanguageError) ?? .commandFailed("cannot read \(path): \(error)")
        }
        scriptArguments = arguments
        try execute(bytes: bytes, file: path, firstLine: 1)
    }

    /// Sets a script-scope variable (`$count`), visible to functions unless they have
    /// a local of the same name.
    public func setVariable(_ name: String, to value: Value) {
        globals[name] = value
    }

    /// A script-scope variable's value, or nil when it is unset.
    public func variable(_ name: String) -> Value? {
        globals[name]
    }

    /// Removes a script-scope variable.
    public func removeVariable(_ name: String) {
        globals[name] = nil
    }

    /// Sets the JSON document `$result` holds and `json get PATH` reads without TEXT,
    /// or clears it (nil). Hosts call it after a command that has a JSON form.
    /// `json` checks a document once, on its first read, and trusts it afterwards.
    public func setResultDocument(_ json: String?) {
        resultProducer = nil
        resultText = json
        resultIsValid = false
    }

    /// Sets `$result` to a document made only when a script first reads it
    /// (`$result`, `json get PATH`, `json valid`), so commands whose result is never
    /// read pay nothing. `produce` runs at most once, on the interpreter's thread;
    /// nil from it means no document.
    public func setResultDocument(lazy produce: @escaping () -> String?) {
        resultProducer = produce
        resultText = nil
        resultIsValid = false
    }

    /// The document `$result` holds, made now if it was set lazily; nil when none.
    public var resultDocument: String? {
        if let produce = resultProducer {
            resultProducer = nil
            resultText = produce()
        }
        return resultText
    }

    /// Names of commands, aliases and defined functions starting with `prefix`, for
    /// completing the first word of a line.
    public func commandNames(withPrefix prefix: String) -> [String] {
        let functionNames = functions.keys.filter { $0.hasPrefix(prefix) }
        return Array(Set(commands.names(withPrefix: prefix) + functionNames)).sorted()
    }

    /// Candidates for the last word of `line` (text up to the cursor): command names
    /// for the first word, otherwise options and the command's completion provider.
    /// Words are split on whitespace, which is enough for completion.
    public func completions(forLine line: String) -> [String] {
        var words = line.split(whereSeparator: { $0 == " " || $0 == "\t" }).map(String.init)
        let endsWithSpace = line.last.map { $0 == " " || $0 == "\t" } ?? true
        let prefix = endsWithSpace ? "" : (words.popLast() ?? "")
        guard let command = words.first else { return commandNames(withPrefix: prefix) }
        return commands.completions(forCommand: command, previousWords: Array(words.dropFirst()), prefix: prefix)
    }

    /// Names of the functions defined with `def`.
    public var functionNames: [String] { functions.keys.sorted() }

    // MARK: Used by commands

    /// Writes `text` as a command's result: to ``output``, or into the `$(…)`
    /// being captured. A host's Views write through it so that what they
    /// render can be captured like any command's output.
    public func write(_ text: String) {
        if captures.isEmpty {
            output(text)
        } else {
            captures[captures.count - 1].text += text
        }
    }

    /// `$1…` of the running code; only while the machine is parked (the words live
    /// on its value stack).
    var currentArguments: [Value] {
        guard let frame = frames.last else { return scriptArguments.map { .string($0) } }
        return (0..<frame.argumentCount).map { stack[frame.argumentsBase + $0] }
    }

    /// A variable as the running code sees it: local first, then script scope.
    func currentVariable(_ name: String) -> Value? {
        if let special = Compiler.specialIndex(name) { return specialValue(special) }
        if let frame = frames.last, frame.unit.isFunction, !frame.unit.globalNames.contains(name) {
            if let slot = frame.unit.localSlots[name], let value = locals[frame.localsBase + slot] { return value }
            if let value = frame.named?[name] { return value }
        }
        return globals[name]
    }

    func setCurrentVariable(_ name: String, to value: Value?) {
        if let frame = frames.last, frame.unit.isFunction, !frame.unit.globalNames.contains(name) {
            if let slot = frame.unit.localSlots[name] {
                locals[frame.localsBase + slot] = value
            } else {
                frames[frames.count - 1].named = frames[frames.count - 1].named ?? [:]
                frames[frames.count - 1].named?[name] = value
            }
        } else {
            globals[name] = value
        }
    }

    func specialValue(_ index: Int) -> Value {
        let arguments = currentArguments
        switch index {
        case 0: return .int(Int(lastStatus))
        case 1: return .int(arguments.count)
        case 2: return .string(arguments.map(\.description).joined(separator: " "))
        default:
            let position = index - 3
            if index == Compiler.resultIndex { return .string(resultDocument ?? "") }
            if position == 0 { return .string(frames.last?.unit.name ?? "") }
            return position <= arguments.count ? arguments[position - 1] : .string("")
        }
    }
}

extension Interpreter {
    /// Runs `body` with the `$result` document and whether it is known to be valid;
    /// fails when there is none. `json` uses it and marks the document valid after
    /// one check, so later reads skip the check.
    func withResultDocument<T>(
        _ body: (String, Bool) throws(LanguageError) -> T
    ) throws(LanguageError) -> T {
        guard let text = resultDocument else {
            throw .commandFailed("no JSON document: give TEXT, or run a command that leaves one in $result")
        }
        let known = resultIsValid
        let value = try body(text, known)
        // The body returned, so the text passed its check (json get and valid both check).
        resultIsValid = true
        return value
    }

    /// `env NAME [DEFAULT]`.
    func environmentValue(_ name: String, default fallback: String?) throws(LanguageError) -> String {
        guard allowsEnvironment else { throw .commandFailed("reading the environment is turned off by the host") }
        if let value = environment(name) { return value }
        guard let fallback else { throw .commandFailed("\(name) is not set (give a DEFAULT: env \(name) DEFAULT)") }
        return fallback
    }

    /// Waits `duration` for `retry` and `wait until`, then fails with an interrupt
    /// if the host asked to stop meanwhile.
    func pause(_ duration: Duration) throws(LanguageError) {
        if duration > .zero {
            if let sleep {
                sleep(duration)
            } else {
                let slice = Duration.milliseconds(20)
                var remaining = duration
                while remaining > .zero, !interruptRequested() {
                    let step = min(remaining, slice)
                    var left = timespec(tv_sec: Int(step.components.seconds),
                                        tv_nsec: Int(step.components.attoseconds / 1_000_000_000))
                    var rest = timespec()
                    while nanosleep(&left, &rest) == -1, errno == EINTR, !interruptRequested() { left = rest }
                    remaining -= step
                }
            }
        }
        if interruptRequested() { throw LanguageError(.interrupted, "interrupted") }
    }
}
