/// What a ViewModel's change asks its View to re-render: the calculator
/// demo's `callBackAction:` bit mask, one notification per change. `Subject`
/// is the ViewModel whose outputs the bits name (`CalculatorChange`,
/// `TimelineChange`, `SessionChange`); each declares its bits in its own file.
public struct ViewChange<Subject>: OptionSet, Sendable, Hashable {
    public let rawValue: Int
    public init(rawValue: Int) { self.rawValue = rawValue }

    /// The change with only bit number `bit` set.
    init(bit: Int) { self.init(rawValue: 1 << bit) }
}

/// A `CalculatorTopViewModel`'s change.
public typealias CalculatorChange = ViewChange<CalculatorTopViewModel>
/// A `TimelineViewModel`'s change.
public typealias TimelineChange = ViewChange<TimelineViewModel>
/// A `SessionViewModel`'s change.
public typealias SessionChange = ViewChange<SessionViewModel>
