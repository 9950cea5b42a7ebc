/// What a command handler gets: its parsed arguments, the output sinks and access to
/// variables.
public struct CommandContext {
    /// The name the command was called by (may be an alias).
    public let name: String
    /// The words after the command name, as given.
    public let words: [String]
    /// The words parsed against the command's options and arguments.
    public let arguments: ParsedArguments
    unowned let interpreter: Interpreter

    /// Writes text to the result stream (stdout, or the `$(…)` capture).
    public func write(_ text: String) { interpreter.write(text) }

    /// Writes a line to the result stream.
    public func writeLine(_ text: String) { interpreter.write(text + "\n") }

    /// Writes a line to the diagnostic stream (stderr): notes and warnings that are
    /// not results.
    public func note(_ text: String) { interpreter.diagnostics(text + "\n") }

    /// Sets a script-scope variable, such as `$count` after a fetch.
    public func setVariable(_ name: String, to value: Value) { interpreter.setVariable(name, to: value) }

    /// Reads a variable as the calling code sees it (local first, then script scope).
    public func variable(_ name: String) -> Value? { interpreter.currentVariable(name) }

    /// Leaves a JSON document in `$result` for `json get PATH` (see
    /// ``Interpreter/setResultDocument(_:)``).
    public func setResultDocument(_ json: String?) {
        interpreter.setResultDocument(json)
    }

    /// Leaves a JSON document in `$result` that is made only if a script reads it
    /// (see ``Interpreter/setResultDocument(lazy:)``).
    public func setResultDocument(lazy produce: @escaping () -> String?) {
        interpreter.setResultDocument(lazy: produce)
    }

    /// Whether the host asked to stop; long-running handlers should check and throw
    /// `LanguageError(.interrupted, "interrupted")`.
    public var isInterruptRequested: Bool { interpreter.interruptRequested() }
}
