import FoundationEssentials
import Hummingbird
import HTTPTypes
import NIOCore
import WshModel

/// Editing and scheduling: `PUT /api/v1/statuses/:id` with its history and
/// source, and scheduled statuses (`POST /api/v1/statuses` with
/// `scheduled_at`, `/api/v1/scheduled_statuses`), published when their time
/// comes by the sandbox's clock (lazily, on the next Mastodon request).
extension MastodonAPI {
    /// How far ahead a status must be scheduled, as Mastodon requires.
    static let minimumScheduleLead: TimeInterval = 5 * 60

    /// The clock scheduled statuses are measured by (a test's manual clock, else the system's).
    var now: Date { state.rateLimiter.clock.now }

    /// Publishes the scheduled statuses whose time has come (one write, only when some are due).
    func publishDueScheduled() {
        let now = self.now
        guard store.read({ $0.hasDueScheduled(at: now) }) else { return }
        _ = store.write { timeline in
            timeline.publishDueScheduled(at: now)
            return []
        }
    }

    // MARK: Edits

    /// `PUT /api/v1/statuses/:id`: `status`, `spoiler_text`, `sensitive`; the author's own only.
    /// As on Mastodon, what is not sent again is dropped: no `spoiler_text` is no content warning.
    func editStatus(_ call: Call, actor: Int, id: String) throws -> Reply {
        let id = try identifier(id)
        let parameters = call.parameters
        if !parameters.list("media_ids").isEmpty {
            throw MastodonError.validation("Media attachments are not supported by wsh-sandbox")
        }
        let text = parameters["status"] ?? ""
        guard !text.allSatisfy(\.isWhitespace) else { throw MastodonError.validation("Text can't be blank") }
        guard text.count <= Self.maximumCharacters else {
            throw MastodonError.validation("Text character limit of \(Self.maximumCharacters) exceeded")
        }
        let spoiler = parameters["spoiler_text"] ?? ""
        let sensitive = parameters.flag("sensitive") || !spoiler.isEmpty
        return try write(as: actor) { timeline, render in
            switch timeline.edit(id: id, by: actor, text: text, spoilerText: spoiler, sensitive: sensitive) {
            case .success(let status):
                return render(timeline).statusJSON(status)
            case .failure(.notTheAuthor): throw MastodonError.notAllowed
            case .failure(.noSuchStatus): throw MastodonError.notFound
            case .failure(.boost): throw MastodonError.validation("A boost has no text of its own to edit")
            }
        }
    }

    /// `GET /api/v1/statuses/:id/history`: every version, the original first.
    func statusHistory(_ call: Call, viewer: Int?, id: String) throws -> Reply {
        let timeline = store.timeline
        guard let status = timeline.status(id: try identifier(id)) else { throw MastodonError.notFound }
        return Self.json(renderer(timeline, viewer: viewer).history(of: status))
    }

    /// `GET /api/v1/statuses/:id/source`: the text as written (the author's own only).
    func statusSource(_ call: Call, actor: Int, id: String) throws -> Reply {
        let timeline = store.timeline
        guard let status = timeline.status(id: try identifier(id)) else { throw MastodonError.notFound }
        guard status.authorIndex == actor else { throw MastodonError.notFound }
        return Self.json(renderer(timeline, viewer: actor).source(of: status))
    }

    // MARK: Scheduled statuses

    /// `POST /api/v1/statuses` with `scheduled_at` (its parameters read by
    /// `postStatus`): at least 5 minutes ahead, answered with a ScheduledStatus.
    /// Its media (checked as a post's are) and poll are kept with it, and go with it when it is published.
    func scheduleStatus(_ call: Call, actor: Int, at text: String, text status: String, extras: MastodonExtras, poll: PollRequest?,
                        keptKey: String?) throws -> Reply {
        let at = try scheduledTime(text)
        let source = self.source(of: call.caller)
        let inReplyTo = call.parameters.nonEmpty("in_reply_to_id")
        let application = applicationID(call.caller)
        let reply = try write(as: actor) { timeline, render in
            try Self.checkAttachable(extras.mediaIDs, by: actor, in: timeline)
            let post = timeline.schedule(ScheduledPost(id: 0, author: actor, scheduledAt: at, text: status, extras: extras,
                                                       inReplyToID: inReplyTo, source: source,
                                                       poll: poll))
            return render(timeline).scheduledJSON(post, applicationID: application)
        }
        if let keptKey { state.keepIdempotentAnswer(keptKey, reply.body) }
        return reply
    }

    /// `GET /api/v1/scheduled_statuses`: the caller's, newest id first, paged by `Link`.
    func scheduledStatuses(_ call: Call, actor: Int) throws -> Reply {
        let timeline = store.timeline
        let all = timeline.scheduledPosts(of: actor)
        let limit = limit(call)
        func bound(_ name: String) throws -> Int? {
            try cursor(call, name).map { Int($0 - ScheduledPost.firstID) }
        }
        let maxID = try bound("max_id")
        let lower = max(try bound("since_id") ?? 0, try bound("min_id") ?? 0)
        let matching = all.filter { post in post.id > lower && (maxID.map { post.id < $0 } ?? true) }
        let page = call.parameters["min_id"].map { _ in Array(matching.suffix(limit)) } ?? Array(matching.prefix(limit))
        let application = applicationID(call.caller)
        var reply = Self.json(renderer(timeline, viewer: actor).scheduledList(page, applicationID: { _ in application }))
        let link = pageLink(call, newest: page.first?.publicID, oldest: page.last?.publicID) {
            all.contains { $0.id < page.last!.id }
        }
        setPageLink(link, on: &reply)
        return reply
    }

    /// `GET|PUT|DELETE /api/v1/scheduled_statuses/:id`: show, move (`scheduled_at`), cancel (answers `{}`).
    func scheduledStatus(_ call: Call, actor: Int, id text: String) throws -> Reply {
        guard let id = state.ids.parse(text).map({ Int($0 - ScheduledPost.firstID) }) else { throw MastodonError.notFound }
        let application = applicationID(call.caller)
        let renderer = self.renderer(store.timeline, viewer: actor)
        switch call.method {
        case .get:
            guard let post = store.timeline.scheduledPost(id: id, of: actor) else { throw MastodonError.notFound }
            return Self.json(renderer.scheduledJSON(post, applicationID: application))
        case .put:
            guard let at = call.parameters["scheduled_at"], !at.isEmpty else {
                throw MastodonError.validation("Scheduled at can't be blank")
            }
            let time = try scheduledTime(at)
            return try write(as: actor) { timeline, render in
                guard let post = timeline.reschedule(id: id, of: actor, to: time) else { throw MastodonError.notFound }
                return render(timeline).scheduledJSON(post, applicationID: application)
            }
        default:
            return try emptyWrite { $0.unschedule(id: id, of: actor) != nil }
        }
    }

    /// `scheduled_at` read as ISO 8601, at least 5 minutes after now (422 otherwise, as Mastodon).
    private func scheduledTime(_ text: String) throws -> Date {
        guard let time = Timestamp(iso8601: text) else {
            throw MastodonError.validation("Scheduled at is not a valid time: \(text)")
        }
        guard time.date.timeIntervalSince(now) >= Self.minimumScheduleLead else {
            throw MastodonError.validation("Scheduled at The scheduled date must be in the future")
        }
        return time.date
    }

    /// The id of the app the caller's token was issued to (the sandbox's own is 1).
    private func applicationID(_ caller: Caller) -> String {
        if case .user(_, _, let appKey) = caller, let app = state.app(clientID: appKey) { return app.id }
        return "1"
    }
}
