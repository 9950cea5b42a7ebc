/// What a `SessionViewModel` change asks the shell's Views to re-render:
/// one bit mask per notification.
extension ViewChange where Subject == SessionViewModel {
    /// `rows` changed.
    public static var rows: Self { Self(bit: 0) }
    /// `screen` changed: detail, comments or user opened or closed.
    public static var screen: Self { Self(bit: 1) }
    /// `ledText` or the calculator's entries changed.
    public static var led: Self { Self(bit: 2) }
    /// `operations`, `canUndo` or `canRedo` changed.
    public static var history: Self { Self(bit: 3) }
    /// `errorMessage` was set or cleared.
    public static var error: Self { Self(bit: 4) }
    /// `isLoading` turned on or off.
    public static var loading: Self { Self(bit: 5) }

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
