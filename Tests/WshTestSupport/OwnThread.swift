import Foundation

/// Runs blocking `body` on a new thread and waits for it without holding a
/// thread of the concurrency pool, which the in-process sandbox needs to
/// answer (the pool has as many threads as cores: two here).
public func onOwnThread<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
    try await withCheckedThrowingContinuation { continuation in
        let thread = Thread {
            do { continuation.resume(returning: try body()) } catch { continuation.resume(throwing: error) }
        }
        thread.stackSize = 8 << 20
        thread.start()
    }
}
