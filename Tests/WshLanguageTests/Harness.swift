import WshLanguage

/// Runs scripts through a real interpreter and records what they wrote.
final class Harness {
    var output = ""
    var diagnostics = ""
    let interpreter: Interpreter

    init() {
        interpreter = Interpreter()
        interpreter.output = { [unowned self] text in self.output += text }
        interpreter.diagnostics = { [unowned self] text in self.diagnostics += text }
    }

    /// Runs `source`, returning the error it ended with, if any.
    @discardableResult
    func run(_ source: String, file: String = "test.wsh", firstLine: Int = 1) -> LanguageError? {
        do {
            try interpreter.execute(source, file: file, firstLine: firstLine)
            return nil
        } catch {
            return error
        }
    }

    /// The rendered message of the error `source` ends with (non-interactive).
    func failure(_ source: String, file: String = "test.wsh") -> String? {
        run(source, file: file).flatMap { ErrorReport($0, interactive: false).message }
    }
}

/// What a script printed, or the rendered error.
func outputOf(_ source: String) -> String {
    let harness = Harness()
    if let error = harness.run(source) {
        return harness.output + "!" + (ErrorReport(error, interactive: false).message ?? "exit")
    }
    return harness.output
}
