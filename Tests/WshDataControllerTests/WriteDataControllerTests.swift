import Foundation
import Testing
import WshDataController
import WshModel
import WshRequest
import WshTestSupport

@Suite("Write DataControllers: requests sent, lost answers, rate limits")
struct WriteDataControllerTests {
    let server = FakeWriteServer()
    let http: FakeHTTPClient
    let statuses: StatusDataController
    let users: UserDataController

    init() {
        let server = self.server
        http = FakeHTTPClient { request throws(RequestError) in try server.respond(to: request) }
        let client = APIClient(configuration: APIConfiguration(baseURL: "http://weibo.test/2/", token: .value(Secret("t0ken"))),
                                 http: http)
        statuses = StatusDataController(client: client, dialect: WeiboDialect())
        users = UserDataController(client: client, dialect: WeiboDialect())
    }

    var statusID: String { server.timeline.statuses[0].idstr ?? "" }

    @Test("destroyComment of a gone comment is alreadyDone; a lost answer is resolved by reading up to that id, both ways")
    func destroyComment_resolution() async throws {
        let comment = try await statuses.comment(statusID: statusID, text: "one").value
        let cid = try #require(comment.identifier)

        server.script("/2/comments/destroy.json", [.failBefore(FakeWriteServer.dropped("/2/comments/destroy.json"))])
        await #expect(throws: WriteError.notApplied(lostAnswer: FakeWriteServer.dropped("/2/comments/destroy.json"))) {
            try await statuses.destroyComment(statusID: statusID, commentID: cid)
        }
        #expect(http.requests.last?.queryItems["max_id"] == cid)

        server.script("/2/comments/destroy.json", [.loseAnswer(FakeWriteServer.dropped("/2/comments/destroy.json"))])
        let recovered = try await statuses.destroyComment(statusID: statusID, commentID: cid)
        #expect(recovered.resolution == .recovered(lostAnswer: FakeWriteServer.dropped("/2/comments/destroy.json").description))

        let again = try await statuses.destroyComment(statusID: statusID, commentID: cid)
        guard case .alreadyDone = again.resolution else { Issue.record("expected alreadyDone"); return }
    }

    @Test("A status toggle and an account toggle count 'already so' as done only when asked")
    func alreadyDone_onlyWhenAsked() async throws {
        _ = try await statuses.set(.favorite, true, statusID: statusID, alreadyDoneCounts: false)
        await #expect(throws: WriteError.self) { try await statuses.set(.favorite, true, statusID: statusID, alreadyDoneCounts: false) }
        let done = try await statuses.set(.favorite, true, statusID: statusID, alreadyDoneCounts: true)
        guard case .alreadyDone = done.resolution else { Issue.record("expected alreadyDone"); return }

        let notFollowing = try await users.set(.follow, false, .uid("1001"), alreadyDoneCounts: true)
        guard case .alreadyDone = notFollowing.resolution else { Issue.record("expected alreadyDone"); return }
        #expect(FakeWriteServer.form(http.requests.last?.body) == ["uid": "1001"])
    }

    @Test("rate-limit resets come from Retry-After (seconds or date), else X-RateLimit-Reset (epoch or delay)")
    func rateLimitReset_headers() {
        let now = Date(timeIntervalSince1970: 1_700_000_000)
        #expect(RateLimitReset.fromHeaders(["retry-after": "120"], now: now)?.seconds == 120)
        #expect(RateLimitReset.fromHeaders(["retry-after": "Tue, 14 Nov 2023 22:33:20 GMT"], now: now)?.seconds == 1200)
        #expect(RateLimitReset.fromHeaders(["x-ratelimit-reset": "1700000300"], now: now)?.seconds == 300)
        #expect(RateLimitReset.fromHeaders(["x-ratelimit-reset": "45"], now: now)?.seconds == 45)
        #expect(RateLimitReset.fromHeaders([:], now: now) == nil)
        #expect(RateLimitReset(seconds: 3900).description == "the rate limit resets in 1 h 5 min")
    }

    @Test("a 10023 without headers asks account/rate_limit_status once and says when it resets; the code stays")
    func rateLimit_asksStatus() async throws {
        server.script("/2/comments/create.json", [.answer(FakeWeiboAPI.apiError(10023, "User requests out of rate limit!", "/2/comments/create.json", status: 403))])
        do {
            _ = try await statuses.comment(statusID: statusID, text: "x")
            Issue.record("expected a refusal")
        } catch {
            guard case .rejected(.api(let failure)) = error else { Issue.record("\(error)"); return }
            #expect(failure.code == 10023)
            #expect(failure.rateLimitReset == RateLimitReset(seconds: 2415, serverTime: "2011-06-03 18:00:00"))
            #expect(error.description.hasSuffix("; the rate limit resets in 41 min (at 2011-06-03 18:00:00)"))
        }
        #expect(http.requests.filter { $0.path == "/2/account/rate_limit_status.json" }.count == 1)
    }

    @Test("rateLimitStatus decodes leniently (counts as strings)")
    func rateLimitStatus_lenient() async throws {
        let status = try await users.rateLimitStatus()
        #expect(status == RateLimitStatus(remainingUserHits: 148, remainingIPHits: 9990, userLimit: 150, ipLimit: 10000,
                                          resetTime: "2011-06-03 18:00:00", resetTimeInSeconds: 2415, limitTimeUnit: "HOURS"))
    }
}
