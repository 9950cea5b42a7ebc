import Synchronization
import WshLanguage
import WshText
import WshViewModel

/// The terminal's Views as one subscriber of the session's stream: when an
/// input ends they render what its change notifications asked for (an
/// interactive session re-renders whatever changed; a script prints only what
/// the command was asked to show, so its stdout holds results only), then the
/// notes the input left, and say on the stream what they rendered. Last comes
/// the one line that says a timeline came from the local archive and not from
/// the server: the one place the user learns it, since the ViewModel does not
/// know where its rows came from (the DataController's `.archive` calls say it).
///
/// While a closer watcher listens (the web page), the screen an input left is
/// also rendered, without colour, for the stream alone when the terminal did
/// not show it, so a page follows a script's rows too.
///
/// It acts on the shell's main thread only: `inputEnded` is published there,
/// after the input's task is over.
final class TerminalViews: SessionSubscriber, @unchecked Sendable {
    private unowned let shell: Shell
    /// The changes heard since the input started.
    private let changes = Mutex<SessionChange>([])
    /// Statuses the archive gave in the server's place since the input started; nil while it gave none.
    private let archiveAnswered = Mutex<Int?>(nil)
    /// A write `archive on` could not make, said once when the input ends.
    private let archiveFailure = Mutex<String?>(nil)

    init(shell: Shell) {
        self.shell = shell
    }

    func receive(_ event: SessionEvent) {
        switch event {
        case .inputStarted:
            changes.withLock { $0 = [] }
            archiveAnswered.withLock { $0 = nil }
        case .changed(let change, _):
            changes.withLock { $0.formUnion(change) }
        // Only a timeline answered in the server's place says so (not `archive search`, nor its rows' detail).
        case .dataController(let call) where call.source == .archive && call.call.hasPrefix("ArchiveStore.statuses("):
            archiveAnswered.withLock { $0 = ($0 ?? 0) + call.itemCount }
        case .dataController(let call) where call.call.hasPrefix("ArchiveStore.store("):
            if case .failed(let message) = call.source { archiveFailure.withLock { $0 = message } }
        case .inputEnded(let end):
            let heard = changes.withLock { changes in
                defer { changes = [] }
                return changes
            }
            let console = shell.console
            if end.failure == nil, let session = shell.sessionStorage {
                render(heard, end: end, session: session)
                // What the input wants the user to know (a lost answer resolved, old operations dropped).
                for note in end.notes { console.note(console.diagnosticStyle.dim(note)) }
            }
            for note in archiveNotes() { console.note(console.diagnosticStyle.dim(note)) }
        default:
            break
        }
    }

    /// Writes the Views `changes` and `end.show` ask for; tells the stream
    /// about each one, and about the screen when only a close watcher sees it.
    private func render(_ changes: SessionChange, end: InputEnded, session: SessionViewModel) {
        let interactive = shell.interactive
        let wanted = interactive ? changes.union(end.show) : end.show
        let console = shell.console
        let stream = shell.stream
        var screenShown = false
        if wanted.contains(.screen) || wanted.contains(.rows) {
            let isList = if case .list = session.screen { true } else { false }
            if wanted.contains(.rows) || interactive || !isList {
                let (name, text) = Self.screen(session, style: console.style, columns: console.columns(), expand: end.expand)
                shell.interpreter.write(text)
                stream.publish(.rendered(view: name, text: stream.isWatchedClosely ? TerminalText.sanitize(text, .multiline) : "", onTerminal: true))
                screenShown = true
            }
        }
        if wanted.contains(.led) {
            let text = LEDView(style: console.style).render(session.ledText)
            shell.interpreter.write(text)
            stream.publish(.rendered(view: "LEDView", text: stream.isWatchedClosely ? TerminalText.sanitize(text, .multiline) : "",
                                   onTerminal: true))
        }
        // Any recorded input (a re-fetch that changed no row too) shows the page the screen it left.
        if !screenShown && stream.isWatchedClosely && !changes.isDisjoint(with: [.rows, .screen, .history]) {
            let (name, text) = Self.screen(session, style: .plain, columns: 100, expand: end.expand)
            stream.publish(.rendered(view: name, text: text, onTerminal: false))
        }
    }

    /// What the archive did for the input that ended: a write it could not make, then where the rows came from.
    private func archiveNotes() -> [String] {
        var notes: [String] = []
        if let message = archiveFailure.withLock({ line in defer { line = nil }; return line }) { notes.append(message) }
        if let count = archiveAnswered.withLock({ count in defer { count = nil }; return count }) {
            let why = shell.configuration.offline ? "offline" : "the server could not be reached"
            let path = shell.timelineDataController?.archiveAttachment?.path ?? "the archive"
            notes.append("\(why): answered from the archive (\(count) status\(count == 1 ? "" : "es") from \(path))")
        }
        return notes
    }

    /// The View of the screen on top and its name as `trace` shows it.
    static func screen(_ session: SessionViewModel, style: Style, columns: Int, expand: Bool) -> (String, String) {
        switch session.screen {
        case .list:
            return TimelineListView(style: style, columns: columns).shown(session.rows)
        case .detail(let detail):
            return ("StatusDetailView", StatusDetailView(style: style).render(detail, expand: expand))
        case .comments(let comments):
            return ("CommentsView (\(comments.rows.count) comments)",
                    CommentsView(style: style, columns: columns).render(comments))
        case .user(let user):
            return ("UserView", UserView(style: style).render(user))
        case .search(let search):
            return ("SearchView (\(search.rows.count) rows)", SearchView(style: style, columns: columns).render(search))
        case .accounts(let accounts):
            return ("AccountsView (\(accounts.rows.count) rows)",
                    AccountsView(style: style, columns: columns).render(accounts))
        case .lists(let lists):
            return ("ListsView (\(lists.rows.count) lists)", ListsView(style: style).render(lists))
        case .edits(let history):
            return ("EditHistoryView (\(history.rows.count) versions)",
                    EditHistoryView(style: style, columns: columns).render(history))
        case .scheduled(let scheduled):
            return ("ScheduledStatusesView (\(scheduled.rows.count) rows)",
                    ScheduledStatusesView(style: style, columns: columns).render(scheduled))
        case .notifications(let notifications):
            return ("NotificationsView (\(notifications.rows.count) rows)",
                    NotificationsView(style: style, columns: columns).render(notifications))
        case .conversations(let conversations):
            return ("ConversationsView (\(conversations.rows.count) rows)",
                    ConversationsView(style: style, columns: columns).render(conversations))
        }
    }
}
