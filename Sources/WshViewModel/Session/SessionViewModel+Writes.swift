import WshDataController
import WshText

/// The session's writes besides `post`, each one recorded input marked
/// remote (`⇅`), with the undo and redo requests of their `RemoteEffect`s;
/// and `limits`, which is not recorded.
extension SessionViewModel {
    // MARK: Inputs recorded in the history

    /// `comment N TEXT`: comments on row `index`; undo deletes the comment.
    public func comment(index: Int, text: String) async throws(ViewModelError) {
        try await recordRemote(replay: "comment \(index) \(Self.replayWord(text))") { () async throws(ViewModelError) -> (String, RemoteEffect?) in
            let written = try await timeline.comment(index: index, text: text)
            notes.append(written.note ?? "commented on status \(written.statusID) (comment \(written.commentID))")
            return ("comment \(index) \(Self.quoted(text))",
                    .commented(statusID: written.statusID, commentID: written.commentID, text: text))
        }
    }

    /// `reply N M TEXT`: replies to comment `commentIndex` of row `index`; undo deletes the reply.
    public func reply(index: Int, commentIndex: Int, text: String) async throws(ViewModelError) {
        try await recordRemote(replay: "reply \(index) \(commentIndex) \(Self.replayWord(text))") { () async throws(ViewModelError) -> (String, RemoteEffect?) in
            let written = try await timeline.reply(index: index, commentIndex: commentIndex, text: text)
            notes.append(written.note ?? "replied to comment \(written.repliedTo ?? "") (comment \(written.commentID))")
            return ("reply \(index) \(commentIndex) \(Self.quoted(text))",
                    .replied(statusID: written.statusID, toCommentID: written.repliedTo ?? "",
                             commentID: written.commentID, text: text))
        }
    }

    /// `repost N [TEXT]`: reposts row `index`, which becomes row 1; undo deletes the repost.
    public func repost(index: Int, text: String?) async throws(ViewModelError) {
        try await recordRemote(replay: "repost \(index)" + (text.map { " " + Self.replayWord($0) } ?? "")) { () async throws(ViewModelError) -> (String, RemoteEffect?) in
            let (original, posted) = try await timeline.repost(index: index, text: text)
            notes.append(posted.note ?? "reposted status \(original) as status \(posted.id)")
            return ("repost \(index)\(text.map { " " + Self.quoted($0) } ?? "")",
                    .reposted(statusID: original, repostID: posted.id, text: text))
        }
    }

    /// `favorite N` / `unfavorite N`: undo does the other.
    public func setFavorite(_ favorite: Bool, index: Int) async throws(ViewModelError) {
        try await recordRemote(replay: "\(favorite ? "favorite" : "unfavorite") \(index)") { () async throws(ViewModelError) -> (String, RemoteEffect?) in
            let toggled = try await timeline.setFavorite(favorite, index: index)
            notes.append(toggled.note ?? "\(favorite ? "favourited" : "unfavourited") status \(toggled.target) on the server")
            return ("\(favorite ? "favorite" : "unfavorite") \(index)",
                    favorite ? .favorited(statusID: toggled.target) : .unfavorited(statusID: toggled.target))
        }
    }

    /// `delete N`: deletes row `index` on the server. Weibo has no undelete:
    /// undo posts its text again as a new status, and says so.
    public func delete(index: Int) async throws(ViewModelError) {
        try await recordRemote(replay: "delete \(index)") { () async throws(ViewModelError) -> (String, RemoteEffect?) in
            let deleted = try await timeline.delete(index: index)
            notes.append(deleted.note ?? "deleted status \(deleted.id) on the server")
            return ("delete \(index) \(Self.quoted(deleted.text)) (undo posts the text again)",
                    .deletedStatus(id: deleted.id, text: deleted.text))
        }
    }

    /// `follow USER` / `unfollow USER`: undo does the other.
    public func setFollowing(_ follow: Bool, name: String) async throws(ViewModelError) {
        try await recordRemote(replay: "\(follow ? "follow" : "unfollow") \(Self.replayWord(name))") { () async throws(ViewModelError) -> (String, RemoteEffect?) in
            let toggled = try await timeline.setFollowing(follow, name: name)
            notes.append(toggled.note ?? "\(follow ? "followed" : "unfollowed") \(toggled.target) on the server")
            let reference = UserReference(name) ?? .screenName(name)
            return ("\(follow ? "follow" : "unfollow") \(reference)", follow ? .followed(reference) : .unfollowed(reference))
        }
    }

    // MARK: Inputs not recorded

    /// `limits`: the token's rate-limit status. Like `list`, it changes
    /// nothing and is not an operation.
    public func limits() async throws(ViewModelError) -> LimitsViewModel {
        notes = []
        do {
            let limits = try await timeline.rateLimits()
            finish([])
            return limits
        } catch {
            throw failed(error)
        }
    }

    // MARK: Remote effects

    /// Sends the request that takes `effect` back; returns a note on what the server did.
    func takeBackWrite(_ effect: RemoteEffect, undoing operation: String) async throws(ViewModelError) -> String {
        if let note = try await takeBackListWrite(effect, undoing: operation) { return note }
        switch effect {
        case .postedStatus(let id, _, _):
            return try await timeline.deletePost(id: id, undoing: operation)
        case .voted(let statusID, _, _):
            throw timeline.fail(.undoFailed(operation: operation,
                                              reason: "Mastodon cannot take a vote back; the vote on status \(TerminalText.sanitize(statusID)) stays"))
        case .reposted(let original, let id, _):
            return try await timeline.deletePost(id: id, repostOf: original, undoing: operation)
        case .commented(let statusID, let commentID, _), .replied(let statusID, _, let commentID, _):
            return try await timeline.deleteComment(statusID: statusID, commentID: commentID, undoing: operation)
        case .favorited(let statusID):
            return try await timeline.setFavoriteAgain(false, statusID: statusID, for: operation, undo: true)
        case .unfavorited(let statusID):
            return try await timeline.setFavoriteAgain(true, statusID: statusID, for: operation, undo: true)
        case .followed(let reference):
            return try await timeline.setFollowingAgain(false, reference, for: operation, undo: true)
        case .unfollowed(let reference):
            return try await timeline.setFollowingAgain(true, reference, for: operation, undo: true)
        case .dismissedNotification(let id):
            return id.map { "the server cannot restore a dismissed notification: notification \($0) is back on screen only" }
                ?? "the server cannot restore cleared notifications: they are back on screen only"
        case .blocking, .serverMute:
            return try await takeBackRelation(effect, undoing: operation)
        case .deletedStatus(let oldID, let text):
            let posted = try await timeline.postDeletedAgain(text, undoing: operation)
            // Every operation and state naming the deleted status now names the new one.
            history.reviseAll(remote: { $0.replacingStatusID(oldID, with: posted.id) }) { state in
                var revised = state
                revised.timeline = state.timeline.replacingStatus(id: oldID, with: posted.status)
                return revised
            }
            let lost = posted.note.map { "\($0); " } ?? ""
            return "\(lost)the server cannot restore a deleted status; posted its text again as a new status (\(posted.id))"
        case .bookmarked, .unbookmarked, .createdList, .deletedList, .listMember:
            preconditionFailure("takeBackListWrite takes these back")
        case .edited, .scheduled, .unscheduled:
            return try await takeBackEdit(effect, undoing: operation)
        }
    }

    /// Sends `effect`'s write again and makes the recorded states show what it made.
    func reapplyWrite(_ effect: RemoteEffect, redoing operation: String) async throws(ViewModelError) {
        if try await reapplyListWrite(effect, redoing: operation) { return }
        switch effect {
        case .postedStatus:
            preconditionFailure("SessionViewModel.reapply sends posts itself")
        case .commented(let statusID, let oldID, let text), .replied(let statusID, _, let oldID, let text):
            var repliedTo: String?
            if case .replied(_, let target, _, _) = effect { repliedTo = target }
            let written = try await timeline.commentAgain(statusID: statusID, text: text, replyingTo: repliedTo, redoing: operation)
            let revisedEffect: RemoteEffect = repliedTo.map {
                .replied(statusID: statusID, toCommentID: $0, commentID: written.commentID, text: text)
            } ?? .commented(statusID: statusID, commentID: written.commentID, text: text)
            history.reviseRedo(remote: revisedEffect) { state in
                var revised = state
                revised.timeline = state.timeline.replacingComment(id: oldID, with: written.comment)
                return revised
            }
            notes.append(written.note ?? "commented again as comment \(written.commentID)")
        case .reposted(let statusID, let oldID, let text):
            let posted = try await timeline.repostAgain(statusID: statusID, text: text, redoing: operation)
            history.reviseRedo(remote: .reposted(statusID: statusID, repostID: posted.id, text: text)) { state in
                var revised = state
                revised.timeline = state.timeline.replacingStatus(id: oldID, with: posted.status)
                return revised
            }
            notes.append(posted.note ?? "reposted again as status \(posted.id)")
        case .favorited(let statusID):
            notes.append(try await timeline.setFavoriteAgain(true, statusID: statusID, for: operation, undo: false))
        case .unfavorited(let statusID):
            notes.append(try await timeline.setFavoriteAgain(false, statusID: statusID, for: operation, undo: false))
        case .followed(let reference):
            notes.append(try await timeline.setFollowingAgain(true, reference, for: operation, undo: false))
        case .unfollowed(let reference):
            notes.append(try await timeline.setFollowingAgain(false, reference, for: operation, undo: false))
        case .blocking, .serverMute:
            notes.append(try await reapplyRelation(effect, redoing: operation))
        case .deletedStatus(let id, _):
            notes.append(try await timeline.deleteAgain(id: id, redoing: operation))
        case .bookmarked, .unbookmarked, .createdList, .deletedList, .listMember:
            break                                       // reapplyListWrite sent them
        case .edited, .scheduled, .unscheduled:
            try await reapplyEdit(effect, redoing: operation)
        case .dismissedNotification(let id):
            notes.append(try await timeline.dismissAgain(id: id, redoing: operation))
        case .voted:
            // Undo refuses a vote, so it is never on the redo side; should it be, say so rather than vote twice.
            throw timeline.fail(.redoFailed(operation: operation, reason: "a vote is never undone, so there is nothing to vote again"))
        }
    }

    /// `"text"` on one line, cut at 40 characters, as the history shows a write's text.
    static func quoted(_ text: String) -> String {
        let line = TerminalText.sanitize(text)
        return "\"\(line.count > 40 ? line.prefix(39) + "…" : line)\""
    }
}

extension RemoteEffect {
    /// This effect naming the status `newID` wherever it named `oldID`.
    func replacingStatusID(_ oldID: String, with newID: String) -> RemoteEffect {
        func swap(_ id: String) -> String { id == oldID ? newID : id }
        return switch self {
        case .postedStatus(let id, let text, let draft): .postedStatus(id: swap(id), text: text, draft: draft)
        case .voted(let statusID, let pollID, let choices): .voted(statusID: swap(statusID), pollID: pollID, choices: choices)
        case .commented(let statusID, let commentID, let text):
            .commented(statusID: swap(statusID), commentID: commentID, text: text)
        case .replied(let statusID, let target, let commentID, let text):
            .replied(statusID: swap(statusID), toCommentID: target, commentID: commentID, text: text)
        case .reposted(let statusID, let repostID, let text):
            .reposted(statusID: swap(statusID), repostID: swap(repostID), text: text)
        case .favorited(let statusID): .favorited(statusID: swap(statusID))
        case .bookmarked(let statusID): .bookmarked(statusID: swap(statusID))
        case .unbookmarked(let statusID): .unbookmarked(statusID: swap(statusID))
        case .createdList, .deletedList, .listMember: self
        case .unfavorited(let statusID): .unfavorited(statusID: swap(statusID))
        case .deletedStatus(let id, let text): .deletedStatus(id: swap(id), text: text)
        case .followed, .unfollowed, .dismissedNotification, .blocking, .serverMute: self
        case .edited(let id, let previousText, let text): .edited(id: swap(id), previousText: previousText, text: text)
        case .scheduled, .unscheduled: self
        }
    }
}
