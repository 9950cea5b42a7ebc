/// The whole view state of a session, as one value: what the timeline
/// screens show (muted users included) and the calculator.
///
/// The history keeps one per operation; undo is putting one back.
public struct SessionState: Sendable, Hashable {
    public var timeline: TimelineState
    public var calculator: CalculatorBrain

    /// A fresh session: nothing loaded, nobody muted, the calculator at 0.
    public init(timeline: TimelineState = TimelineState(), calculator: CalculatorBrain = CalculatorBrain()) {
        self.timeline = timeline
        self.calculator = calculator
    }
}
