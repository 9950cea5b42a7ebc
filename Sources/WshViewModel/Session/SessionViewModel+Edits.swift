import WshDataController
import WshModel
import WshText

/// `edit`, `edits`, `post --at`, `scheduled`, `unschedule`: the session's
/// inputs for editing and scheduling, and their `RemoteEffect`s
/// (`EditEffect`, `ScheduleEffect`) with their undo and redo requests.
extension SessionViewModel {
    // MARK: Inputs recorded in the history

    /// `edit N TEXT`: edits row `index`; undo edits it back to its previous text (its source).
    public func edit(index: Int, text: String) async throws(ViewModelError) {
        try await recordRemote(replay: "edit \(index) \(Self.replayWord(text))") { () async throws(ViewModelError) -> (String, (any RemoteEffect)?) in
            let edited = try await timeline.edit(index: index, text: text)
            notes.append(edited.note ?? "edited status \(edited.statusID) on the server")
            return ("edit \(index) \(Self.quoted(text))", EditEffect(id: edited.statusID, previousText: edited.previousText, text: text))
        }
    }

    /// `edits N`: opens the edit history of row `index`.
    public func edits(index: Int) async throws(ViewModelError) {
        try await recordRemote(replay: "edits \(index)") { () async throws(ViewModelError) -> (String, (any RemoteEffect)?) in
            let count = try await timeline.showEditHistory(index: index)
            return ("edits \(index) → \(DisplayText.plural(count, "version"))", nil)
        }
    }

    /// `post TEXT --at TIME`: schedules a status (`at` read by `ScheduleTime`); undo cancels it.
    @discardableResult
    public func schedule(_ text: String, at: Timestamp) async throws(ViewModelError) -> ScheduledStatus {
        try await schedule(StatusDraft(text: text), at: at)
    }

    /// `post [--visibility V] [--cw TEXT] [--reply N] [--language xx] [--media FILE]… [--poll …] TEXT --at TIME`:
    /// schedules the draft, its media uploaded first, as a post does; undo cancels it.
    @discardableResult
    public func schedule(_ draft: StatusDraft, replyTo: Int? = nil, at: Timestamp) async throws(ViewModelError) -> ScheduledStatus {
        var made: ScheduledStatus?
        try await recordRemote(replay: nil) { () async throws(ViewModelError) -> (String, (any RemoteEffect)?) in
            let scheduled = try await timeline.schedule(draft, replyTo: replyTo, at: at)
            made = scheduled.scheduled
            if !scheduled.scheduled.mediaIDs.isEmpty {
                let ids = scheduled.scheduled.mediaIDs.map { TerminalText.sanitize($0) }.joined(separator: ", ")
                notes.append("uploaded \(DisplayText.plural(scheduled.scheduled.mediaIDs.count, "file")) (media \(ids))")
            }
            notes.append(scheduled.note ?? "scheduled status \(scheduled.scheduled.id) for \(DisplayText.fullTime(at))")
            let options = draft.optionNames.isEmpty ? "" : " " + draft.optionNames.joined(separator: " ")
            return ("post\(options) \(Self.quoted(draft.text)) --at \(DisplayText.fullTime(at))",
                    ScheduleEffect(scheduled: scheduled.scheduled, scheduling: true))
        }
        return made!
    }

    /// `scheduled`: opens the scheduled statuses.
    public func scheduled(count: Int = 40) async throws(ViewModelError) {
        try await recordRemote(replay: count == 40 ? "scheduled" : "scheduled \(count)") { () async throws(ViewModelError) -> (String, (any RemoteEffect)?) in
            let count = try await timeline.showScheduled(count: count)
            return ("scheduled → \(DisplayText.plural(count, "scheduled status", "scheduled statuses"))", nil)
        }
    }

    /// `unschedule N`: cancels scheduled status `index`; undo schedules it again (a new id).
    public func unschedule(index: Int) async throws(ViewModelError) {
        try await recordRemote(replay: nil) { () async throws(ViewModelError) -> (String, (any RemoteEffect)?) in
            let cancelled = try await timeline.unschedule(index: index)
            notes.append(cancelled.note ?? "cancelled scheduled status \(cancelled.scheduled.id) on the server")
            return ("unschedule \(index) \(Self.quoted(cancelled.scheduled.text)) (undo schedules it again)",
                    ScheduleEffect(scheduled: cancelled.scheduled, scheduling: false))
        }
    }

    /// Every operation and state naming the scheduled status `old` names `new` instead.
    func reviseScheduled(_ old: ScheduledStatus, as new: ScheduledStatus) {
        history.reviseAll(remote: { ($0 as? ScheduleEffect)?.replacingScheduled(old.id, with: new) ?? $0 }) { state in
            var revised = state
            revised.timeline = state.timeline.replacingScheduled(id: old.id, with: new)
            return revised
        }
    }
}

/// An edit of the status `id` from `previousText` (its source before) to
/// `text`: undo edits it back, redo edits it again.
struct EditEffect: RemoteEffect {
    /// The status edited.
    var id: String
    /// Its text (source) before the edit.
    var previousText: String
    /// Its text after.
    var text: String

    var summary: String { "edited status \(TerminalText.sanitize(id)) · undo edits it back to its previous text" }

    public func undo(in session: SessionViewModel, undoing operation: String) async throws(ViewModelError) -> String {
        try await session.timeline.editAgain(id: id, text: previousText, for: operation, undo: true)
    }

    public func redo(in session: SessionViewModel, redoing operation: String) async throws(ViewModelError) {
        session.notes.append(try await session.timeline.editAgain(id: id, text: text, for: operation, undo: false))
    }

    public func replacingStatusID(_ oldID: String, with newID: String) -> EditEffect {
        EditEffect(id: id == oldID ? newID : id, previousText: previousText, text: text)
    }
}

/// A status scheduled (`scheduling`) or a scheduled status cancelled.
/// Scheduling: undo cancels it, redo schedules it again (a new id).
/// Cancelling: undo schedules it again (a new id), redo cancels that.
struct ScheduleEffect: RemoteEffect {
    /// The scheduled status, as made or as cancelled.
    var scheduled: ScheduledStatus
    /// True when it was scheduled, false when cancelled.
    var scheduling: Bool

    public var summary: String {
        let id = TerminalText.sanitize(scheduled.id)
        return scheduling ? "scheduled status \(id) for \(DisplayText.fullTime(scheduled.scheduledAt)) · undo cancels it"
            : "cancelled scheduled status \(id) · undo schedules it again (a new id)"
    }

    public func undo(in session: SessionViewModel, undoing operation: String) async throws(ViewModelError) -> String {
        guard !scheduling else {
            return try await session.timeline.unscheduleAgain(id: scheduled.id, for: operation, undo: true)
        }
        let again = try await session.timeline.scheduleAgain(scheduled, for: operation, undo: true)
        session.reviseScheduled(scheduled, as: again.scheduled)
        let lost = again.note.map { "\($0); " } ?? ""
        return "\(lost)scheduled it again as a new scheduled status (\(again.scheduled.id); it was \(scheduled.id))"
    }

    public func redo(in session: SessionViewModel, redoing operation: String) async throws(ViewModelError) {
        guard scheduling else {
            session.notes.append(try await session.timeline.unscheduleAgain(id: scheduled.id, for: operation, undo: false))
            return
        }
        let again = try await session.timeline.scheduleAgain(scheduled, for: operation, undo: false)
        session.reviseScheduled(scheduled, as: again.scheduled)
        session.notes.append(again.note ?? "scheduled again as scheduled status \(again.scheduled.id) (it was \(scheduled.id))")
    }

    func replacingStatusID(_ oldID: String, with newID: String) -> ScheduleEffect { self }

    /// This effect naming `new` where it named the scheduled status `oldID`.
    func replacingScheduled(_ oldID: String, with new: ScheduledStatus) -> ScheduleEffect {
        scheduled.id == oldID ? ScheduleEffect(scheduled: new, scheduling: scheduling) : self
    }
}

extension SessionViewModel {
    /// The edit history on top, if that is what shows.
    public var editHistory: EditHistoryViewModel? { screen.edits }

    /// The scheduled statuses on top, if that is what shows.
    public var scheduledStatuses: ScheduledStatusesViewModel? { screen.scheduled }
}
