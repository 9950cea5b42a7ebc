/// One step of compiled code for the ``Machine``'s stack machine.
///
/// Payloads are plain integers (indexes into the unit's tables, slots, jump targets)
/// so fetching an instruction never touches a reference count.
enum Instruction: Sendable {
    /// Push `constants[index]`.
    case constant(Int)
    /// Push a script-scope variable; unset is an error.
    case loadGlobal(Int)
    /// Push a function-local variable, falling back to the script-scope slot.
    case loadLocal(Int, global: Int)
    /// Push `$?` (0), `$#` (1), `$@` (2) or `$N` (3 + N).
    case loadSpecial(Int)
    /// Pop a name, push that variable's value.
    case loadNamed
    /// Pop into a script-scope variable and set `$?` to 0 (`set`, `let`).
    case assignGlobal(Int)
    /// Pop into a local variable and set `$?` to 0.
    case assignLocal(Int)
    /// Pop into a script-scope variable, leaving `$?` alone (loop variables, `$error`).
    case storeGlobal(Int)
    /// Pop into a local variable, leaving `$?` alone.
    case storeLocal(Int)
    /// Pop a value and a name, assign it in the current scope, set `$?` to 0.
    case assignNamed
    /// Pop a name and remove that variable.
    case unsetNamed
    /// Pop `count` values and write them space-separated as one line.
    case echo(Int)
    /// Pop `count` values and join them into one string.
    case concat(Int)
    /// Pop two values, push the result.
    case binary(BinaryOperator)
    /// Pop a variable's value and a constant, push the result: `$i < 1000000`.
    case binaryGlobalConstant(BinaryOperator, global: Int, constant: Int)
    /// `let target = $global OP CONSTANT` in one step.
    case binaryGlobalConstantAssign(BinaryOperator, global: Int, constant: Int, target: Int)
    /// Pop two values and assign `left OP right` to a script-scope variable.
    case binaryAssignGlobal(BinaryOperator, target: Int)
    /// `while $global < CONSTANT`: compare and jump to the target when false.
    case compareGlobalConstantJumpIfFalse(BinaryOperator, global: Int, constant: Int, target: Int)
    /// `$global OP INTEGER`, the integer kept in the instruction: `$i % 7`.
    case binaryGlobalInt(BinaryOperator, global: Int, value: Int)
    /// `let target = $global OP INTEGER`: `let i = $i + 1`.
    case binaryGlobalIntAssign(BinaryOperator, global: Int, value: Int, target: Int)
    /// `while $global < INTEGER`.
    case compareGlobalIntJumpIfFalse(BinaryOperator, global: Int, value: Int, target: Int)
    /// Pop a value, push its logical negation.
    case not
    /// Pop a value, push its arithmetic negation.
    case negate
    /// Pop a value, push 1 or 0 for its truth.
    case toBool
    /// Continue at a target.
    case jump(Int)
    /// Pop a condition; continue at the target when it is false.
    case jumpIfFalse(Int)
    /// `&&`: if the top is false replace it with 0 and jump, else pop it.
    case andJump(Int)
    /// `||`: if the top is true replace it with 1 and jump, else pop it.
    case orJump(Int)
    /// Pop `argc` words and run `sites[site]`; a dynamic site pops its name too.
    case call(site: Int, argc: Int)
    /// Start capturing output for `$(…)`.
    case beginCapture
    /// Stop capturing and push the captured text, trailing newlines trimmed.
    case endCapture
    /// Enter a `try` whose `catch` starts at the target.
    case pushTry(Int)
    /// Leave a `try` body normally.
    case popTry
    /// Start of a `catch`: set `$?` to the failed status, push the error's
    /// code (or "") and then its message.
    case caught
    /// Pop `argc` words into a `for` list; words whose bit is set in `splitMask`
    /// are split on whitespace.
    case forBegin(argc: Int, splitMask: Int)
    /// Push the next `for` item, or pop the loop and jump to the target.
    case forNext(Int)
    /// Pop a count and start a `repeat` loop.
    case repeatBegin
    /// Count down a `repeat` loop, or pop it and jump to the target.
    case repeatNext(Int)
    /// Drop the innermost `for`/`repeat` state (`break`).
    case popLoop
    /// A loop iteration: check the interrupt hook and the step budget.
    case loopCheck
    /// Define `functions[unit]` under the name `constants[name]`.
    case define(unit: Int, name: Int)
    /// Return from the current function or file; pops a status when `hasStatus`.
    case returnFromFrame(hasStatus: Bool)
    /// Request `exit`; pops a status when `hasStatus`.
    case exit(hasStatus: Bool)
    /// Pop a condition; fail with `constants[message]` when it is false.
    case assert(message: Int)
    /// Pop a value and write it as a line (`expr`).
    case writeLine
    /// Throw `errors[index]` (a compile-time error, raised in order at run time).
    case fail(Int)
    /// Pop `--every` and `--times` and push a `retry`'s state on the loop stack.
    case retryBegin
    /// Count the next try of the innermost `retry` and push its number (`$attempt`).
    case retryAttempt
    /// Drop the innermost `retry`'s state after its block succeeded.
    case retryEnd
    /// A try failed: wait and continue at the target, or drop the state and raise
    /// the failure when tries are used up (or it is a usage or syntax error).
    case retryFailed(Int)
    /// Pop `--every` and `--timeout` and push a `wait until`'s state.
    case waitBegin
    /// Pop the condition: when it holds, drop the state and continue at the target;
    /// when the time is up, fail; otherwise wait for the next check.
    case waitPoll(Int)
}
