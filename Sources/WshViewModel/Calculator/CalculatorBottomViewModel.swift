/// The calculator demo's Bottom ViewModel: the keypad. It turns what was
/// typed into keys and presses them on the Top ViewModel's brain.
///
/// Unknown keys change nothing: the whole input is checked before any key
/// is pressed. Not thread-safe: confine it to one caller at a time.
public final class CalculatorBottomViewModel {
    /// The keys in the rows a keypad View lays out.
    public static let keypadRows = [["7", "8", "9", "/"], ["4", "5", "6", "*"],
                                    ["1", "2", "3", "-"], ["0", ".", "=", "+"], ["C"]]

    private let top: CalculatorTopViewModel

    /// A keypad feeding `top`.
    public init(top: CalculatorTopViewModel) {
        self.top = top
    }

    /// Presses the keys in `words` (`["12", "+", "7", "="]` or `["12+7="]`) in order.
    /// A character that is no key fails the whole input; nothing is pressed.
    public func press(_ words: [String]) throws(ViewModelError) {
        switch CalculatorKey.keys(in: words) {
        case .success(let keys) where keys.isEmpty: throw top.fail(.noKeys)
        case .success(let keys): top.press(keys)
        case .failure(let unknown): throw top.fail(.unknownKey(unknown.text))
        }
    }
}
