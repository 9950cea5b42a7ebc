import WshDataController
import WshModel
import WshRequest

extension TimelineViewModel {
    /// How one connection to a stream went.
    struct StreamOutcome {
        /// The server opened the stream (its first bytes arrived, or the WebSocket upgrade).
        var opened = false
        /// How it reached wsh, once open.
        var transport: StreamTransport?
        /// New statuses put on top.
        var arrived = 0
        /// Why it ended, when not by the server closing it, a deadline, enough statuses, or Ctrl-C.
        var error: RequestError?
    }

    /// One connection to `source`'s stream: `opened` hears its transport once
    /// it is open, each new status goes on top of the list (repeats skipped)
    /// and its row to `arrived`, until the server ends it, `deadline`,
    /// `wanted` statuses, or the task is cancelled.
    func streamOnce(_ source: TimelineSource, deadline: ContinuousClock.Instant?, wanted: Int?,
                    opened: (StreamTransport) -> Void = { _ in },
                    arrived: ([StatusCellViewModel]) -> Void) async -> StreamOutcome {
        let (events, continuation) = AsyncStream<TimelineStreamEvent>.makeStream()
        let dataController = self.dataController
        let connection = Task { () -> RequestError? in
            defer { continuation.finish() }
            do throws(RequestError) {
                try await dataController.stream(source) { event in
                    continuation.yield(event)
                    return true
                }
                return nil
            } catch {
                return error
            }
        }
        let timer = deadline.map { deadline in
            Task {
                try? await Task.sleep(until: deadline, clock: .continuous)
                connection.cancel()
            }
        }
        var outcome = StreamOutcome()
        await withTaskCancellationHandler {
            for await event in events {
                switch event {
                case .opened(let transport):
                    outcome.opened = true
                    outcome.transport = transport
                    opened(transport)
                case .status(let status):
                    var next = state
                    let fresh = next.prependUnseen([status])
                    guard !fresh.isEmpty else { continue }
                    next.screens = []
                    commit(next)
                    // A status the list does not show (its author muted, a server filter's `hide`) is kept, not printed.
                    guard !dataController.openStatuses(in: fresh, muting: state.muted).isEmpty else { continue }
                    outcome.arrived += 1
                    arrived(Array(rows.prefix(1)))
                    if let wanted, outcome.arrived >= wanted { connection.cancel() }
                }
            }
        } onCancel: {
            connection.cancel()
        }
        timer?.cancel()
        if let error = await connection.value {
            if case .cancelled = error {} else { outcome.error = error }
        }
        return outcome
    }

    /// What the connected API calls itself (`mastodon`, `weibo`).
    var apiName: String { dataController.statuses.dialect.serverName }
}
