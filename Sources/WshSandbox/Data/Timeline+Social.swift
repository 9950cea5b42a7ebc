import FoundationEssentials
import WshModel

/// Who follows whom and who favourited what. Accounts start following a few
/// users each (`DataSet.initialFollowing`); every other user follows no one
/// until they act through a token.
extension Timeline {
    func isFollowing(_ follower: Int, _ followed: Int) -> Bool {
        following[follower]?.contains(followed) ?? false
    }

    /// `friends_count`: generated, plus follows made, minus follows undone.
    func friendsCount(of user: SandboxUser) -> Int {
        user.friendsCount + friendsAdded[user.index, default: 0]
    }

    /// `followers_count`: generated, plus followers gained, minus those lost.
    func followersCount(of user: SandboxUser) -> Int {
        user.followersCount + followersAdded[user.index, default: 0]
    }

    /// `favourites_count`: generated, plus favourites made (and kept).
    func favouritesCount(of user: SandboxUser) -> Int {
        user.favouritesCount + (favourites[user.index]?.count ?? 0)
    }

    /// The home timeline's authors: `user` and whom they follow, but not whom they block or mute.
    func homeAuthors(of user: Int) -> Set<Int> {
        following[user, default: []].union([user]).subtracting(hiddenAuthors(for: user))
    }

    mutating func follow(_ followed: Int, by follower: Int) -> Result<Void, Refusal> {
        guard followed != follower else { return .failure(.followingSelf) }
        guard !isFollowing(follower, followed) else { return .failure(.alreadyFollowing) }
        following[follower, default: []].insert(followed)
        friendsAdded[follower, default: 0] += 1
        followersAdded[followed, default: 0] += 1
        notify(followed, "follow", by: follower)
        return .success(())
    }

    /// How `follower`'s follow of `followed` is set (Mastodon's defaults when they set nothing).
    func followSettings(of followed: Int, by follower: Int) -> FollowSettings {
        followSettings[follower]?[followed] ?? FollowSettings()
    }

    /// Sets how a follow is set, as `POST /api/v1/accounts/:id/follow` with `reblogs`, `notify`,
    /// `languages[]` does, for a new follow or one there already: what is not sent stays.
    mutating func setFollowSettings(of followed: Int, by follower: Int, reblogs: Bool?, notify: Bool?, languages: [String]?) {
        var settings = followSettings(of: followed, by: follower)
        if let reblogs { settings.reblogs = reblogs }
        if let notify { settings.notify = notify }
        if let languages { settings.languages = languages.isEmpty ? nil : languages }
        followSettings[follower, default: [:]][followed] = settings
    }

    mutating func unfollow(_ followed: Int, by follower: Int) -> Result<Void, Refusal> {
        guard isFollowing(follower, followed) else { return .failure(.notFollowing) }
        following[follower]?.remove(followed)
        followSettings[follower]?[followed] = nil
        friendsAdded[follower, default: 0] -= 1
        followersAdded[followed, default: 0] -= 1
        return .success(())
    }

    /// When `user` favourited the status with `ordinal`, nil when they have not.
    func favouritedTime(_ ordinal: Int, by user: Int) -> Timestamp? {
        favourites[user]?.first { $0.ordinal == ordinal }?.time
    }

    /// `user`'s favourites still there, newest first.
    func favouriteList(of user: Int) -> [(ordinal: Int, time: Timestamp)] {
        (favourites[user] ?? []).reversed().filter { !isDeleted(ordinal: $0.ordinal) }
    }

    mutating func favourite(_ status: SandboxStatus, by user: Int) -> Result<Timestamp, Refusal> {
        guard favouritedTime(status.ordinal, by: user) == nil else { return .failure(.alreadyFavourited) }
        let time = nextWriteTime()
        favourites[user, default: []].append((status.ordinal, time))
        notify(status.authorIndex, "favourite", by: user, ordinal: status.ordinal)
        let record = takeRecordID()
        favouriteRecordIDs[user, default: [:]][status.ordinal] = record
        return .success(time)
    }

    mutating func unfavourite(_ status: SandboxStatus, by user: Int) -> Result<Timestamp, Refusal> {
        guard let index = favourites[user]?.firstIndex(where: { $0.ordinal == status.ordinal }) else {
            return .failure(.notFavourited)
        }
        favouriteRecordIDs[user]?[status.ordinal] = nil
        return .success(favourites[user]!.remove(at: index).time)
    }
}

/// How a follow is set: the followed account's boosts shown in home, a
/// notification on each of their posts, and the languages followed (nil: all).
struct FollowSettings: Sendable, Hashable {
    var reblogs = true
    var notify = false
    var languages: [String]?
}
