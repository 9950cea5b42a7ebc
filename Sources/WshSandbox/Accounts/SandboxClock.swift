import FoundationEssentials

/// The time the sandbox reads for what real time governs: when tokens and
/// authorization codes expire, and the hourly rate-limit window.
///
/// The generated data keeps its own fixed time line (the newest status is
/// always `Mon Nov 11 21:30:00 +0800 2024`); this clock never moves it.
/// Tests use a manual clock and `advance(by:)` instead of sleeping:
///
/// ```swift
/// let clock = SandboxClock.manual()
/// let server = try await SandboxServer.start(SandboxConfiguration(tokenLifetime: 60, clock: clock))
/// clock.advance(by: 61)   // every OAuth token issued so far has now expired (21327)
/// ```
public final class SandboxClock: Sendable {
    private let manualNow: Locked<Date>?

    private init(manualNow: Locked<Date>?) {
        self.manualNow = manualNow
    }

    /// The system's clock.
    public static let system = SandboxClock(manualNow: nil)

    /// A clock that stands still until `advance(by:)` moves it; by default it
    /// starts at `2024-11-11 13:30:00 UTC`, the generated data's newest moment.
    public static func manual(_ start: Date = Date(timeIntervalSince1970: 1_731_331_800)) -> SandboxClock {
        SandboxClock(manualNow: Locked(start))
    }

    /// The current time.
    public var now: Date {
        manualNow?.withLock { $0 } ?? Date()
    }

    /// True for a clock made by `manual(_:)`.
    public var isManual: Bool { manualNow != nil }

    /// Moves a manual clock forward; the system clock cannot be moved (a precondition).
    public func advance(by seconds: TimeInterval) {
        guard let manualNow else { preconditionFailure("only a manual SandboxClock can be advanced") }
        manualNow.withLock { $0 += seconds }
    }
}
