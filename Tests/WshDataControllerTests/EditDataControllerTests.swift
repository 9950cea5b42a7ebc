import Foundation
import Synchronization
import Testing
import WshDataController
import WshModel
import WshRequest
import WshTestSupport

/// A Mastodon server with one own status (id 1) and scheduled statuses, whose
/// next answers can be lost after the server did the work.
private final class FakeMastodon: Sendable {
    struct State {
        var text = "before"
        var spoiler = "cw"
        var scheduled: Set<String> = ["7"]
        /// Lose the answer of the next request to this method and path, after serving it.
        var lose: (HTTPMethod, String)?
        /// Fail the next request to this path before serving it.
        var fail: String?
        var puts: [String] = []
    }

    let state = Mutex(State())
    static let dropped = RequestError.transport(TransportFailure(curlCode: 52, message: "Empty reply from server", url: "http://m.test/"))

    func respond(_ request: HTTPRequest) throws(RequestError) -> HTTPResponse {
        let path = request.path
        let (lose, fail) = state.withLock { state -> (Bool, Bool) in
            let lose = state.lose.map { $0.0 == request.method && $0.1 == path } ?? false
            let fail = state.fail == path
            if lose { state.lose = nil }
            if fail { state.fail = nil }
            return (lose, fail)
        }
        if fail { throw Self.dropped }
        let answer = serve(request, path: path)
        if lose { throw Self.dropped }
        return answer
    }

    private func serve(_ request: HTTPRequest, path: String) -> HTTPResponse {
        state.withLock { state in
            switch (request.method, path) {
            case (.get, "/api/v1/statuses/1"):
                return .json(#"{"id":"1","content":"<p>\#(state.text)</p>","spoiler_text":"\#(state.spoiler)","sensitive":true,"#
                    + #""language":"de","media_attachments":[{"id":"m1","type":"image","url":"http://m.test/1.png"}],"#
                    + #""poll":{"options":[{"title":"yes"},{"title":"no"}],"expired":false,"multiple":true,"#
                    + #""expires_at":"2999-01-01T00:00:00.000Z"}}"#)
            case (.put, "/api/v1/statuses/1"):
                let body = String(decoding: request.body ?? Data(), as: UTF8.self)
                state.puts.append(body)
                let form = Dictionary(body.split(separator: "&").map { pair -> (String, String) in
                    let parts = pair.split(separator: "=", maxSplits: 1).map { String($0).replacingOccurrences(of: "+", with: " ").removingPercentEncoding ?? "" }
                    return (parts[0], parts.count > 1 ? parts[1] : "")
                }, uniquingKeysWith: { first, _ in first })
                state.text = form["status"] ?? ""
                state.spoiler = form["spoiler_text"] ?? ""
                return .json(#"{"id":"1","content":"<p>\#(state.text)</p>","edited_at":"2024-11-11T13:31:00.000Z"}"#)
            case (.get, "/api/v1/statuses/1/source"):
                return .json(#"{"id":"1","text":"\#(state.text)","spoiler_text":"\#(state.spoiler)"}"#)
            case (.delete, let path) where path.hasPrefix("/api/v1/scheduled_statuses/"):
                let id = String(path.split(separator: "/").last!)
                return state.scheduled.remove(id) == nil ? .json(#"{"error":"Record not found"}"#, status: 404) : .json("{}")
            case (.get, let path) where path.hasPrefix("/api/v1/scheduled_statuses/"):
                let id = String(path.split(separator: "/").last!)
                return state.scheduled.contains(id)
                    ? .json(#"{"id":"\#(id)","scheduled_at":"2999-01-01T00:00:00.000Z","params":{"text":"later"}}"#)
                    : .json(#"{"error":"Record not found"}"#, status: 404)
            default:
                return .json(#"{"error":"Record not found"}"#, status: 404)
            }
        }
    }
}

@Suite("Editing and scheduling in the StatusDataController: what an edit sends, lost answers")
struct EditDataControllerTests {
    private func controller(_ server: FakeMastodon) -> (StatusDataController, FakeHTTPClient) {
        let http = FakeHTTPClient { request throws(RequestError) in try server.respond(request) }
        var configuration = APIConfiguration(baseURL: "http://m.test/", token: .value(Secret("t0ken")))
        configuration.authScheme = "Bearer"
        return (StatusDataController(client: APIClient(configuration: configuration, http: http), dialect: MastodonDialect()), http)
    }

    @Test("an edit sends the content warning, sensitivity, language, media and open poll again with the new text")
    func edit_resendsWhatMustStay() async throws {
        let server = FakeMastodon()
        let (statuses, http) = controller(server)
        let outcome = try await statuses.edit(id: "1", text: "after")
        #expect(outcome.value.text == "after")
        #expect(outcome.resolution == .answered)
        let body = try #require(server.state.withLock { $0.puts.first })
        for part in ["status=after", "spoiler_text=cw", "sensitive=true", "language=de", "media_ids%5B%5D=m1",
                     "poll%5Boptions%5D%5B%5D=yes", "poll%5Boptions%5D%5B%5D=no", "poll%5Bmultiple%5D=true"] {
            #expect(body.contains(part), "\(part) not in \(body)")
        }
        #expect(http.requests.map(\.method) == [.get, .put])
    }

    @Test("a lost edit answer: the source saying the new text is recovered, the old text is not applied, unreadable is unknown")
    func edit_lostAnswer() async throws {
        let server = FakeMastodon()
        let (statuses, _) = controller(server)
        server.state.withLock { $0.lose = (.put, "/api/v1/statuses/1") }
        let recovered = try await statuses.edit(id: "1", text: "landed")
        #expect(recovered.value.text == "landed")
        guard case .recovered = recovered.resolution else { Issue.record("not recovered: \(recovered.resolution)"); return }

        // The PUT is refused on the way in: the source still says "landed".
        server.state.withLock { $0.fail = "/api/v1/statuses/1" }
        await #expect(throws: WriteError.self) { try await statuses.edit(id: "1", text: "never") }
        server.state.withLock { $0.lose = (.put, "/api/v1/statuses/1"); $0.text = "landed" }
        // Served, answer lost, but the source cannot be read: unknown, never a guess.
        let http = FakeHTTPClient { request throws(RequestError) in
            if request.path.hasSuffix("/source") { throw FakeMastodon.dropped }
            return try server.respond(request)
        }
        var configuration = APIConfiguration(baseURL: "http://m.test/", token: .value(Secret("t0ken")))
        configuration.authScheme = "Bearer"
        let blind = StatusDataController(client: APIClient(configuration: configuration, http: http), dialect: MastodonDialect())
        do {
            _ = try await blind.edit(id: "1", text: "maybe")
            Issue.record("an unreadable source was reported as known")
        } catch {
            guard case .unknown = error else { Issue.record("not unknown: \(error)"); return }
        }
    }

    @Test("a lost edit answer whose source is unchanged is not applied")
    func edit_lostAnswerNotApplied() async throws {
        let server = FakeMastodon()
        let (statuses, _) = controller(server)
        // The read before the PUT is lost: nothing was sent, and the source says so.
        server.state.withLock { $0.fail = "/api/v1/statuses/1" }
        do {
            _ = try await statuses.edit(id: "1", text: "after")
            Issue.record("reported as done")
        } catch {
            guard case .notApplied = error else { Issue.record("not notApplied: \(error)"); return }
        }
        #expect(server.state.withLock { $0.text } == "before")
    }

    @Test("unschedule: a lost answer with the scheduled status gone is recovered; one already gone is already done")
    func unschedule_lostAnswer() async throws {
        let server = FakeMastodon()
        let (statuses, _) = controller(server)
        server.state.withLock { $0.lose = (.delete, "/api/v1/scheduled_statuses/7") }
        let outcome = try await statuses.unschedule(id: "7")
        guard case .recovered = outcome.resolution else { Issue.record("not recovered: \(outcome.resolution)"); return }
        let again = try await statuses.unschedule(id: "7")
        guard case .alreadyDone = again.resolution else { Issue.record("not already done: \(again.resolution)"); return }
    }

    @Test("Weibo's dialect refuses to edit or schedule in one line, sending nothing")
    func weibo_refuses() async throws {
        let http = FakeHTTPClient { _ throws(RequestError) in .json("{}") }
        let statuses = StatusDataController(client: APIClient(configuration: APIConfiguration(baseURL: "http://w.test/2/"), http: http), dialect: WeiboDialect())
        await #expect(throws: WriteError.rejected(.configuration("Weibo cannot edit a status"))) {
            try await statuses.edit(id: "1", text: "x")
        }
        await #expect(throws: RequestError.configuration("Weibo cannot schedule a status")) { try await statuses.scheduledStatuses() }
        #expect(http.requests.isEmpty)
    }
}
