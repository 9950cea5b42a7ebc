import Foundation
import WshModel

/// The public timeline as it stands: the generated statuses plus those posted
/// through `statuses/update.json`, minus those deleted through
/// `statuses/destroy.json`, newest first.
///
/// A value: a request renders from a copy while another request posts.
struct Timeline: Sendable {
    let data: DataSet
    /// Posted statuses, oldest first; their ordinals follow the generated ones.
    /// A deleted post stays here (its ordinal is never reused) and is listed in `deleted`.
    private(set) var posted: [SandboxStatus] = []
    /// Ordinals of deleted statuses, ascending. Only the poster's statuses
    /// can be deleted, so these are all the poster's.
    private(set) var deleted: [Int] = []

    /// Who posts through `statuses/update.json`: the token's owner, the first user.
    static let posterIndex = 0

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
        let below = deletedCount(atOrBelow: ordinal)
        return below > 0 && deleted[below - 1] == ordinal
    }

    /// The status with `ordinal`, deleted or not (a repost still shows its original).
    func status(ordinal: Int) -> SandboxStatus? {
        if ordinal >= 1, ordinal <= data.statuses.count { return data.statuses[ordinal - 1] }
        let postedIndex = ordinal - data.statuses.count - 1
        return posted.indices.contains(postedIndex) ? posted[postedIndex] : nil
    }

    /// The status with `id`, nil when there is none or it was deleted.
    func status(id: Int64) -> SandboxStatus? {
        let ordinal = id - SandboxStatus.firstID
        guard ordinal > 0, ordinal <= Int64(ordinalCount), !isDeleted(ordinal: Int(ordinal)) else { return nil }
        return status(ordinal: Int(ordinal))
    }

    /// The statuses of `user` still there, newest first (as ordinals).
    func ordinals(of user: SandboxUser) -> [Int] {
        var ordinals: [Int] = []
        if user.index == Self.posterIndex { ordinals = posted.reversed().map(\.ordinal) }
        ordinals += data.ordinalsByUser[user.index].reversed()
        return deleted.isEmpty ? ordinals : ordinals.filter { !isDeleted(ordinal: $0) }
    }

    func user(id: Int64) -> SandboxUser? {
        let index = id - SandboxUser.firstID
        guard index >= 0, index < Int64(data.users.count) else { return nil }
        return data.users[Int(index)]
    }

    func user(screenName: String) -> SandboxUser? {
        data.userIndexByScreenName[screenName].map { data.users[$0] }
    }

    func statusesCount(of user: SandboxUser) -> Int {
        user.generatedStatusesCount + (user.index == Self.posterIndex ? posted.count - deleted.count : 0)
    }

    func latestStatus(of user: SandboxUser) -> SandboxStatus? {
        if user.index == Self.posterIndex, !deleted.isEmpty {
            return ordinals(of: user).first.flatMap { status(ordinal: $0) }
        }
        if user.index == Self.posterIndex, let last = posted.last { return last }
        return data.latestOrdinalByUser[user.index].flatMap { status(ordinal: $0) }
    }

    /// Adds a post by the poster, a minute after the newest status, and returns it.
    mutating func post(text: String, source: (name: String, href: String)) -> SandboxStatus {
        let newest = status(atPosition: 0)?.createdAt ?? DataSet.newestTime
        let status = SandboxStatus(
            ordinal: ordinalCount + 1, createdAt: WeiboTime(date: newest.date.addingTimeInterval(60)),
            text: text, source: source, authorIndex: Self.posterIndex, pictureKeys: [],
            retweetedOrdinal: nil, repostsCount: 0, commentsCount: 0, attitudesCount: 0,
            escapesUnicode: false)
        posted.append(status)
        return status
    }

    /// Why `delete(id:)` refused.
    enum DeleteRefusal: Error {
        case noSuchStatus
        case notTheAuthor
    }

    /// Deletes the status with `id` if the poster (the token's owner) wrote
    /// it, and returns it as it was.
    mutating func delete(id: Int64) -> Result<SandboxStatus, DeleteRefusal> {
        guard let status = status(id: id) else { return .failure(.noSuchStatus) }
        guard status.authorIndex == Self.posterIndex else { return .failure(.notTheAuthor) }
        deleted.insert(status.ordinal, at: deletedCount(atOrBelow: status.ordinal))
        return .success(status)
    }

    /// Removes posted statuses and brings deleted ones back.
    mutating func removePosts() {
        posted.removeAll()
        deleted.removeAll()
    }
}
