import FoundationEssentials
import WshModel
import WshDataController
import WshLanguage
import WshViewModel

/// `edit`, `edits`, `scheduled`, `unschedule` (and `post --at`, whose option
/// is on `post`): editing and scheduling statuses, on an API that can (Mastodon).
extension Shell {
    func editCommands() -> [CommandSpec] {
        let row = ArgumentSpec("N", help: "the row number from list")
        return [
            CommandSpec(
                name: "edit", abstract: "Edit row N, one of your own statuses, to say TEXT; the row updates in place.",
                discussion: """
                    Mastodon: reads the status's source (GET /api/v1/statuses/:id/source: its
                    text as written, never the HTML), then PUT /api/v1/statuses/:id with the
                    new text, sending again its content warning, sensitivity, language, media
                    and poll, which an edit would otherwise drop. undo edits it back to the
                    previous text; redo edits it again. If the answer is lost, wsh reads the
                    status's source before it reports.
                      edit 1 fixed the typo
                    """,
                arguments: [row, ArgumentSpec("TEXT", help: "the new text", arity: .oneOrMore)],
                completion: { [unowned self] _ in rowNumbers() },
                handler: { [unowned self] context in
                    let index = try integer(context.arguments["N"], name: "N") ?? 0
                    let text = context.arguments.values("TEXT").joined(separator: " ")
                    try refuseUnless(\.editsStatuses, "cannot edit a status")
                    try drive(context, input: "SessionViewModel.edit(index: \(index), …)") {
                        try await $0.edit(index: index, text: text)
                    }
                }),
            CommandSpec(
                name: "edits", abstract: "Show the edit history of row N: each version, the original first.",
                discussion: """
                    GET /api/v1/statuses/:id/history: each version's text, content warning and
                    time, numbered from 1 (the original) to the current one, as Mastodon gives
                    them. With --json: {status_id, versions: [{index, text, spoiler_text,
                    sensitive, created_at}]}. back closes it.
                    """,
                arguments: [row],
                options: [.json],
                completion: { [unowned self] _ in rowNumbers() },
                handler: { [unowned self] context in
                    let index = try integer(context.arguments["N"], name: "N") ?? 0
                    try refuseUnless(\.editsStatuses, "cannot edit a status, so has no edit history")
                    try driveScreen(context, input: "SessionViewModel.edits(index: \(index))", document: \.editHistory?.document) {
                        try await $0.edits(index: index)
                    }
                }),
            CommandSpec(
                name: "scheduled", abstract: "Show your scheduled statuses (post --at), numbered for unschedule.",
                discussion: """
                    GET /api/v1/scheduled_statuses: id, when, markers ([poll], [1 attachment],
                    [unlisted]) and text, the first 40; more brings the next page (the server's
                    Link header, as sent). N is how many a page (default 40, at most 40).
                    With --json: [{index, id, scheduled_at, text, visibility, spoiler_text,
                    language, media_ids, poll}]. back closes it.
                    """,
                arguments: [ArgumentSpec("N", help: "how many a page (default 40)", arity: .optional)],
                options: [.json],
                handler: { [unowned self] context in
                    try refuseUnless(\.schedulesStatuses, "cannot schedule a status")
                    let count = try integer(context.arguments["N"], name: "N") ?? 40
                    try driveScreen(context, input: "SessionViewModel.scheduled(count: \(count))", document: \.scheduledStatuses?.document) {
                        try await $0.scheduled(count: count)
                    }
                    if let shown = sessionStorage?.scheduledStatuses { context.setVariable("count", to: .int(shown.rows.count)) }
                }),
            CommandSpec(
                name: "unschedule", abstract: "Cancel scheduled status N (as scheduled numbers them).",
                discussion: """
                    DELETE /api/v1/scheduled_statuses/:id. undo schedules it again for the same
                    time, which makes a new scheduled status with a new id (and says so; the
                    server refuses when that time is less than 5 minutes away); redo cancels it.
                    """,
                arguments: [ArgumentSpec("N", help: "the number from scheduled")],
                completion: { [unowned self] _ in (sessionStorage?.scheduledStatuses?.rows ?? []).map { String($0.index) } },
                handler: { [unowned self] context in
                    let index = try integer(context.arguments["N"], name: "N") ?? 0
                    try refuseUnless(\.schedulesStatuses, "cannot schedule a status")
                    try drive(context, input: "SessionViewModel.unschedule(index: \(index))") {
                        try await $0.unschedule(index: index)
                    }
                }),
        ]
    }

    /// `post … TEXT --at TIME`: schedules the draft instead of posting it (the ViewModel reads TIME).
    func schedulePost(_ context: CommandContext, draft: StatusDraft, replyTo: Int?, at word: String) throws(LanguageError) {
        try refuseUnless(\.schedulesStatuses, "cannot schedule a status")
        let at: Timestamp
        do throws(ViewModelError) {
            at = try ScheduleTime.parse(word, now: Date())
        } catch {
            throw failure(error)
        }
        let scheduled = try drive(context, input: "SessionViewModel.schedule(…, at: \(at.date))") {
            try await $0.schedule(draft, replyTo: replyTo, at: at)
        }
        let document = ScheduledStatusDocument(scheduled, index: nil)
        leaveResult(context, document)
        if wantsJSON(context) { context.write(try JSONView.encode(document)) }
    }
}
