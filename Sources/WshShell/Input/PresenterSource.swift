import FoundationEssentials
import Glibc
import WshText
import WshLanguage

/// `wsh --present LESSON` on a terminal: the lesson's commands, one at a
/// time, each shown at the prompt and run when the presenter presses a key.
///
/// Enter or Space runs the command shown; `b` steps back (the line `undo`
/// runs, and the lesson moves back to the command before); `s` skips it; `q`
/// (or Ctrl-C, Ctrl-D) ends. The comment lines right above a command are its
/// narration, shown dimmed before it; a `# pause` line waits for a key
/// without running anything. The loop sees an interactive source, so the
/// commands print what they print at the prompt and an error does not end
/// the lesson.
///
/// `b` undoes the last operation in the history: stepping back over a
/// command that records none (`echo`, `list`) undoes the one before it.
public final class PresenterSource: LineSource {
    /// One stop of a lesson.
    struct Step: Equatable {
        enum Kind: Equatable {
            /// Lines to run (a command may span lines while a brace is open).
            case command([String])
            /// `# pause`: wait for a key.
            case pause
        }

        var kind: Kind
        /// The comment lines right above it, without their `#`.
        var narration: [String]
    }

    /// A key the presenter pressed.
    enum Key: Equatable {
        case run, back, skip, quit
        /// Any other key: asks again.
        case other
        /// Not a key: the page woke the wait (a replay); the stop is shown again after it.
        case wake

        /// What `TerminalKey.read` gives for a wake: 0xFF is never a byte of UTF-8 text, so no key sends it.
        static let wakeByte: UInt8 = 0xFF

        init(byte: UInt8?) {
            switch byte {
            case Self.wakeByte: self = .wake
            case UInt8(ascii: "\r"), UInt8(ascii: "\n"), UInt8(ascii: " "): self = .run
            case UInt8(ascii: "b"), UInt8(ascii: "B"): self = .back
            case UInt8(ascii: "s"), UInt8(ascii: "S"): self = .skip
            // q, Ctrl-C, Ctrl-D, and the end of input.
            case UInt8(ascii: "q"), UInt8(ascii: "Q"), 3, 4, nil: self = .quit
            default: self = .other
            }
        }
    }

    public let name: String
    public var isInteractive: Bool { true }

    let steps: [Step]
    private var position = 0
    /// The steps that ran, oldest first: where `b` goes back to.
    private var ran: [Int] = []
    /// Lines of the command being run that the loop has not read yet.
    private var queued: [String] = []
    private let readKey: () -> UInt8?
    private let show: (String) -> Void
    private let style: Style
    /// Hears each stop as it is shown (the classroom page shows its narration).
    private let stopShown: (LessonStop) -> Void
    /// Where the lesson stands: the next stop, and the stops that ran (where `b` goes back to).
    struct Bookmark: Equatable {
        var position: Int
        var ran: [Int]
    }

    /// Where the lesson stands now: after the line the loop read last, the stop after it.
    var bookmark: Bookmark { Bookmark(position: position, ran: ran) }

    /// Goes on from `bookmark` (a replay ran the lesson's lines up to it in a fresh session).
    func resume(at bookmark: Bookmark) {
        position = bookmark.position
        ran = bookmark.ran
        queued = []
    }

    /// Whether the last stop waits for a key (a page follows the lesson):
    /// Back can still step back, and the page sees the end before wsh does.
    var waitsAtEnd = false

    /// The lesson `text` named `name`; `readKey` waits for one key press,
    /// `show` writes to the terminal, `stopShown` hears each stop shown.
    init(name: String, text: String, style: Style, readKey: @escaping () -> UInt8?, show: @escaping (String) -> Void,
         stopShown: @escaping (LessonStop) -> Void = { _ in }) {
        self.name = name
        self.steps = Self.steps(in: text)
        self.style = style
        self.readKey = readKey
        self.show = show
        self.stopShown = stopShown
    }

    public func readLine(prompt: String) -> LineRead {
        if !queued.isEmpty { return .line(queued.removeFirst()) }
        while position < steps.count {
            let step = steps[position]
            for line in step.narration { show(style.dim("# " + line) + "\n") }
            var command: String?
            if case .command(let lines) = step.kind { command = lines.joined(separator: "\n") }
            stopShown(LessonStop(file: name, step: position + 1, steps: steps.count, narration: step.narration, command: command))
            switch step.kind {
            case .pause:
                show(style.dim("(paused: press a key)"))
                let key = nextKey()
                show("\n")
                switch key {
                case .quit: return .end
                case .back: if let back = stepBack() { return back }
                case .wake: return .wake
                default: position += 1
                }
            case .command(let lines):
                show(prompt + style.bold(lines.joined(separator: "\n")))
                let key = nextKey()
                switch key {
                case .run:
                    show("\n")
                    ran.append(position)
                    position += 1
                    queued = Array(lines.dropFirst())
                    return .line(lines[0])
                case .skip:
                    show(style.dim("  (skipped)") + "\n")
                    position += 1
                case .back:
                    show("\n")
                    if let back = stepBack() { return back }
                case .wake:
                    show("\n")
                    return .wake
                case .quit, .other:
                    show("\n")
                    return .end
                }
            }
        }
        stopShown(LessonStop(file: name, step: steps.count + 1, steps: steps.count, narration: [], command: nil))
        guard waitsAtEnd else { return .end }
        show(style.dim("(the lesson is over: Enter ends, b steps back)"))
        let key = nextKey()
        show("\n")
        if key == .wake { return .wake }
        if key == .back, let back = stepBack() { return back }
        return key == .back ? readLine(prompt: prompt) : .end
    }

    /// The key pressed, asking again for one that means nothing here.
    private func nextKey() -> Key {
        while true {
            let key = Key(byte: readKey())
            if key != .other { return key }
        }
    }

    /// `b`: moves back to the last command that ran and undoes its operation;
    /// nil (and a note) when nothing ran yet.
    private func stepBack() -> LineRead? {
        guard let last = ran.popLast() else {
            show(style.dim("(nothing to step back to)") + "\n")
            return nil
        }
        position = last
        show(style.dim("(back: undo)") + "\n")
        return .line("undo")
    }

    /// The stops of a lesson: commands (gathered while a brace or quote is
    /// open) and pauses, each with the comment lines right above it.
    static func steps(in text: String) -> [Step] {
        var steps: [Step] = []
        var narration: [String] = []
        var pending: [String] = []
        for raw in text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init) {
            let line = raw.hasSuffix("\r") ? String(raw.dropLast()) : raw
            let trimmed = line.trimmingSpaces
            if pending.isEmpty {
                if trimmed.isEmpty {
                    narration = []
                    continue
                }
                if trimmed.hasPrefix("#!") { continue }
                if trimmed == "# pause" {
                    steps.append(Step(kind: .pause, narration: narration))
                    narration = []
                    continue
                }
                if trimmed.hasPrefix("#") {
                    narration.append(String(trimmed.dropFirst()).trimmingSpaces)
                    continue
                }
            }
            pending.append(line)
            if Parser.isComplete(pending.joined(separator: "\n")) {
                steps.append(Step(kind: .command(pending), narration: narration))
                pending = []
                narration = []
            }
        }
        if !pending.isEmpty { steps.append(Step(kind: .command(pending), narration: narration)) }
        return steps
    }
}

/// One key from the terminal on stdin, without echo or waiting for Enter,
/// or from the classroom page's Next and Back (a pipe that carries them as keys).
enum TerminalKey {
    /// Waits for a key; nil at the end of input or when nothing can be read;
    /// `PresenterSource.Key.wakeByte` when `wake` became readable (the loop drains it).
    ///
    /// - Parameters:
    ///   - terminal: whether to read stdin (false when it is no terminal and the page drives the lesson).
    ///   - page: the read end of the page's key pipe, if a page is served.
    ///   - wake: the read end of the page's wake pipe (a replay), if a page is served.
    static func read(terminal: Bool = true, page: () -> Int32? = { nil }, wake: () -> Int32? = { nil }) -> UInt8? {
        var saved = termios()
        let isTerminal = terminal && tcgetattr(STDIN_FILENO, &saved) == 0
        if isTerminal {
            var raw = saved
            // No line buffering, no echo, and Ctrl-C arrives as a byte: it ends the lesson.
            raw.c_lflag &= ~tcflag_t(ICANON | ECHO | ISIG)
            withUnsafeMutableBytes(of: &raw.c_cc) { cc in
                cc[Int(VMIN)] = 1
                cc[Int(VTIME)] = 0
            }
            tcsetattr(STDIN_FILENO, TCSANOW, &raw)
        }
        defer { if isTerminal { tcsetattr(STDIN_FILENO, TCSANOW, &saved) } }
        var byte: UInt8 = 0
        while true {
            // The page's pipe is looked up again on each turn: `web on` may start it while the lesson waits.
            var fds: [pollfd] = []
            if terminal { fds.append(pollfd(fd: STDIN_FILENO, events: Int16(POLLIN), revents: 0)) }
            if let pipe = page() { fds.append(pollfd(fd: pipe, events: Int16(POLLIN), revents: 0)) }
            let woken = wake()
            if let woken { fds.append(pollfd(fd: woken, events: Int16(POLLIN), revents: 0)) }
            if fds.isEmpty { return nil }
            let ready = poll(&fds, nfds_t(fds.count), 250)
            if ready < 0 && errno != EINTR { return nil }
            if ready <= 0 { continue }
            for entry in fds where entry.revents != 0 {
                if entry.fd == woken { return PresenterSource.Key.wakeByte }
                let count = Glibc.read(entry.fd, &byte, 1)
                if count == 1 { return byte }
                if count < 0 && (errno == EINTR || errno == EAGAIN) { continue }
                // The end of stdin ends the lesson; a closed pipe (web off) only stops listening to it.
                if entry.fd == STDIN_FILENO { return nil }
            }
        }
    }
}
