import FoundationEssentials
import WshText

/// A value set once and awaited from either world: blocking (`wait`) for a
/// plain thread, suspending (`value`) for async code.
final class OneShot<Value: Sendable>: Sendable {
    private struct State {
        var value: Value?
        var waiters: [CheckedContinuation<Value, Never>] = []
    }

    private let state = Locked(State())
    private let condition = ThreadCondition()

    /// Sets the value unless one is set already; later calls are ignored.
    func fulfil(_ value: Value) {
        let waiters: [CheckedContinuation<Value, Never>]? = state.withLock { state in
            guard state.value == nil else { return nil }
            state.value = value
            defer { state.waiters = [] }
            return state.waiters
        }
        guard let waiters else { return }
        waiters.forEach { $0.resume(returning: value) }
        condition.lock()
        condition.broadcast()
        condition.unlock()
    }

    /// Blocks the calling thread until the value is set, or `timeout` passes.
    func wait(timeout: TimeInterval) -> Value? {
        let deadline = Date(timeIntervalSinceNow: timeout)
        condition.lock()
        defer { condition.unlock() }
        while true {
            if let value = state.withLock({ $0.value }) { return value }
            if !condition.wait(seconds: deadline.timeIntervalSinceNow) { return state.withLock { $0.value } }
        }
    }

    /// Suspends until the value is set.
    var value: Value {
        get async {
            await withCheckedContinuation { continuation in
                let ready: Value? = state.withLock { state in
                    if let value = state.value { return value }
                    state.waiters.append(continuation)
                    return nil
                }
                if let ready { continuation.resume(returning: ready) }
            }
        }
    }
}
