import FoundationEssentials
import WshModel

/// Comments: the generated ones (made on demand from the seed) plus those
/// made through `comments/create.json` and `comments/reply.json`, minus
/// those deleted through `comments/destroy.json`.
extension Timeline {
    /// `comments_count`: generated, plus made, minus deleted.
    func commentsCount(of status: SandboxStatus) -> Int {
        status.commentsCount + (createdComments[status.ordinal]?.count ?? 0)
            - deletedCommentCount[status.ordinal, default: 0]
    }

    /// The comments on `status` still there, newest first.
    func comments(on status: SandboxStatus) -> [SandboxComment] {
        let made = (createdComments[status.ordinal] ?? []).reversed()
        let all = made + generatedComments(on: status)
        return deletedCommentIDs.isEmpty ? Array(all) : all.filter { !deletedCommentIDs.contains($0.id) }
    }

    private func generatedComments(on status: SandboxStatus) -> [SandboxComment] {
        data.comments(onOrdinal: status.ordinal, count: status.commentsCount, after: status.createdAt)
    }

    /// The comment with `id` and the status it is on; nil when either is gone.
    func comment(id: Int64) -> (comment: SandboxComment, status: SandboxStatus)? {
        guard !deletedCommentIDs.contains(id) else { return nil }
        if let ordinal = createdCommentOrdinal[id] {
            guard !isDeleted(ordinal: ordinal), let status = status(ordinal: ordinal),
                  let comment = createdComments[ordinal]?.first(where: { $0.id == id }) else { return nil }
            return (comment, status)
        }
        // Generated: firstID + ordinal * 1000 + n, n from 1 to the status's generated count.
        let offset = id - SandboxComment.firstID
        guard offset > 0, id < SandboxComment.firstCreatedID else { return nil }
        let ordinal = Int(offset / 1000)
        guard ordinal <= data.statuses.count, !isDeleted(ordinal: ordinal), let status = status(ordinal: ordinal),
              let comment = generatedComments(on: status).first(where: { $0.id == id }) else { return nil }
        return (comment, status)
    }

    /// Adds a comment by `author` on `status` (replying to `replyTo`) and returns it.
    mutating func addComment(text: String, on status: SandboxStatus, author: Int,
                             source: (name: String, href: String), replyTo: Int64? = nil,
                             mastodon: MastodonExtras? = nil) -> SandboxComment {
        createdCommentCount += 1
        // After the generated comments, which come 97 s apart after the status.
        let afterGenerated = status.createdAt.date.addingTimeInterval(TimeInterval((status.commentsCount + 1) * 97))
        let comment = SandboxComment(
            id: SandboxComment.firstCreatedID + Int64(createdCommentCount),
            createdAt: nextWriteTime(notBefore: afterGenerated), text: text, source: source,
            authorIndex: author, replyToID: replyTo, mastodon: mastodon)
        createdComments[status.ordinal, default: []].append(comment)
        createdCommentOrdinal[comment.id] = status.ordinal
        // The author replied to is told, as are those the reply mentions (Timeline+Notifications.swift).
        let repliedTo = replyTo.flatMap { self.comment(id: $0)?.comment.authorIndex } ?? status.authorIndex
        notify(repliedTo, "mention", by: author, commentID: comment.id)
        notifyMentions(in: text, by: author, ordinal: status.ordinal, commentID: comment.id, except: repliedTo)
        return comment
    }

    /// Deletes the comment with `id` if `user` wrote it; returns it and its status.
    mutating func deleteComment(id: Int64, by user: Int) -> Result<(SandboxComment, SandboxStatus), Refusal> {
        guard let (comment, status) = comment(id: id) else { return .failure(.noSuchComment) }
        guard comment.authorIndex == user else { return .failure(.notTheCommentAuthor) }
        // A comment that is a Mastodon reply's Weibo face takes the reply status with it.
        if let ordinal = replyStatusByComment[id], let reply = self.status(ordinal: ordinal), !isDeleted(ordinal: ordinal) {
            _ = delete(id: reply.id, by: user)
            return .success((comment, status))
        }
        deletedCommentIDs.insert(id)
        deletedCommentCount[status.ordinal, default: 0] += 1
        return .success((comment, status))
    }
}
