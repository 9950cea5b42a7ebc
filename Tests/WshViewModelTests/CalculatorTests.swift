import Testing
import WshTestSupport
import WshViewModel

@Suite("Calculator: CalculatorBrain and the Top/Bottom ViewModels")
struct CalculatorTests {
    /// The LED after typing `keys` into a fresh calculator.
    func led(after keys: String) throws -> String {
        let top = CalculatorTopViewModel()
        try CalculatorBottomViewModel(top: top).press(keys.split(separator: " ").map(String.init))
        return top.ledText
    }

    @Test("given a pocket calculator when keys are typed then it executes immediately, left to right", arguments: [
        ("12 + 7 * 2 =", "38"),
        ("0.1 + 0.2 =", "0.3"),
        ("2 / 3 =", "0.6666666667"),
        ("1.50 * 2 =", "3"),
        ("5 - 8 =", "-3"),
        ("5 + =", "10"),
        ("7 + * 2 =", "14"),
        ("12", "12"),
        ("12 +", "12"),
        ("12 + 3", "3"),
        (". 5", "0.5"),
        ("0 0 7", "7"),
        ("1 . 2 . 3", "1.23"),
        ("=", "0"),
        ("+ 4 =", "4"),
    ])
    func sequences(keys: String, shown: String) throws {
        #expect(try led(after: keys) == shown)
    }

    @Test("given a result when a digit is typed then a new calculation starts; when an operator is typed the result goes on")
    func afterEquals() throws {
        #expect(try led(after: "5 + 5 = 3") == "3")
        #expect(try led(after: "5 + 5 = + 1 =") == "11")
    }

    @Test("given a division by zero when more keys are typed then Error stays until C")
    func divisionByZero_showsErrorUntilClear() throws {
        let top = CalculatorTopViewModel()
        let keypad = CalculatorBottomViewModel(top: top)

        try keypad.press(["8", "/", "0", "="])
        #expect(top.ledText == "Error")
        try keypad.press(["1", "+", "2", "="])
        #expect(top.ledText == "Error")
        try keypad.press(["C"])
        #expect(top.ledText == "0")
        #expect(top.operationCount == 0)
    }

    @Test("given words with keys run together when pressed then each character is a key")
    func keysRunTogether() throws {
        #expect(try led(after: "12+7*2=") == "38")
    }

    @Test("given an unknown key when pressed then an error names it and no key of the input is pressed")
    func unknownKey_changesNothing() throws {
        let top = CalculatorTopViewModel()
        let keypad = CalculatorBottomViewModel(top: top)
        let changes = RecordingObserver<CalculatorChange>()
        try keypad.press(["4"])
        top.onChange = changes.record

        #expect(throws: ViewModelError.unknownKey("x")) { try keypad.press(["1", "x", "2"]) }

        #expect(top.ledText == "4")
        #expect(top.errorMessage == "unknown key 'x': keys are 0-9 . + - * / = C")
        #expect(changes.values == [.error])
    }

    @Test("given entries when the Top ViewModel lists them then numbers, operators and = are entries")
    func top_listsEntries() throws {
        let top = CalculatorTopViewModel()
        try CalculatorBottomViewModel(top: top).press(["12", "+", "7", "*", "2", "="])

        #expect(top.operationCount == 6)
        #expect((0..<top.operationCount).map(top.operationText(at:)) == ["12", "+", "7", "*", "2", "="])
        #expect(top.expressionText == "12 + 7 * 2 =")
    }

    @Test("given 12 + 7 * 2 = when the Top ViewModel undoes twice then the LED shows the state before = and 2")
    func top_undoRemovesLastEntry() throws {
        let top = CalculatorTopViewModel()
        try CalculatorBottomViewModel(top: top).press(["12", "+", "7", "*", "2", "="])

        try top.undo()
        #expect(top.ledText == "2")
        try top.undo()
        #expect(top.ledText == "19")
        #expect(top.expressionText == "12 + 7 *")
        try CalculatorBottomViewModel(top: top).press(["3", "="])
        #expect(top.ledText == "57")
    }

    @Test("given a fresh calculator when the Top ViewModel undoes then the error says nothing to undo")
    func top_undoNothing_isError() {
        #expect(throws: ViewModelError.nothingToUndo) { try CalculatorTopViewModel().undo() }
    }

    @Test("given keys when pressed then the Top ViewModel sends one notification for LED and entries")
    func changes_onePerInput() throws {
        let top = CalculatorTopViewModel()
        let changes = RecordingObserver<CalculatorChange>()
        top.onChange = changes.record
        let keypad = CalculatorBottomViewModel(top: top)

        try keypad.press(["1", "+", "1", "="])
        try keypad.press(["="])
        top.clear()

        #expect(changes.values == [[.led, .operations], .operations, [.led, .operations]])
    }
}
