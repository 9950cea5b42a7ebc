import WshModel
import WshText

/// `post` with options and `vote`, each recorded with its `RemoteEffect`.
extension SessionViewModel {
    /// `post [--visibility V] [--cw TEXT] [--reply N] [--language xx]
    /// [--media FILE [--alt TEXT]]… [--poll "a|b"] TEXT`: uploads the media,
    /// posts, and the status becomes row 1. undo deletes it; redo posts the
    /// same draft again with the media already uploaded.
    public func post(_ draft: StatusDraft, replyTo: Int? = nil) async throws(ViewModelError) {
        guard !draft.isPlainText || replyTo != nil else { return try await post(draft.text) }
        try await recordRemote(replay: Self.replay(draft, replyTo: replyTo)) { () async throws(ViewModelError) -> (String, RemoteEffect?) in
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
                    .postedStatus(id: posted.id, text: draft.text, draft: sent))
        }
    }

    /// `vote N CHOICE…`: votes in row `index`'s poll (choices 1-based). undo
    /// cannot take it back (Mastodon has no such call) and says so.
    public func vote(index: Int, choices: [Int]) async throws(ViewModelError) {
        let words = (["vote", String(index)] + choices.map(String.init)).joined(separator: " ")
        try await recordRemote(replay: words) { () async throws(ViewModelError) -> (String, RemoteEffect?) in
            let voted = try await timeline.vote(index: index, choices: choices)
            let titles = voted.choices.compactMap { $0 < voted.poll.options.count ? voted.poll.options[$0].title : nil }
            notes.append("voted \(titles.map { "\"\(TerminalText.sanitize($0))\"" }.joined(separator: ", ")) in poll "
                + "\(TerminalText.sanitize(voted.pollID)) of status \(TerminalText.sanitize(voted.statusID))")
            return ("\(words) (undo cannot take it back)",
                    .voted(statusID: voted.statusID, pollID: voted.pollID, choices: voted.choices))
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
