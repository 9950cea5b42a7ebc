import WshText

/// One line the session ran, kept in memory (never written anywhere) for the
/// classroom page's "Replay from here".
struct RanLine {
    /// The line as typed (secrets and all: it runs again as it ran).
    var text: String
    /// Where it came from, for the errors and the page's `location` when it runs again.
    var file: String
    var firstLine: Int
    /// The page's number for it, when the page saw it start.
    var step: Int?
    /// Whether it failed when it ran: it may fail again in a replay, alike.
    var failed: Bool
    /// Whether the session talked to a live server once it had run.
    var live: Bool
    /// Where a presented lesson stood after it: where the presenter goes on after a replay to it.
    var lesson: PresenterSource.Bookmark?

    /// `web …` only controls the page: a replay leaves it out.
    var controlsPage: Bool {
        text.split(whereSeparator: { $0 == " " || $0 == "\t" }).first == "web"
    }
}

/// "Replay from here": the teacher's page asks for step N; between commands,
/// on its own thread, the shell starts a fresh session (a new embedded
/// sandbox, or a new replayer over the same `--replay` recording) and runs
/// the lines that led to step N in it, the lines before `web on` included and
/// `web` lines left out. The page hears a `branch` and follows the new lines.
extension Shell {
    /// Keeps `line` and tells the page's replay door how many steps there are.
    func ran(_ line: RanLine) {
        ranLines.append(line)
        guard let replay = web?.replay else { return }
        replay.update { facts in
            if let step = line.step { facts.steps = step }
            if line.live, facts.liveFrom == nil { facts.liveFrom = max(1, line.step ?? 1) }
        }
    }

    /// The replay door for a page that starts now: why this session can never
    /// replay, if so, and whether it talked to a live server already (every
    /// step would follow that line).
    func makeReplayRequests() throws -> ReplayRequests {
        let requests = try ReplayRequests(refusal: connection.replayRefusal)
        if ranLines.contains(where: \.live) { requests.update { $0.liveFrom = 1 } }
        // The page numbers its lines from 1 again: the earlier lines come before its step 1.
        for index in ranLines.indices { ranLines[index].step = nil }
        return requests
    }

    /// Runs the replay the page asked for, if one waits: says what it does on
    /// the terminal, publishes the `branch`, then runs the lines as lines of
    /// the fresh session. A line that fails where it did not before stops it,
    /// in one line naming the step and the reason; the fresh session stays.
    /// A presented lesson (`presenter`) goes on from the stop after the last line run.
    func replayFromPage(resuming presenter: PresenterSource? = nil) {
        guard let web, let step = web.replay.take() else { return }
        let style = console.diagnosticStyle
        if let refusal = web.replay.refusal(step: step) {
            console.note(style.red("replay: \(refusal)"))
            return
        }
        guard let end = ranLines.lastIndex(where: { $0.step == step }) else { return }
        let lines = ranLines[...end].filter { !$0.controlsPage }
        console.note(style.dim("replay: a fresh session runs steps 1–\(step) from the page"))
        startAfresh()
        branch += 1
        web.replay.update { $0.steps = 0; $0.liveFrom = nil }
        stream.publish(.branch(BranchStarted(branch: branch, from: step, commands: lines.map(\.text))))
        publishStateIfWatched(after: "replay")
        for line in lines {
            let outcome = execute(line.text, file: line.file, firstLine: line.firstLine, lesson: line.lesson)
            if let lesson = line.lesson { presenter?.resume(at: lesson) }
            let failed: Bool = if case .succeeded = outcome { false } else { true }
            guard failed, !line.failed else { continue }
            let reason = lastFailure.map { TerminalText.sanitize($0) } ?? "it failed"
            console.note(style.red("replay: stopped at step \(web.view.line): \(reason); the fresh session goes on from here"))
            return
        }
    }

    /// Forgets everything the session built, as a new wsh would begin: the
    /// connection as it began (a fresh sandbox or replayer), the ViewModels,
    /// the trace, the archive's keeping, the lines ran. The language's
    /// variables and procs stay: the replayed lines set them again.
    private func startAfresh() {
        connection.startAfresh()
        resetSession()
        timelineDataController = nil
        traceOff()
        traced = []
        archiveKeepsLive = false
        published = nil
        ranLines = []
    }
}
