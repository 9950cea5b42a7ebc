import Foundation
import WshModel

/// The public timeline as it stands: the generated statuses plus those posted
/// through `statuses/update.json`, newest first.
///
/// A value: a request renders from a copy while another request posts.
struct Timeline: Sendable {
    let data: DataSet
    /// Posted statuses, oldest first; their ordinals follow the generated ones.
    private(set) var posted: [SandboxStatus] = []

    /// Who posts through `statuses/update.json`: the token's owner, the first user.
    static let posterIndex = 0

    var count: Int { data.statuses.count + posted.count }

    /// The status at `position`, 0 being the newest.
    func status(atPosition position: Int) -> SandboxStatus? {
        guard position >= 0, position < count else { return nil }
        return status(ordinal: count - position)
    }

    func status(ordinal: Int) -> SandboxStatus? {
        if ordinal >= 1, ordinal <= data.statuses.count { return data.statuses[ordinal - 1] }
        let postedIndex = ordinal - data.statuses.count - 1
        return posted.indices.contains(postedIndex) ? posted[postedIndex] : nil
    }

    func status(id: Int64) -> SandboxStatus? {
        let ordinal = id - SandboxStatus.firstID
        guard ordinal > 0, ordinal <= Int64(count) else { return nil }
        return status(ordinal: Int(ordinal))
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
        user.generatedStatusesCount + (user.index == Self.posterIndex ? posted.count : 0)
    }

    func latestStatus(of user: SandboxUser) -> SandboxStatus? {
        if user.index == Self.posterIndex, let last = posted.last { return last }
        return data.latestOrdinalByUser[user.index].flatMap { status(ordinal: $0) }
    }

    /// Adds a post by the poster, a minute after the newest status, and returns it.
    mutating func post(text: String, source: (name: String, href: String)) -> SandboxStatus {
        let newest = status(atPosition: 0)?.createdAt ?? DataSet.newestTime
        let status = SandboxStatus(
            ordinal: count + 1, createdAt: WeiboTime(date: newest.date.addingTimeInterval(60)),
            text: text, source: source, authorIndex: Self.posterIndex, pictureKeys: [],
            retweetedOrdinal: nil, repostsCount: 0, commentsCount: 0, attitudesCount: 0,
            escapesUnicode: false)
        posted.append(status)
        return status
    }

    mutating func removePosts() {
        posted.removeAll()
    }
}
