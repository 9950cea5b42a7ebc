import FoundationEssentials

/// Blocks and server-side mutes, and the follow graph read both ways
/// (followers, following). A blocked or muted account's statuses leave the
/// viewer's home and public timelines; blocking also ends the follows
/// between the two accounts, as Mastodon does (unblocking does not restore them).
extension Timeline {
    /// A server-side mute: whom, whether their notifications are hidden too,
    /// and when it ends (nil: never), on the sandbox's clock: `expire(at:)` ends it then.
    struct Mute: Sendable {
        var user: Int
        var notifications: Bool
        var expiresAt: Date?
    }

    func isBlocking(_ user: Int, _ other: Int) -> Bool {
        blocks[user]?.contains(other) ?? false
    }

    func mute(of other: Int, by user: Int) -> Mute? {
        mutes[user]?.first { $0.user == other }
    }

    /// Whose statuses `viewer`'s timelines leave out: whom they block or mute.
    func hiddenAuthors(for viewer: Int) -> Set<Int> {
        Set(blocks[viewer] ?? []).union((mutes[viewer] ?? []).map(\.user))
    }

    /// Whom `user` blocks, newest first.
    func blockList(of user: Int) -> [Int] { (blocks[user] ?? []).reversed() }

    /// Whom `user` mutes, newest first.
    func muteList(of user: Int) -> [Mute] { (mutes[user] ?? []).reversed() }

    /// Who follows `user`, newest account first.
    func followerList(of user: Int) -> [Int] {
        following.keys.filter { following[$0]?.contains(user) ?? false }.sorted(by: >)
    }

    /// Whom `user` follows, newest account first.
    func followingList(of user: Int) -> [Int] {
        (following[user] ?? []).sorted(by: >)
    }

    /// Blocks `other` for `user` (idempotent, as on Mastodon), ending the follows between them.
    mutating func block(_ other: Int, by user: Int) -> Result<Void, Refusal> {
        guard other != user else { return .failure(.followingSelf) }
        guard !isBlocking(user, other) else { return .success(()) }
        blocks[user, default: []].append(other)
        _ = unfollow(other, by: user)
        _ = unfollow(user, by: other)
        return .success(())
    }

    mutating func unblock(_ other: Int, by user: Int) {
        blocks[user]?.removeAll { $0 == other }
    }

    /// Mutes `other` for `user`; muting again replaces the options, as on Mastodon.
    mutating func mute(_ other: Int, by user: Int, notifications: Bool, duration: Int, now: Date) -> Result<Void, Refusal> {
        guard other != user else { return .failure(.followingSelf) }
        let expiry = duration > 0 ? now.addingTimeInterval(TimeInterval(duration)) : nil
        let record = Mute(user: other, notifications: notifications, expiresAt: expiry)
        if let index = mutes[user]?.firstIndex(where: { $0.user == other }) {
            mutes[user]![index] = record
        } else {
            mutes[user, default: []].append(record)
        }
        return .success(())
    }

    mutating func unmute(_ other: Int, by user: Int) {
        mutes[user]?.removeAll { $0.user == other }
    }
}
