import FoundationEssentials

/// A direct conversation: the direct statuses among one set of participants.
struct SandboxConversation: Sendable {
    /// The ordinal of its first status, which names it.
    var firstOrdinal: Int
    /// Everyone in it but the viewer.
    var others: [Int]
    /// Its newest status.
    var last: SandboxStatus
    var unread: Bool

    /// Conversation ids: `firstID + the first status's ordinal` (the seed's
    /// direct messages have ordinals 0 and below).
    static let firstID: Int64 = 5_900_000_000_000_000
    var id: Int64 { Self.firstID + Int64(firstOrdinal) }
}

/// Conversations: the seed's direct messages and statuses posted with
/// `visibility=direct`, grouped by who is in them (the author and whom the
/// text mentions), for each participant; unread when someone else wrote the
/// last one and the participant has not read it since; gone from a
/// participant's list when they removed it, until a newer message comes.
extension Timeline {
    /// `user`'s conversations, the newest last status first.
    func conversations(for user: Int) -> [SandboxConversation] {
        var byParticipants: [[Int]: SandboxConversation] = [:]
        let ordinals = data.directMessages.map(\.ordinal) + postedDirect
        for ordinal in ordinals where !isDeleted(ordinal: ordinal) {
            guard let status = status(ordinal: ordinal) else { continue }
            let mentioned = DataSet.mentionedUsers(in: status.text, index: data.userIndexByScreenName)
            let participants = Set(mentioned + [status.authorIndex])
            guard participants.contains(user) else { continue }
            let key = participants.sorted()
            let unread = status.authorIndex != user
            if var existing = byParticipants[key] {
                existing.last = status
                existing.unread = unread
                byParticipants[key] = existing
            } else {
                byParticipants[key] = SandboxConversation(firstOrdinal: status.ordinal, others: key.filter { $0 != user },
                                                          last: status, unread: unread)
            }
        }
        let read = conversationsRead[user] ?? []
        let removed = conversationsRemoved[user] ?? [:]
        return byParticipants.values.compactMap { conversation in
            if let through = removed[conversation.id], conversation.last.ordinal <= through { return nil }
            var conversation = conversation
            if read.contains(conversation.last.ordinal) { conversation.unread = false }
            return conversation
        }.sorted { $0.last.ordinal > $1.last.ordinal }
    }

    /// Marks `user`'s conversation `id` read; false when there is none.
    mutating func readConversation(id: Int64, for user: Int) -> Bool {
        guard let conversation = conversations(for: user).first(where: { $0.id == id }) else { return false }
        conversationsRead[user, default: []].insert(conversation.last.ordinal)
        return true
    }

    /// Removes `user`'s conversation `id` from their list (the statuses stay),
    /// as Mastodon's `DELETE /api/v1/conversations/:id`; false when there is none.
    mutating func removeConversation(id: Int64, for user: Int) -> Bool {
        guard let conversation = conversations(for: user).first(where: { $0.id == id }) else { return false }
        conversationsRemoved[user, default: [:]][id] = conversation.last.ordinal
        return true
    }
}
