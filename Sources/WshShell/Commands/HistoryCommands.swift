import FoundationEssentials
import WshLanguage
import WshText
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
                    show(context, reading: "SessionViewModel.ledText", ("LEDView", LEDView(style: console.style).render(text)))
                }),
            CommandSpec(
                name: "history", abstract: "List the recorded operations, numbered.",
                discussion: """
                    An operation marked ⇅ changed something on the server (post, comment, reply,
                    repost, favorite, unfavorite, delete, follow, unfollow, edit, post --at,
                    unschedule): undoing it sends a request. --effects adds, under each such
                    operation, what it changed on the server and what undo will send
                    (favourited status 123 · undo unfavourites). With --json: [{index, operation,
                    remote}], and with --effects each remote one's "effect" too.
                    The history keeps the last \(OperationHistory<SessionState>.defaultLimit) operations; older ones are dropped.
                    --save FILE writes the operations as a script that reproduces this state
                    (wsh FILE, then history, lists the same operations); undone operations are
                    left out, and writes (⇅) too unless --include-writes. It will not overwrite
                    a file without --force.
                      history --save session.wsh
                    """,
                options: [
                    .json,
                    .flag("effects", help: "under each operation marked ⇅, what it changed on the server and what undo sends"),
                    .valued("save", valueName: "FILE", help: "write the operations as a runnable .wsh script"),
                    .flag("force", help: "with --save: overwrite FILE"),
                    .flag("include-writes", help: "with --save: keep the operations that wrote to the server"),
                ],
                handler: { [unowned self] context in
                    if let path = context.arguments.option("save") {
                        try saveHistory(context, to: path)
                        return
                    }
                    if context.arguments.flag("force") || context.arguments.flag("include-writes") {
                        throw LanguageError.usage("--force and --include-writes go with --save FILE")
                    }
                    let records = sessionStorage?.operationRecords ?? []
                    let effects = context.arguments.flag("effects")
                    let documents = HistoryEntryDocument.entries(records, effects: effects)
                    leaveResult(context, documents)
                    if wantsJSON(context) {
                        context.write(try JSONView.encode(documents))
                    } else {
                        show(context, reading: "SessionViewModel.operationRecords",
                             ("HistoryView (\(records.count) operation\(records.count == 1 ? "" : "s"))",
                              HistoryView(style: console.style).render(records, effects: effects)))
                    }
                }),
            CommandSpec(
                name: "undo", abstract: "Restore the state before the last operation, on any screen.",
                discussion: """
                    Undo means what it says. An operation that changed something on the server
                    (marked ⇅ in history) is taken back there first: undoing a post or repost
                    deletes it, a comment or reply deletes it, favorite/unfavorite and
                    follow/unfollow undo with the other, each by the API's own call (help
                    favorite, help comment… name it). Weibo cannot restore a deleted status: undoing delete posts its
                    text again as a new status and says so. If that request fails, undo fails and
                    changes nothing (history and screens stay; a script stops with exit 1); if
                    its answer is lost, wsh asks the server what happened before it reports.
                    Reads (fetch, detail…) and local operations (mute, calc) are undone on the
                    screen only. redo sends a write again (a new post, with a new id); clear
                    never touches the server. The history keeps the last \(OperationHistory<SessionState>.defaultLimit) operations.
                    """,
                handler: { [unowned self] context in
                    let undone = sessionStorage?.operations.last
                    try drive(context, input: "SessionViewModel.undo()") { try await $0.undo() }
                    if let undone { context.note(console.diagnosticStyle.dim("undone: \(undone)")) }
                }),
            CommandSpec(
                name: "redo", abstract: "Reapply the last undone operation (a post is sent again).",
                handler: { [unowned self] context in
                    try drive(context, input: "SessionViewModel.redo()") { try await $0.redo() }
                    if let redone = sessionStorage?.operations.last {
                        context.note(console.diagnosticStyle.dim("redone: \(redone)"))
                    }
                }),
            CommandSpec(
                name: "clear", abstract: "Empty the history and reset every screen (the C key); the server is untouched.",
                handler: { [unowned self] context in
                    try drive(context, input: "SessionViewModel.clear()") { $0.clear() }
                    context.note(console.diagnosticStyle.dim("cleared"))
                }),
        ]
    }

    /// `history --save FILE`: the applied operations as a script that
    /// reproduces them, with a header saying when, against which API, and how to run it.
    private func saveHistory(_ context: CommandContext, to path: String) throws(LanguageError) {
        if context.arguments.flag("json") { throw .usage("--json and --save do not go together") }
        if FileManager.default.fileExists(atPath: path), !context.arguments.flag("force") {
            throw .commandFailed("\(path) exists: give --force to overwrite it")
        }
        let includeWrites = context.arguments.flag("include-writes")
        let records = sessionStorage?.operationRecords ?? []
        let script = HistoryScript.text(records, includeWrites: includeWrites, api: connection.target,
                                        label: connection.label, version: Shell.version, path: path)
        do {
            try script.write(toFile: path, atomically: true, encoding: .utf8)
        } catch {
            throw .commandFailed("cannot write \(path): \(SystemError.reason(error))")
        }
        let kept = records.filter { $0.replay != nil && (includeWrites || !$0.isRemote) }.count
        context.note(console.diagnosticStyle.dim("saved \(kept) operation\(kept == 1 ? "" : "s") to \(path)"))
    }
}

/// One operation in `history --json`: `{index, operation, remote}`, where
/// `remote` says whether it changed something on the server; with
/// `--effects`, a remote one's `effect` says what (`RemoteEffect.summary`).
struct HistoryEntryDocument: Encodable {
    let index: Int
    let operation: String
    let remote: Bool
    /// Left out unless asked for, and for an operation that changed nothing on the server.
    let effect: String?

    /// The entries of `records`, numbered from 1, with their effects when `effects`.
    static func entries(_ records: [RecordedOperation], effects: Bool = false) -> [HistoryEntryDocument] {
        records.enumerated().map { offset, record in
            HistoryEntryDocument(index: offset + 1, operation: record.description, remote: record.isRemote,
                                 effect: effects ? record.remote?.summary : nil)
        }
    }
}

/// The script `history --save` writes.
enum HistoryScript {
    static func text(_ records: [RecordedOperation], includeWrites: Bool, api: Connection.Target, label: String,
                     version: String, path: String, now: Date = Date()) -> String {
        let when = now.formatted(.iso8601)
        let run: String
        let where_: String
        switch api {
        case .sandbox:
            where_ = "the embedded \(label) (no --api)"
            run = "wsh \(path)"
        case .url(let url):
            where_ = url
            run = "wsh --api \(url) \(path)"
        }
        var lines = [
            "#!/usr/bin/env wsh",
            "# Saved by wsh \(version) with history --save on \(when).",
            "# API: \(where_).",
            "# Run it: \(run)   (to see the operations: wsh -c 'source \(path); history')",
        ]
        if records.contains(where: \.isRemote) && !includeWrites {
            lines.append("# Writes to the server (⇅) are left out as comments; history --save --include-writes keeps them.")
        }
        for record in records {
            let description = TerminalText.sanitize(record.description)
            guard let replay = record.replay else {
                lines.append("# not replayable: \(description)")
                continue
            }
            if record.isRemote && !includeWrites {
                lines.append("# write left out: \(replay)")
            } else {
                lines.append(replay)
            }
        }
        return lines.joined(separator: "\n") + "\n"
    }
}
