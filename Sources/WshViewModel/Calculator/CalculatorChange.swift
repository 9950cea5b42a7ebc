/// What a calculator change asks its View to re-render (the demo's
/// `callBackAction:` bit mask).
public struct CalculatorChange: OptionSet, Sendable, Hashable {
    public let rawValue: Int
    public init(rawValue: Int) { self.rawValue = rawValue }

    /// `ledText` changed.
    public static let led = CalculatorChange(rawValue: 1 << 0)
    /// The operation list (`operationCount`, `operationText(at:)`) changed.
    public static let operations = CalculatorChange(rawValue: 1 << 1)
    /// `errorMessage` was set or cleared.
    public static let error = CalculatorChange(rawValue: 1 << 2)
}
