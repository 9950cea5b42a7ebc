import WshDataController
import WshModel

/// `watch SOURCE --stream`: the streaming API instead of polling.
extension SessionViewModel {
    /// Like `watch`, but new statuses come from the server's stream as they
    /// are posted. `told` hears one line saying how, once the stream opens
    /// (server-sent events, or a WebSocket where the server has no events;
    /// the dialect chooses) and again only if a reconnect changes it. A
    /// dropped stream is reopened after 1, 2, 4… (at most 30) seconds. Where
    /// there is no stream (an API without one, neither transport, no URL in
    /// the instance), it polls every `interval` instead and `told` hears one
    /// line saying so; `told` also hears each reconnect. One operation is
    /// recorded for the whole watch. Returns how many new statuses arrived.
    public func watchStream(source: TimelineSource, pollingEvery interval: Duration, limit: WatchLimit,
                            told: (String) -> Void, arrived: ([StatusCellViewModel]) -> Void) async throws(ViewModelError) -> Int {
        var total = 0
        var how = "stream"
        try await recordRemote(replay: nil) { () async throws(ViewModelError) -> (String, (any RemoteEffect)?) in
            if !timeline.state.hasFetched || timeline.source != source {
                try await timeline.refresh(source: source, count: 20)
            }
            let clock = ContinuousClock()
            let deadline = limit.duration.map { clock.now + $0 }
            func remaining() -> WatchLimit {
                WatchLimit(newStatuses: limit.newStatuses.map { $0 - total }, duration: deadline.map { clock.now.duration(to: $0) })
            }
            func fallBack(_ why: String) async throws(ViewModelError) {
                let pace = max(interval, await timeline.dataController.requestBudget().steadySpacing)
                told("no streaming here (\(why)); polling every \(Self.seconds(pace)) instead")
                how = "polled"
                total += try await poll(every: pace, limit: remaining(), arrived: arrived)
            }
            if !timeline.dataController.capabilities.streaming {
                try await fallBack("this API (\(timeline.apiName)) has no streaming API")
            } else {
                var everOpened = false
                var backoff = Duration.seconds(1)
                var transport: StreamTransport?
                while !Task.isCancelled {
                    let outcome = await timeline.streamOnce(source, deadline: deadline, wanted: remaining().newStatuses,
                                                            opened: { opened in
                                                                if opened != transport { told(opened.description) }
                                                                transport = opened
                                                            },
                                                            arrived: arrived)
                    total += outcome.arrived
                    if let wanted = limit.newStatuses, total >= wanted { break }
                    if let deadline, clock.now >= deadline { break }
                    if Task.isCancelled { break }
                    if !outcome.opened && !everOpened {
                        try await fallBack(outcome.error?.description ?? "the server closed it at once")
                        break
                    }
                    everOpened = everOpened || outcome.opened
                    if outcome.opened { backoff = .seconds(1) }
                    told("the stream dropped\(outcome.error.map { " (\($0.description))" } ?? ""); reconnecting in \(Self.seconds(backoff))")
                    var wake = clock.now + backoff
                    if let deadline { wake = min(wake, deadline) }
                    do { try await Task.sleep(until: wake, clock: clock) } catch { break }
                    backoff = min(backoff * 2, .seconds(30))
                }
            }
            return ("watch \(source) --stream → \(DisplayText.plural(total, "new status", "new statuses"))\(how == "polled" ? " (polled)" : "")", nil)
        }
        return total
    }

    /// `30 s`, `0.5 s`.
    private static func seconds(_ duration: Duration) -> String {
        let (seconds, attoseconds) = duration.components
        let value = Double(seconds) + Double(attoseconds) / 1e18
        return value == value.rounded() ? "\(Int(value)) s" : "\(value) s"
    }
}
