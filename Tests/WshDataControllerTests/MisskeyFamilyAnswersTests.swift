import Foundation
import Testing
import WshDataController
import WshModel
import WshRequest
import WshTestSupport

/// The only answers of Misskey-family servers' Mastodon API found in public
/// sources (Tests/WshModelTests/Fixtures/servers, sources and licences in
/// Fixtures/mastodon/SOURCES.md): Iceshrimp.NET's 501 for an endpoint it does
/// not implement (lists), in its own error shape, and Sharkey's list of empty
/// objects where statuses belong. Each is served as the server sent it.
@Suite("Misskey-family servers' recorded answers")
struct MisskeyFamilyAnswersTests {
    private static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("WshModelTests/Fixtures/servers")

    private static func body(_ file: String) throws -> Data {
        try Data(contentsOf: fixtures.appendingPathComponent(file))
    }

    private static func timeline(_ fake: FakeHTTPClient) -> TimelineDataController {
        let client = APIClient(configuration: APIConfiguration(baseURL: "https://ice.example/", token: .value(Secret("t0ken"))), http: fake)
        return TimelineDataController(statuses: StatusDataController(client: client, dialect: MastodonDialect()),
                                      users: UserDataController(client: client, dialect: MastodonDialect()))
    }

    @Test("Iceshrimp.NET's 501 for lists says what the server said, not the status name, and is a server failure")
    func iceshrimpNetNotImplemented() async throws {
        let body = try Self.body("iceshrimpnet_error_not_implemented.json")
        let fake = FakeHTTPClient { request in
            request.url == "https://ice.example/api/v1/lists"
                ? HTTPResponse(status: 501, headers: ["content-type": "application/json"], body: body,
                               metrics: TransferMetrics(totalSeconds: 0.001, bytesReceived: body.count))
                : .json(#"{"error":"Record not found"}"#, status: 404)
        }
        do {
            let lists = try await Self.timeline(fake).lists()
            Issue.record("a 501 read as \(lists.count) lists")
        } catch {
            #expect(error.kind == .server)
            guard case .api(let failure) = error else {
                Issue.record("not read as the server's error body: \(error)")
                return
            }
            #expect(failure.message == "This API method has not been implemented")
            #expect(failure.httpStatus == 501)
            #expect(!error.description.contains("NotImplemented"), "\(error.description)")
            #expect(!error.description.contains("0HNMPGIJ9A12G"), "the request id is not the message: \(error.description)")
        }
    }

    @Test("Sharkey's `[{},{}]` where statuses belong is an answer that does not read, not two blank statuses")
    func sharkeyEmptyObjects() async throws {
        let body = try Self.body("sharkey_trends_statuses_empty_objects.json")
        #expect(body == Data("[{},{}]".utf8), "the wire body, 7 bytes as its Content-Length said")
        let fake = FakeHTTPClient { request in
            request.url.hasPrefix("https://ice.example/api/v1/timelines/public")
                ? HTTPResponse(status: 200, headers: ["content-type": "application/json; charset=utf-8"], body: body,
                               metrics: TransferMetrics(totalSeconds: 0.001, bytesReceived: body.count))
                : .json(#"{"error":"Record not found"}"#, status: 404)
        }
        do {
            let page = try await Self.timeline(fake).statuses.timeline(.public, count: 20)
            Issue.record("read as \(page.statuses.count) statuses: \(page.statuses.map { $0.identifier ?? "(no id)" })")
        } catch {
            #expect(error.kind == .server, "\(error)")
            #expect(error.description == "cannot decode [Status] at [0].id: none of the 2 elements is a status (no id)")
        }
    }
}
