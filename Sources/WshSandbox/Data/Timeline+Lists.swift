import FoundationEssentials
import WshModel

/// A user's list of accounts (Mastodon's `List`): its timeline is the
/// statuses of its members.
struct SandboxList: Sendable, Hashable {
    var id: Int
    var title: String
    /// `followed`, `list` or `none`.
    var repliesPolicy = "list"
    var exclusive = false
    /// User indexes, in the order they were added.
    var members: [Int] = []
}

/// Bookmarks, the record ids bookmarks and favourites page by, and lists.
/// Every user starts with none; ids count up from 1 and are never reused,
/// so a run is the same from the same seed and writes.
extension Timeline {
    /// A new bookmark or favourite record id (not a status id, as on Mastodon).
    mutating func takeRecordID() -> Int64 {
        defer { nextRecordID += 1 }
        return nextRecordID
    }

    // MARK: Bookmarks

    func isBookmarked(_ ordinal: Int, by user: Int) -> Bool {
        bookmarks[user]?.contains { $0.ordinal == ordinal } ?? false
    }

    /// Bookmarks `status` for `user`; bookmarking twice changes nothing, as on Mastodon.
    mutating func bookmark(_ status: SandboxStatus, by user: Int) {
        guard !isBookmarked(status.ordinal, by: user) else { return }
        let record = takeRecordID()
        bookmarks[user, default: []].append((status.ordinal, record))
    }

    mutating func unbookmark(_ status: SandboxStatus, by user: Int) {
        bookmarks[user]?.removeAll { $0.ordinal == status.ordinal }
    }

    // MARK: Pins

    func isPinned(_ ordinal: Int, by user: Int) -> Bool {
        pins[user]?.contains(ordinal) ?? false
    }

    /// Pins (or unpins) `status` for `user`; pinning twice changes nothing, as on Mastodon.
    mutating func setPinned(_ pinned: Bool, _ status: SandboxStatus, by user: Int) {
        pins[user, default: []].removeAll { $0 == status.ordinal }
        if pinned { pins[user]?.append(status.ordinal) }
    }

    /// `user`'s pinned statuses still there, the last pinned first.
    func pinnedOrdinals(of user: Int) -> [Int] {
        (pins[user] ?? []).reversed().filter { !isDeleted(ordinal: $0) }
    }

    /// `user`'s bookmarks still there, newest first, with their record ids.
    func bookmarkRecords(of user: Int) -> [(ordinal: Int, id: Int64)] {
        (bookmarks[user] ?? []).reversed().filter { !isDeleted(ordinal: $0.ordinal) }
    }

    /// `user`'s favourites still there, newest first, with their record ids.
    func favouriteRecords(of user: Int) -> [(ordinal: Int, id: Int64)] {
        favouriteList(of: user).compactMap { favourite in
            favouriteRecordIDs[user]?[favourite.ordinal].map { (favourite.ordinal, $0) }
        }
    }

    // MARK: Lists

    func lists(of user: Int) -> [SandboxList] {
        lists[user] ?? []
    }

    func list(id: Int, of user: Int) -> SandboxList? {
        lists[user]?.first { $0.id == id }
    }

    /// The lists of `owner` that hold `member`.
    func lists(of owner: Int, holding member: Int) -> [SandboxList] {
        lists(of: owner).filter { $0.members.contains(member) }
    }

    mutating func createList(title: String, repliesPolicy: String, exclusive: Bool, by user: Int) -> SandboxList {
        let list = SandboxList(id: nextListID, title: title, repliesPolicy: repliesPolicy, exclusive: exclusive)
        nextListID += 1
        lists[user, default: []].append(list)
        return list
    }

    /// Changes the list `id` of `user` with `change`; nil when there is no such list.
    mutating func updateList(id: Int, of user: Int, _ change: (inout SandboxList) -> Void) -> SandboxList? {
        guard let index = lists[user]?.firstIndex(where: { $0.id == id }) else { return nil }
        change(&lists[user]![index])
        return lists[user]![index]
    }

    mutating func deleteList(id: Int, of user: Int) -> SandboxList? {
        guard let index = lists[user]?.firstIndex(where: { $0.id == id }) else { return nil }
        return lists[user]!.remove(at: index)
    }
}
