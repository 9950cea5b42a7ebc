import FoundationEssentials
import WshText
import WshModel
import WshRequest

/// The writes on statuses besides posting and deleting: comments, replies,
/// reposts and favourites. Each resolves a lost answer by reading the
/// server before it reports, as `post(text:)` does, so what wsh says and
/// what the server shows agree; when the read cannot tell, it is
/// `WriteError.unknown`, never a guess.
extension StatusDataController {
    /// How many comments a lost comment or reply is looked for among.
    static let lostCommentSearchCount = 50

    // MARK: Comments

    /// Comments `text` on the status `statusID` (the dialect's `comment`).
    ///
    /// Lost answer: before writing, the newest comment id on the status is
    /// read; afterwards the comments newer than it are: one with this text
    /// is the comment (`.recovered`), none newer is `.notApplied`, newer
    /// ones without this text (or a failed read) are `.unknown`.
    public func comment(statusID: String, text: String) async throws(WriteError) -> WriteOutcome<Comment> {
        try await writeComment(
            statusID: statusID, text: text,
            call: "StatusDataController.comment(statusID: \(statusID), text: \(text.count) characters)") {
            try await $0.comment(statusID: statusID, text: text, $1)
        }
    }

    /// Replies `text` to the comment `commentID` on the status `statusID`
    /// (the dialect's `reply`). A lost answer is resolved as for `comment`;
    /// Weibo prefixes a reply's text (`回复@name:`), so a comment ending
    /// with this text counts as found.
    public func reply(statusID: String, commentID: String, text: String) async throws(WriteError) -> WriteOutcome<Comment> {
        try await writeComment(
            statusID: statusID, text: text,
            call: "StatusDataController.reply(statusID: \(statusID), commentID: \(commentID), text: \(text.count) characters)") {
            try await $0.reply(statusID: statusID, commentID: commentID, text: text, $1)
        }
    }

    /// Deletes the comment `commentID` on the status `statusID`
    /// (the dialect's `deleteComment`).
    ///
    /// A comment already gone is `.alreadyDone`. A lost answer is resolved
    /// by reading the status's comments up to that id: gone means deleted
    /// (`.recovered`), still there `.notApplied`, a failed read `.unknown`.
    public func destroyComment(statusID: String, commentID: String) async throws(WriteError) -> WriteOutcome<Comment?> {
        let lost: RequestError
        do {
            let comment = try await api.run("StatusDataController.destroyComment(cid: \(commentID))", count: { _ in 1 }) {
                try await $0.deleteComment(statusID: statusID, commentID: commentID, $1)
            }
            return WriteOutcome(comment)
        } catch {
            if error.isNotThere { return WriteOutcome(nil, resolution: .alreadyDone(reason: error.description)) }
            guard error.leavesWriteOutcomeUnknown else { throw .rejected(error) }
            lost = error
        }
        let page: CommentsPage
        do {
            page = try await api.run(
                "StatusDataController.comments(statusID: \(statusID), maxID: \(commentID)) (was it deleted?)", count: \.comments.count) {
                try await $0.comments(statusID: statusID, PageQuery(count: Self.lostCommentSearchCount, maxID: commentID), $1)
            }
        } catch {
            throw .unknown(lostAnswer: lost, check: "reading the comments of status \(statusID) failed: \(error.description)")
        }
        if page.comments.contains(where: { $0.identifier == commentID }) { throw .notApplied(lostAnswer: lost) }
        // Newest first: an older comment listed (or none at all up to it) means it would have shown.
        // A server that ignores max_id may list only newer ones: then it cannot tell.
        if page.comments.isEmpty || page.comments.contains(where: { $0.identifier.map { StatusID.isOlder($0, than: commentID) } ?? false }) {
            return WriteOutcome(nil, resolution: .recovered(lostAnswer: lost.description))
        }
        throw .unknown(lostAnswer: lost, check: "comment \(commentID) is not among the \(page.comments.count) newest comments read")
    }

    private func writeComment(statusID: String, text: String, call: String,
                              _ write: (any Dialect, DialectExchange) async throws -> Comment)
        async throws(WriteError) -> WriteOutcome<Comment> {
        let (baseline, seen) = await newestCommentID(statusID: statusID)
        let lost: RequestError
        do {
            let comment = try await api.run(call, count: { _ in 1 }, write)
            if let status = comment.status, status.identifier == statusID { remember([status]) }
            return WriteOutcome(comment)
        } catch {
            guard error.leavesWriteOutcomeUnknown else { throw .rejected(error) }
            lost = error
        }
        guard case .known(let newest) = baseline else {
            throw .unknown(lostAnswer: lost, check: "the newest comment could not be read before writing (\(baselineReason(baseline)))")
        }
        let newer: [Comment]
        do {
            let page = try await api.run(
                "StatusDataController.comments(statusID: \(statusID), sinceID: \(newest ?? "none")) (did it land?)", count: \.comments.count) {
                try await $0.comments(statusID: statusID, PageQuery(count: Self.lostCommentSearchCount, sinceID: newest), $1)
            }
            // A comment not read before writing is new too: a Mastodon thread (read whole) may hold
            // replies whose ids sort above a new reply's (the sandbox's generated replies do).
            newer = page.comments.filter {
                StatusID.isNewer($0.identifier, than: newest) || $0.identifier.map { !seen.contains($0) } ?? false
            }
        } catch {
            throw .unknown(lostAnswer: lost, check: "reading the comments of status \(statusID) failed: \(error.description)")
        }
        let wanted = text.trimmingWhitespace
        let found = newer.last { comment in
            let said = (comment.text ?? "").trimmingWhitespace
            return said == wanted || said.hasSuffix(":" + wanted) || said.hasSuffix("：" + wanted)
        }
        if let found { return WriteOutcome(found, resolution: .recovered(lostAnswer: lost.description)) }
        guard newer.isEmpty else {
            throw .unknown(lostAnswer: lost, check: "the status has \(newer.count) newer comment\(newer.count == 1 ? "" : "s"), none with this text")
        }
        throw .notApplied(lostAnswer: lost)
    }

    /// The newest comment's id before writing, and the ids of every comment read then.
    private func newestCommentID(statusID: String) async -> (Baseline, Set<String>) {
        do {
            let page = try await api.run(
                "StatusDataController.comments(statusID: \(statusID), count: 1) (before writing)", count: \.comments.count) {
                try await $0.comments(statusID: statusID, PageQuery(count: 1), $1)
            }
            let ids = page.comments.compactMap(\.identifier)
            return (.known(StatusID.newest(of: ids)), Set(ids))
        } catch {
            return (.unavailable(error.description), [])
        }
    }

    private func baselineReason(_ baseline: Baseline) -> String {
        if case .unavailable(let reason) = baseline { return reason }
        return ""
    }

    // MARK: Reposts

    /// Reposts the status `statusID`, with `text` when given
    /// (the dialect's `repost`), and returns the new status.
    ///
    /// A lost answer is resolved as for `post(text:)`: among the account's
    /// statuses newer than before, one reposting this status (with this
    /// text, when there is one) is the repost.
    public func repost(statusID: String, text: String?) async throws(WriteError) -> WriteOutcome<Status> {
        // Weibo points a repost of a repost at the original, so either id counts.
        let original = cachedStatus(id: statusID)
        let targets = Set([statusID, original?.retweetedStatus?.identifier].compactMap { $0 })
        let wanted = text?.trimmingWhitespace
        return try await createOwnStatus(
            "StatusDataController.repost(id: \(statusID))", unmatched: "none reposting status \(statusID)",
            related: { [$0] + ($0.retweetedStatus.map { [$0] } ?? []) },
            matches: { status in
                guard let reposted = status.retweetedStatus?.identifier, targets.contains(reposted) else { return false }
                guard let wanted else { return true }
                return (status.text ?? "").trimmingWhitespace.hasPrefix(wanted)
            }
        ) { try await $0.repost(id: statusID, text: text, $1) }
    }

    // MARK: Toggles

    /// Turns `toggle`'s flag of the status `statusID` on or off (the call the
    /// declaration names for this API), and returns the status as the server
    /// sends it back, if it does.
    ///
    /// When `alreadyDoneCounts`, the server saying it is already so is
    /// `.alreadyDone`: undo and redo want the state, not the act. A lost
    /// answer is resolved by reading the status's flag (uncached): as wanted
    /// is `.recovered`, the other way `.notApplied`, absent or unreadable `.unknown`.
    public func set(_ toggle: StatusToggle, _ on: Bool, statusID: String, alreadyDoneCounts: Bool = false)
        async throws(WriteError) -> WriteOutcome<Status?> {
        guard let call = toggle.call(on, on: dialect) else {
            throw .rejected(.configuration("this API (\(dialect.serverName)) has no \(toggle.feature)"))
        }
        let lost: RequestError
        do {
            let status = try await api.run("StatusDataController.\(toggle.command(on))(id: \(statusID))", count: { _ in 1 }) {
                try await $0.toggle(call, statusID: statusID, $1)
            }
            // The cached status is what `detail` opens: it must show the flag as it now is.
            if let status { remember([status]) }
            return WriteOutcome(status)
        } catch {
            if alreadyDoneCounts, error.isAlreadyDone {
                return WriteOutcome(nil, resolution: .alreadyDone(reason: error.description))
            }
            guard error.leavesWriteOutcomeUnknown else { throw .rejected(error) }
            lost = error
        }
        let status = try await api.resolveLostAnswer(
            lost, reading: "status \(statusID)", call: "StatusDataController.status(id: \(statusID)) (is it \(toggle.on)?)",
            silence: "the server's status \(statusID) does not say whether it is \(toggle.on)",
            { try await $0.status(id: statusID, $1) }, landed: { toggle.flag($0).map { $0 == on } })
        remember([status])
        return WriteOutcome(status, resolution: .recovered(lostAnswer: lost.description))
    }
}
