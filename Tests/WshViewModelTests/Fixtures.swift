import WshDataController
import WshRequest
import WshTestSupport
import WshViewModel

/// A session over the fake API, with a recorder on its change notifications.
struct SessionFixture {
    let api: FakeWeiboAPI
    let http: FakeHTTPClient
    let session: SessionViewModel
    let changes = RecordingObserver<SessionChange>()

    init(api: FakeWeiboAPI = FakeWeiboAPI(), historyLimit: Int = OperationHistory<SessionState>.defaultLimit) {
        self.api = api
        http = FakeHTTPClient { request in api.respond(to: request) }
        let client = APIClient(configuration: APIConfiguration(baseURL: "http://weibo.test/2/", token: .value(Secret("t"))),
                                 http: http)
        session = SessionViewModel(dataController: TimelineDataController(client: client, dialect: WeiboDialect()), historyLimit: historyLimit)
        session.onChange = { [changes] in changes.record($0) }
    }

    /// Makes every following request fail with HTTP 500 and a Weibo error body.
    func failRequests() {
        http.answer { request in FakeWeiboAPI.apiError(10001, "system error", request.path, status: 500) }
    }

    /// Makes requests succeed again.
    func answerRequests() {
        http.answer { [api] request in api.respond(to: request) }
    }

    /// The author of each row, e.g. `@alice`.
    var authors: [String] { session.rows.map(\.author) }
    /// The text of each row.
    var texts: [String] { session.rows.map(\.text) }
}

/// A timeline ViewModel over the fake API, with a recorder on its change notifications.
struct TimelineFixture {
    let api: FakeWeiboAPI
    let http: FakeHTTPClient
    let timeline: TimelineViewModel
    let changes = RecordingObserver<TimelineChange>()

    init(api: FakeWeiboAPI = FakeWeiboAPI()) {
        self.api = api
        http = FakeHTTPClient { request in api.respond(to: request) }
        let client = APIClient(configuration: APIConfiguration(baseURL: "http://weibo.test/2/", token: .value(Secret("t"))),
                                 http: http)
        timeline = TimelineViewModel(dataController: TimelineDataController(client: client, dialect: WeiboDialect()))
        timeline.onChange = { [changes] in changes.record($0) }
    }
}
