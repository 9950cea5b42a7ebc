import FoundationEssentials
import WshText

/// A value guarded by a lock, for state that request handlers on several
/// event-loop threads share.
final class Locked<Value>: @unchecked Sendable {
    private var value: Value
    private let lock = ThreadLock()

    init(_ value: Value) {
        self.value = value
    }

    func withLock<R>(_ body: (inout Value) throws -> R) rethrows -> R {
        lock.lock()
        defer { lock.unlock() }
        return try body(&value)
    }
}
