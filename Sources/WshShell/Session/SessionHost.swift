import WshDataController
import WshLanguage
import WshViewModel

extension Shell {
    /// The session's Top ViewModel, created on first use with DataControllers
    /// on the current connection (which starts the sandbox if needed).
    func session() throws(LanguageError) -> SessionViewModel {
        if let sessionStorage { return sessionStorage }
        let recorder = self.recorder
        let client = try client()
        let dialect: any Dialect
        do { dialect = try connection.dialect() } catch { throw failure(error) }
        let dataController = TimelineDataController(client: client, dialect: dialect, trace: { recorder.record($0) })
        let session = SessionViewModel(dataController: dataController)
        session.onChange = { recorder.record($0) }
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

    /// Drives one ViewModel input: runs it (waiting if it is async), then
    /// renders what its change notification asks for, and traces the path.
    ///
    /// - Parameters:
    ///   - input: how the trace names the input, e.g. `SessionViewModel.fetch(count: 5, page: 1)`.
    ///   - show: what to render even outside an interactive session, because
    ///     the command was asked to show it (e.g. `detail` shows the detail).
    /// - Returns: what the input returned (e.g. how many statuses `fetch` loaded).
    @discardableResult
    func drive<Output>(_ context: CommandContext, input: String, show: SessionChange = [],
                       _ body: sending @escaping (SessionViewModel) async throws -> Output) throws(LanguageError) -> Output {
        let session = try session()
        _ = recorder.drain()
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
        let entries = recorder.drain()
        let changes = TraceRecorder.changes(in: entries)
        let rendered = failure == nil ? render(changes, show: show, session: session, context: context) : []
        if failure == nil {
            // What the input wants the user to know (a lost answer resolved, old operations dropped).
            for note in session.notes { context.note(console.diagnosticStyle.dim(note)) }
        }
        if tracing {
            let record = TraceRecord(
                command: ([context.name] + context.words).joined(separator: " "), input: input, entries: entries,
                rendered: rendered, failure: failure.map { ErrorReport($0, interactive: true).message ?? "" },
                elapsed: ContinuousClock.now - started)
            traced.keep(record)
            showTrace(record)
        }
        guard let output else { throw failure ?? .commandFailed("no result") }
        return output
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

    /// Renders the Views a change asks for. Interactive sessions re-render
    /// whatever changed; scripts print only what the command was asked to
    /// show, so their stdout holds results only. Returns the Views rendered.
    private func render(_ changes: SessionChange, show: SessionChange, session: SessionViewModel,
                        context: CommandContext) -> [String] {
        let wanted = interactive ? changes.union(show) : show
        var rendered: [String] = []
        /// Writes a View's `text` and records it as `view`.
        func write(_ text: String, as view: String) {
            context.write(text)
            rendered.append(view)
        }
        if wanted.contains(.screen) || wanted.contains(.rows) {
            switch session.screen {
            case .list:
                if wanted.contains(.rows) || interactive {
                    write(TimelineListView(style: console.style, columns: console.columns()).render(session.rows),
                          as: "TimelineListView (\(session.rows.count) row\(session.rows.count == 1 ? "" : "s"))")
                }
            case .detail(let detail):
                // `detail N --expand` shows the text behind a content warning.
                let expand = context.name == "detail" || context.name == "show" ? context.arguments.flag("expand") : false
                write(StatusDetailView(style: console.style).render(detail, expand: expand), as: "StatusDetailView")
            case .comments(let comments):
                write(CommentsView(style: console.style, columns: console.columns()).render(comments),
                      as: "CommentsView (\(comments.rows.count) comments)")
            case .user(let user):
                write(UserView(style: console.style).render(user), as: "UserView")
            case .search(let search):
                write(SearchView(style: console.style, columns: console.columns()).render(search),
                      as: "SearchView (\(search.rows.count) rows)")
            case .accounts(let accounts):
                write(AccountsView(style: console.style, columns: console.columns()).render(accounts),
                      as: "AccountsView (\(accounts.rows.count) rows)")
            case .lists(let lists):
                write(ListsView(style: console.style).render(lists), as: "ListsView (\(lists.rows.count) lists)")
            case .edits(let history):
                write(EditHistoryView(style: console.style, columns: console.columns()).render(history),
                      as: "EditHistoryView (\(history.rows.count) versions)")
            case .scheduled(let scheduled):
                write(ScheduledStatusesView(style: console.style, columns: console.columns()).render(scheduled),
                      as: "ScheduledStatusesView (\(scheduled.rows.count) rows)")
            case .notifications(let notifications):
                write(NotificationsView(style: console.style, columns: console.columns()).render(notifications),
                      as: "NotificationsView (\(notifications.rows.count) rows)")
            case .conversations(let conversations):
                write(ConversationsView(style: console.style, columns: console.columns()).render(conversations),
                      as: "ConversationsView (\(conversations.rows.count) rows)")
            }
        }
        if wanted.contains(.led) {
            write(LEDView(style: console.style).render(session.ledText), as: "LEDView")
        }
        return rendered
    }
}
