import Testing
@testable import WshDataController
import WshRequest
import WshTestSupport

/// `help comment`, `help delete`… name each API's call from the same
/// declaration the dialect sends (`Dialect.call(for:)`): what help says is
/// the request that goes out, on every API, for every shared operation.
@Suite("OperationCall: help names the request the dialect sends")
struct OperationCallTests {
    /// Each shared operation, sent through `dialect` for the status (or comment) `7/8`.
    static func send(_ operation: SharedOperation, _ dialect: any Dialect, _ exchange: DialectExchange) async {
        let id = "7/8"
        // The fake's answer is no status: only the request sent matters here.
        switch operation {
        case .comment: _ = try? await dialect.comment(statusID: id, text: "hi", exchange)
        case .reply: _ = try? await dialect.reply(statusID: "1", commentID: id, text: "hi", exchange)
        case .deleteComment: _ = try? await dialect.deleteComment(statusID: "1", commentID: id, exchange)
        case .delete: _ = try? await dialect.delete(id: id, exchange)
        case .repost: _ = try? await dialect.repost(id: id, text: nil, exchange)
        case .unrepost: _ = try? await dialect.unrepost(id, of: id, exchange)
        case .rateLimits: _ = try? await dialect.rateLimits(exchange)
        case .readComments: _ = try? await dialect.comments(statusID: id, PageQuery(count: 20), exchange)
        }
    }

    @Test("every shared operation on every API sends the method and path its help names, the id percent-encoded",
          arguments: SharedOperation.allCases)
    func helpIsWhatIsSent(operation: SharedOperation) async throws {
        let dialects: [any Dialect] = [WeiboDialect(), MastodonDialect()]
        for dialect in dialects {
            let fake = FakeHTTPClient { _ in .json("{}") }
            let client = APIClient(configuration: APIConfiguration(baseURL: "https://api.example/", token: .value(Secret("t0ken"))),
                                   http: fake)
            await Self.send(operation, dialect, DialectExchange(client: client))
            let sent = try #require(fake.requests.first, "\(dialect.name) \(operation) sent nothing")
            let help = dialect.call(for: operation)
            #expect(sent.method == help.method, "\(dialect.name) \(operation): sent \(sent.method), help says \(help)")
            let path = "/" + help.path.drop { $0 == "/" }.replacing(":id", with: "7%2F8")
            #expect(sent.path == path, "\(dialect.name) \(operation): sent \(sent.path), help says \(help)")
        }
    }
}
