import FoundationEssentials
import WshModel

/// Everything the API serves as it stands: the generated statuses plus those
/// posted and reposted through the API, minus those deleted, newest first;
/// comments made and deleted; who follows whom; favourites.
///
/// A value: a request renders from a copy while another request writes.
/// Comments live in `Timeline+Comments.swift`, follows and favourites in
/// `Timeline+Social.swift`.
struct Timeline: Sendable {
    let data: DataSet
    /// Posted statuses (posts and reposts, by any account), oldest first; their
    /// ordinals follow the generated ones. A deleted post stays here (its
    /// ordinal is never reused) and is listed in `deleted`.
    private(set) var posted: [SandboxStatus] = []
    /// Ordinals of deleted statuses, ascending.
    private(set) var deleted: [Int] = []
    private(set) var postedCountByUser: [Int: Int] = [:]
    private(set) var deletedCountByUser: [Int: Int] = [:]
    /// Posted statuses that mention a user, oldest first, by user index.
    private(set) var postedMentions: [Int: [Int]] = [:]
    /// Posted reposts of a status (of the original and of the one reposted directly), oldest first.
    private(set) var postedReposts: [Int: [Int]] = [:]
    /// Reposts made through the API, added to a status's generated `reposts_count`.
    private(set) var repostsAdded: [Int: Int] = [:]
    /// The time of the last write; each write comes one minute later.
    private(set) var lastWriteTime: Timestamp
    /// `http://127.0.0.1:PORT`, where the pictures statuses show are served (`SandboxMediaFiles`).
    var mediaOrigin = "http://127.0.0.1"

    // What writes add to the timelines' indexes (see Timeline+Indexes.swift), each ascending.
    /// Posted statuses by author.
    var postedByUser: [Int: [Int]] = [:]
    /// Posted statuses that were public and no boost when posted.
    var postedPublic: [Int] = []
    /// Posted statuses, and edited ones, by each tag (lowercased) they had.
    var postedTagged: [String: [Int]] = [:]

    // Comments (see Timeline+Comments.swift).
    var createdComments: [Int: [SandboxComment]] = [:]
    var createdCommentOrdinal: [Int64: Int] = [:]
    var deletedCommentIDs: Set<Int64> = []
    var deletedCommentCount: [Int: Int] = [:]
    var createdCommentCount = 0

    // Follows and favourites (see Timeline+Social.swift).
    var following: [Int: Set<Int>]
    /// How each follow that is not Mastodon's default (boosts shown, no
    /// notification, every language) is set: follower → followed → settings.
    var followSettings: [Int: [Int: FollowSettings]] = [:]
    var friendsAdded: [Int: Int] = [:]
    var followersAdded: [Int: Int] = [:]
    /// Each user's favourites, oldest first, with when they were made.
    var favourites: [Int: [(ordinal: Int, time: Timestamp)]] = [:]

    // Blocks and server-side mutes (see Timeline+Relations.swift).
    var blocks: [Int: [Int]] = [:]
    var mutes: [Int: [Mute]] = [:]
    // Bookmarks, favourite records and lists (see Timeline+Lists.swift).
    /// Each user's bookmarks, oldest first, with the record id their `Link` pages by.
    var bookmarks: [Int: [(ordinal: Int, id: Int64)]] = [:]
    /// Each user's pinned statuses, in the order pinned.
    var pins: [Int: [Int]] = [:]
    /// The record id of each favourite (user → ordinal → id), which `/api/v1/favourites` pages by.
    var favouriteRecordIDs: [Int: [Int: Int64]] = [:]
    /// Each user's lists, oldest first.
    var lists: [Int: [SandboxList]] = [:]
    /// The next bookmark or favourite record id, and the next list id: never reused.
    var nextRecordID: Int64 = 1
    var nextListID = 1
    // Edits and scheduled statuses (see Timeline+Edits.swift).
    var edits: [Int: [StatusVersion]] = [:]
    var scheduled: [ScheduledPost] = []
    var lastScheduledID = 0
    // Notifications and conversations (see Timeline+Notifications.swift, Timeline+Conversations.swift).
    var notificationLedger = NotificationLedger()
    var conversationsRead: [Int: Set<Int>] = [:]
    /// Conversations a user removed (`DELETE /api/v1/conversations/:id`): id → the
    /// ordinal of its last status then; a newer status brings it back.
    var conversationsRemoved: [Int: [Int64: Int]] = [:]
    /// Posted `direct` statuses, oldest first (the conversations' index).
    var postedDirect: [Int] = []
    /// Deleted direct messages of the seed (their ordinals are 0 and below, apart from `deleted`).
    var deletedDirect: Set<Int> = []
    // Uploads, posted polls and votes (see Timeline+Posting.swift).
    var posting = PostingState()
    // Replies that are statuses, filters and profiles (Timeline+Replies.swift, +Filters.swift, +Profiles.swift).
    /// The reply status each Weibo comment mirrors (comment id → the status's ordinal).
    var replyStatusByComment: [Int64: Int] = [:]
    var filters: [Int: [SandboxFilter]] = [:]
    var nextFilterID = 1
    var nextFilterKeywordID = 1
    var profiles: [Int: SandboxProfile] = [:]

    init(data: DataSet) {
        self.data = data
        lastWriteTime = DataSet.newestTime
        following = Dictionary(uniqueKeysWithValues: data.initialFollowing.enumerated().map { ($0, $1) })
    }

    /// Statuses ever created, deleted ones included: the last ordinal.
    var ordinalCount: Int { data.statuses.count + posted.count }

    /// Statuses on the timeline now.
    var count: Int { ordinalCount - deleted.count }

    /// The status at `position`, 0 being the newest.
    func status(atPosition position: Int) -> SandboxStatus? {
        guard position >= 0, position < count else { return nil }
        return status(ordinal: ordinal(ofRank: count - position))
    }

    /// The ordinal of the `rank`-th status still there, counting from 1 for
    /// the oldest: the least fixed point of `rank + deleted at or below it`,
    /// which is never a deleted ordinal. Without deletions, `rank` itself.
    private func ordinal(ofRank rank: Int) -> Int {
        var ordinal = rank
        while true {
            let next = rank + deletedCount(atOrBelow: ordinal)
            if next == ordinal { return ordinal }
            ordinal = next
        }
    }

    /// How many deleted ordinals are `ordinal` or lower (a binary search).
    private func deletedCount(atOrBelow ordinal: Int) -> Int {
        var low = 0
        var high = deleted.count
        while low < high {
            let middle = (low + high) / 2
            if deleted[middle] <= ordinal { low = middle + 1 } else { high = middle }
        }
        return low
    }

    func isDeleted(ordinal: Int) -> Bool {
        if ordinal <= 0 { return deletedDirect.contains(ordinal) }
        let below = deletedCount(atOrBelow: ordinal)
        return below > 0 && deleted[below - 1] == ordinal
    }

    /// The status with `ordinal`, deleted or not (a repost still shows its original).
    func status(ordinal: Int) -> SandboxStatus? {
        if ordinal <= 0 { return data.directMessage(ordinal: ordinal).map(edited) }
        if ordinal >= 1, ordinal <= data.statuses.count { return edited(data.statuses[ordinal - 1]) }
        let postedIndex = ordinal - data.statuses.count - 1
        return posted.indices.contains(postedIndex) ? edited(posted[postedIndex]) : nil
    }

    /// The author of the status with `ordinal`; a generated status's is known without making its text.
    func authorIndex(ofOrdinal ordinal: Int) -> Int? {
        if ordinal >= 1, ordinal <= data.statuses.count { return data.authorIndex(ofOrdinal: ordinal) }
        return status(ordinal: ordinal)?.authorIndex
    }

    /// The status with `id`, nil when there is none or it was deleted.
    func status(id: Int64) -> SandboxStatus? {
        let ordinal = id - SandboxStatus.firstID
        // The seed's direct messages are 0 and below.
        guard ordinal > -Int64(data.directMessages.count), ordinal <= Int64(ordinalCount),
              !isDeleted(ordinal: Int(ordinal)) else { return nil }
        return status(ordinal: Int(ordinal))
    }

    /// The status with `id` as the Weibo side sees it: the seed's direct
    /// messages (Mastodon only) are not there.
    func weiboStatus(id: Int64) -> SandboxStatus? {
        id - SandboxStatus.firstID > 0 ? status(id: id) : nil
    }

    // MARK: Timelines (ordinals, newest first, deleted ones left out)

    /// The statuses of `user`.
    func ordinals(of user: SandboxUser) -> [Int] {
        present(userIndex(user.index).all)
    }

    /// The statuses of any of `authors`: a home timeline (merged from each author's index).
    func ordinals(byAnyOf authors: Set<Int>) -> [Int] {
        present(authorsIndex(authors).all)
    }

    /// The statuses that `@mention` `user`.
    func mentionOrdinals(of user: SandboxUser) -> [Int] {
        present(postedMentions[user.index, default: []].reversed() + data.mentionOrdinalsByUser[user.index].reversed())
    }

    /// The reposts of the status with `ordinal`.
    func repostOrdinals(of ordinal: Int) -> [Int] {
        present(postedReposts[ordinal, default: []].reversed() + (data.repostOrdinalsByOrdinal[ordinal] ?? []).reversed())
    }

    private func present(_ ordinals: [Int]) -> [Int] {
        deleted.isEmpty ? ordinals : ordinals.filter { !isDeleted(ordinal: $0) }
    }

    // MARK: Users and counts

    func user(id: Int64) -> SandboxUser? {
        let index = id - SandboxUser.firstID
        guard index >= 0, index < Int64(data.users.count) else { return nil }
        return data.users[Int(index)]
    }

    func user(screenName: String) -> SandboxUser? {
        data.userIndexByScreenName[screenName].map { data.users[$0] }
    }

    func statusesCount(of user: SandboxUser) -> Int {
        user.generatedStatusesCount + postedCountByUser[user.index, default: 0] - deletedCountByUser[user.index, default: 0]
    }

    func latestStatus(of user: SandboxUser) -> SandboxStatus? {
        if postedCountByUser[user.index, default: 0] == 0, deletedCountByUser[user.index, default: 0] == 0 {
            return data.latestOrdinalByUser[user.index].flatMap { status(ordinal: $0) }
        }
        return userIndex(user.index).descending(below: .max).first { !isDeleted(ordinal: $0) }
            .flatMap { status(ordinal: $0) }
    }

    /// `reposts_count`: the generated count plus reposts made through the API.
    func repostsCount(of status: SandboxStatus) -> Int {
        status.repostsCount + repostsAdded[status.ordinal, default: 0]
    }

    // MARK: Writing

    /// The time of a new write: a minute after the last one, and not before `earliest`.
    mutating func nextWriteTime(notBefore earliest: Date? = nil) -> Timestamp {
        var next = lastWriteTime.date.addingTimeInterval(60)
        if let earliest, earliest > next { next = earliest }
        lastWriteTime = Timestamp(date: next)
        return lastWriteTime
    }

    /// Adds a status by `author` and returns it; with `reposting`, a repost of
    /// that status (nested under the original at the root of its chain).
    /// `pictureKeys`: the pictures it carries (Weibo's `statuses/upload.json`).
    mutating func post(text: String, source: (name: String, href: String), author: Int,
                       reposting target: SandboxStatus? = nil, mastodon: MastodonExtras? = nil,
                       pictureKeys: [String] = []) -> SandboxStatus {
        var status = SandboxStatus(
            ordinal: ordinalCount + 1, createdAt: nextWriteTime(),
            text: text, source: source, authorIndex: author, pictureKeys: pictureKeys,
            retweetedOrdinal: nil, repostsCount: 0, commentsCount: 0, attitudesCount: 0,
            escapesUnicode: false, mastodon: mastodon)
        if let target {
            let root = target.retweetedOrdinal ?? target.ordinal
            status.retweetedOrdinal = root
            if root != target.ordinal { status.repostedOrdinal = target.ordinal }
            for reposted in Set([root, target.ordinal]) {
                postedReposts[reposted, default: []].append(status.ordinal)
                repostsAdded[reposted, default: 0] += 1
            }
        }
        append(posted: status)
        // Who is told (Timeline+Notifications.swift): the boosted status's author, or those mentioned.
        if let root = status.retweetedOrdinal, let original = self.status(ordinal: root) {
            notify(original.authorIndex, "reblog", by: author, ordinal: root)
        } else {
            notifyMentions(in: text, by: author, ordinal: status.ordinal)
        }
        return status
    }

    /// Adds a new status (the newest) to the posted ones, their counts and indexes.
    mutating func append(posted status: SandboxStatus) {
        posted.append(status)
        index(posted: status)
        postedCountByUser[status.authorIndex, default: 0] += 1
        for user in DataSet.mentionedUsers(in: status.text, index: data.userIndexByScreenName) {
            postedMentions[user, default: []].append(status.ordinal)
        }
        if status.mastodon?.visibility == "direct" { postedDirect.append(status.ordinal) }
    }

    /// Why a write was refused.
    enum Refusal: Error, Equatable {
        case noSuchStatus
        case notTheAuthor
        case noSuchComment
        case notTheCommentAuthor
        case alreadyFavourited
        case notFavourited
        case alreadyFollowing
        case notFollowing
        case followingSelf
    }

    /// Deletes the status with `id` if `user` wrote it, and returns it as it was.
    mutating func delete(id: Int64, by user: Int) -> Result<SandboxStatus, Refusal> {
        guard let status = status(id: id) else { return .failure(.noSuchStatus) }
        guard status.authorIndex == user else { return .failure(.notTheAuthor) }
        if status.ordinal <= 0 {
            // One of the seed's direct messages: no Weibo face, no count of the author's statuses.
            deletedDirect.insert(status.ordinal)
            return .success(status)
        }
        deleted.insert(status.ordinal, at: deletedCount(atOrBelow: status.ordinal))
        deletedCountByUser[user, default: 0] += 1
        // A reply is also a comment on the Weibo side (Timeline+Replies.swift): it goes too.
        if let link = status.replyTo, deletedCommentIDs.insert(link.commentID).inserted {
            deletedCommentCount[link.rootOrdinal, default: 0] += 1
        }
        // A repost made through the API no longer counts for what it reposted.
        if status.ordinal > data.statuses.count, let root = status.retweetedOrdinal {
            for reposted in Set([root, status.repostedOrdinal ?? root]) { repostsAdded[reposted, default: 0] -= 1 }
        }
        return .success(status)
    }
}
