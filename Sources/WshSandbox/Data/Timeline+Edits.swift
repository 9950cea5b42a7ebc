import FoundationEssentials
import WshModel

/// One version of an edited status, as `statuses/:id/history` lists it.
struct StatusVersion: Sendable, Hashable {
    var text: String
    var spoilerText: String
    var sensitive: Bool
    var createdAt: Timestamp
}

/// A status waiting for its time (`POST /api/v1/statuses` with `scheduled_at`):
/// what it will say, by whom, through which app.
struct ScheduledPost: Sendable {
    /// Counts from 1; the id clients see is `firstID` on, in the server's id style.
    var id: Int
    var author: Int
    var scheduledAt: Date
    var text: String
    var extras: MastodonExtras
    var inReplyToID: String?
    var source: (name: String, href: String)
    /// The poll it will carry; nil: none.
    var poll: PollRequest? = nil

    /// Scheduled status ids as clients see them, apart from status ids (`SandboxStatus.firstID`).
    static let firstID: Int64 = 5_000_000_000_000_000

    /// The id clients see.
    var publicID: Int64 { Self.firstID + Int64(id) }
}

/// Edits (each status's versions, the original first) and scheduled
/// statuses, published when their time comes. Both are part of the timeline
/// value, so a reset forgets them and a request renders a consistent copy.
extension Timeline {
    /// Why an edit or a scheduling was refused.
    enum EditRefusal: Error, Equatable {
        case noSuchStatus
        case notTheAuthor
        case boost
    }

    /// `status` as its last edit left it (text, content warning, `edited_at`); unchanged when never edited.
    func edited(_ status: SandboxStatus) -> SandboxStatus {
        guard !edits.isEmpty, let last = edits[status.ordinal]?.last else { return status }
        var status = status
        status.text = last.text
        var extras = status.mastodon ?? MastodonExtras()
        extras.spoilerText = last.spoilerText
        extras.sensitive = last.sensitive
        status.mastodon = extras
        status.editedAt = last.createdAt
        return status
    }

    /// The versions of `status`, the original first: one (the status as it is) when never edited.
    func versions(of status: SandboxStatus) -> [StatusVersion] {
        if let versions = edits[status.ordinal] { return versions }
        return [currentVersion(of: status, at: status.createdAt)]
    }

    private func currentVersion(of status: SandboxStatus, at time: Timestamp) -> StatusVersion {
        let spoiler = status.mastodon?.spoilerText ?? generatedSpoiler(status) ?? ""
        return StatusVersion(text: status.text, spoilerText: spoiler, sensitive: status.mastodon?.sensitive ?? !spoiler.isEmpty,
                             createdAt: time)
    }

    /// Edits the status with `id` (its author only): a new version with `text`, `spoilerText` and `sensitive`.
    mutating func edit(id: Int64, by user: Int, text: String, spoilerText: String, sensitive: Bool)
        -> Result<SandboxStatus, EditRefusal> {
        guard let status = status(id: id) else { return .failure(.noSuchStatus) }
        guard status.authorIndex == user else { return .failure(.notTheAuthor) }
        guard !isBoost(status) else { return .failure(.boost) }
        var versions = edits[status.ordinal] ?? [currentVersion(of: status, at: status.createdAt)]
        versions.append(StatusVersion(text: text, spoilerText: spoilerText, sensitive: sensitive, createdAt: nextWriteTime()))
        edits[status.ordinal] = versions
        indexTags(of: text, ordinal: status.ordinal)
        return .success(self.status(ordinal: status.ordinal)!)
    }

    // MARK: Scheduled statuses

    /// Keeps a status to publish at `at`; returns it with its new id.
    mutating func schedule(_ post: ScheduledPost) -> ScheduledPost {
        lastScheduledID += 1
        var post = post
        post.id = lastScheduledID
        scheduled.append(post)
        return post
    }

    /// `user`'s scheduled statuses, newest id first.
    func scheduledPosts(of user: Int) -> [ScheduledPost] {
        scheduled.filter { $0.author == user }.sorted { $0.id > $1.id }
    }

    /// The scheduled status `id` of `user`.
    func scheduledPost(id: Int, of user: Int) -> ScheduledPost? {
        scheduled.first { $0.id == id && $0.author == user }
    }

    /// Moves `user`'s scheduled status `id` to `at`; nil when there is none.
    mutating func reschedule(id: Int, of user: Int, to at: Date) -> ScheduledPost? {
        guard let index = scheduled.firstIndex(where: { $0.id == id && $0.author == user }) else { return nil }
        scheduled[index].scheduledAt = at
        return scheduled[index]
    }

    /// Cancels `user`'s scheduled status `id`; nil when there is none.
    mutating func unschedule(id: Int, of user: Int) -> ScheduledPost? {
        guard let index = scheduled.firstIndex(where: { $0.id == id && $0.author == user }) else { return nil }
        return scheduled.remove(at: index)
    }

    /// True when a scheduled status's time has come by `now`.
    func hasDueScheduled(at now: Date) -> Bool {
        scheduled.contains { $0.scheduledAt <= now }
    }

    /// Publishes every scheduled status due by `now`, earliest first (ties by id).
    mutating func publishDueScheduled(at now: Date) {
        let due = scheduled.filter { $0.scheduledAt <= now }.sorted { ($0.scheduledAt, $0.id) < ($1.scheduledAt, $1.id) }
        guard !due.isEmpty else { return }
        scheduled.removeAll { $0.scheduledAt <= now }
        for post in due {
            let status = self.post(text: post.text, source: post.source, author: post.author, mastodon: post.extras)
            // Its media and poll go with it, as a post made then would carry them.
            attach(post.extras.mediaIDs, poll: post.poll, to: status)
        }
    }
}
