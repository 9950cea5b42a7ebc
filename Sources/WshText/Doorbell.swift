import Dispatch
import Synchronization
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

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
