import Testing
import WshDataController
import WshModel
import WshRequest
import WshTestSupport

@Suite("StatusDataController")
struct StatusDataControllerTests {
    @Test("given a timeline when a page is asked then it requests public_timeline with count and page")
    func publicTimeline_sendsCountAndPage() async throws {
        let backend = FakeBackend()
        let controller = StatusDataController(client: backend.client, dialect: WeiboDialect())

        let page = try await controller.publicTimeline(count: 5, page: 2)

        #expect(page.statuses.map(\.text) == (6...10).map { "status \($0) by @\(FakeWeiboAPI.screenNames[($0 - 1) % 4])" })
        #expect(backend.requestedPaths == ["/2/statuses/public_timeline.json"])
        #expect(backend.http.requests[0].queryItems == ["count": "5", "page": "2"])
    }

    @Test("given a page was loaded when a status of it is asked then no second request is sent")
    func status_afterPage_comesFromCache() async throws {
        let backend = FakeBackend()
        let controller = StatusDataController(client: backend.client, dialect: WeiboDialect())
        _ = try await controller.publicTimeline(count: 5)

        let status = try await controller.status(id: String(FakeWeiboAPI.statusID(3)))

        #expect(status.text == "status 3 by @carol")
        #expect(backend.requestedPaths == ["/2/statuses/public_timeline.json"])
    }

    @Test("given more pages than a session keeps when a status of the first is asked then it is requested again, one of the newest is not")
    func cache_keepsTheNewestPages() async throws {
        let pages = seenPageLimit + 1
        let backend = FakeBackend(api: FakeWeiboAPI(statusCount: pages))
        let controller = StatusDataController(client: backend.client, dialect: WeiboDialect())
        for page in 1...pages { _ = try await controller.publicTimeline(count: 1, page: page) }

        let newest = try await controller.status(id: String(FakeWeiboAPI.statusID(pages)))
        #expect(backend.requestedPaths.count == pages)
        let oldest = try await controller.status(id: String(FakeWeiboAPI.statusID(1)))

        #expect(newest.identifier == String(FakeWeiboAPI.statusID(pages)))
        #expect(oldest.identifier == String(FakeWeiboAPI.statusID(1)))
        #expect(backend.requestedPaths.count == pages + 1)
        #expect(backend.requestedPaths.last == "/2/statuses/show.json")
    }

    @Test("given a page was loaded when a status is posted then it is found without a request, as are the page's")
    func cache_holdsPostedStatus() async throws {
        let backend = FakeBackend()
        let controller = StatusDataController(client: backend.client, dialect: WeiboDialect())
        _ = try await controller.publicTimeline(count: 5)
        let posted = try await controller.post(text: "fresh").value
        let requests = backend.requestedPaths.count

        let again = try await controller.status(id: try #require(posted.identifier))
        let fromPage = try await controller.status(id: String(FakeWeiboAPI.statusID(2)))

        #expect(again.text == "fresh")
        #expect(fromPage.text == "status 2 by @bob")
        #expect(backend.requestedPaths.count == requests)
    }

    @Test("given an empty cache when a status is asked then statuses/show.json is requested once")
    func status_notCached_isFetchedOnce() async throws {
        let backend = FakeBackend()
        let controller = StatusDataController(client: backend.client, dialect: WeiboDialect())
        let id = String(FakeWeiboAPI.statusID(7))

        _ = try await controller.status(id: id)
        _ = try await controller.status(id: id)

        #expect(backend.requestedPaths == ["/2/statuses/show.json"])
        #expect(backend.http.requests[0].queryItems == ["id": id])
    }

    @Test("given a status when its comments are asked then comments/show.json answers them")
    func comments_areFetched() async throws {
        let backend = FakeBackend()
        let controller = StatusDataController(client: backend.client, dialect: WeiboDialect())

        let page = try await controller.comments(statusID: String(FakeWeiboAPI.statusID(1)))

        #expect(page.comments.count == 3)
        #expect(backend.http.requests[0].queryItems["id"] == String(FakeWeiboAPI.statusID(1)))
    }

    @Test("given text when it is posted then a form POST to statuses/update.json carries it")
    func post_sendsForm() async throws {
        let backend = FakeBackend()
        let controller = StatusDataController(client: backend.client, dialect: WeiboDialect())

        let status = try await controller.post(text: "hello 世界 & more").value

        #expect(status.text == "hello 世界 & more")
        // The first request reads the account's newest status, for resolving a lost answer.
        let request = try #require(backend.http.requests.last)
        #expect(request.method == .post)
        #expect(request.path == "/2/statuses/update.json")
    }

    @Test("given a 200 whose top-level object has Weibo's error fields, anywhere among the type's own, when a page, a status or comments are read then it is the API error")
    func okStatusErrorBody_isAPIError() async throws {
        let errorFields = [#""error":"expired_token","error_code":21327"#, #""error_code":"21327""#, #""error":"expired_token""#]
        let reads: [(own: String, read: @Sendable (StatusDataController) async throws(RequestError) -> Void)] = [
            (#""statuses":[],"total_number":0"#, { c throws(RequestError) in _ = try await c.publicTimeline(count: 5) }),
            (#""id":1,"idstr":"1","text":"x""#, { c throws(RequestError) in _ = try await c.status(id: "1") }),
            (#""comments":[],"total_number":0"#, { c throws(RequestError) in _ = try await c.comments(statusID: "1") }),
        ]
        for (own, read) in reads {
            for fields in errorFields {
                for body in ["{\(fields),\(own)}", "{\(own),\(fields)}"] {
                    let backend = FakeBackend()
                    backend.http.answer { _ in .json(body) }
                    let controller = StatusDataController(client: backend.client, dialect: WeiboDialect())
                    do throws(RequestError) {
                        try await read(controller)
                        Issue.record("\(body) was read as a value")
                    } catch {
                        guard case .api(let failure) = error else {
                            Issue.record("\(body): \(error)")
                            continue
                        }
                        #expect(failure.message == (fields.contains("expired_token") ? "expired_token" : ""), "\(body)")
                        #expect(failure.code == (fields.contains("21327") ? 21327 : nil), "\(body)")
                    }
                }
            }
        }
        // The same fields inside a status are not the body's: the page is read.
        let backend = FakeBackend()
        backend.http.answer { _ in .json(#"{"statuses":[{"id":7,"idstr":"7","text":"x","error":"e","error_code":1}],"total_number":1}"#) }
        let page = try await StatusDataController(client: backend.client, dialect: WeiboDialect()).publicTimeline(count: 5)
        #expect(page.statuses.map(\.identifier) == ["7"])
    }

    @Test("given a body that is not a timeline when a page is asked then the error is .decoding naming the type")
    func malformedBody_isDecodingError() async {
        let backend = FakeBackend()
        backend.http.answer { _ in .json(#"{"total_number": 3}"#) }
        let controller = StatusDataController(client: backend.client, dialect: WeiboDialect())

        await #expect(throws: RequestError.decoding(what: "TimelinePage", where: "", detail: "missing 'statuses'")) {
            try await controller.publicTimeline(count: 5)
        }
    }

    @Test("given an unknown id when the status is asked then the API error comes back")
    func unknownStatus_isAPIError() async {
        let backend = FakeBackend()
        let controller = StatusDataController(client: backend.client, dialect: WeiboDialect())

        await #expect {
            try await controller.status(id: "1")
        } throws: { error in
            guard case .api(let failure) = error as? RequestError else { return false }
            return failure.code == 20101
        }
    }

    @Test("given a trace sink when calls are made then each reports source, method, url, status, bytes and items")
    func trace_reportsEveryCall() async throws {
        let backend = FakeBackend()
        let controller = StatusDataController(client: backend.client, dialect: WeiboDialect(), trace: backend.trace)

        _ = try await controller.publicTimeline(count: 4)
        _ = try await controller.status(id: String(FakeWeiboAPI.statusID(2)))
        _ = try? await controller.status(id: "1")

        let events = backend.traces.values
        #expect(events.map(\.call) == [
            "StatusDataController.publicTimeline(count: 4, page: 1)",
            "StatusDataController.status(id: \(FakeWeiboAPI.statusID(2)))",
            "StatusDataController.status(id: 1)",
        ])
        #expect(events[0].source == .network)
        #expect(events[0].method == "GET")
        #expect(events[0].url == "http://weibo.test/2/statuses/public_timeline.json?count=4&page=1")
        #expect(events[0].status == 200)
        #expect(events[0].bytes > 0)
        #expect(events[0].itemCount == 4)
        #expect(events[1].source == .cache)
        #expect(events[1].url == nil)
        #expect(events[2].status == 400)
        guard case .failed(let message) = events[2].source else {
            Issue.record("expected a failure, got \(events[2].source)")
            return
        }
        #expect(message.contains("20101"))
    }

    @Test("given a server that echoes the token in its error bodies when calls are traced then no event or error holds it")
    func trace_neverHoldsTheToken() async throws {
        let echoing = FakeHTTPClient { request in
            request.path.hasSuffix("update.json")
                ? .json(#"{"error":"invalid token t0ken","error_code":21301,"request":"/2/statuses/update.json?access_token=t0ken"}"#, status: 401)
                : .json("<html>token t0ken rejected</html>", status: 502)
        }
        let client = APIClient(configuration: APIConfiguration(baseURL: "http://weibo.test/2/", token: .value(Secret("t0ken"))),
                                 http: echoing)
        let traces = RecordingObserver<TraceEvent>()
        let controller = StatusDataController(client: client, dialect: WeiboDialect(), trace: { traces.record($0) })

        await #expect(throws: RequestError.self) { _ = try await controller.publicTimeline(count: 2) }
        do {
            _ = try await controller.post(text: "hi")
            Issue.record("the post succeeded")
        } catch {
            #expect(error.description == "API error 21301: invalid token *** (/2/statuses/update.json?access_token=***, HTTP 401)")
        }

        #expect(traces.values.count == 3)   // the page, the newest own status before posting, the post
        #expect(!traces.values.contains { "\($0)".contains("t0ken") }, "\(traces.values)")
        #expect(traces.values.contains { "\($0)".contains("token *** rejected") })
    }
}
