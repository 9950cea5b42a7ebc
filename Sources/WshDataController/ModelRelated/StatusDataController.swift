import Synchronization
import WshModel
import WshRequest

/// The model-related DataController for statuses: public timeline pages, one
/// status by id, the comments of a status, and posting.
///
/// Every status it has seen is cached by id, so showing the detail of a row
/// a page already brought sends no request.
public final class StatusDataController: Sendable {
    private let api: TracedCall
    private let cache = Mutex<[String: Status]>([:])

    /// A controller that calls the API through `client` and reports each call to `trace`.
    public init(client: WeiboClient, trace: TraceSink? = nil) {
        api = TracedCall(client: client, trace: trace)
    }

    /// Page `page` (from 1) of the public timeline, `count` statuses a page.
    public func publicTimeline(count: Int, page: Int = 1) async throws(RequestError) -> TimelinePage {
        let endpoint = Endpoint(.get, "statuses/public_timeline.json",
                                parameters: [("count", String(count)), ("page", String(page))])
        let timelinePage = try await api.fetch(
            TimelinePage.self, endpoint, call: "StatusDataController.publicTimeline(count: \(count), page: \(page))",
            count: \.statuses.count)
        remember(timelinePage.statuses)
        return timelinePage
    }

    /// The status with `id`: from the cache when a page brought it, otherwise
    /// from `statuses/show.json`.
    public func status(id: String) async throws(RequestError) -> Status {
        let call = "StatusDataController.status(id: \(id))"
        if let cached = cachedStatus(id: id) {
            api.cacheHit(call: call)
            return cached
        }
        let status = try await api.fetch(
            Status.self, Endpoint(.get, "statuses/show.json", parameters: [("id", id)]), call: call,
            count: { _ in 1 })
        remember([status])
        return status
    }

    /// Page `page` of the comments on the status with `statusID`.
    ///
    /// Not cached: comments keep coming, and each `comments` command should
    /// show the latest.
    public func comments(statusID: String, count: Int = 50, page: Int = 1) async throws(RequestError) -> CommentsPage {
        let endpoint = Endpoint(.get, "comments/show.json",
                                parameters: [("id", statusID), ("count", String(count)), ("page", String(page))])
        return try await api.fetch(
            CommentsPage.self, endpoint,
            call: "StatusDataController.comments(statusID: \(statusID), count: \(count), page: \(page))",
            count: \.comments.count)
    }

    /// Posts a new status with `text` (needs a token) and returns it as the API created it.
    public func post(text: String) async throws(RequestError) -> Status {
        let status = try await api.fetch(
            Status.self, Endpoint(.post, "statuses/update.json", parameters: [("status", text)]),
            call: "StatusDataController.post(text: \(text.count) characters)", count: { _ in 1 })
        remember([status])
        return status
    }

    /// The cached status with `id`, without any request.
    public func cachedStatus(id: String) -> Status? {
        cache.withLock { $0[id] }
    }

    private func remember(_ statuses: [Status]) {
        cache.withLock { cache in
            for status in statuses {
                if let id = status.identifier { cache[id] = status }
            }
        }
    }
}
