import WshModel
import WshRequest

extension TimelineDataController {
    /// Follows `source` on the API's streaming API until the server ends it,
    /// `event` returns false, or the task is cancelled (see `Dialect.streamTimeline`).
    /// Traced as one call when it ends; the statuses' authors are remembered.
    public func stream(_ source: TimelineSource, event: @escaping @Sendable (TimelineStreamEvent) -> Bool) async throws(RequestError) {
        let users = self.users
        try await statuses.api.run("TimelineDataController.stream(\(source))", count: { _ in 0 }) {
            try await $0.streamTimeline(source, $1) { received in
                guard case .status(let status) = received else { return event(received) }
                users.remember(authorsOf: [status])
                return event(.status(status.filtered(in: source.filterContext)))
            }
        }
    }
}
