import FoundationEssentials
import WshModel

/// What a reply made through the Mastodon API answers.
///
/// On Mastodon a reply is a status like any other (in its author's statuses,
/// with media and a poll, in the parent's context); on Weibo it is a comment.
/// So a reply is stored as a posted status carrying this link, and the Weibo
/// side sees its face: a comment (`commentID`) on the status at the root of
/// the thread, answering the parent's comment when the parent is a reply.
struct ReplyLink: Sendable, Hashable {
    /// The Mastodon id answered: a status's id, or a comment's (a generated
    /// reply, or one made through Weibo's `comments/create.json`).
    var parentID: Int64
    /// Who wrote what is answered (`in_reply_to_account_id`).
    var parentAuthor: Int
    /// The status at the root of the thread, which the Weibo comment is on.
    var rootOrdinal: Int
    /// The comment the Weibo side shows for this reply.
    var commentID: Int64
}

/// Replies as statuses: posting one, counting and threading them, and where
/// timelines show them, as Mastodon 4 decides it.
extension Timeline {
    /// What `parentID` (a status or a comment) names, as the link a reply to it
    /// carries (without its own comment id yet), and the Weibo comment it answers;
    /// nil when it is gone.
    func replyTarget(_ parentID: Int64) -> (link: ReplyLink, answersComment: Int64?)? {
        if let parent = status(id: parentID) {
            // A reply to a reply: but one of the seed's direct messages has no Weibo comment (0) and is a root there.
            if let above = parent.replyTo, above.commentID != 0 {
                // A reply to a reply: the same thread, answering the parent's Weibo comment.
                return (ReplyLink(parentID: parent.id, parentAuthor: parent.authorIndex,
                                  rootOrdinal: above.rootOrdinal, commentID: 0), above.commentID)
            }
            return (ReplyLink(parentID: parent.id, parentAuthor: parent.authorIndex,
                              rootOrdinal: parent.ordinal, commentID: 0), nil)
        }
        if let (comment, root) = comment(id: parentID) {
            return (ReplyLink(parentID: comment.id, parentAuthor: comment.authorIndex,
                              rootOrdinal: root.ordinal, commentID: 0), comment.id)
        }
        return nil
    }

    /// Posts `text` by `author` as a reply to `parentID`: a status (the newest)
    /// and, on the Weibo side, a comment on the thread's root status; nil when
    /// the parent is gone. The parent's author is told, as are those mentioned.
    mutating func postReply(text: String, to parentID: Int64, source: (name: String, href: String), author: Int,
                            mastodon: MastodonExtras?) -> SandboxStatus? {
        guard let (target, answersComment) = replyTarget(parentID),
              let root = status(ordinal: target.rootOrdinal) else { return nil }
        createdCommentCount += 1
        var link = target
        link.commentID = SandboxComment.firstCreatedID + Int64(createdCommentCount)
        // After the root's generated comments, which come 97 s apart after it (as comments/create's are).
        let afterGenerated = root.createdAt.date.addingTimeInterval(TimeInterval((root.commentsCount + 1) * 97))
        let status = SandboxStatus(
            ordinal: ordinalCount + 1, createdAt: nextWriteTime(notBefore: afterGenerated),
            text: text, source: source, authorIndex: author, pictureKeys: [],
            retweetedOrdinal: nil, repostsCount: 0, commentsCount: 0, attitudesCount: 0,
            escapesUnicode: false, mastodon: mastodon, replyTo: link)
        append(posted: status)
        let comment = SandboxComment(id: link.commentID, createdAt: status.createdAt, text: text, source: source,
                                     authorIndex: author, replyToID: answersComment, mastodon: mastodon)
        createdComments[root.ordinal, default: []].append(comment)
        createdCommentOrdinal[comment.id] = root.ordinal
        replyStatusByComment[comment.id] = status.ordinal
        notify(link.parentAuthor, "mention", by: author, ordinal: status.ordinal)
        notifyMentions(in: text, by: author, ordinal: status.ordinal, except: link.parentAuthor)
        return status
    }

    /// `replies_count`: for a status at the root of a thread, every comment on
    /// it (generated replies and replies to replies too, as Weibo counts them);
    /// for a reply, the replies answering it.
    func repliesCount(of status: SandboxStatus) -> Int {
        if status.ordinal <= 0 {
            // One of the seed's direct messages: the one after it in its conversation, and replies made since.
            return data.directMessages.filter { $0.replyTo?.parentID == status.id }.count + commentsCount(of: status)
        }
        guard let link = status.replyTo else { return commentsCount(of: status) }
        guard let root = self.status(ordinal: link.rootOrdinal) else { return 0 }
        return replies(toComment: link.commentID, on: root).count
    }

    /// The reply status a Weibo comment is the face of, if any and still there.
    func replyStatus(forComment id: Int64) -> SandboxStatus? {
        guard let ordinal = replyStatusByComment[id], !isDeleted(ordinal: ordinal) else { return nil }
        return status(ordinal: ordinal)
    }

    /// The Mastodon id of what a comment answers: the reply status whose face
    /// the parent comment is, else the comment itself; nil when it answers the status.
    func mastodonParentID(of comment: SandboxComment) -> Int64? {
        guard let parent = comment.replyToID else { return nil }
        return replyStatusByComment[parent].map { SandboxStatus.firstID + Int64($0) } ?? parent
    }

    /// True when the reply is a self-reply (a thread), which Mastodon shows
    /// wherever its author's statuses go, as it shows statuses that are no reply.
    static func isThreadOrNoReply(_ status: SandboxStatus) -> Bool {
        guard let link = status.replyTo else { return true }
        return link.parentAuthor == status.authorIndex
    }

    /// Whether `viewer`'s home timeline shows the status with `ordinal`
    /// (one of their own or of whom they follow), as Mastodon's feed does:
    /// a reply only when it is the viewer's own, a self-reply, a reply to the
    /// viewer, or to someone the viewer follows; and no status of a member of
    /// one of the viewer's exclusive lists (their statuses go to that list only).
    func isOnHome(_ ordinal: Int, of viewer: Int, exclusive: Set<Int>) -> Bool {
        guard !isDeleted(ordinal: ordinal) else { return false }
        // Generated statuses are no replies, and knowing the author needs no text.
        if ordinal <= data.statuses.count {
            return exclusive.isEmpty || !exclusive.contains(data.authorIndex(ofOrdinal: ordinal))
        }
        guard let status = status(ordinal: ordinal) else { return false }
        if exclusive.contains(status.authorIndex) { return false }
        guard let link = status.replyTo, status.authorIndex != viewer else { return true }
        return link.parentAuthor == status.authorIndex || link.parentAuthor == viewer
            || isFollowing(viewer, link.parentAuthor)
    }

    /// Whether a list's timeline shows the status with `ordinal` (by a member):
    /// a reply to someone else by its `replies_policy`, as Mastodon's lists do:
    /// `followed` (to anyone the owner follows), `list` (to a member), `none`;
    /// a reply to the owner always.
    func isOnList(_ ordinal: Int, _ list: SandboxList, owner: Int) -> Bool {
        guard !isDeleted(ordinal: ordinal) else { return false }
        guard ordinal > data.statuses.count, let status = status(ordinal: ordinal), let link = status.replyTo,
              link.parentAuthor != status.authorIndex, link.parentAuthor != owner else { return true }
        switch list.repliesPolicy {
        case "followed": return isFollowing(owner, link.parentAuthor)
        case "none": return false
        default: return list.members.contains(link.parentAuthor)
        }
    }

    /// The members of `user`'s exclusive lists, whose statuses leave their home timeline.
    func exclusiveListMembers(of user: Int) -> Set<Int> {
        Set((lists[user] ?? []).filter(\.exclusive).flatMap(\.members))
    }
}
