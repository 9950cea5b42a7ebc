#if canImport(Glibc)
import Glibc
#endif

/// A mutex for state shared between threads (curl's, the sandbox's event
/// loops, `wsh --test`'s workers): what Foundation's `NSLock` was here.
public final class ThreadLock: @unchecked Sendable {
    fileprivate let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)

    public init() {
        mutex.initialize(to: pthread_mutex_t())
        pthread_mutex_init(mutex, nil)
    }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deallocate()
    }

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
    private let condition = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)

    public init() {
        condition.initialize(to: pthread_cond_t())
        pthread_cond_init(condition, nil)
    }

    deinit {
        pthread_cond_destroy(condition)
        condition.deallocate()
    }

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
