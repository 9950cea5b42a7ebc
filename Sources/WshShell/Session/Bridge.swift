import Dispatch

/// Runs async ViewModel inputs from the shell's synchronous main thread.
///
/// The REPL stays on the real main thread (libedit and SIGINT need it), so
/// each async input runs in a Task while the main thread waits, polling for
/// Ctrl-C every 10 ms; an interrupt cancels the Task, which cancels the
/// request within milliseconds.
enum Bridge {
    /// The outcome of `operation`, or `BridgeInterrupted` after Ctrl-C.
    static func run<T>(
        _ operation: sending @escaping () async throws -> T,
        onInterrupt: () -> Void = {}
    ) throws -> T {
        let box = ResultBox<T>()
        let done = DispatchSemaphore(value: 0)
        let task = Task {
            do { box.result = .success(try await operation()) } catch { box.result = .failure(error) }
            done.signal()
        }
        var interrupted = false
        while done.wait(timeout: .now() + .milliseconds(10)) == .timedOut {
            if !interrupted && Interrupts.pending {
                interrupted = true
                task.cancel()
                onInterrupt()
            }
        }
        // The semaphore orders the Task's write before this read. An input
        // that finished despite Ctrl-C (watch, fetch --all keep what arrived)
        // returns its result; the pending interrupt still stops a script.
        let result = box.result!
        if interrupted || Interrupts.pending, case .failure = result { throw BridgeInterrupted() }
        return try result.get()
    }
}

/// Ctrl-C stopped an async input.
struct BridgeInterrupted: Error {}

/// Carries a result from the Task to the waiting thread; the semaphore
/// makes the hand-over safe.
private final class ResultBox<T>: @unchecked Sendable {
    var result: Result<T, Error>?
}

/// A value handed to the Task of `Bridge.run` while the thread that owns it
/// waits for that Task: the one place where wsh vouches for a non-Sendable
/// value (the session's ViewModels) crossing threads. The owner does not
/// touch it until `run` returns, so it has one user at a time.
struct WaitingHandOver<Value>: @unchecked Sendable {
    let value: Value
    init(_ value: Value) { self.value = value }
}
