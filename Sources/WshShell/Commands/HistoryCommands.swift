import WshLanguage
import WshViewModel

/// `calc`, `led`, `history`, `undo`, `redo`, `clear`: the calculator pair and
/// the session's operation history (the Top ViewModel).
extension Shell {
    func historyCommands() -> [CommandSpec] {
        [
            CommandSpec(
                name: "calc", abstract: "Press calculator keys: calc 12 + 7 * 2 = (immediate execution).",
                discussion: """
                    Keys are digits, ., + - * /, = and C; numbers may be typed whole (12, 0.5).
                    Executes left to right like a pocket calculator (12 + 7 * 2 = is 38), in
                    decimal (0.1 + 0.2 = is 0.3); division by zero shows Error until C.
                    Each calc command is one operation in the history.
                    """,
                arguments: [ArgumentSpec("KEY", help: "0-9 . + - * / = C", arity: .oneOrMore)],
                completion: { _ in ["+", "-", "*", "/", "=", "C"] },
                handler: { [unowned self] context in
                    let keys = context.arguments.values("KEY")
                    try drive(context, input: "SessionViewModel.calc(keys: \(keys))") { try $0.calc(keys: keys) }
                }),
            CommandSpec(
                name: "led", abstract: "Show the calculator's display.",
                handler: { [unowned self] context in
                    let text = sessionStorage?.ledText ?? "0"
                    context.write(LEDView(style: console.style).render(text))
                }),
            CommandSpec(
                name: "history", abstract: "List the recorded operations, numbered.",
                options: [.flag("json", help: "as JSON")],
                handler: { [unowned self] context in
                    let operations = sessionStorage?.operations ?? []
                    if wantsJSON(context) {
                        context.write(try JSONView.encode(operations.enumerated().map {
                            HistoryEntryDocument(index: $0 + 1, operation: $1)
                        }))
                    } else {
                        context.write(HistoryView(style: console.style).render(operations))
                    }
                }),
            CommandSpec(
                name: "undo", abstract: "Restore the state before the last operation, on any screen.",
                handler: { [unowned self] context in
                    let undone = sessionStorage?.operations.last
                    try drive(context, input: "SessionViewModel.undo()") { try $0.undo() }
                    if let undone { context.note(console.diagnosticStyle.dim("undone: \(undone)")) }
                }),
            CommandSpec(
                name: "redo", abstract: "Reapply the last undone operation.",
                handler: { [unowned self] context in
                    try drive(context, input: "SessionViewModel.redo()") { try $0.redo() }
                    if let redone = sessionStorage?.operations.last {
                        context.note(console.diagnosticStyle.dim("redone: \(redone)"))
                    }
                }),
            CommandSpec(
                name: "clear", abstract: "Empty the history and reset every screen (the C key).",
                handler: { [unowned self] context in
                    try drive(context, input: "SessionViewModel.clear()") { $0.clear() }
                    context.note(console.diagnosticStyle.dim("cleared"))
                }),
        ]
    }

    /// Registers every shell command in the interpreter's table.
    func registerCommands() {
        for command in timelineCommands() + historyCommands() + sessionCommands() {
            interpreter.register(command)
        }
    }
}

/// One operation of `history --json`.
private struct HistoryEntryDocument: Encodable {
    var index: Int
    var operation: String
}
