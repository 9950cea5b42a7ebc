import WshLanguage
import WshViewModel

/// `state`: the Top ViewModel's state, the value the history records and
/// `undo` puts back. It reads only: it records nothing.
extension Shell {
    func stateCommands() -> [CommandSpec] {
        [
            CommandSpec(
                name: "state", abstract: "Show the session's state: screens, rows, paging, muted users, calculator.",
                discussion: """
                    The value the history records for each operation and undo puts back: the
                    screens open over the list (kind and the status or user shown), every loaded
                    row by id in order (a muted author's marked ✕ and left unnumbered), the source
                    and where the next page starts, the muted users, the calculator's LED, pending
                    operation and entries. state is not recorded in the history.
                    --json: {screens: [{kind, status_id, user_id, screen_name}], rows: [{index, id,
                    author, muted}], source, page_size, next, fetched, muted, calculator: {led,
                    pending, entries, error}}; after undo it prints what it printed before the
                    undone operation, byte for byte.
                    --diff: what the last operation changed (rows added and removed by id, screens
                    pushed and popped, muted added and removed, source and LED before → after);
                    with --json: {operation, rows_added, rows_removed, screens_pushed,
                    screens_popped, muted_added, muted_removed, source, led}, null when the
                    history is empty.
                      fetch 5; state --diff
                      set before "$(state --json)"; mute alice; undo; assert "$(state --json)" == "$before"
                    """,
                options: [.json, .flag("diff", help: "what the last operation changed")],
                handler: { [unowned self] context in try state(context) }),
        ]
    }

    private func state(_ context: CommandContext) throws(LanguageError) {
        let view = StateView(style: console.style)
        if context.arguments.flag("diff") {
            let diff = sessionStorage?.lastChange
            leaveResult(context, diff)
            if wantsJSON(context) {
                context.write(try JSONView.encode(diff))
            } else {
                show(context, reading: "SessionViewModel.lastChange", ("StateView (the last change)", view.render(diff)))
            }
        } else {
            // Before the first command that needs a session, the state is a fresh one.
            let document = sessionStorage?.stateDocument ?? SessionStateDocument(SessionState())
            leaveResult(context, document)
            if wantsJSON(context) {
                context.write(try JSONView.encode(document))
            } else {
                show(context, reading: "SessionViewModel.stateDocument", ("StateView", view.render(document)))
            }
        }
    }
}
