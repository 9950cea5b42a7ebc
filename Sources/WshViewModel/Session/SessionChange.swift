/// What a `SessionViewModel` change asks the shell's Views to re-render:
/// one bit mask per notification, as the calculator demo's `callBackAction:`.
public struct SessionChange: OptionSet, Sendable, Hashable {
    public let rawValue: Int
    public init(rawValue: Int) { self.rawValue = rawValue }

    /// `rows` changed.
    public static let rows = SessionChange(rawValue: 1 << 0)
    /// `screen` changed: detail, comments or user opened or closed.
    public static let screen = SessionChange(rawValue: 1 << 1)
    /// `ledText` or the calculator's entries changed.
    public static let led = SessionChange(rawValue: 1 << 2)
    /// `operations`, `canUndo` or `canRedo` changed.
    public static let history = SessionChange(rawValue: 1 << 3)
    /// `errorMessage` was set or cleared.
    public static let error = SessionChange(rawValue: 1 << 4)
    /// `isLoading` turned on or off.
    public static let loading = SessionChange(rawValue: 1 << 5)

    /// The session bits for a timeline change.
    init(_ change: TimelineChange) {
        self = []
        if change.contains(.rows) { insert(.rows) }
        if change.contains(.screen) { insert(.screen) }
        if change.contains(.loading) { insert(.loading) }
        // Errors are the session's to report: it shows one message for any input.
    }

    /// The session bits for a calculator change.
    init(_ change: CalculatorChange) {
        self = change.isDisjoint(with: [.led, .operations]) ? [] : .led
    }
}
