import Dispatch
import Glibc
import WshText

/// A thread of its own that runs blocks one at a time, in order: where an
/// HTTP client's blocking transfers run (never on Swift's concurrency pool).
///
/// Once it runs out of work it watches for more for a moment before it
/// sleeps (`patience`), giving way to any other thread that wants its core,
/// while requests have been coming that quickly: a script's next request
/// usually comes within a millisecond of the last answer, and a sleeping
/// thread takes tens of microseconds to wake (more on a virtual machine),
/// twice a request. A thread that watches after a single request only costs
/// (the process's exit, or the loader's mappings, interrupt the core it
/// watches on). The thread starts with the first block and ends when the
/// owner lets go of it.
final class RequestThread: @unchecked Sendable {
    /// How long an idle thread watches for work before it sleeps.
    static let patience: UInt64 = 1_000_000

    private let lock = ThreadLock()
    private var blocks: [() -> Void] = []
    private var started = false
    private var stopping = false
    /// Rung for each block queued and for the stop.
    private let doorbell = Doorbell()

    /// Runs `block` on the thread, after the blocks queued before it.
    func async(_ block: @escaping () -> Void) {
        let start = lock.withLock { () -> Bool in
            blocks.append(block)
            defer { started = true }
            return !started
        }
        doorbell.ring()
        if start { Self.spawn(self) }
    }

    /// Lets the thread end once the blocks queued have run.
    func stop() {
        lock.withLock { stopping = true }
        doorbell.ring()
    }

    private static func spawn(_ thread: RequestThread) {
        var id = pthread_t()
        let context = Unmanaged.passRetained(thread).toOpaque()
        let created = pthread_create(&id, nil, { context in
            let thread = Unmanaged<RequestThread>.fromOpaque(context!).takeRetainedValue()
            thread.loop()
            return nil
        }, context)
        if created == 0 {
            pthread_detach(id)
        } else {
            // No thread to be had: the blocks run on a dispatch queue's instead.
            Unmanaged<RequestThread>.fromOpaque(context).release()
            DispatchQueue.global().async { thread.loop() }
        }
    }

    private func loop() {
        var drained = 0
        // Whether the last block came within `patience` of the one before.
        var quick = false
        while true {
            if doorbell.count == drained {
                let idle = DispatchTime.now().uptimeNanoseconds
                doorbell.wait(past: drained, watchingFor: quick ? Self.patience : 0)
                // Only a block that came is quick: a wait can also return on the wake
                // a ring left behind (the first block's, rung before the thread began),
                // and taking that for a quick block would watch a core after one request.
                quick = doorbell.count != drained && DispatchTime.now().uptimeNanoseconds - idle < Self.patience
            }
            drained = doorbell.count
            while let block = lock.withLock({ blocks.isEmpty ? nil : blocks.removeFirst() }) {
                block()
            }
            if lock.withLock({ stopping && blocks.isEmpty }) { return }
        }
    }
}
