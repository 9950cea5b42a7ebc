import FoundationEssentials
import WshModel

/// A Mastodon notification before rendering: who did what, to which status
/// (or reply), for whom.
struct SandboxNotification: Sendable {
    var id: Int64
    /// `mention`, `favourite`, `reblog`, `follow`, `poll`, `update`.
    var type: String
    /// Who acted (for `poll`, the poll's author).
    var account: Int
    /// The status it is about; nil for a follow.
    var ordinal: Int?
    /// The reply it is about, for a mention by a reply (a comment on the Weibo side).
    var commentID: Int64?
    var createdAt: Timestamp
    /// Made by a write through either API, not generated: what a user did, as they did it.
    var madeThroughAPI = false

    /// Notification ids: `firstID + ordinal * 1024 + n`, so that generated
    /// ones sort by their status and runtime ones (numbered from the ordinal
    /// after the newest status) above every generated one.
    static let firstID: Int64 = 5_000_000_000_000_000
    static func base(_ ordinal: Int) -> Int64 { firstID + Int64(ordinal) * 1024 }

    /// The types the sandbox makes, as Mastodon names them.
    static let types = ["mention", "status", "reblog", "follow", "follow_request", "favourite", "poll", "update"]
}

/// What happened to notifications through the API: those made by other
/// accounts' writes, and those dismissed or cleared, per recipient.
struct NotificationLedger: Sendable {
    /// Made at runtime, oldest first, by recipient.
    var made: [Int: [SandboxNotification]] = [:]
    var dismissed: [Int: Set<Int64>] = [:]
    /// Every notification up to this id was cleared, by recipient.
    var clearedThrough: [Int: Int64] = [:]
    var lastID: Int64 = 0
}

/// Notifications: generated ones, a pure function of the seed and the
/// viewer (mentions in generated statuses, edits of them, favourites,
/// boosts and follows by other users, the viewer's polls ending), plus those
/// other accounts' writes make at runtime; minus dismissed and cleared ones
/// and those whose status was deleted.
extension Timeline {
    /// The stream of the seed generated notifications are drawn from.
    private static let notificationStream: UInt64 = 0x6E6F_7466

    /// `user`'s notifications, newest first.
    func notifications(for user: Int) -> [SandboxNotification] {
        notificationIndex(for: user).filter { isShown($0, to: user) }.reversed()
    }

    /// `user`'s notifications as an index, oldest first: the generated ones
    /// (made once), then those made at runtime, whose ids are above every
    /// generated one; dismissed, cleared and deleted ones included.
    func notificationIndex(for user: Int) -> Concatenation<SandboxNotification> {
        Concatenation(generatedNotifications(for: user), notificationLedger.made[user] ?? [])
    }

    /// True unless `notification` of `user` was dismissed or cleared, or its status or reply deleted.
    func isShown(_ notification: SandboxNotification, to user: Int) -> Bool {
        guard notification.id > notificationLedger.clearedThrough[user] ?? 0,
              !(notificationLedger.dismissed[user]?.contains(notification.id) ?? false) else { return false }
        if let ordinal = notification.ordinal, isDeleted(ordinal: ordinal) { return false }
        if let comment = notification.commentID, self.comment(id: comment) == nil { return false }
        return true
    }

    /// `user`'s notification `id`, nil when there is none (or it was dismissed).
    func notification(id: Int64, for user: Int) -> SandboxNotification? {
        notifications(for: user).first { $0.id == id }
    }

    /// The generated notifications of `user`, oldest first, made on the first
    /// call and kept by the data set: they read only what edits leave alone
    /// (authors, times, reposts, pictures), so the statuses as generated do.
    private func generatedNotifications(for user: Int) -> [SandboxNotification] {
        guard data.users.indices.contains(user) else { return [] }
        return data.generatedNotifications(for: user) { makeNotifications(for: user) }
    }

    private func makeNotifications(for user: Int) -> [SandboxNotification] {
        var made: [SandboxNotification] = []
        func add(_ type: String, _ code: Int64, _ account: Int, _ ordinal: Int?, after status: SandboxStatus, seconds: Double) {
            made.append(SandboxNotification(
                id: SandboxNotification.base(status.ordinal) + code, type: type, account: account, ordinal: ordinal,
                createdAt: Timestamp(date: status.createdAt.date.addingTimeInterval(seconds))))
        }
        func other(_ rng: inout SplitMix64) -> Int {
            let pick = rng.index(data.users.count)
            return pick == user ? (pick + 1) % data.users.count : pick
        }
        var events: [(ordinal: Int, own: Bool)] = data.mentionOrdinalsByUser[user].map { ($0, false) }
        events += data.ordinalsByUser[user].map { ($0, true) }
        for (ordinal, own) in events.sorted(by: { $0.ordinal < $1.ordinal }) {
            let status = data.statuses[ordinal - 1]
            var rng = SplitMix64(seed: data.seed, stream: Self.notificationStream, index: UInt64(ordinal))
            if !own {
                guard status.authorIndex != user else { continue }
                add("mention", 1, status.authorIndex, ordinal, after: status, seconds: 0)
                if rng.chance(0.3) { add("update", 2, status.authorIndex, ordinal, after: status, seconds: 600) }
                continue
            }
            if rng.chance(0.15), data.users.count > 1 { add("follow", 3, other(&rng), nil, after: status, seconds: 30) }
            guard status.retweetedOrdinal == nil, data.users.count > 1 else { continue }
            if rng.chance(0.5) { add("favourite", 4, other(&rng), ordinal, after: status, seconds: 120) }
            if rng.chance(0.3) { add("reblog", 5, other(&rng), ordinal, after: status, seconds: 300) }
            if hasGeneratedPoll(status) { add("poll", 6, user, ordinal, after: status, seconds: 3600) }
        }
        return made
    }

    // MARK: Made at runtime

    /// Tells `recipient` that `account` did `type` (to the status `ordinal`,
    /// or the reply `commentID`), unless they did it themselves.
    mutating func notify(_ recipient: Int, _ type: String, by account: Int, ordinal: Int? = nil, commentID: Int64? = nil) {
        guard recipient != account, data.users.indices.contains(recipient) else { return }
        let id = max(notificationLedger.lastID + 1, SandboxNotification.base(ordinalCount + 1))
        notificationLedger.lastID = id
        notificationLedger.made[recipient, default: []].append(SandboxNotification(
            id: id, type: type, account: account, ordinal: ordinal, commentID: commentID, createdAt: lastWriteTime,
            madeThroughAPI: true))
    }

    /// Notifies each user `text` mentions, for a status or reply `author` just wrote.
    mutating func notifyMentions(in text: String, by author: Int, ordinal: Int, commentID: Int64? = nil, except told: Int? = nil) {
        for user in Set(DataSet.mentionedUsers(in: text, index: data.userIndexByScreenName)) where user != told {
            notify(user, "mention", by: author, ordinal: ordinal, commentID: commentID)
        }
    }

    /// Dismisses `user`'s notification `id`; false when there is none.
    mutating func dismissNotification(id: Int64, for user: Int) -> Bool {
        guard notification(id: id, for: user) != nil else { return false }
        notificationLedger.dismissed[user, default: []].insert(id)
        return true
    }

    /// Clears every notification `user` has now.
    mutating func clearNotifications(for user: Int) {
        guard let newest = notifications(for: user).first?.id else { return }
        notificationLedger.clearedThrough[user] = max(notificationLedger.clearedThrough[user] ?? 0, newest)
    }
}
