import Synchronization
import Dispatch
#if canImport(Glibc)
import Glibc
#endif

/// A mutex for state shared between threads (curl's, the sandbox's event
/// loops, `wsh --test`'s workers): what Foundation's `NSLock` was here.
public final class ThreadLock: @unchecked Sendable {
    fileprivate let mutex = UnsafeMutablePointer.pthreadObject(pthread_mutex_t()) { pthread_mutex_init($0, nil) }

    public init() {}

    deinit { mutex.release(pthread_mutex_destroy) }

    public func lock() { pthread_mutex_lock(mutex) }
    public func unlock() { pthread_mutex_unlock(mutex) }

    public func withLock<R>(_ body: () throws -> R) rethrows -> R {
        lock()
        defer { unlock() }
        return try body()
    }
}

/// A condition variable with its own lock: `NSCondition`'s part wsh uses.
public final class ThreadCondition: @unchecked Sendable {
    private let lockCell = ThreadLock()
    private let condition = UnsafeMutablePointer.pthreadObject(pthread_cond_t()) { pthread_cond_init($0, nil) }

    public init() {}

    deinit { condition.release(pthread_cond_destroy) }

    public func lock() { lockCell.lock() }
    public func unlock() { lockCell.unlock() }
    public func broadcast() { pthread_cond_broadcast(condition) }

    /// Waits (the lock held) until signalled or `seconds` from now on the
    /// wall clock pass; false when the time passed.
    public func wait(seconds: Double) -> Bool {
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        let whole = seconds.rounded(.down)
        var nanoseconds = now.tv_nsec + Int((seconds - whole) * 1e9)
        var deadline = timespec(tv_sec: now.tv_sec + Int(whole) + nanoseconds / 1_000_000_000, tv_nsec: 0)
        nanoseconds %= 1_000_000_000
        deadline.tv_nsec = nanoseconds
        return pthread_cond_timedwait(condition, lockCell.mutex, &deadline) == 0
    }
}

extension UnsafeMutablePointer {
    /// Room for one pthread object, set up by `initialise`: pthread objects
    /// must not move, so they live here rather than in a stored property.
    fileprivate static func pthreadObject(_ empty: Pointee, _ initialise: (Self) -> Int32) -> Self {
        let pointer = allocate(capacity: 1)
        pointer.initialize(to: empty)
        _ = initialise(pointer)
        return pointer
    }

    /// Ends a pthread object made by `pthreadObject` with `destroy`, and frees its room.
    fileprivate func release(_ destroy: (Self) -> Int32) {
        _ = destroy(self)
        deallocate()
    }
}

/// How one thread tells another that work has come for it: the rings are
/// counted, and the waiting thread may watch the count for a moment before
/// it sleeps. A thread woken from sleep takes tens of microseconds to run
/// again (more on a virtual machine); one that watches sees a ring at once,
/// and the ringing thread makes no system call. It yields its core to any
/// other thread that wants it while it watches.
public final class Doorbell: Sendable {
    private let rings = Atomic<Int>(0)
    private let bell = DispatchSemaphore(value: 0)

    public init() {}

    /// Tells the waiting thread that something has come.
    public func ring() {
        rings.add(1, ordering: .releasing)
        bell.signal()
    }

    /// How many times it has rung.
    public var count: Int { rings.load(ordering: .acquiring) }

    /// Returns once it has rung more than `seen` times, or `timeout` after it
    /// began to sleep (nil: no limit): first watching for up to `patience`
    /// nanoseconds, then asleep. (A ring it saw while watching leaves a wake
    /// behind: a later wait may return at once, with nothing new.)
    public func wait(past seen: Int, watchingFor patience: UInt64, timeout: DispatchTimeInterval? = nil) {
        if patience > 0 {
            let until = DispatchTime.now().uptimeNanoseconds + patience
            while count == seen, DispatchTime.now().uptimeNanoseconds < until { sched_yield() }
        }
        guard count == seen else { return }
        if let timeout {
            _ = bell.wait(timeout: .now() + timeout)
        } else {
            bell.wait()
        }
    }
}
