/// What a calculator change asks its View to re-render.
extension ViewChange where Subject == CalculatorTopViewModel {
    /// `ledText` changed.
    public static var led: Self { Self(bit: 0) }
    /// The operation list (`operationCount`, `operationText(at:)`) changed.
    public static var operations: Self { Self(bit: 1) }
    /// `errorMessage` was set or cleared.
    public static var error: Self { Self(bit: 2) }
}
