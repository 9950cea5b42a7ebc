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
        if interrupted || Interrupts.pending { throw BridgeInterrupted() }
        // The semaphore orders the Task's write before this read.
        return try box.result!.get()
    }
}

/// Ctrl-C stopped an async input.
struct BridgeInterrupted: Error {}

/// Carries a result from the Task to the waiting thread; the semaphore
/// makes the hand-over safe.
private final class ResultBox<T>: @unchecked Sendable {
    var result: Result<T, Error>?
}
