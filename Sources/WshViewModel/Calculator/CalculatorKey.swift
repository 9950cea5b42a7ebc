/// One key of the pocket calculator.
public enum CalculatorKey: Sendable, Hashable {
    case digit(Int)
    case point
    case operation(CalculatorOperation)
    case equals
    case clear

    /// The key `character` names: `0`–`9`, `.`, `+ - * /`, `=`, `C` (or `c`);
    /// nil for anything else.
    public init?(_ character: Character) {
        switch character {
        case "0"..."9": self = .digit(Int(String(character))!)
        case ".": self = .point
        case "=": self = .equals
        case "C", "c": self = .clear
        default:
            guard let operation = CalculatorOperation(rawValue: String(character)) else { return nil }
            self = .operation(operation)
        }
    }

    /// The keys typed in `words`, e.g. `["12", "+", "7", "="]`; the first
    /// character that is no key is returned as the error.
    public static func keys(in words: [String]) -> Result<[CalculatorKey], UnknownKey> {
        var keys: [CalculatorKey] = []
        for character in words.joined() where !character.isWhitespace {
            guard let key = CalculatorKey(character) else { return .failure(UnknownKey(text: String(character))) }
            keys.append(key)
        }
        return .success(keys)
    }

    /// A character that is not a calculator key.
    public struct UnknownKey: Error, Hashable {
        public let text: String
    }
}

/// The four operations, applied left to right as a pocket calculator does.
public enum CalculatorOperation: String, Sendable, Hashable {
    case add = "+"
    case subtract = "-"
    case multiply = "*"
    case divide = "/"
}
