import WshArchive
import WshLanguage
import WshDataController
import WshRequest
import WshText
import WshViewModel
import WshWeb

/// The shell: one read–eval loop for every way in, the commands that bind
/// the language to the ViewModels, and the Views that render them.
public final class Shell {
    /// How the shell was started.
    public struct Configuration {
        public var target: Connection.Target
        public var tokenSource: TokenSource
        public var launchSandbox: Connection.SandboxLauncher?
        /// `--json`: results as JSON for every command that has a JSON form.
        public var json: Bool
        public var connectTimeout: Duration
        public var timeout: Duration
        /// The stored accounts (`accounts.json`); nil: no accounts, `login` refuses.
        public var accountStore: AccountStore?
        /// Which API dialect the target speaks (`--dialect`); `.detect` asks the server.
        public var dialect: Connection.DialectChoice = .detect
        /// `-x`: print each command on stderr before it runs, its words expanded
        /// (`+ fetch 5`), one `+` per level of function call, sourced file and `$(…)`.
        public var echo = false
        /// `--keep-going`: a script goes on with the next command after a failure
        /// and ends with the first failure's status.
        public var keepGoing = false
        /// The CAs https servers are checked against (`--cacert`, `$CURL_CA_BUNDLE`, `$SSL_CERT_FILE`).
        public var certificateAuthorities = CertificateAuthorities.system
        /// `--record FILE` or `--replay FILE`: every HTTP exchange recorded to, or answered from, a HAR file.
        public var tape = Connection.Tape.live
        /// `--web-host ADDR`: where the classroom page listens (`web on`, `--web`); loopback unless told.
        public var webHost = "127.0.0.1"
        /// `--web [PORT]`: serve the classroom page from the start (0: a free port); nil: not unless `web on`.
        public var webPort: Int?
        /// `--archive FILE`: the archive commands' file; nil: the default (`ArchiveStore.defaultPath`).
        public var archivePath: String?
        /// `--offline`: timelines answer from the archive alone.
        public var offline = false
        /// The most pages the archive may grow to while `archive on` keeps timelines (SQLite's
        /// `max_page_count`); nil: as the disk allows. Tests set it to make a full disk.
        public var archiveMaximumPages: Int?
        /// Status toggles to make commands of beyond wsh's own (`StatusToggle.all`):
        /// each declaration gives its two commands, their help, undo, redo and history line.
        public var moreStatusToggles: [StatusToggle] = []

        public init(target: Connection.Target = .sandbox, tokenSource: TokenSource = .environment("WSH_ACCESS_TOKEN"),
                    launchSandbox: Connection.SandboxLauncher? = nil, json: Bool = false,
                    connectTimeout: Duration = .seconds(10), timeout: Duration = .seconds(30),
                    accountStore: AccountStore? = nil) {
            self.accountStore = accountStore
            self.target = target
            self.tokenSource = tokenSource
            self.launchSandbox = launchSandbox
            self.json = json
            self.connectTimeout = connectTimeout
            self.timeout = timeout
        }
    }

    public let console: Console
    public let interpreter: Interpreter
    let connection: Connection
    let configuration: Configuration
    /// `trace on`: print each command's path through the layers.
    var tracing: Bool { traceSubscriber != nil }
    /// The trace's subscription to the stream while `trace` is on.
    var traceSubscriber: TraceSubscriber?
    /// `trace on --json`: the trace as JSON Lines rather than drawn.
    var tracingJSON = false
    /// The last commands traced while `trace` was on, newest last, for `trace diagram`.
    var traced: [TraceRecord] = []
    /// The session's ViewModels, built on first use (see `session()`).
    var sessionStorage: SessionViewModel?
    /// `archive on`: timelines read from the server are kept in the archive as they arrive.
    var archiveKeepsLive = false
    /// The session's timeline DataController, for `archive on` to attach the archive to.
    var timelineDataController: TimelineDataController?
    /// What happens in the session, as every View hears it: the terminal
    /// Views, `trace` and the web page subscribe.
    public let stream = SessionStream()
    /// Whether the current source is interactive (errors keep the session).
    private(set) var interactive = false
    /// The classroom page while it is served (`web on`, `--web`).
    var web: WebSession?
    /// The page served last, after `web off`: `web save` still writes what it kept.
    var lastWebServer: ClassroomServer?
    /// True while a lesson is presented (`--present` on a terminal, or driven by the page).
    var presenting = false
    /// The lesson's stop on screen now, for a page that starts mid-lesson.
    var presenterStop: LessonStop?
    /// The state and history last published on the stream, to publish only changes.
    var published: (state: SessionStateDocument, history: HistoryDocument)?
    /// `--keep-going`: the status of the first failure the current run went on past.
    private var firstFailure: Int32?
    /// The lines the session ran since it began (or since its last replay),
    /// as typed, for the page's "Replay from here": in memory only, never written.
    var ranLines: [RanLine] = []
    /// Which branch the session is: 1 as it began, one more for each replay.
    var branch = 1
    /// The message of the last error reported, for a replay that stops on it.
    private(set) var lastFailure: String?

    public init(configuration: Configuration, console: Console) {
        self.configuration = configuration
        self.console = console
        self.connection = Connection(
            target: configuration.target, tokenSource: configuration.tokenSource,
            launchSandbox: configuration.launchSandbox, accountStore: configuration.accountStore,
            dialect: configuration.dialect,
            connectTimeout: configuration.connectTimeout, timeout: configuration.timeout,
            authorities: configuration.certificateAuthorities, tape: configuration.tape)
        self.interpreter = Interpreter(output: console.result, diagnostics: console.diagnostic)
        console.secrets = { [connection] in connection.secrets }
        configuration.accountStore?.notice = { [console] text in console.note(text) }
        interpreter.interruptRequested = { Interrupts.pending }
        if configuration.echo {
            // `sh -x`'s form, and through `note` the same masking as every other line.
            interpreter.commandWillRun = { [console] command in
                console.note(String(repeating: "+", count: command.depth) + " " + command.line(quoting: ShellWord.quoted))
            }
        }
        registerCommands()
        stream.subscribe(TerminalViews(shell: self))
        connection.archivedAPI = { [weak self] server in
            self?.archiveFile().flatMap { ArchiveStore.api(ofServer: server, in: $0) }
        }
    }

    /// Runs `source` to its end; returns the exit status.
    ///
    /// Lines are gathered until they form complete input (an open quote or
    /// brace asks for more), then run. Outside an interactive session the
    /// first failure outside `try` ends the run with its status, naming
    /// `FILE:LINE:`; with `--keep-going` it is printed and the run goes on with
    /// the next command (a line that does not parse is skipped whole) and ends
    /// with the first failure's status. An interactive session prints the error
    /// and goes on with the next line.
    public func run(source: LineSource) -> Int32 {
        let wasInteractive = interactive
        let outerFailure = firstFailure
        let outerContinuation = interpreter.continueAfterFailure
        interactive = source.isInteractive
        firstFailure = nil
        if configuration.keepGoing && !interactive {
            interpreter.continueAfterFailure = { [unowned self] error in
                _ = report(error)
                firstFailure = firstFailure ?? error.status
            }
        } else {
            interpreter.continueAfterFailure = nil
        }
        defer {
            interactive = wasInteractive
            firstFailure = outerFailure
            interpreter.continueAfterFailure = outerContinuation
        }
        var pending = ""
        var firstLine = 1
        var lineNumber = 0
        var status: Int32 = 0
        // A source that waits for input also wakes for the page's requests.
        (source as? WakeableLineSource)?.wake = { [unowned self] in web?.replay.wake.readEnd }
        while true {
            // Between commands: a replay the page asked for runs now.
            if pending.isEmpty, web?.replay.isPending == true { replayFromPage(resuming: source as? PresenterSource) }
            let read = source.readLine(prompt: pending.isEmpty ? prompt() : continuationPrompt)
            switch read {
            case .wake:
                if !pending.isEmpty {
                    console.note(console.diagnosticStyle.dim("replay: the unfinished input is dropped"))
                    pending = ""
                }
                // The loop's next turn runs the replay, if one waits.
                continue
            case .end:
                guard !pending.isEmpty else { return firstFailure ?? status }
                // Ctrl-D at `...>` abandons the unfinished input, not the session.
                if interactive {
                    pending = ""
                    continue
                }
                // Input ended inside a quote or brace: report it as the syntax error it is.
                switch execute(pending, file: source.name, firstLine: firstLine) {
                case .succeeded: return firstFailure ?? status
                case .failed(let failure): return firstFailure ?? failure
                case .exited(let code): return code == 0 ? firstFailure ?? 0 : code
                }
            case .invalidText(let line):
                pending = ""
                let error = LanguageError(.syntax, "invalid UTF-8 in input",
                                          position: SourcePosition(file: source.name, line: line, column: 1))
                if case .failed(let failure) = report(error), !interactive {
                    // `--keep-going` skips a line of stdin, as it skips a line that does
                    // not parse; a file or `-c` is refused whole and ends after this.
                    guard configuration.keepGoing else { return failure }
                    firstFailure = firstFailure ?? failure
                }
                status = 2
            case .interrupted:
                Interrupts.take()
                pending = ""
                if !interactive { return 130 }
                continue
            case .line(let line):
                lineNumber += 1
                if pending.isEmpty {
                    firstLine = lineNumber
                    pending = line
                } else {
                    pending += "\n" + line
                }
                guard Parser.isComplete(pending) else { continue }
                source.remember(pending)
                let chunk = pending
                pending = ""
                switch execute(chunk, file: source.name, firstLine: firstLine, lesson: (source as? PresenterSource)?.bookmark) {
                case .succeeded:
                    status = 0
                case .failed(let failure):
                    // With `--keep-going` a failure arrives here only when the chunk
                    // failed as a whole: a line that does not parse, output that could
                    // not be written, an interrupt. Ctrl-C still ends the run.
                    if !interactive {
                        guard configuration.keepGoing, failure != 130 else { return failure }
                        firstFailure = firstFailure ?? failure
                    }
                    status = failure
                case .exited(let code):
                    // `exit` (0) after a failure `--keep-going` ran past still reports it.
                    return code == 0 ? firstFailure ?? 0 : code
                }
            }
        }
    }

    /// How one chunk ended.
    enum Outcome {
        case succeeded
        case failed(Int32)
        /// `exit N`, which ends any session.
        case exited(Int32)
    }

    /// Runs one chunk as one line of the session: its events on the stream,
    /// and kept for a replay (`lesson`: where a presented lesson stands after it).
    func execute(_ chunk: String, file: String, firstLine: Int, lesson: PresenterSource.Bookmark? = nil) -> Outcome {
        defer { if interactive { Interrupts.take() } }
        let started = ContinuousClock.now
        let page = web
        page?.view.secrets = connection.secrets
        stream.publish(.line(LineStarted(text: chunk, location: interactive ? "prompt" : "\(file):\(firstLine)")))
        // The page's number for this line, when the page saw it start.
        let step = page?.view.line
        let outcome = run(chunk, file: file, firstLine: firstLine)
        let status: Int32 = switch outcome {
        case .succeeded: 0
        case .failed(let status), .exited(let status): status
        }
        publishStateIfWatched(after: chunk)
        stream.publish(.lineEnded(status: status, elapsed: ContinuousClock.now - started))
        ran(RanLine(text: chunk, file: file, firstLine: firstLine, step: step, failed: status != 0, live: connection.isLive,
                    lesson: lesson))
        return outcome
    }

    /// Runs one chunk; how it ended.
    private func run(_ chunk: String, file: String, firstLine: Int) -> Outcome {
        let outcome: Outcome
        do {
            try interpreter.execute(chunk, file: file, firstLine: firstLine)
            outcome = .succeeded
        } catch {
            if case .exit(let code) = error.kind {
                outcome = .exited(code)
            } else {
                outcome = report(error)
            }
        }
        // Output that could not be written fails the command that wrote it.
        if let failure = console.takeResultWriteFailure() {
            if case .exited(let code) = outcome, code != 0 { return outcome }
            if failure.isBrokenPipe { return .exited(Console.WriteFailure.brokenPipeStatus) }
            console.note(console.diagnosticStyle.red("wsh: \(failure)"))
            interpreter.lastStatus = 1
            return .failed(1)
        }
        return outcome
    }

    /// Prints `error` as the one error mapping words it; the failure it is.
    private func report(_ error: LanguageError) -> Outcome {
        let report = ErrorReport(error, interactive: interactive)
        lastFailure = report.message ?? error.message
        if let message = report.message {
            // One line, whatever the message quotes (a server's text, a typed word).
            console.note(console.diagnosticStyle.red(TerminalText.sanitize(message)))
        }
        return .failed(report.status)
    }

    /// The prompt: where the session points and how many rows it shows.
    func prompt() -> String {
        "wsh \(connection.label) [\(rowCount)]> "
    }

    let continuationPrompt = "...> "

    /// Runs the rc file, if there is one; its errors are reported, not fatal.
    public func runStartupFile(at path: String) {
        guard let bytes = try? interpreter.sourceLoader(path) else { return }
        _ = run(source: TextLineSource(name: path, bytes: bytes))
    }

    /// Candidates for TAB at the end of `line`: the language's (commands,
    /// options, each command's own candidates) and file paths for `source`.
    public func completions(forLine line: String) -> [String] {
        let words = line.split(separator: " ", omittingEmptySubsequences: false)
        if words.count >= 2, words[0] == "source" {
            return PathCompletion.candidates(for: String(words[words.count - 1]))
        }
        return interpreter.completions(forLine: line)
    }

    /// Text safe to store in history: no secrets.
    public func redactForHistory(_ entry: String) -> String {
        Redaction.redact(entry, secrets: connection.secrets)
    }
}
