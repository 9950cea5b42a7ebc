import WshDataController
import WshText
import WshViewModel

/// One thing that happened in the session, in the order it happened: what
/// the session publishes on its `SessionStream` and every View reads.
///
/// The events are values, so a View may keep them (the web View keeps a
/// window of them for a page that reloads) and none of them refers back to a
/// ViewModel. What a View needs travels in the event; a View never asks
/// another View.
public enum SessionEvent: Sendable {
    /// A line the loop is about to run, as typed (or as read from a lesson):
    /// the boundary of one entry in the page's timeline.
    case line(LineStarted)
    /// A ViewModel input begins: `command` as called (words expanded), `input`
    /// the ViewModel call, nil for a command that goes straight to the
    /// Request layer (`api`). `place`: the command's function in wsh's source
    /// that drives the input (the classroom shows it beside the event).
    case inputStarted(command: String, input: String?, place: SourcePlace? = nil)
    /// A DataController call and the requests it sent, or its cache hit.
    case dataController(TraceEvent)
    /// A ViewModel change notification: what to re-render, and where in the
    /// ViewModel's source it was sent from.
    case changed(SessionChange, place: SourcePlace? = nil)
    /// The input returned (or failed): the Views it asks for are due now. The
    /// terminal Views render on this, before the other subscribers hear it.
    case inputEnded(InputEnded)
    /// A View rendered: its name as `trace` shows it (`TimelineListView (3
    /// rows)`) and its text without colour, made only while a close watcher
    /// listens (`SessionStream.isWatchedClosely`; empty otherwise). `onTerminal`
    /// is false for a screen rendered only for the stream (a script shows no rows).
    case rendered(view: String, text: String, onTerminal: Bool)
    /// Text written to the terminal: results (stdout) or notes and errors
    /// (stderr), masked and sanitized as they left the process, without colour.
    case output(text: String, isError: Bool)
    /// The Top ViewModel's state after a change, and what changed from the
    /// state published before it.
    case state(SessionStateDocument, diff: SessionStateDiff)
    /// The operation history: every operation, the ones undo would redo
    /// included, and where undo and redo stand.
    case history(HistoryDocument)
    /// The line ended: its status (0, or the failure's exit status) and time.
    case lineEnded(status: Int32, elapsed: Duration)
    /// A lesson's next stop (`--present`): its narration and the command it waits on.
    case lesson(LessonStop)
    /// "Replay from here": a fresh session begins, and runs `commands` (the
    /// earlier branch's lines up to its step `from`) as its first lines.
    case branch(BranchStarted)
}

/// A fresh session that replays an earlier one's lines (the classroom page's "Replay from here").
public struct BranchStarted: Sendable, Hashable {
    /// Which branch this is: the session as it began is branch 1, its first replay branch 2.
    public var branch: Int
    /// The step of the earlier branch it replays to.
    public var from: Int
    /// The lines it runs, as typed (raw: the View that shows them masks them).
    public var commands: [String]
}

/// A line about to run.
public struct LineStarted: Sendable, Hashable {
    /// The line as typed, e.g. `fetch 3; detail 1`.
    public var text: String
    /// Where it came from: `prompt`, `-c`, `FILE:LINE`.
    public var location: String
}

/// How a ViewModel input ended, and what the terminal is to render for it.
public struct InputEnded: Sendable {
    /// The command as called, e.g. `fetch 3`.
    public var command: String
    /// What the command was asked to show even outside an interactive
    /// session (`detail` shows the detail).
    public var show: SessionChange
    /// `detail N --expand`: the text behind a content warning.
    public var expand: Bool
    /// What the input wants the user to know (a lost answer resolved).
    public var notes: [String]
    /// The error message, when the input failed.
    public var failure: String?
    /// Wall-clock time of the whole input.
    public var elapsed: Duration
}

/// The operation history as a View shows it: `history` and the page's panel.
public struct HistoryDocument: Sendable, Hashable, Encodable {
    /// One operation, applied or undone.
    public struct Operation: Sendable, Hashable, Encodable {
        /// As `history` describes it, e.g. `fetch 3 → 3 statuses`.
        public var text: String
        /// What undo sends to the server for it, nil for an operation that
        /// changed only what wsh shows.
        public var remote: String?
        /// False for an undone operation that redo would apply again.
        public var applied: Bool
    }

    /// Oldest first: the applied ones, then the ones redo would apply.
    public var operations: [Operation]
    /// How many are applied: the position undo moves back and redo forward.
    public var position: Int
}

/// One stop of a lesson presented with `--present`.
public struct LessonStop: Sendable, Hashable, Encodable {
    /// The lesson's file.
    public var file: String
    /// The stop's number, from 1, and how many the lesson has.
    public var step: Int
    public var steps: Int
    /// The comment lines above the command, without their `#`.
    public var narration: [String]
    /// The command the presenter is about to run; nil for a pause.
    public var command: String?
}
