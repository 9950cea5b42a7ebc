import WshModel
import WshRequest

/// Editing and scheduling, for the timeline's ViewModel (see `StatusDataController+Edits.swift`).
extension TimelineDataController {
    /// What the connected API can do beyond what every API has.
    public var capabilities: Capabilities { statuses.dialect.capabilities }

    /// The API's name (`weibo`, `mastodon`), for saying what it lacks.
    public var dialectName: String { statuses.dialect.serverName }

    public func source(id: String) async throws(RequestError) -> StatusSource {
        try await statuses.source(id: id)
    }

    public func editHistory(id: String) async throws(RequestError) -> [StatusEdit] {
        try await statuses.editHistory(id: id)
    }

    public func edit(id: String, text: String) async throws(WriteError) -> WriteOutcome<Status> {
        try await statuses.edit(id: id, text: text)
    }

    public func scheduledStatuses() async throws(RequestError) -> [ScheduledStatus] {
        try await statuses.scheduledStatuses()
    }

    public func scheduledPage(count: Int = 40, cursor: String? = nil) async throws(RequestError) -> ScheduledPage {
        try await statuses.scheduledPage(count: count, cursor: cursor)
    }

    public func schedule(_ draft: StatusDraft, at: Timestamp) async throws(WriteError) -> WriteOutcome<ScheduledStatus> {
        try await statuses.schedule(draft, at: at)
    }

    public func unschedule(id: String) async throws(WriteError) -> WriteOutcome<String> {
        try await statuses.unschedule(id: id)
    }
}
