import Foundation
import Testing
@testable import WshRequest

/// Weibo error bodies as real servers and the API documentation gave them
/// (the same bodies as Tests/WshModelTests/Fixtures/weibo/error_*.json; see
/// SOURCES.md there), read by `APIClient` as API failures.
@Suite("Real Weibo error bodies")
struct RealErrorBodiesTests {
    func failure(_ body: String, status: Int) -> APIFailure? {
        WeiboErrors().failure(in: HTTPResponse(status: status, body: Data(body.utf8)))
    }

    @Test("error_code as a string, as the v2 documentation shows it")
    func stringCode() {
        let failure = failure(#"{"request" : "/statuses/home_timeline.json", "error_code" : "20502", "error" : "Auth failed!"}"#, status: 400)
        #expect(failure == APIFailure(code: 20502, message: "Auth failed!", request: "/statuses/home_timeline.json", httpStatus: 400))
    }

    @Test("error_code as a number: an expired token")
    func numericCode() {
        let failure = failure(#"{"error":"expired_token","error_code":21327,"request":"/2/statuses/home_timeline.json"}"#, status: 403)
        #expect(failure?.code == 21327)
        #expect(failure?.message == "expired_token")
        #expect(failure?.request == "/2/statuses/home_timeline.json")
    }

    @Test("the v1 API: error_code is the HTTP status as a string, the detail code leads the message")
    func v1() {
        let failure = failure(#"{"request":"/statuses/update.json","error_code":"400","error":"40025:Error: repeated weibo text!"}"#, status: 400)
        #expect(failure?.code == 400)
        #expect(failure?.message == "40025:Error: repeated weibo text!")
    }

    @Test("an OAuth2 error with error_uri and error_description")
    func oauth2() {
        let failure = failure(#"{"error":"invalid_grant","error_code":21325,"request":"/oauth2/access_token","error_uri":"/oauth2/access_token","error_description":"invalid authorization code:"}"#, status: 400)
        #expect(failure?.code == 21325)
        #expect(failure?.message == "invalid_grant")
        #expect(failure?.request == "/oauth2/access_token")
    }

    @Test("token answers and rate-limit answers are not failures, even with status 200")
    func notFailures() throws {
        #expect(failure(#"{"access_token":"2.00REDACTEDREDACTEDREDACTED0000","remind_in":"157679999","expires_in":157679999,"uid":"6972314674","scope":"follow_app_official_microblog","isRealName":"true"}"#, status: 200) == nil)
        #expect(failure(#"{"uid": 1073880650, "appkey": 1352222456, "scope": null, "create_at": 1352267591, "expire_in": 157679471}"#, status: 200) == nil)
        #expect(failure(#"{"ip_limit" : 1000, "limit_time_unit" : "HOURS", "remaining_ip_hits" : 999, "remaining_user_hits" : 149, "reset_time" : "2012-02-29 18:00:00", "reset_time_in_seconds" : 2295, "user_limit" : 150}"#, status: 200) == nil)
        try APIClient.check(HTTPResponse(status: 200, body: Data(#"[{"id":142243,"text":"test  test"}]"#.utf8)), url: "http://api.t.sina.com.cn/statuses/public_timeline.json", errors: WeiboErrors())
    }
}
