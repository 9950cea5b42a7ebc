import WshViewModel

extension Shell {
    /// While a close watcher listens (the web page): publishes the Top
    /// ViewModel's state and the operation history when they differ from what
    /// was published last, the state with what `command` changed in it.
    func publishStateIfWatched(after command: String) {
        guard stream.isWatchedClosely else { return }
        let state = sessionStorage?.stateDocument ?? SessionStateDocument(SessionState())
        let history = sessionStorage.map(HistoryDocument.init) ?? HistoryDocument(operations: [], position: 0)
        let before = published
        published = (state, history)
        if before?.state != state {
            let previous = before?.state ?? SessionStateDocument(SessionState())
            stream.publish(.state(state, diff: SessionStateDiff(operation: command, before: previous, after: state)))
        }
        if before?.history != history { stream.publish(.history(history)) }
    }
}

extension HistoryDocument {
    /// The history `session` keeps: its applied operations, then the undone ones redo would apply.
    init(_ session: SessionViewModel) {
        let applied = session.operationRecords.map {
            Operation(text: $0.description, remote: $0.remote?.summary, applied: true)
        }
        let undone = session.redoableRecords.map {
            Operation(text: $0.description, remote: $0.remote?.summary, applied: false)
        }
        self.init(operations: applied + undone, position: applied.count)
    }
}
