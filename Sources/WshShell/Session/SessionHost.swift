import WshDataController
import WshLanguage
import WshText
import WshViewModel
import WshRequest
import Dispatch
import Synchronization

extension Shell {
    /// The session's Top ViewModel, created on first use with DataControllers
    /// on the current connection (which starts the sandbox if needed).
    func session() throws(LanguageError) -> SessionViewModel {
        if let sessionStorage { return sessionStorage }
        let stream = self.stream
        let client = try client()
        let dialect: any Dialect
        do { dialect = try connection.dialect() } catch { throw failure(error) }
        let dataController = TimelineDataController(client: client, dialect: dialect, trace: { stream.publish(.dataController($0)) })
        attachArchive(to: dataController, dialect: dialect)
        timelineDataController = dataController
        let session = SessionViewModel(dataController: dataController)
        session.onChange = { [unowned session] in stream.publish(.changed($0, place: session.changePlace)) }
        sessionStorage = session
        return session
    }

    /// Attaches the archive to the session's timeline as one more source
    /// (offline with `--offline`, else a fallback when the server cannot be
    /// reached; `archive on` keeps what is read). Where the file is, and the
    /// file itself, are looked up only when a page needs them.
    func attachArchive(to dataController: TimelineDataController, dialect: any Dialect, account: String? = nil) {
        let configured = configuration.archivePath
        dataController.attachArchive(ArchiveAttachment(
            locate: { Shell.archiveFile(configured: configured) }, server: connection.accountKey, account: account,
            api: dialect.name, offline: configuration.offline, keepsLive: archiveKeepsLive,
            maximumPages: configuration.archiveMaximumPages))
    }

    /// Forgets the session (after `connect`): the next command builds a new one.
    func resetSession() {
        sessionStorage = nil
    }

    /// Rows the timeline shows; 0 before the first command that needs a session.
    var rowCount: Int { sessionStorage?.rowCount ?? 0 }

    /// Operations in the history.
    var operationCount: Int { sessionStorage?.operationCount ?? 0 }

    /// Drives one ViewModel input: runs it (waiting if it is async) between
    /// an `inputStarted` and an `inputEnded` on the session's stream. The
    /// Views subscribed to the stream do the rest: the terminal renders what
    /// the change notifications ask for, `trace` draws the path, the web page
    /// shows both.
    ///
    /// - Parameters:
    ///   - input: how the trace names the input, e.g. `SessionViewModel.fetch(count: 5, page: 1)`.
    ///   - show: what to render even outside an interactive session, because
    ///     the command was asked to show it (e.g. `detail` shows the detail).
    ///   - view: the View the command renders of what the input returned
    ///     (`limits`: `LimitsView`), its name and text; nil for none (`--json`).
    ///     It is rendered before the input ends, so the stream announces it.
    /// - Returns: what the input returned (e.g. how many statuses `fetch` loaded).
    @discardableResult
    func drive<Output>(_ context: CommandContext, input: String, show: SessionChange = [],
                       view: ((Output) -> (name: String, text: String)?)? = nil,
                       file: String = #filePath, function: String = #function, line: Int = #line,
                       _ body: sending @escaping (SessionViewModel) async throws -> Output) throws(LanguageError) -> Output {
        let session = try session()
        // Put together word by word: `joined(separator:)` would be the standard library's
        // generic, which looks the array's conformances up by name on its first call.
        var command = context.name
        for word in context.words { command += " " + word }
        stream.publish(.inputStarted(command: command, input: input,
                                     place: SourcePlace(filePath: file, function: function, line: line)))
        let started = ContinuousClock.now
        var failure: LanguageError?
        var output: Output?
        // The main thread waits while the input runs, so the ViewModel has one caller at a time.
        let handOver = WaitingHandOver(session)
        do {
            output = try wait { try await body(handOver.value) }
        } catch {
            failure = error
        }
        if let output, let (name, text) = view?(output) { render(context, name, text) }
        // `detail N --expand` shows the text behind a content warning.
        let expand = context.name == "detail" || context.name == "show" ? context.arguments.flag("expand") : false
        stream.publish(.inputEnded(InputEnded(
            command: command, show: show, expand: expand, notes: failure == nil ? session.notes : [],
            failure: failure.map { ErrorReport($0, interactive: true).message ?? "" },
            elapsed: ContinuousClock.now - started)))
        publishStateIfWatched(after: command)
        guard let output else { throw failure ?? .commandFailed("no result") }
        return output
    }

    /// Shows the View `view` renders of ViewModel outputs alone (`list`:
    /// `TimelineListView` of `SessionViewModel.rows`): a command of its own on
    /// the session's stream, with no input, so `trace` and the classroom name
    /// the View as they name an input's.
    ///
    /// - Parameters:
    ///   - outputs: the outputs it reads, as the trace names them (`SessionViewModel.rows`).
    ///   - view: the View's name as the trace shows it, and its text.
    func show(_ context: CommandContext, reading outputs: String, _ view: (name: String, text: String),
              file: String = #filePath, function: String = #function, line: Int = #line) {
        var command = context.name
        for word in context.words { command += " " + word }
        stream.publish(.inputStarted(command: command, input: outputs,
                                     place: SourcePlace(filePath: file, function: function, line: line)))
        let started = ContinuousClock.now
        render(context, view.name, view.text)
        stream.publish(.inputEnded(InputEnded(command: command, show: [], expand: false, notes: [], failure: nil,
                                              elapsed: ContinuousClock.now - started)))
    }

    /// Writes `text`, rendered by the View `name`, and says so on the stream
    /// (with the text itself only while a close watcher, the page, wants it).
    private func render(_ context: CommandContext, _ name: String, _ text: String) {
        context.write(text)
        stream.publish(.rendered(view: name, text: stream.isWatchedClosely ? TerminalText.sanitize(text, .multiline) : "",
                                 onTerminal: true))
    }

    /// Drives an input that opens a screen: shows it, or with `--json` prints
    /// the screen's document instead, and leaves the document in `$result`.
    ///
    /// - Parameter document: the opened screen's JSON form, read from the session afterwards.
    @discardableResult
    func driveScreen<Output, Document: Encodable>(
        _ context: CommandContext, input: String, document: (SessionViewModel) -> Document?,
        file: String = #filePath, function: String = #function, line: Int = #line,
        _ body: sending @escaping (SessionViewModel) async throws -> Output
    ) throws(LanguageError) -> Output {
        let asJSON = wantsJSON(context)
        let output = try drive(context, input: input, show: asJSON ? [] : .screen, file: file, function: function, line: line, body)
        if let document = sessionStorage.flatMap(document) {
            leaveResult(context, document)
            if asJSON { context.write(try JSONView.encode(document)) }
        }
        return output
    }
}

extension Shell {
    /// Leaves a command's JSON form in `$result` for `json get PATH`, encoded
    /// only if a script reads it; the document is the value as the command saw it.
    func leaveResult<Document: Encodable>(_ context: CommandContext, _ document: Document) {
        context.setResultDocument(lazy: { try? JSONView.encode(document) })
    }

    /// Leaves the document `make` returns in `$result`, made only if a script reads it.
    func leaveResult<Document: Encodable>(_ context: CommandContext, later make: @escaping () -> Document) {
        context.setResultDocument(lazy: { try? JSONView.encode(make()) })
    }

    /// Whether a command should answer in JSON: its own `--json` or the global flag.
    func wantsJSON(_ context: CommandContext) -> Bool {
        configuration.json || context.arguments.flag("json")
    }
}

extension OptionSpec {
    /// `--json`, the option of every command that can answer as JSON (`wantsJSON` reads it).
    static let json = OptionSpec.flag("json", help: "as JSON")
}

// MARK: Waiting for an input's Task on the main thread

/// Runs async ViewModel inputs from the shell's synchronous main thread.
///
/// The REPL stays on the real main thread (libedit and SIGINT need it), so
/// each async input runs in a Task while the main thread waits, polling for
/// Ctrl-C every 10 ms; an interrupt cancels the Task, which cancels the
/// request within milliseconds.
///
/// The waiting thread runs the Task's own work (`WaitingThreadExecutor`):
/// it is idle until the Task ends anyway, and a request then costs two
/// hand-overs between threads (to the curl thread and back) instead of
/// four (to the concurrency pool, to the curl thread, back to the pool,
/// back to the main thread).
enum Bridge {
    /// The outcome of `operation`, or `BridgeInterrupted` after Ctrl-C.
    static func run<T>(
        _ operation: sending @escaping () async throws -> T,
        onInterrupt: () -> Void = {}
    ) throws -> T {
        let box = ResultBox<T>()
        let executor = WaitingThreadExecutor()
        let task = Task(executorPreference: executor) {
            do { box.result = .success(try await operation()) } catch { box.result = .failure(error) }
            executor.finish()
        }
        var interrupted = false
        while !executor.runJobs(waitingAtMost: .milliseconds(10)) {
            if !interrupted && Interrupts.pending {
                interrupted = true
                task.cancel()
                onInterrupt()
            }
        }
        // `finish` (under the executor's lock) orders the Task's write before
        // this read. An input that finished despite Ctrl-C (watch, fetch --all
        // keep what arrived) returns its result; the pending interrupt still
        // stops a script.
        let result = box.result!
        if interrupted || Interrupts.pending, case .failure = result { throw BridgeInterrupted() }
        return try result.get()
    }
}

/// The executor of `Bridge.run`'s Task: its jobs wait in a queue that the
/// thread running `Bridge.run` works through. Once the Task has finished,
/// any job still sent here (work the Task left behind) goes to the global
/// concurrent executor, since nobody runs this queue any more.
final class WaitingThreadExecutor: TaskExecutor, @unchecked Sendable {
    private let lock = ThreadLock()
    private var jobs: [UnownedJob] = []
    private var finished = false
    /// Rung for each job queued and for the Task's end.
    private let doorbell = Doorbell()
    /// `doorbell.count` when `runJobs` last took the queue (the waiting thread's own).
    private var drained = 0
    /// Whether the next wait may watch before it sleeps: at first, and after jobs ran.
    private var watching = true
    /// When the wait under way began (the waiting thread's own).
    private var waitStarted: UInt64?

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        let forward = lock.withLock { () -> Bool in
            if finished { return true }
            jobs.append(job)
            return false
        }
        if forward {
            globalConcurrentExecutor.enqueue(job)
        } else {
            doorbell.ring()
        }
    }

    /// Marks the Task finished (the last thing it does).
    func finish() {
        lock.withLock { finished = true }
        doorbell.ring()
    }

    /// How long the waiting thread watches for the Task's next job before
    /// it sleeps, when answers have been coming quickly: over a fast
    /// connection one comes within a millisecond or two, and a thread woken
    /// from sleep takes tens of microseconds to run again (more on a virtual
    /// machine). It gives way to any other thread that wants its core while
    /// it watches. It does not watch while answers come slowly, nor for the
    /// first one (which waits for libcurl to load: a thread watching on the
    /// other core then costs an interrupt for every mapping the loader makes).
    static let patience: UInt64 = 2_000_000
    /// Whether the last wait for an answer ended within `patience`.
    private static let quick = Atomic<Bool>(false)

    /// Runs the jobs that arrive within `timeout` until none is queued; true
    /// once the Task has finished.
    func runJobs(waitingAtMost timeout: DispatchTimeInterval) -> Bool {
        if doorbell.count == drained {
            if waitStarted == nil { waitStarted = DispatchTime.now().uptimeNanoseconds }
            // Watched once a wait: a long one (a slow server) sleeps between its checks for Ctrl-C.
            let watches = watching && Self.quick.load(ordering: .relaxed)
            doorbell.wait(past: drained, watchingFor: watches ? Self.patience : 0, timeout: timeout)
            watching = false
        }
        let arrived = doorbell.count
        if arrived != drained, let started = waitStarted {
            Self.quick.store(DispatchTime.now().uptimeNanoseconds - started < Self.patience, ordering: .relaxed)
            waitStarted = nil
        }
        drained = arrived
        while let job = lock.withLock({ jobs.isEmpty ? nil : jobs.removeFirst() }) {
            job.runSynchronously(on: asUnownedTaskExecutor())
            watching = true
        }
        return lock.withLock { finished && jobs.isEmpty }
    }
}

/// Ctrl-C stopped an async input.
struct BridgeInterrupted: Error {}

/// Carries a result from the Task to the waiting thread; the executor's
/// lock makes the hand-over safe.
private final class ResultBox<T>: @unchecked Sendable {
    var result: Result<T, Error>?
}

/// A value handed to the Task of `Bridge.run` while the thread that owns it
/// waits for that Task: the one place where wsh vouches for a non-Sendable
/// value (the session's ViewModels) crossing threads. The owner does not
/// touch it until `run` returns, so it has one user at a time.
struct WaitingHandOver<Value>: @unchecked Sendable {
    let value: Value
    init(_ value: Value) { self.value = value }
}

/// A value of the shell's main thread captured by a closure that must be
/// `Sendable` (a stream subscriber's callback) but is only ever called on
/// that thread: the session publishes an input's end there, after its task.
struct MainThreadOwned<Value>: @unchecked Sendable {
    let value: Value
    init(_ value: Value) { self.value = value }
}

extension Shell {
    /// Runs an async input from a command handler and waits for it. Ctrl-C
    /// cancels it; a request failure becomes the command's one-line error.
    func wait<T>(_ operation: sending @escaping () async throws -> T) throws(LanguageError) -> T {
        do {
            return try Bridge.run(operation, onInterrupt: { [connection] in connection.cancelCurrentRequest() })
        } catch is BridgeInterrupted {
            throw LanguageError(.interrupted, "interrupted")
        } catch let error as LanguageError {
            throw error
        } catch let error as RequestError {
            throw failure(error)
        } catch let error as ViewModelError {
            throw failure(error)
        } catch {
            throw .commandFailed(redact("\(error)"))
        }
    }

    /// The language error for a request error: cancelled is an interrupt; an
    /// API error carries its code, another HTTP failure its status, for `$errcode`.
    func failure(_ error: RequestError) -> LanguageError {
        switch error {
        case .cancelled:
            return LanguageError(.interrupted, "interrupted")
        case .api(let failure):
            // Only a real authorization failure suggests logging in: a validation
            // error (422, text too long) or a missing status does not.
            let advice: String
            switch (error.kind, failure.tokenProblem) {
            case (.unauthorized?, .expired?): advice = " (the token has expired: run login)"
            case (.unauthorized?, _) where failure.code != nil || failure.message.lowercased().contains("token"):
                advice = " (the token is invalid or revoked: run login)"
            // A server that answers without a code of its own (Mastodon with its
            // public preview off) wants a login for what was asked.
            case (.unauthorized?, _): advice = " (this server wants a login for that: run login)"
            default: advice = ""
            }
            // A rate-limited call tells `retry` how long to wait: until the limit resets.
            let wait = failure.rateLimitReset.map { Duration.seconds(max(1, $0.seconds)) }
            return .commandFailed(redact(error.description) + advice, code: (failure.code ?? failure.httpStatus).description,
                                  retryAfter: wait, category: error.kind?.rawValue)
        case .http(let status, _, _):
            return .commandFailed(redact(error.description), code: String(status), category: error.kind?.rawValue)
        default:
            return .commandFailed(redact(error.description), category: error.kind?.rawValue)
        }
    }

    /// The language error for a ViewModel input that did nothing: a request
    /// failure keeps its code; values the input does not accept are usage errors.
    func failure(_ error: ViewModelError) -> LanguageError {
        if case .requestFailed(let request) = error { return failure(request) }
        // A write whose answer was lost failed on the way back: the network's doing.
        let category: String? = switch error {
        case .writeNotApplied, .writeOutcomeUnknown: ErrorKind.network.rawValue
        default: nil
        }
        return LanguageError(error.isUsageError ? .usage : .failed, redact(error.description), category: category)
    }

    /// `text` without any secret this session knows.
    func redact(_ text: String) -> String {
        Redaction.redact(text, secrets: connection.secrets)
    }

    /// The API client, starting the sandbox on first use.
    func client() throws(LanguageError) -> APIClient {
        do { return try connection.client() } catch { throw failure(error) }
    }
}
