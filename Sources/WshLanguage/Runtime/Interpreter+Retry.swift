/// `retry` and `wait until`: the instructions that wait, run with the machine's
/// state parked in the interpreter (they are rare, so they stay out of the hot loop,
/// and so do `-x`'s, which share the way out).
extension Interpreter {
    /// Runs one of the rare instructions run parked (the waiting ones, `-x`'s);
    /// returns where to continue when it jumps.
    func runParked(_ instruction: Instruction) throws(LanguageError) -> Int? {
        switch instruction.opcode {
        case .retryBegin:
            let every = try seconds(stack.removeLast(), option: "every", command: "retry")
            let timesValue = stack.removeLast()
            guard let times = timesValue.numeric?.intValue, times >= 1 else {
                throw .usage("--times must be a positive integer, not \"\(timesValue)\"")
            }
            loopStates.append(LoopState(items: [], index: 0, remaining: times, interval: every.duration))
        case .retryAttempt:
            loopStates[loopStates.count - 1].index += 1
            stack.append(.int(loopStates[loopStates.count - 1].index))
        case .retryEnd:
            loopStates.removeLast()
        case .retryFailed:
            let top = instruction.target
            let error = pendingError ?? .commandFailed("unknown error")
            pendingError = nil
            let state = loopStates[loopStates.count - 1]
            guard error.kind == .failed, state.index < state.remaining else {
                loopStates.removeLast()
                lastStatus = error.status
                throw error
            }
            lastStatus = error.status
            try pause(error.retryAfter ?? state.interval)
            return top
        case .waitBegin:
            let every = try seconds(stack.removeLast(), option: "every", command: "wait until")
            let timeout = try seconds(stack.removeLast(), option: "timeout", command: "wait until")
            loopStates.append(
                LoopState(
                    items: [], index: 0, remaining: 0, interval: every.duration,
                    deadline: now().advanced(by: timeout.duration), timeout: timeout.text))
        case .waitPoll:
            let end = instruction.target
            let condition = stack.removeLast()
            let state = loopStates[loopStates.count - 1]
            if try condition.truth() {
                loopStates.removeLast()
                lastStatus = 0
                return end
            }
            let current = now()
            guard let deadline = state.deadline, current < deadline else {
                loopStates.removeLast()
                throw LanguageError(.failed, "timed out after \(state.timeout) s", command: "wait until")
            }
            try pause(min(state.interval, current.duration(to: deadline)))
        case .echoOpen, .keepOperand, .echoCommand:
            runEcho(instruction)
        default:
            break
        }
        return nil
    }

    /// A `--every`/`--timeout` value: a non-negative number of seconds.
    private func seconds(
        _ value: Value, option: String, command: String
    ) throws(LanguageError) -> (duration: Duration, text: String) {
        let number: Double? =
            switch value.numeric {
            case .int(let int)?: Double(int)
            case .double(let double)?: double
            default: nil
            }
        guard let number, number >= 0, number.isFinite, number < 1e9 else {
            throw LanguageError(
                .usage, "--\(option) must be a number of seconds, not \"\(value)\"", command: command)
        }
        return (.milliseconds(Int64((number * 1000).rounded())), value.description)
    }
}
