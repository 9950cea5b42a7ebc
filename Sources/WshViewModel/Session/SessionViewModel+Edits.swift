import WshDataController
import WshModel
import WshText

/// `edit`, `edits`, `post --at`, `scheduled`, `unschedule`: the session's
/// inputs for editing and scheduling, and the undo and redo requests of
/// their `RemoteEffect`s.
extension SessionViewModel {
    // MARK: Inputs recorded in the history

    /// `edit N TEXT`: edits row `index`; undo edits it back to its previous text (its source).
    public func edit(index: Int, text: String) async throws(ViewModelError) {
        try await recordRemote(replay: "edit \(index) \(Self.replayWord(text))") { () async throws(ViewModelError) -> (String, RemoteEffect?) in
            let edited = try await timeline.edit(index: index, text: text)
            notes.append(edited.note ?? "edited status \(edited.statusID) on the server")
            return ("edit \(index) \(Self.quoted(text))", .edited(id: edited.statusID, previousText: edited.previousText, text: text))
        }
    }

    /// `edits N`: opens the edit history of row `index`.
    public func edits(index: Int) async throws(ViewModelError) {
        try await recordRemote(replay: "edits \(index)") { () async throws(ViewModelError) -> (String, RemoteEffect?) in
            let count = try await timeline.showEditHistory(index: index)
            return ("edits \(index) → \(DisplayText.plural(count, "version"))", nil)
        }
    }

    /// `post TEXT --at TIME`: schedules a status (`at` read by `ScheduleTime`); undo cancels it.
    @discardableResult
    public func schedule(_ text: String, at: WeiboTime) async throws(ViewModelError) -> ScheduledStatus {
        var made: ScheduledStatus?
        try await recordRemote(replay: nil) { () async throws(ViewModelError) -> (String, RemoteEffect?) in
            let scheduled = try await timeline.schedule(text, at: at)
            made = scheduled.scheduled
            notes.append(scheduled.note ?? "scheduled status \(scheduled.scheduled.id) for \(DisplayText.fullTime(at))")
            return ("post \(Self.quoted(text)) --at \(DisplayText.fullTime(at))", .scheduled(scheduled.scheduled))
        }
        return made!
    }

    /// `scheduled`: opens the scheduled statuses.
    public func scheduled() async throws(ViewModelError) {
        try await recordRemote(replay: "scheduled") { () async throws(ViewModelError) -> (String, RemoteEffect?) in
            let count = try await timeline.showScheduled()
            return ("scheduled → \(DisplayText.plural(count, "scheduled status", "scheduled statuses"))", nil)
        }
    }

    /// `unschedule N`: cancels scheduled status `index`; undo schedules it again (a new id).
    public func unschedule(index: Int) async throws(ViewModelError) {
        try await recordRemote(replay: nil) { () async throws(ViewModelError) -> (String, RemoteEffect?) in
            let cancelled = try await timeline.unschedule(index: index)
            notes.append(cancelled.note ?? "cancelled scheduled status \(cancelled.scheduled.id) on the server")
            return ("unschedule \(index) \(Self.quoted(cancelled.scheduled.text)) (undo schedules it again)",
                    .unscheduled(cancelled.scheduled))
        }
    }

    // MARK: Remote effects

    /// Undo of an edit, a scheduling or an unscheduling; returns a note.
    func takeBackEdit(_ effect: RemoteEffect, undoing operation: String) async throws(ViewModelError) -> String {
        switch effect {
        case .edited(let id, let previousText, _):
            return try await timeline.editAgain(id: id, text: previousText, for: operation, undo: true)
        case .scheduled(let scheduled):
            return try await timeline.unscheduleAgain(id: scheduled.id, for: operation, undo: true)
        case .unscheduled(let old):
            let again = try await timeline.scheduleAgain(old, for: operation, undo: true)
            reviseScheduled(old, as: again.scheduled)
            let lost = again.note.map { "\($0); " } ?? ""
            return "\(lost)scheduled it again as a new scheduled status (\(again.scheduled.id); it was \(old.id))"
        default:
            preconditionFailure("takeBackEdit takes edits and scheduled statuses only")
        }
    }

    /// Redo of an edit, a scheduling or an unscheduling.
    func reapplyEdit(_ effect: RemoteEffect, redoing operation: String) async throws(ViewModelError) {
        switch effect {
        case .edited(let id, _, let text):
            notes.append(try await timeline.editAgain(id: id, text: text, for: operation, undo: false))
        case .scheduled(let old):
            let again = try await timeline.scheduleAgain(old, for: operation, undo: false)
            reviseScheduled(old, as: again.scheduled)
            notes.append(again.note ?? "scheduled again as scheduled status \(again.scheduled.id) (it was \(old.id))")
        case .unscheduled(let scheduled):
            notes.append(try await timeline.unscheduleAgain(id: scheduled.id, for: operation, undo: false))
        default:
            preconditionFailure("reapplyEdit takes edits and scheduled statuses only")
        }
    }

    /// Every operation and state naming the scheduled status `old` names `new` instead.
    private func reviseScheduled(_ old: ScheduledStatus, as new: ScheduledStatus) {
        history.reviseAll(remote: { effect in
            switch effect {
            case .scheduled(let shown) where shown.id == old.id: .scheduled(new)
            case .unscheduled(let shown) where shown.id == old.id: .unscheduled(new)
            default: effect
            }
        }) { state in
            var revised = state
            revised.timeline = state.timeline.replacingScheduled(id: old.id, with: new)
            return revised
        }
    }
}

extension SessionViewModel {
    /// The edit history on top, if that is what shows.
    public var editHistory: EditHistoryViewModel? { screen.edits }

    /// The scheduled statuses on top, if that is what shows.
    public var scheduledStatuses: ScheduledStatusesViewModel? { screen.scheduled }
}
