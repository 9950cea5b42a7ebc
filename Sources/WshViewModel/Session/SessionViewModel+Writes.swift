import WshDataController
import WshText
import WshModel

/// What an operation changed on the server, and so what undo and redo must
/// send: undo is the compensating request, redo the write sent again.
///
/// The history keeps one with each operation that wrote (`post`). Reads
/// (`fetch`, `detail`…) and local changes (`mute`, `calc`) have none: undoing
/// them only restores what wsh shows.
///
/// Each family of write is one type, declared beside the inputs that make it
/// (`ToggleEffect` in `SessionViewModel+Writes.swift`, `EditEffect` in
/// `SessionViewModel+Edits.swift`…), and carries its own undo, redo and id
/// replacement: `SessionViewModel.undo()` and `redo()` call them without
/// knowing which write it is, and `history --effects` shows `summary`. A new
/// write plugs in by declaring one more such type.
///
/// Effects are compared by value: two are equal when they are the same type
/// with the same inputs (`RecordedOperation`'s `==` relies on it).
public protocol RemoteEffect: Sendable, Hashable {
    /// What the write changed on the server and what undo will send, on one
    /// line, e.g. `favourited status 123 · undo unfavourites`.
    var summary: String { get }

    /// Sends the compensating request through `session`'s timeline; returns
    /// a note on what the server did. `operation` is the history's
    /// description of the operation, for the error should the request fail.
    func undo(in session: SessionViewModel, undoing operation: String) async throws(ViewModelError) -> String

    /// Sends the write again through `session`'s timeline, adds a note to
    /// `session.notes`, and, where the write made something new (a new
    /// status id), revises the history so the redone operation and the
    /// states after it name the new one.
    func redo(in session: SessionViewModel, redoing operation: String) async throws(ViewModelError)

    /// This effect naming the status `newID` wherever it named `oldID`:
    /// undo that posts a deleted status again revises every operation with it.
    func replacingStatusID(_ oldID: String, with newID: String) -> Self
}

extension RemoteEffect {
    /// True when `other` is this same effect: the same type, the same inputs.
    public func isSame(as other: (any RemoteEffect)?) -> Bool {
        (other as? Self) == self
    }
}

/// The session's writes besides `post`, each one recorded input marked
/// remote (`⇅`), and the `RemoteEffect` of each family (`CommentEffect`,
/// `RepostEffect`, `ToggleEffect`, `DeletedStatusEffect`, `AccountToggleEffect`)
/// with its undo and redo requests; and `limits`, which is not recorded.
extension SessionViewModel {
    // MARK: Inputs recorded in the history

    /// `comment N TEXT`: comments on row `index`; undo deletes the comment.
    public func comment(index: Int, text: String) async throws(ViewModelError) {
        try await recordRemote(replay: "comment \(index) \(Self.replayWord(text))") { () async throws(ViewModelError) -> (String, (any RemoteEffect)?) in
            let written = try await timeline.comment(index: index, text: text)
            notes.append(written.note ?? "commented on status \(written.statusID) (comment \(written.commentID))")
            return ("comment \(index) \(Self.quoted(text))",
                    CommentEffect(statusID: written.statusID, commentID: written.commentID, text: text))
        }
    }

    /// `reply N M TEXT`: replies to comment `commentIndex` of row `index`; undo deletes the reply.
    public func reply(index: Int, commentIndex: Int, text: String) async throws(ViewModelError) {
        try await recordRemote(replay: "reply \(index) \(commentIndex) \(Self.replayWord(text))") { () async throws(ViewModelError) -> (String, (any RemoteEffect)?) in
            let written = try await timeline.reply(index: index, commentIndex: commentIndex, text: text)
            notes.append(written.note ?? "replied to comment \(written.repliedTo ?? "") (comment \(written.commentID))")
            return ("reply \(index) \(commentIndex) \(Self.quoted(text))",
                    CommentEffect(statusID: written.statusID, commentID: written.commentID, text: text,
                                  repliedTo: written.repliedTo ?? ""))
        }
    }

    /// `repost N [TEXT]`: reposts row `index`, which becomes row 1; undo deletes the repost.
    public func repost(index: Int, text: String?) async throws(ViewModelError) {
        try await recordRemote(replay: "repost \(index)" + (text.map { " " + Self.replayWord($0) } ?? "")) { () async throws(ViewModelError) -> (String, (any RemoteEffect)?) in
            let (original, posted) = try await timeline.repost(index: index, text: text)
            notes.append(posted.note ?? "reposted status \(original) as status \(posted.id)")
            return ("repost \(index)\(text.map { " " + Self.quoted($0) } ?? "")",
                    RepostEffect(statusID: original, repostID: posted.id, text: text))
        }
    }

    /// `favorite N`, `unbookmark N`… (any `StatusToggle`, on or off): undo
    /// sends it the other way.
    public func set(_ toggle: StatusToggle, _ on: Bool, index: Int) async throws(ViewModelError) {
        let command = "\(toggle.command(on)) \(index)"
        try await recordRemote(replay: command) { () async throws(ViewModelError) -> (String, (any RemoteEffect)?) in
            let toggled = try await timeline.set(toggle, on, index: index)
            notes.append(toggled.note ?? "\(toggle.past(on)) status \(toggled.target) on the server")
            return (command, ToggleEffect(toggle: toggle, on: on, statusID: toggled.target))
        }
    }

    /// `delete N`: deletes row `index` on the server. Weibo has no undelete:
    /// undo posts its text again as a new status, and says so.
    public func delete(index: Int) async throws(ViewModelError) {
        try await recordRemote(replay: "delete \(index)") { () async throws(ViewModelError) -> (String, (any RemoteEffect)?) in
            let deleted = try await timeline.delete(index: index)
            notes.append(deleted.note ?? "deleted status \(deleted.id) on the server")
            return ("delete \(index) \(Self.quoted(deleted.text)) (undo posts the text again)",
                    DeletedStatusEffect(id: deleted.id, text: deleted.text))
        }
    }

    /// `follow USER`, `unblock USER`… (any `AccountToggle`, on or off): undo
    /// sends it the other way.
    public func set(_ toggle: AccountToggle, _ on: Bool, name: String) async throws(ViewModelError) {
        try await recordRemote(replay: "\(toggle.command(on)) \(Self.replayWord(name))") {
            () async throws(ViewModelError) -> (String, (any RemoteEffect)?) in
            let toggled = try await timeline.set(toggle, on, name: name)
            notes.append(toggled.note ?? "\(toggle.past(on)) \(toggled.target) on the server")
            let reference = UserReference(name) ?? .screenName(name)
            return ("\(toggle.command(on)) \(reference)", AccountToggleEffect(toggle: toggle, on: on, user: reference))
        }
    }

    // MARK: Inputs not recorded

    /// `limits`: the token's rate-limit status. Like `list`, it changes
    /// nothing and is not an operation.
    public func limits() async throws(ViewModelError) -> LimitsViewModel {
        try await shown { () async throws(ViewModelError) in try await timeline.rateLimits() }
    }

    /// `filters`: the account's filters on the server. Like `limits`, it
    /// changes nothing and is not an operation.
    public func filters() async throws(ViewModelError) -> FiltersViewModel {
        try await shown { () async throws(ViewModelError) in try await timeline.filters() }
    }

    /// What a read that is not an operation returns for its View to show.
    private func shown<Shown>(_ read: () async throws(ViewModelError) -> Shown) async throws(ViewModelError) -> Shown {
        notes = []
        do {
            let value = try await read()
            finish([])
            return value
        } catch {
            throw failed(error)
        }
    }

    /// `"text"` on one line, cut at 40 characters, as the history shows a write's text.
    static func quoted(_ text: String) -> String {
        let line = TerminalText.sanitize(text)
        return "\"\(line.count > 40 ? line.prefix(39) + "…" : line)\""
    }
}

/// A comment this session wrote on the status `statusID`, or, with
/// `repliedTo`, a reply to that comment: undo deletes `commentID`, redo
/// comments (replies) `text` again, which makes a new comment.
struct CommentEffect: RemoteEffect {
    /// The status commented on.
    var statusID: String
    /// The comment written.
    var commentID: String
    /// Its text.
    var text: String
    /// The comment replied to; nil for a comment on the status itself.
    var repliedTo: String?

    public var summary: String {
        let comment = TerminalText.sanitize(commentID)
        let status = TerminalText.sanitize(statusID)
        return repliedTo.map { "replied to comment \(TerminalText.sanitize($0)) of status \(status) (comment \(comment)) · undo deletes the reply" }
            ?? "commented on status \(status) (comment \(comment)) · undo deletes the comment"
    }

    public func undo(in session: SessionViewModel, undoing operation: String) async throws(ViewModelError) -> String {
        try await session.timeline.deleteComment(statusID: statusID, commentID: commentID, undoing: operation)
    }

    public func redo(in session: SessionViewModel, redoing operation: String) async throws(ViewModelError) {
        let written = try await session.timeline.commentAgain(statusID: statusID, text: text, replyingTo: repliedTo, redoing: operation)
        var revisedEffect = self
        revisedEffect.commentID = written.commentID
        session.history.reviseRedo(remote: revisedEffect) { state in
            var revised = state
            revised.timeline = state.timeline.replacingComment(id: commentID, with: written.comment)
            return revised
        }
        session.notes.append(written.note ?? "commented again as comment \(written.commentID)")
    }

    public func replacingStatusID(_ oldID: String, with newID: String) -> CommentEffect {
        var revised = self
        if statusID == oldID { revised.statusID = newID }
        return revised
    }
}

/// A repost of `statusID`: undo takes back the repost `repostID` by the
/// API's own call (Weibo deletes it, Mastodon unboosts `statusID`), redo
/// reposts again (a new id).
struct RepostEffect: RemoteEffect {
    /// The status reposted.
    var statusID: String
    /// The repost made.
    var repostID: String
    /// The repost's own text, if it had one.
    var text: String?

    public var summary: String {
        "reposted status \(TerminalText.sanitize(statusID)) as status \(TerminalText.sanitize(repostID)) · undo takes the repost back"
    }

    public func undo(in session: SessionViewModel, undoing operation: String) async throws(ViewModelError) -> String {
        try await session.timeline.deletePost(id: repostID, repostOf: statusID, undoing: operation)
    }

    public func redo(in session: SessionViewModel, redoing operation: String) async throws(ViewModelError) {
        let posted = try await session.timeline.repostAgain(statusID: statusID, text: text, redoing: operation)
        session.history.reviseRedo(remote: RepostEffect(statusID: statusID, repostID: posted.id, text: text)) { state in
            var revised = state
            revised.timeline = state.timeline.replacingStatus(id: repostID, with: posted.status)
            return revised
        }
        session.notes.append(posted.note ?? "reposted again as status \(posted.id)")
    }

    public func replacingStatusID(_ oldID: String, with newID: String) -> RepostEffect {
        func swap(_ id: String) -> String { id == oldID ? newID : id }
        return RepostEffect(statusID: swap(statusID), repostID: swap(repostID), text: text)
    }
}

/// A `StatusToggle` set on or off for `statusID` (a favourite, an
/// unbookmark…): undo sends it the other way, redo the same again.
struct ToggleEffect: RemoteEffect {
    /// The write, as declared.
    var toggle: StatusToggle
    /// True when it turned the flag on.
    var on: Bool
    /// The status it was about.
    var statusID: String

    public var summary: String {
        "\(toggle.past(on)) status \(TerminalText.sanitize(statusID)) · undo \(on ? toggle.undoOfOn : toggle.undoOfOff)"
    }

    public func undo(in session: SessionViewModel, undoing operation: String) async throws(ViewModelError) -> String {
        try await session.timeline.setAgain(toggle, !on, statusID: statusID, for: operation, undo: true)
    }

    public func redo(in session: SessionViewModel, redoing operation: String) async throws(ViewModelError) {
        session.notes.append(try await session.timeline.setAgain(toggle, on, statusID: statusID, for: operation, undo: false))
    }

    public func replacingStatusID(_ oldID: String, with newID: String) -> ToggleEffect {
        ToggleEffect(toggle: toggle, on: on, statusID: statusID == oldID ? newID : statusID)
    }
}

/// A status this session deleted: Weibo has no undelete, so undo posts
/// `text` again as a new status (and says so); redo deletes `id`, which is
/// then the new status's.
struct DeletedStatusEffect: RemoteEffect {
    /// The status deleted.
    var id: String
    /// Its text, which undo posts again.
    var text: String

    public var summary: String {
        "deleted status \(TerminalText.sanitize(id)) · undo posts its text again as a new status"
    }

    public func undo(in session: SessionViewModel, undoing operation: String) async throws(ViewModelError) -> String {
        let posted = try await session.timeline.postDeletedAgain(text, undoing: operation)
        // Every operation and state naming the deleted status now names the new one.
        session.history.reviseAll(remote: { $0.replacingStatusID(id, with: posted.id) }) { state in
            var revised = state
            revised.timeline = state.timeline.replacingStatus(id: id, with: posted.status)
            return revised
        }
        let lost = posted.note.map { "\($0); " } ?? ""
        return "\(lost)the server cannot restore a deleted status; posted its text again as a new status (\(posted.id))"
    }

    public func redo(in session: SessionViewModel, redoing operation: String) async throws(ViewModelError) {
        session.notes.append(try await session.timeline.deleteAgain(id: id, redoing: operation))
    }

    public func replacingStatusID(_ oldID: String, with newID: String) -> DeletedStatusEffect {
        DeletedStatusEffect(id: id == oldID ? newID : id, text: text)
    }
}

/// An `AccountToggle` set on or off for `user` (a follow, an unblock…):
/// undo sends it the other way, redo the same again.
struct AccountToggleEffect: RemoteEffect {
    /// The write, as declared.
    var toggle: AccountToggle
    /// True when it turned the relationship on.
    var on: Bool
    /// The user it was about.
    var user: UserReference

    var summary: String { "\(toggle.past(on)) \(user) · undo \(on ? toggle.undoOfOn : toggle.undoOfOff)" }

    public func undo(in session: SessionViewModel, undoing operation: String) async throws(ViewModelError) -> String {
        try await session.timeline.setAgain(toggle, !on, user, for: operation, undo: true)
    }

    public func redo(in session: SessionViewModel, redoing operation: String) async throws(ViewModelError) {
        session.notes.append(try await session.timeline.setAgain(toggle, on, user, for: operation, undo: false))
    }

    func replacingStatusID(_ oldID: String, with newID: String) -> AccountToggleEffect { self }
}
