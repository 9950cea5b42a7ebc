import WshDataController
import WshRequest
import WshTestSupport

/// A client for the fake API, and the pieces a test looks at afterwards.
struct FakeBackend {
    let api: FakeWeiboAPI
    let http: FakeHTTPClient
    let client: APIClient
    let traces = RecordingObserver<TraceEvent>()

    init(api: FakeWeiboAPI = FakeWeiboAPI()) {
        self.api = api
        http = FakeHTTPClient { request in api.respond(to: request) }
        client = APIClient(configuration: APIConfiguration(baseURL: "http://weibo.test/2/", token: .value(Secret("t0ken"))),
                             http: http)
    }

    /// The trace sink that records into `traces`.
    var trace: TraceSink { { [traces] event in traces.record(event) } }

    /// The paths requested so far, e.g. `/2/statuses/show.json`.
    var requestedPaths: [String] { http.requests.map(\.path) }
}
