import FoundationEssentials
import WshModel
import WshRequest

/// Editing and scheduling on Mastodon: `PUT /api/v1/statuses/:id` (sending
/// again what must stay: content warning, sensitivity, language, media, poll),
/// `statuses/:id/history` and `/source`, and `scheduled_statuses`.
extension MastodonDialect {
    public func statusSource(id: String, _ exchange: DialectExchange) async throws(RequestError) -> StatusSource {
        try await Call(exchange).get(MastodonStatusSource.self, "api/v1/statuses/\(Call.segment(id))/source").source
    }

    /// Mastodon drops what an edit does not send again: the status is read
    /// first, and its content warning, sensitivity, language, media and open
    /// poll go with the new text.
    public func edit(id: String, text: String, _ exchange: DialectExchange) async throws(RequestError) -> Status {
        let call = Call(exchange)
        let path = "api/v1/statuses/\(Call.segment(id))"
        let current = try await call.get(MastodonEditableStatus.self, path)
        var parameters = [("status", text), ("spoiler_text", current.spoilerText ?? "")]
        if let sensitive = current.sensitive { parameters.append(("sensitive", sensitive ? "true" : "false")) }
        if let language = current.language, !language.isEmpty { parameters.append(("language", language)) }
        parameters += current.mediaIDs.map { ("media_ids[]", $0) }
        if let poll = current.poll, poll.expired != true, !poll.options.isEmpty {
            parameters += poll.options.map { ("poll[options][]", $0) }
            let left = poll.expiresAt.map { Int($0.date.timeIntervalSinceNow.rounded(.up)) } ?? 86_400
            parameters.append(("poll[expires_in]", String(max(300, left))))
            if let multiple = poll.multiple { parameters.append(("poll[multiple]", multiple ? "true" : "false")) }
        }
        return call.kept(try await call.send(MastodonStatus.self, .put, path, parameters).status, \.serverJSON)
    }

    public func editHistory(id: String, _ exchange: DialectExchange) async throws(RequestError) -> [StatusEdit] {
        try await Call(exchange).get([MastodonStatusEdit].self, "api/v1/statuses/\(Call.segment(id))/history").map(\.edit)
    }

    /// `POST /api/v1/statuses` with the draft as a post sends it (visibility,
    /// `spoiler_text`, `in_reply_to_id`, language, `media_ids[]`, `poll[…]`) and `scheduled_at`.
    public func schedule(_ draft: StatusDraft, at: Timestamp, _ exchange: DialectExchange) async throws(RequestError) -> ScheduledStatus {
        try await Call(exchange).send(MastodonScheduledStatus.self, .post, "api/v1/statuses",
                                      Call.statusForm(draft) + [("scheduled_at", Self.isoTime(at))]).scheduled
    }

    /// `GET /api/v1/scheduled_statuses`, paged by the `Link` header as sent.
    public func scheduledStatuses(count: Int, cursor: String?, _ exchange: DialectExchange) async throws(RequestError) -> ScheduledPage {
        let call = Call(exchange)
        let limit = [("limit", String(min(max(count, 1), Self.pageLimit)))]
        let statuses = try await call.page([MastodonScheduledStatus].self, "api/v1/scheduled_statuses",
                                           PageQuery(count: count, link: cursor), limit, limited: false)
        return ScheduledPage(statuses: statuses.map(\.scheduled), next: call.link("next"))
    }

    public func scheduledStatus(id: String, _ exchange: DialectExchange) async throws(RequestError) -> ScheduledStatus {
        try await Call(exchange).get(MastodonScheduledStatus.self, "api/v1/scheduled_statuses/\(Call.segment(id))").scheduled
    }

    public func unschedule(id: String, _ exchange: DialectExchange) async throws(RequestError) {
        _ = try await Call(exchange).exchange(.delete, "api/v1/scheduled_statuses/\(Call.segment(id))", [])
    }

    /// `2024-11-11T13:30:00Z`: the time in UTC, as `scheduled_at` takes it.
    static func isoTime(_ time: Timestamp) -> String {
        time.date.formatted(.iso8601)
    }
}
