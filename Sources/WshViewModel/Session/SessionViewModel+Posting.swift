import WshModel
import WshText

/// `post` with options and `vote`, each recorded with its `RemoteEffect`
/// (`PostedStatusEffect`, also `post TEXT`'s, and `VoteEffect`).
extension SessionViewModel {
    /// `post [--visibility V] [--cw TEXT] [--reply N] [--language xx]
    /// [--media FILE [--alt TEXT]]… [--poll "a|b"] TEXT`: uploads the media,
    /// posts, and the status becomes row 1. undo deletes it; redo posts the
    /// same draft again with the media already uploaded.
    public func post(_ draft: StatusDraft, replyTo: Int? = nil) async throws(ViewModelError) {
        guard !draft.isPlainText || replyTo != nil else { return try await post(draft.text) }
        try await recordRemote(replay: Self.replay(draft, replyTo: replyTo)) { () async throws(ViewModelError) -> (String, (any RemoteEffect)?) in
            let (posted, sent) = try await timeline.post(draft, replyTo: replyTo)
            if let note = posted.note { notes.append(note) }
            if !sent.mediaIDs.isEmpty {
                // Ids are the server's words: sanitised like any other text from it.
                let ids = sent.mediaIDs.map { TerminalText.sanitize($0) }.joined(separator: ", ")
                notes.append("uploaded \(DisplayText.plural(sent.mediaIDs.count, "file")) (media \(ids))")
            }
            let line = TerminalText.sanitize(draft.text)
            let options = sent.optionNames.isEmpty ? "" : " " + sent.optionNames.joined(separator: " ")
            return ("post\(options) \"\(line.count > 40 ? line.prefix(39) + "…" : line)\"",
                    PostedStatusEffect(id: posted.id, text: draft.text, draft: sent))
        }
    }

    /// `vote N CHOICE…`: votes in row `index`'s poll (choices 1-based). undo
    /// cannot take it back (Mastodon has no such call) and says so.
    public func vote(index: Int, choices: [Int]) async throws(ViewModelError) {
        let words = (["vote", String(index)] + choices.map(String.init)).joined(separator: " ")
        try await recordRemote(replay: words) { () async throws(ViewModelError) -> (String, (any RemoteEffect)?) in
            let voted = try await timeline.vote(index: index, choices: choices)
            let titles = voted.choices.compactMap { $0 < voted.poll.options.count ? voted.poll.options[$0].title : nil }
            notes.append("voted \(titles.map { "\"\(TerminalText.sanitize($0))\"" }.joined(separator: ", ")) in poll "
                + "\(TerminalText.sanitize(voted.pollID)) of status \(TerminalText.sanitize(voted.statusID))")
            return ("\(words) (undo cannot take it back)",
                    VoteEffect(statusID: voted.statusID, pollID: voted.pollID, choices: voted.choices))
        }
    }

    /// The input that makes `draft` again, for the history's replay.
    static func replay(_ draft: StatusDraft, replyTo: Int?) -> String {
        var words = ["post"]
        if let visibility = draft.visibility { words += ["--visibility", visibility.rawValue] }
        if let spoiler = draft.spoiler { words += ["--cw", replayWord(spoiler)] }
        if let replyTo { words += ["--reply", String(replyTo)] }
        if let language = draft.language { words += ["--language", replayWord(language)] }
        for file in draft.media {
            words += ["--media", replayWord(file.path)]
            if let alt = file.description { words += ["--alt", replayWord(alt)] }
        }
        if let poll = draft.poll {
            words += ["--poll", replayWord(poll.options.joined(separator: "|")), "--poll-expires", "\(poll.expiresIn)s"]
            if poll.multiple { words.append("--multiple") }
        }
        return (words + ["--", replayWord(draft.text)]).joined(separator: " ")
    }
}

/// A status this session posted: undo deletes `id`, redo posts `text` again,
/// which makes a new status with a new id. With options (`post --cw …`),
/// `draft` is what was sent (its media as uploaded ids), and redo posts it
/// again, re-using the media.
struct PostedStatusEffect: RemoteEffect {
    /// The status posted.
    var id: String
    /// Its text.
    var text: String
    /// The draft as sent, when the post had options; nil for plain text.
    var draft: StatusDraft?

    var summary: String { "posted status \(TerminalText.sanitize(id)) · undo deletes it" }

    public func undo(in session: SessionViewModel, undoing operation: String) async throws(ViewModelError) -> String {
        try await session.timeline.deletePost(id: id, undoing: operation)
    }

    public func redo(in session: SessionViewModel, redoing operation: String) async throws(ViewModelError) {
        let posted = try await session.timeline.postAgain(draft ?? StatusDraft(text: text), redoing: operation)
        session.history.reviseRedo(remote: PostedStatusEffect(id: posted.id, text: text, draft: draft)) { state in
            var revised = state
            revised.timeline = state.timeline.replacingStatus(id: id, with: posted.status)
            return revised
        }
        session.notes.append(posted.note ?? "posted again as status \(posted.id)")
    }

    public func replacingStatusID(_ oldID: String, with newID: String) -> PostedStatusEffect {
        PostedStatusEffect(id: id == oldID ? newID : id, text: text, draft: draft)
    }
}

/// A vote for `choices` (0-based) in the poll `pollID` of `statusID`:
/// Mastodon cannot take a vote back, so undo refuses and says so (and so it
/// is never redone).
struct VoteEffect: RemoteEffect {
    /// The status whose poll was voted in.
    var statusID: String
    /// The poll.
    var pollID: String
    /// The choices voted for, from 0.
    var choices: [Int]

    public var summary: String {
        "voted in poll \(TerminalText.sanitize(pollID)) of status \(TerminalText.sanitize(statusID)) · undo cannot take it back"
    }

    public func undo(in session: SessionViewModel, undoing operation: String) async throws(ViewModelError) -> String {
        throw session.timeline.fail(.undoFailed(operation: operation,
                                                reason: "Mastodon cannot take a vote back; the vote on status \(TerminalText.sanitize(statusID)) stays"))
    }

    public func redo(in session: SessionViewModel, redoing operation: String) async throws(ViewModelError) {
        // Undo refuses a vote, so it is never on the redo side; should it be, say so rather than vote twice.
        throw session.timeline.fail(.redoFailed(operation: operation, reason: "a vote is never undone, so there is nothing to vote again"))
    }

    public func replacingStatusID(_ oldID: String, with newID: String) -> VoteEffect {
        VoteEffect(statusID: statusID == oldID ? newID : statusID, pollID: pollID, choices: choices)
    }
}
