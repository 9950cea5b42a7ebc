import FoundationEssentials
import WshDataController
import WshModel
import WshRequest

/// Editing a status (`edit N TEXT`, `edits N`) and scheduling one (`post
/// --at`, `scheduled`, `unschedule N`), with the requests undo and redo send.
/// An API without the capability is refused before any request.
extension TimelineViewModel {
    /// An edit the server has.
    public struct Edited: Sendable, Hashable {
        public let statusID: String
        /// The text before, from the status's source (never its HTML): what undo restores.
        public let previousText: String
        /// Something the user should know (a lost answer resolved), nil for a plain success.
        public let note: String?
    }

    /// A scheduled status the server has (or had, for `unschedule`).
    public struct Scheduled: Sendable, Hashable {
        public let scheduled: ScheduledStatus
        public let note: String?
    }

    // MARK: Inputs

    /// Edits row `index` (the account's own) to say `text`; the row shows the
    /// server's answer in place.
    public func edit(index: Int, text: String) async throws(ViewModelError) -> Edited {
        try requireEdits()
        guard !text.allSatisfy(\.isWhitespace) else { throw fail(.emptyText("edit")) }
        let status = try openStatus(at: index)
        let id = status.identifier ?? ""
        let before = try await request { () async throws(RequestError) in try await dataController.statuses.source(id: id) }
        let written = try await write(
            nothing: "the status is unchanged", advice: dataController.readBack(.statusSource(id: id)).advice + " before editing again"
        ) { () async throws(WriteError) in try await dataController.statuses.edit(id: id, text: text) }
        commit(state.replacingStatus(id: id, with: written.value))
        return Edited(statusID: id, previousText: before.text,
                      note: Self.lostAnswerNote(written, found: "the server shows the status edited"))
    }

    /// Opens the edit history of row `index`, the original first.
    public func showEditHistory(index: Int) async throws(ViewModelError) -> Int {
        try requireEdits()
        let status = try openStatus(at: index)
        let id = status.identifier ?? ""
        let versions = try await request { () async throws(RequestError) in try await dataController.statuses.editHistory(id: id) }
        var next = state
        next.screens.append(.edits(status, versions))
        commit(next)
        return versions.count
    }

    /// Schedules `draft` for `at`, replying to row `replyTo` when given (as
    /// `post --reply N` reads it): its files are uploaded first, as a post's
    /// are, then the draft goes with `scheduled_at`. A scheduled screen on top lists it.
    /// Returns the scheduled status and the draft as sent (media ids in place of files).
    public func schedule(_ draft: StatusDraft, replyTo: Int? = nil, at: Timestamp) async throws(ViewModelError) -> Scheduled {
        try requireSchedules()
        var draft = draft
        let hasAttachment = !draft.media.isEmpty || !draft.mediaIDs.isEmpty
        guard !draft.text.allSatisfy(\.isWhitespace) || hasAttachment else { throw fail(.emptyPost) }
        if let index = replyTo { draft.inReplyTo = try statusOfRow(index).identifier }
        if let refusal = dataController.refusal(of: draft) { throw fail(.invalidInput(refusal)) }
        let sent = try await request { () async throws(RequestError) in try await dataController.upload(draft) }
        let written = try await write(
            nothing: "nothing was scheduled", advice: "check with `scheduled` before scheduling again"
        ) { () async throws(WriteError) in try await dataController.statuses.schedule(sent, at: at) }
        var scheduled = written.value
        // What the server did not echo back is what was sent: scheduling it again (undo of unschedule) sends it all.
        if scheduled.mediaIDs.isEmpty { scheduled.mediaIDs = sent.mediaIDs }
        if scheduled.poll == nil { scheduled.poll = sent.poll }
        if scheduled.language == nil { scheduled.language = sent.language }
        if scheduled.inReplyTo == nil { scheduled.inReplyTo = sent.inReplyTo }
        commit(state.showingScheduled { $0 + [scheduled] })
        return Scheduled(scheduled: scheduled, note: Self.lostAnswerNote(written, found: "found it among the scheduled statuses"))
    }

    /// Opens the scheduled statuses (the first page; `more` brings the next).
    public func showScheduled(count: Int = 40) async throws(ViewModelError) -> Int {
        try requireSchedules()
        guard (1...40).contains(count) else { throw fail(.invalidPaging(name: "N", value: count, allowed: 1...40)) }
        let page = try await request { () async throws(RequestError) in try await dataController.statuses.scheduledPage(count: count) }
        var next = state
        if case .scheduled? = next.screens.last { next.screens.removeLast() }
        next.screens.append(.scheduled(page.statuses, next: page.next))
        commit(next)
        return page.statuses.count
    }

    /// True when the scheduled statuses are the screen on top.
    public var scheduledOnTop: Bool {
        if case .scheduled? = state.screens.last { true } else { false }
    }

    /// Appends the next page to the scheduled screen on top; how many came (0 at the end).
    public func moreScheduled() async throws(ViewModelError) -> Int {
        guard case .scheduled(let shown, let cursor)? = state.screens.last else { throw fail(.nothingFetched) }
        guard let cursor else { return 0 }
        let page = try await request { () async throws(RequestError) in
            try await dataController.statuses.scheduledPage(cursor: cursor)
        }
        let known = Set(shown.map(\.id))
        let fresh = page.statuses.filter { !known.contains($0.id) }
        var next = state
        // A server that repeats its cursor would loop: the screen ends where it does.
        next.screens[next.screens.count - 1] = .scheduled(shown + fresh, next: fresh.isEmpty || page.next == cursor ? nil : page.next)
        commit(next)
        return fresh.count
    }

    /// Cancels scheduled status `index`, numbered as the scheduled screen on
    /// top shows them (else as the server lists them now).
    public func unschedule(index: Int) async throws(ViewModelError) -> Scheduled {
        try requireSchedules()
        let listed: [ScheduledStatus]
        if case .scheduled(let shown, _)? = state.screens.last {
            listed = shown
        } else {
            listed = try await request { () async throws(RequestError) in try await dataController.statuses.scheduledStatuses() }
        }
        guard index >= 1, index <= listed.count else { throw fail(.noScheduled(index: index, count: listed.count)) }
        let target = listed[index - 1]
        let written = try await write(
            nothing: "it is still scheduled", advice: "check with `scheduled`"
        ) { () async throws(WriteError) in try await dataController.statuses.unschedule(id: target.id) }
        commit(state.showingScheduled { $0.filter { $0.id != target.id } })
        var note = Self.lostAnswerNote(written, found: "the server shows it cancelled")
        if case .alreadyDone = written.resolution { note = "scheduled status \(target.id) was already gone from the server" }
        return Scheduled(scheduled: target, note: note)
    }

    // MARK: Undo and redo (no state change: the session restores its snapshot)

    /// Edits the status `id` to say `text` again, for undo or redo of `operation`; returns a note.
    public func editAgain(id: String, text: String, for operation: String, undo: Bool) async throws(ViewModelError) -> String {
        let outcome = try await compensate(
            operation, undo: undo, doing: "editing status \(id)", check: dataController.readBack(.statusSource(id: id)).command
        ) { () async throws(WriteError) in try await dataController.statuses.edit(id: id, text: text) }
        let line = SessionViewModel.quoted(text)
        return switch outcome.resolution {
        case .answered, .alreadyDone: "status \(id) says \(line) again on the server"
        case .recovered: "the answer was lost; the server shows status \(id) saying \(line)"
        }
    }

    /// Schedules `scheduled` again (a new id), for undo or redo of `operation`.
    public func scheduleAgain(_ scheduled: ScheduledStatus, for operation: String, undo: Bool) async throws(ViewModelError) -> Scheduled {
        guard let at = scheduled.scheduledAt else {
            let reason = "scheduled status \(scheduled.id) has no time to schedule again"
            throw fail(undo ? .undoFailed(operation: operation, reason: reason) : .redoFailed(operation: operation, reason: reason))
        }
        let outcome = try await compensate(
            operation, undo: undo, doing: "scheduling it again", check: "scheduled"
        ) { () async throws(WriteError) in try await dataController.statuses.schedule(scheduled.draft, at: at) }
        return Scheduled(scheduled: outcome.value, note: Self.lostAnswerNote(outcome, found: "found it among the scheduled statuses"))
    }

    /// Cancels the scheduled status `id`, for undo or redo of `operation`; returns a note.
    public func unscheduleAgain(id: String, for operation: String, undo: Bool) async throws(ViewModelError) -> String {
        let outcome = try await compensate(
            operation, undo: undo, doing: "cancelling scheduled status \(id)", check: "scheduled"
        ) { () async throws(WriteError) in try await dataController.statuses.unschedule(id: id) }
        return Self.removalNote(outcome, "scheduled status \(id)", "cancelled")
    }

    // MARK: Capabilities

    private func requireEdits() throws(ViewModelError) {
        guard dataController.capabilities.editsStatuses else {
            throw fail(.notOffered("this API (\(dataController.dialectName)) cannot edit a status"))
        }
    }

    private func requireSchedules() throws(ViewModelError) {
        guard dataController.capabilities.schedulesStatuses else {
            throw fail(.notOffered("this API (\(dataController.dialectName)) cannot schedule a status"))
        }
    }
}

extension TimelineState {
    /// This state with the scheduled screen on top (if that is what shows) changed by `change`.
    func showingScheduled(_ change: ([ScheduledStatus]) -> [ScheduledStatus]) -> TimelineState {
        guard case .scheduled(let shown, let more)? = screens.last else { return self }
        var next = self
        next.screens[screens.count - 1] = .scheduled(change(shown), next: more)
        return next
    }

    /// This state with the scheduled status `id` replaced by `scheduled` on every scheduled screen.
    func replacingScheduled(id: String, with scheduled: ScheduledStatus) -> TimelineState {
        var next = self
        next.screens = screens.map { screen in
            guard case .scheduled(var shown, let more) = screen, let position = shown.firstIndex(where: { $0.id == id }) else { return screen }
            shown[position] = scheduled
            return .scheduled(shown, next: more)
        }
        return next
    }
}
