/// One activation on the machine's explicit call stack: a chunk, a sourced file or a
/// function call, with the depths to restore when it ends.
struct Frame {
    let unit: CodeUnit
    /// Where the caller continues; -1 for the frame a `run` started with.
    let returnPC: Int
    let localsBase: Int
    /// `$1…`: `argumentCount` values on the value stack from `argumentsBase`. A call
    /// leaves its words where they were pushed (`f $i` passes the integer, which
    /// reads and prints exactly as its text would); a sourced file shares its
    /// caller's.
    let argumentsBase: Int
    let argumentCount: Int
    /// Locals created by name at run time (`set $name …`) that have no slot.
    var named: [String: Value]?
    let isSource: Bool
    /// The value stack's height when the frame ends: below a call's words (and a
    /// computed name), so returning pops them.
    let stackBase: Int
    let handlerBase: Int
    let loopBase: Int
    let captureBase: Int

    /// The value stack's height where each command of the frame's body starts:
    /// above a call's words, or where a sourced file began.
    var bodyStackHeight: Int { isSource ? stackBase : argumentsBase + argumentCount }
}

/// An open `$(…)`: what its commands wrote so far.
struct Capture {
    var text = ""
    /// The value stack's height when it began: where a command inside it starts, so
    /// where the stack goes back to when that command fails and the run goes on
    /// (`Interpreter.continueAfterFailure`).
    let stackHeight: Int
}

/// An active `try`: where its `catch` starts and the depths to unwind to. Under
/// `Interpreter.continueAfterFailure` the machine also makes one for a failed
/// command that no `try` catches: it continues after that command.
struct TryHandler {
    let catchPC: Int
    let frameDepth: Int
    let stackDepth: Int
    let loopDepth: Int
    let captureDepth: Int
}

/// The state of a running `for` (items) or `repeat` (remaining count) loop, a
/// `retry` (tries made in `index`, allowed in `remaining`) or a `wait until`.
struct LoopState {
    var items: [String]
    var index: Int
    var remaining: Int
    /// `retry` and `wait until`: the wait between tries or checks.
    var interval: Duration = .zero
    /// `wait until`: when it times out, and the timeout as written for the message.
    var deadline: ContinuousClock.Instant?
    var timeout = ""
}
