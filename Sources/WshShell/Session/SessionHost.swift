import WshDataController
import WshLanguage
import WshText
import WshViewModel

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
        session.onChange = { stream.publish(.changed($0)) }
        sessionStorage = session
        return session
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
                       _ body: sending @escaping (SessionViewModel) async throws -> Output) throws(LanguageError) -> Output {
        let session = try session()
        // Put together word by word: `joined(separator:)` would be the standard library's
        // generic, which looks the array's conformances up by name on its first call.
        var command = context.name
        for word in context.words { command += " " + word }
        stream.publish(.inputStarted(command: command, input: input))
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
    func show(_ context: CommandContext, reading outputs: String, _ view: (name: String, text: String)) {
        var command = context.name
        for word in context.words { command += " " + word }
        stream.publish(.inputStarted(command: command, input: outputs))
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
        _ body: sending @escaping (SessionViewModel) async throws -> Output
    ) throws(LanguageError) -> Output {
        let asJSON = wantsJSON(context)
        let output = try drive(context, input: input, show: asJSON ? [] : .screen, body)
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
