import FoundationEssentials
import WshText
import WshModel
import WshRequest

/// Editing a status and scheduling one: reads (the source, the edit history,
/// the scheduled statuses) and writes that resolve a lost answer by reading
/// the server, as the other writes do.
extension StatusDataController {
    /// The status `id` as its author wrote it (never the HTML).
    public func source(id: String) async throws(RequestError) -> StatusSource {
        try await api.run("StatusDataController.source(id: \(id))", count: { _ in 1 }) { try await $0.statusSource(id: id, $1) }
    }

    /// Every version of the status `id`, the original first.
    public func editHistory(id: String) async throws(RequestError) -> [StatusEdit] {
        try await editHistory(id: id, body: nil)
    }

    /// `editHistory(id:)`, the answer's body also put in `body` (for the archive).
    func editHistory(id: String, body: KeptBody?) async throws(RequestError) -> [StatusEdit] {
        try await api.run("StatusDataController.editHistory(id: \(id))", count: \.count) {
            let versions = try await $0.editHistory(id: id, $1)
            body?.data = $1.response?.body
            return versions
        }
    }

    /// Edits the status `id` to say `text` (its author's token only).
    ///
    /// A lost answer is resolved by reading the status's source: it says
    /// `text` (spaces at the ends aside) is `.recovered`, anything else
    /// `.notApplied`; a failed read is `.unknown`.
    public func edit(id: String, text: String) async throws(WriteError) -> WriteOutcome<Status> {
        let lost: RequestError
        do {
            let status = try await api.run("StatusDataController.edit(id: \(id), text: \(text.count) characters)", count: { _ in 1 }) {
                try await $0.edit(id: id, text: text, $1)
            }
            remember([status])
            return WriteOutcome(status)
        } catch {
            guard error.leavesWriteOutcomeUnknown else { throw .rejected(error) }
            lost = error
        }
        let wanted = text.trimmingWhitespace
        do {
            let source = try await api.run("StatusDataController.source(id: \(id)) (was it edited?)", count: { _ in 1 }) {
                try await $0.statusSource(id: id, $1)
            }
            guard source.text.trimmingWhitespace == wanted else { throw WriteError.notApplied(lostAnswer: lost) }
            let status = try await api.run("StatusDataController.status(id: \(id)) (after the edit)", count: { _ in 1 }) {
                try await $0.status(id: id, $1)
            }
            remember([status])
            return WriteOutcome(status, resolution: .recovered(lostAnswer: lost.description))
        } catch let error as WriteError {
            throw error
        } catch {
            throw .unknown(lostAnswer: lost, check: "reading status \(id) failed: \(error)")
        }
    }

    /// The account's scheduled statuses, the first `count`.
    public func scheduledStatuses(count: Int = 40) async throws(RequestError) -> [ScheduledStatus] {
        try await scheduledPage(count: count, cursor: nil).statuses
    }

    /// A page of the account's scheduled statuses, at most `count`, from `cursor` (nil: the first).
    public func scheduledPage(count: Int = 40, cursor: String? = nil) async throws(RequestError) -> ScheduledPage {
        try await api.run("StatusDataController.scheduledStatuses(count: \(count)\(cursor == nil ? "" : ", next page"))",
                          count: { $0.statuses.count }) {
            try await $0.scheduledStatuses(count: count, cursor: cursor, $1)
        }
    }

    /// Schedules `draft` (its media uploaded) for `at`; the scheduled status.
    ///
    /// A lost answer is resolved by reading the scheduled statuses: one with
    /// this text and time that was not there before is `.recovered`, none
    /// `.notApplied`; a failed read `.unknown`.
    public func schedule(_ draft: StatusDraft, at: Timestamp) async throws(WriteError) -> WriteOutcome<ScheduledStatus> {
        let text = draft.text
        let before = try? await scheduledStatuses()
        let lost: RequestError
        do {
            let scheduled = try await api.run("StatusDataController.schedule(text: \(text.count) characters, at: \(at.date))",
                                              count: { _ in 1 }) {
                try await $0.schedule(draft, at: at, $1)
            }
            return WriteOutcome(scheduled)
        } catch {
            guard error.leavesWriteOutcomeUnknown else { throw .rejected(error) }
            lost = error
        }
        guard let before else {
            throw .unknown(lostAnswer: lost, check: "the scheduled statuses could not be read before scheduling")
        }
        let known = Set(before.map(\.id))
        let now: [ScheduledStatus]
        do {
            now = try await scheduledStatuses()
        } catch {
            throw .unknown(lostAnswer: lost, check: "reading the scheduled statuses failed: \(error.description)")
        }
        let wanted = text.trimmingWhitespace
        if let found = now.first(where: { scheduled in
            !known.contains(scheduled.id) && scheduled.text.trimmingWhitespace == wanted
                && scheduled.scheduledAt.map { abs($0.date.timeIntervalSince(at.date)) < 1 } ?? false
        }) {
            return WriteOutcome(found, resolution: .recovered(lostAnswer: lost.description))
        }
        throw .notApplied(lostAnswer: lost)
    }

    /// Cancels the scheduled status `id`. One already gone is `.alreadyDone`;
    /// a lost answer is resolved by reading it: gone is `.recovered`, still
    /// there `.notApplied`.
    public func unschedule(id: String) async throws(WriteError) -> WriteOutcome<String> {
        try await api.removal(id, what: "scheduled status", call: "StatusDataController.unschedule(id: \(id))",
                              check: "StatusDataController.scheduledStatus(id: \(id)) (was it cancelled?)",
                              { try await $0.unschedule(id: id, $1) },
                              read: { _ = try await $0.scheduledStatus(id: id, $1) })
    }
}
