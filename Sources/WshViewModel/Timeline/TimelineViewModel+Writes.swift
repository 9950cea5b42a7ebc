import WshDataController
import WshModel
import WshRequest
import WshText

/// The writes of the timeline screens besides `post`: comment, reply,
/// repost, favourite, delete, follow, and the requests that take them back
/// or send them again for undo and redo, plus the rate-limit read.
///
/// Every write resolves a lost answer before it reports (the DataController
/// reads the server): found is a success with a note, absent is
/// `.writeNotApplied`, undecidable is `.writeOutcomeUnknown` with how to
/// check. Refusals keep their `RequestError` (`.requestFailed`), so a script
/// sees the API's code in `$errcode`.
extension TimelineViewModel {
    /// A comment or reply the server has.
    public struct CommentWritten: Sendable, Hashable {
        /// The status commented on.
        public let statusID: String
        /// The new comment's id, for deleting it again.
        public let commentID: String
        /// The comment replied to, for a reply.
        public let repliedTo: String?
        /// Something the user should know (a lost answer resolved), nil for a plain success.
        public let note: String?
        let comment: Comment
    }

    /// A favourite, unfavourite, follow or unfollow the server has.
    public struct Toggled: Sendable, Hashable {
        /// The status or user it was about: a status id, or `@name` / `uid 123`.
        public let target: String
        /// Something the user should know, nil for a plain success.
        public let note: String?
    }

    /// A status this session deleted.
    public struct Deleted: Sendable, Hashable {
        /// Its id.
        public let id: String
        /// Its text, which undo posts again.
        public let text: String
        /// Something the user should know, nil for a plain success.
        public let note: String?
    }

    // MARK: Inputs

    /// Comments `text` on row `index`. The counts of the row and of any
    /// screen showing the status follow the server's answer, and a comments
    /// screen open on it shows the new comment first.
    public func comment(index: Int, text: String) async throws(ViewModelError) -> CommentWritten {
        guard !text.allSatisfy(\.isWhitespace) else { throw fail(.emptyText("comment")) }
        let status = try openStatus(at: index)
        let id = status.identifier ?? ""
        let written = try await write(
            nothing: "no comment was made", advice: commentCheckAdvice(statusID: id)
        ) { () async throws(WriteError) in try await dataController.statuses.comment(statusID: id, text: text) }
        commit(state.adding(comment: written.value, toStatus: id))
        return CommentWritten(statusID: id, commentID: written.value.identifier ?? "", repliedTo: nil,
                              note: Self.lostAnswerNote(written, found: "found the comment on the server"), comment: written.value)
    }

    /// Replies `text` to comment `commentIndex` (numbered as `comments N`
    /// shows them) of row `index`. The comments are those of the comments
    /// screen on top when it shows that status, else the first page, read now.
    public func reply(index: Int, commentIndex: Int, text: String) async throws(ViewModelError) -> CommentWritten {
        guard !text.allSatisfy(\.isWhitespace) else { throw fail(.emptyText("reply")) }
        let status = try openStatus(at: index)
        let id = status.identifier ?? ""
        let comments: [Comment]
        if case .comments(let shown, let page)? = state.screens.last, shown.identifier == id {
            comments = page.comments
        } else {
            comments = try await request { () async throws(RequestError) in try await dataController.statuses.comments(statusID: id) }.comments
        }
        guard commentIndex >= 1, commentIndex <= comments.count else {
            throw fail(.noComment(index: commentIndex, count: comments.count))
        }
        let target = comments[commentIndex - 1].identifier ?? ""
        let written = try await write(
            nothing: "no reply was made", advice: commentCheckAdvice(statusID: id)
        ) { () async throws(WriteError) in try await dataController.statuses.reply(statusID: id, commentID: target, text: text) }
        commit(state.adding(comment: written.value, toStatus: id))
        return CommentWritten(statusID: id, commentID: written.value.identifier ?? "", repliedTo: target,
                              note: Self.lostAnswerNote(written, found: "found the reply on the server"), comment: written.value)
    }

    /// Reposts row `index`, with `text` when given; the repost becomes row 1
    /// and the list shows, as after `post`.
    public func repost(index: Int, text: String?) async throws(ViewModelError) -> (original: String, posted: Posted) {
        let status = try openStatus(at: index)
        let id = status.identifier ?? ""
        let posted = try await sendRepost(statusID: id, text: text)
        var next = state.updatingCounts(from: posted.status.retweetedStatus)
        next.statuses.prepend(posted.status)
        next.screens = []
        commit(next)
        return (id, posted)
    }

    /// Turns `toggle`'s flag of row `index` on or off (favourite, bookmark…).
    /// The row, and any screen showing the status, take the counts and the
    /// flag of the status the server sends back. An API without the toggle
    /// refuses before any request; a lost answer is resolved as `write` does,
    /// by reading the status's flag.
    public func set(_ toggle: StatusToggle, _ on: Bool, index: Int) async throws(ViewModelError) -> Toggled {
        guard toggle.isOffered(by: dataController.statuses.dialect) else {
            throw fail(.notOffered("this API (\(dataController.dialectName)) has no \(toggle.feature)"))
        }
        let status = try openStatus(at: index)
        let id = status.identifier ?? ""
        let written = try await write(
            nothing: on ? "the status is not \(toggle.on)" : "the status is still \(toggle.on)",
            advice: dataController.readBack(.toggle(toggle, statusID: id)).advice
        ) { () async throws(WriteError) in try await dataController.statuses.set(toggle, on, statusID: id) }
        commit(state.updating(toggle, on, statusID: id, from: written.value))
        return Toggled(target: id, note: Self.lostAnswerNote(written, found: "the server shows it done"))
    }

    /// Deletes row `index` (the account's own statuses only: the server
    /// refuses others); the row disappears, and screens showing it close.
    public func delete(index: Int) async throws(ViewModelError) -> Deleted {
        let status = try openStatus(at: index)
        let id = status.identifier ?? ""
        let written = try await write(
            nothing: "nothing was deleted", advice: dataController.readBack(.status(id: id)).advice
        ) { () async throws(WriteError) in try await dataController.statuses.destroy(id: id) }
        var next = state
        next.statuses.remove(id: id)
        next.screens = state.screens.filter { !$0.shows(statusID: id) }
        commit(next)
        var note = Self.lostAnswerNote(written, found: "the server shows the status deleted")
        if case .alreadyDone = written.resolution { note = "status \(id) was already gone from the server" }
        return Deleted(id: id, text: status.text ?? "", note: note)
    }

    /// Turns `toggle`'s side of your relationship to the user `name` names
    /// (screen name, `@name` or uid) on or off (follow, block…). A profile of
    /// them on top shows what the server sends back. An API without the toggle
    /// refuses before any request.
    public func set(_ toggle: AccountToggle, _ on: Bool, name: String) async throws(ViewModelError) -> Toggled {
        guard let reference = UserReference(name) else { throw fail(.noUserGiven) }
        guard toggle.isOffered(by: dataController.users.dialect) else {
            throw fail(.notOffered("this API (\(dataController.dialectName)) has no \(toggle.feature)"))
        }
        let written = try await write(
            nothing: on ? "\(reference) is not \(toggle.on)" : "\(reference) is still \(toggle.on)",
            advice: dataController.readBack(.account(toggle, reference)).advice
        ) { () async throws(WriteError) in try await dataController.users.set(toggle, on, reference) }
        var next = state
        if let user = written.value, case .user(let shown)? = state.screens.last, reference.matches(shown) {
            next.screens[next.screens.count - 1] = .user(user)
        }
        commit(next)
        return Toggled(target: reference.description, note: Self.lostAnswerNote(written, found: "the server shows it done"))
    }

    /// Reads the token's rate-limit status. Changes nothing and is not an
    /// operation: like `list`, it only shows.
    /// The account's filters on the server; an API without them refuses before any request.
    public func filters() async throws(ViewModelError) -> FiltersViewModel {
        guard dataController.capabilities.filters else { throw fail(.notOffered("this API (\(dataController.dialectName)) has no filters")) }
        let filters = try await request { () async throws(RequestError) in try await dataController.users.filters() }
        commit(state)
        return FiltersViewModel(filters)
    }

    public func rateLimits() async throws(ViewModelError) -> LimitsViewModel {
        let status = try await request { () async throws(RequestError) in try await dataController.users.rateLimitStatus() }
        commit(state)
        return LimitsViewModel(status)
    }

    // MARK: Undo and redo
    //
    // These change no state: the session restores the snapshot from the
    // history afterwards, which ends the loading. Failures are
    // `.undoFailed` / `.redoFailed`.

    /// Deletes the comment `commentID`, for undo of `operation`; returns a note.
    public func deleteComment(statusID: String, commentID: String, undoing operation: String) async throws(ViewModelError) -> String {
        let outcome = try await compensate(
            operation, undo: true, doing: "deleting comment \(commentID)",
            check: dataController.readBack(.comments(statusID: statusID)).command
        ) { () async throws(WriteError) in try await dataController.statuses.destroyComment(statusID: statusID, commentID: commentID) }
        return Self.removalNote(outcome, "comment \(commentID)", "deleted")
    }

    /// Comments (or replies to `repliedTo`) `text` again, for redo of `operation`.
    public func commentAgain(statusID: String, text: String, replyingTo repliedTo: String?, redoing operation: String)
        async throws(ViewModelError) -> CommentWritten {
        let outcome = try await compensate(
            operation, undo: false, doing: repliedTo == nil ? "commenting" : "replying",
            check: dataController.readBack(.comments(statusID: statusID)).command
        ) { () async throws(WriteError) in
            if let repliedTo { return try await dataController.statuses.reply(statusID: statusID, commentID: repliedTo, text: text) }
            return try await dataController.statuses.comment(statusID: statusID, text: text)
        }
        return CommentWritten(statusID: statusID, commentID: outcome.value.identifier ?? "", repliedTo: repliedTo,
                              note: Self.lostAnswerNote(outcome, found: "found the comment on the server"), comment: outcome.value)
    }

    /// Reposts `statusID` again, for redo of `operation`.
    public func repostAgain(statusID: String, text: String?, redoing operation: String) async throws(ViewModelError) -> Posted {
        do {
            return try await sendRepost(statusID: statusID, text: text)
        } catch {
            throw fail(.redoFailed(operation: operation, reason: error.description))
        }
    }

    /// Sets `toggle`'s flag of `statusID` back or again, for undo or redo of
    /// `operation`; "already so" counts as done. Returns a note.
    public func setAgain(_ toggle: StatusToggle, _ on: Bool, statusID: String, for operation: String, undo: Bool)
        async throws(ViewModelError) -> String {
        let outcome = try await compensate(
            operation, undo: undo, doing: "\(toggle.doing(on)) status \(statusID)",
            check: dataController.readBack(.status(id: statusID)).command
        ) { () async throws(WriteError) in
            try await dataController.statuses.set(toggle, on, statusID: statusID, alreadyDoneCounts: true)
        }
        return Self.toggleNote(outcome, toggle, on, "status \(statusID)")
    }

    /// Sets `toggle`'s side of the relationship to `reference` back or
    /// again, for undo or redo of `operation`; "already so" counts as done. Returns a note.
    public func setAgain(_ toggle: AccountToggle, _ on: Bool, _ reference: UserReference, for operation: String, undo: Bool)
        async throws(ViewModelError) -> String {
        let outcome = try await compensate(
            operation, undo: undo, doing: "\(toggle.doing(on)) \(reference)",
            check: dataController.readBack(.account(toggle, reference)).command
        ) { () async throws(WriteError) in try await dataController.users.set(toggle, on, reference, alreadyDoneCounts: true) }
        return Self.toggleNote(outcome, toggle, on, reference.description)
    }

    /// The note on setting `toggle` `on` (or off) for `subject` (`status 5`,
    /// `@bob`) back or again, by how the server answered.
    static func toggleNote<T, Flagged>(_ outcome: WriteOutcome<T>, _ toggle: Toggle<Flagged>, _ on: Bool, _ subject: String) -> String {
        switch outcome.resolution {
        case .answered: "\(toggle.past(on)) \(subject) on the server"
        case .recovered: "the answer was lost; the server shows \(subject) \(toggle.past(on))"
        case .alreadyDone: "\(subject) was already \(on ? toggle.on : "not " + toggle.on) on the server"
        }
    }

    /// Posts the text of a deleted status again, for undo of `operation`
    /// (Weibo cannot restore a deleted status).
    public func postDeletedAgain(_ text: String, undoing operation: String) async throws(ViewModelError) -> Posted {
        do {
            return try await publish(StatusDraft(text: text))
        } catch {
            throw fail(.undoFailed(operation: operation, reason: "posting its text again failed: \(error.description)"))
        }
    }

    /// Deletes the status `id` again, for redo of `operation`; returns a note.
    public func deleteAgain(id: String, redoing operation: String) async throws(ViewModelError) -> String {
        let outcome = try await compensate(
            operation, undo: false, doing: "deleting status \(id)", check: dataController.readBack(.status(id: id)).command
        ) { () async throws(WriteError) in try await dataController.statuses.destroy(id: id) }
        return Self.removalNote(outcome, "status \(id)", "deleted")
    }

    // MARK: Helpers

    private func commentCheckAdvice(statusID: String) -> String {
        "the comment may or may not have been made; \(dataController.readBack(.comments(statusID: statusID)).advice) before commenting again"
    }

    /// The note on taking `thing` (`status 5`) away again by the `verb`
    /// (`deleted`) write, by how the server answered.
    static func removalNote<T>(_ outcome: WriteOutcome<T>, _ thing: String, _ verb: String) -> String {
        switch outcome.resolution {
        case .answered: "\(verb) \(thing) on the server"
        case .recovered: "the answer was lost; the server shows \(thing) \(verb)"
        case .alreadyDone: "\(thing) was already gone from the server"
        }
    }

    static func lostAnswerNote<T>(_ outcome: WriteOutcome<T>, found: String) -> String? {
        if case .recovered = outcome.resolution { return "the answer was lost; \(found)" }
        return nil
    }

    private func sendRepost(statusID: String, text: String?) async throws(ViewModelError) -> Posted {
        let written = try await write(
            nothing: "nothing was reposted",
            advice: "the repost may or may not have been made; \(dataController.readBack(.ownRecentStatuses).advice) before reposting again"
        ) { () async throws(WriteError) in try await dataController.repost(statusID: statusID, text: text) }
        return Posted(status: written.value, id: written.value.identifier ?? "",
                      note: Self.lostAnswerNote(written, found: "found the repost on the server"))
    }

    /// Sends a write for an input: a refusal is an ordinary request failure
    /// (its code kept); a lost answer becomes what the server showed.
    func write<T: Sendable>(
        nothing outcome: String, advice: String, _ call: () async throws(WriteError) -> WriteOutcome<T>
    ) async throws(ViewModelError) -> WriteOutcome<T> {
        let result = try await send(refusalFails: true, call)
        switch result {
        case .success(let written):
            return written
        case .failure(.unknown(let lost, let check)):
            throw fail(.writeOutcomeUnknown(reason: lost.description, check: check, advice: advice))
        case .failure(let error):
            throw fail(.writeNotApplied(reason: error.reason, outcome: outcome))
        }
    }

    /// Sends the request of an undo or redo: any failure is `.undoFailed` or
    /// `.redoFailed`, saying what the server shows, or how to check.
    func compensate<T: Sendable>(
        _ operation: String, undo: Bool, doing what: String, check: String,
        _ call: () async throws(WriteError) -> WriteOutcome<T>
    ) async throws(ViewModelError) -> WriteOutcome<T> {
        let result = try await send(refusalFails: false, call)
        let reason: String
        switch result {
        case .success(let written):
            return written
        case .failure(.rejected(let error)):
            reason = "\(what) failed: \(error.description)"
        case .failure(.notApplied(let error)):
            reason = "\(what) failed: \(error.description); the answer was lost, and the server shows it did not happen"
        case .failure(.unknown(let error, let detail)):
            reason = "\(what) failed: \(error.description); the answer was lost and checking the server failed (\(detail)): "
                + "it may or may not have happened; check with `\(check)`"
        }
        throw fail(undo ? .undoFailed(operation: operation, reason: reason) : .redoFailed(operation: operation, reason: reason))
    }

    /// Runs a write's call as a request (`isLoading` on) and returns how it
    /// went; a refusal fails as a request does when `refusalFails`.
    func send<T: Sendable>(
        refusalFails: Bool, _ call: () async throws(WriteError) -> WriteOutcome<T>
    ) async throws(ViewModelError) -> Result<WriteOutcome<T>, WriteError> {
        try await request { () async throws(RequestError) -> Result<WriteOutcome<T>, WriteError> in
            do throws(WriteError) {
                return .success(try await call())
            } catch {
                if refusalFails, case .rejected(let refusal) = error { throw refusal }
                return .failure(error)
            }
        }
    }
}

extension TimelineState.Screen {
    /// True when this screen shows the status `id` (its detail or comments).
    func shows(statusID id: String) -> Bool {
        switch self {
        case .detail(let status), .comments(let status, _), .edits(let status, _): status.identifier == id
        case .user, .scheduled, .notifications, .conversations, .search, .accounts, .lists: false
        }
    }
}

extension TimelineState {
    /// This state after `comment` was written on the status `statusID`: the
    /// counts follow the status the comment carries (when it does), and
    /// comments screens on that status list it first.
    func adding(comment: Comment, toStatus statusID: String) -> TimelineState {
        var next = updatingCounts(from: comment.status?.identifier == statusID ? comment.status : nil)
        next.screens = next.screens.map { screen in
            guard case .comments(let status, var page) = screen, status.identifier == statusID else { return screen }
            page.comments.insert(comment, at: 0)
            page.totalNumber = page.totalNumber.map { $0 + 1 }
            return .comments(status, page)
        }
        return next
    }

    /// This state with the comment `id` replaced by `comment` on every
    /// comments screen: redo uses it when a comment sent again has a new id.
    func replacingComment(id: String, with comment: Comment) -> TimelineState {
        var next = self
        next.screens = screens.map { screen in
            guard case .comments(let status, var page) = screen,
                  let position = page.comments.firstIndex(where: { $0.identifier == id }) else { return screen }
            page.comments[position] = comment
            return .comments(status, page)
        }
        return next
    }

    /// The status `id` as the state shows it: a loaded row, else a screen open on it.
    func status(id: String) -> Status? {
        statuses.first { $0.identifier == id }
            ?? screens.lazy.compactMap { screen -> Status? in
                switch screen {
                case .detail(let status), .comments(let status, _), .edits(let status, _): status.identifier == id ? status : nil
                case .user, .scheduled, .notifications, .conversations, .search, .accounts, .lists: nil
                }
            }.first
    }

    /// This state with the counts (and `favorited`) of the status `updated`
    /// names taken from it wherever it shows; unchanged for nil. Only the
    /// counts are taken: a write's answer may carry the status without its author.
    func updatingCounts(from updated: Status?) -> TimelineState {
        guard let updated, let id = updated.identifier, var status = status(id: id) else { return self }
        status.repostsCount = updated.repostsCount ?? status.repostsCount
        status.commentsCount = updated.commentsCount ?? status.commentsCount
        status.attitudesCount = updated.attitudesCount ?? status.attitudesCount
        status.favorited = updated.favorited ?? status.favorited
        // The server's newer answer, every field of it, for `--json` (wsh's fields still merge over it).
        status.serverJSON = updated.serverJSON ?? status.serverJSON
        return replacingStatus(id: id, with: status)
    }

    /// This state after `toggle` was set `on` for the status `id`: the counts
    /// of the server's `answer`, and the flag as it says (else as wanted).
    func updating(_ toggle: StatusToggle, _ on: Bool, statusID id: String, from answer: Status?) -> TimelineState {
        let next = updatingCounts(from: answer)
        guard var status = next.status(id: id) else { return next }
        toggle.setFlag(&status, answer.flatMap(toggle.flag) ?? on)
        return next.replacingStatus(id: id, with: status)
    }
}
