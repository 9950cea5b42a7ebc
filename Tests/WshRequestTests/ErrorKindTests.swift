import Foundation
import Testing
@testable import WshRequest

/// One vocabulary for what a failure means, whichever API said it.
@Suite("Error kinds")
struct ErrorKindTests {
    @Test("Weibo's codes: gone, token, rate limit, already so, not yours, bad values, server")
    func weiboCodes() {
        let expected: [Int: ErrorKind] = [
            20101: .notFound, 20201: .notFound, 20003: .notFound, 21327: .unauthorized, 21332: .unauthorized,
            10023: .rateLimited, 20704: .alreadyDone, 20705: .alreadyDone, 20506: .alreadyDone, 20522: .alreadyDone,
            20102: .forbidden, 20203: .forbidden, 10008: .invalid, 10017: .invalid, 20012: .invalid, 10020: .invalid,
            10001: .server,
        ]
        for (code, kind) in expected {
            #expect(WeiboErrorKinds.kind(code: code) == kind, "\(code)")
        }
        #expect(WeiboErrorKinds.kind(code: nil) == nil)
        #expect(WeiboErrorKinds.kind(code: 29999) == nil)
    }

    @Test("a failure no API classified is read by its HTTP status; transport is network; cancelled has no kind")
    func fallbacks() {
        #expect(RequestError.api(APIFailure(code: nil, message: "Record not found", request: nil, httpStatus: 404)).kind == .notFound)
        #expect(RequestError.api(APIFailure(code: 29999, message: "", request: nil, httpStatus: 503)).kind == .server)
        #expect(RequestError.http(status: 429, url: "u", excerpt: "").kind == .rateLimited)
        #expect(RequestError.http(status: 302, url: "u", excerpt: "").kind == nil)
        #expect(RequestError.transport(TransportFailure(curlCode: 7, message: "", url: "u")).kind == .network)
        #expect(RequestError.cancelled.kind == nil)
        // The API's own reading wins over the status: Weibo's rate limit comes with 403.
        let weibo = RequestError.api(APIFailure(code: 10023, message: "", request: nil, httpStatus: 403,
                                                kind: WeiboErrorKinds.kind(code: 10023)))
        #expect(weibo.kind == .rateLimited)
        #expect(weibo.classified(by: { _ in .server }).kind == .server)
        #expect(RequestError.http(status: 500, url: "u", excerpt: "").classified(by: { _ in .notFound }).kind == .server)
    }

    @Test("APIClient.check classifies Weibo bodies; a 429 without a code is a rate limit with Mastodon's ISO 8601 reset")
    func checkClassifies() throws {
        let gone = HTTPResponse(status: 404, headers: [:], body: Data(#"{"error":"target weibo does not exist!","error_code":20101}"#.utf8))
        #expect(throws: RequestError.self) { try APIClient.check(gone, url: "u", errors: WeiboErrors()) }
        do { try APIClient.check(gone, url: "u", errors: WeiboErrors()) } catch { #expect(error.kind == .notFound) }
        let now = Date()
        let reset = ISO8601DateFormatter().string(from: now.addingTimeInterval(120))
        let limited = HTTPResponse(status: 429, headers: ["x-ratelimit-reset": reset],
                                   body: Data(#"{"error":"Too many requests"}"#.utf8))
        do {
            try APIClient.check(limited, url: "u", errors: MastodonErrors())
        } catch {
            guard case .api(let failure) = error else { Issue.record("not an API error: \(error)"); return }
            #expect(failure.isRateLimit)
            let seconds = try #require(failure.rateLimitReset?.seconds)
            #expect((100...121).contains(seconds))
        }
    }
}
