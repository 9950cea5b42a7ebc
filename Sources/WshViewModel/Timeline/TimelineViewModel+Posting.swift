import WshDataController
import WshModel
import WshRequest

/// `post` with options (media uploaded first, a reply to a row) and `vote`.
extension TimelineViewModel {
    /// Posts `draft`, replying to row `replyTo` when given (of the screen on
    /// top when it has rows, as `detail N` reads it): its files are
    /// uploaded first (checked before any is sent), then the status is
    /// posted; it becomes the first row. Returns the status and the draft as
    /// sent (media ids in place of files), which redo posts again.
    public func post(_ draft: StatusDraft, replyTo: Int?) async throws(ViewModelError) -> (posted: Posted, sent: StatusDraft) {
        var draft = draft
        let hasAttachment = !draft.media.isEmpty || !draft.mediaIDs.isEmpty || draft.poll != nil
        guard !draft.text.allSatisfy(\.isWhitespace) || (hasAttachment && draft.poll == nil) else { throw fail(.emptyPost) }
        if let index = replyTo { draft.inReplyTo = try statusOfRow(index).identifier }
        if let refusal = dataController.refusal(of: draft) { throw fail(.invalidInput(refusal)) }
        let sent = try await request { () async throws(RequestError) in try await dataController.upload(draft) }
        let posted = try await publish(sent)
        var next = state
        next.statuses.prepend(posted.status)
        next.screens = []
        commit(next)
        return (posted, sent)
    }

    /// A vote the server took.
    public struct Voted: Sendable, Hashable {
        public let statusID: String
        public let pollID: String
        /// The choices, 0-based, as sent.
        public let choices: [Int]
        public let poll: Poll
    }

    /// Votes for `choices` (1-based, as `detail` numbers the options) in the
    /// poll of row `index`. A closed poll, one already voted in, a choice
    /// out of range or several choices on a single-choice poll are refused
    /// before any request. The row and any screen on it show the new counts.
    public func vote(index: Int, choices: [Int]) async throws(ViewModelError) -> Voted {
        let status = try statusOfRow(index)
        let shown = status.isBoost ? status.retweetedStatus ?? status : status
        guard let poll = shown.poll else { throw fail(.invalidInput("row \(index) has no poll")) }
        guard let pollID = poll.id else { throw fail(.invalidInput("the poll of row \(index) has no id to vote by")) }
        guard !poll.expired else { throw fail(.invalidInput("the poll of row \(index) has closed")) }
        guard poll.voted != true else { throw fail(.invalidInput("you already voted in the poll of row \(index)")) }
        guard !choices.isEmpty else { throw fail(.invalidInput("vote \(index): name a choice (1-\(poll.options.count))")) }
        for choice in choices where choice < 1 || choice > poll.options.count {
            throw fail(.invalidInput("choice \(choice) is not in the poll of row \(index) (choices 1-\(poll.options.count))"))
        }
        guard Set(choices).count == choices.count else { throw fail(.invalidInput("vote \(index): a choice is named twice")) }
        guard choices.count == 1 || poll.multiple == true else {
            throw fail(.invalidInput("the poll of row \(index) takes one choice, not \(choices.count)"))
        }
        let sent = choices.map { $0 - 1 }
        let statusID = shown.identifier ?? ""
        let after = try await request { () async throws(RequestError) in
            try await dataController.vote(statusID: statusID, pollID: pollID, choices: sent)
        }
        var updated = shown
        updated.poll = after
        var next = state.replacingStatus(id: statusID, with: updated)
        if status.isBoost, let boostID = status.identifier {
            var boost = status
            boost.retweetedStatus = updated
            next = next.replacingStatus(id: boostID, with: boost)
        }
        commit(next)
        return Voted(statusID: statusID, pollID: pollID, choices: sent, poll: after)
    }
}
