import Foundation

/// Polls `condition` every few milliseconds until it holds or `timeout`
/// passes; returns whether it held. For waiting on an event a test can
/// observe (a request counter, an accepted connection), never on time.
@discardableResult
public func waitUntil(timeout: Duration = .seconds(10), _ condition: () -> Bool) async -> Bool {
    let deadline = ContinuousClock.now + timeout
    while !condition() {
        if ContinuousClock.now >= deadline { return false }
        try? await Task.sleep(for: .milliseconds(5))
    }
    return true
}

/// `waitUntil` for a plain thread (blocks it; never call it on the concurrency pool).
@discardableResult
public func waitUntilBlocking(timeout: Duration = .seconds(10), _ condition: () -> Bool) -> Bool {
    let deadline = ContinuousClock.now + timeout
    while !condition() {
        if ContinuousClock.now >= deadline { return false }
        usleep(2_000)
    }
    return true
}
