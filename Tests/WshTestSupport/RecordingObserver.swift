import Synchronization

/// Records every value an output took, in order, so a test can assert the
/// whole sequence and not just the last value.
public final class RecordingObserver<Value: Sendable>: Sendable {
    private let storage = Mutex<[Value]>([])

    public init() {}

    /// Records one value; pass this as the callback under test.
    public func record(_ value: Value) {
        storage.withLock { $0.append(value) }
    }

    /// Everything recorded so far.
    public var values: [Value] { storage.withLock { $0 } }

    /// The most recent value.
    public var last: Value? { storage.withLock { $0.last } }

    /// Forgets what was recorded.
    public func reset() {
        storage.withLock { $0.removeAll() }
    }
}
