import Foundation
import Testing
@testable import WshRequest

/// Error bodies as Mastodon and GoToSocial servers gave them (the same bodies
/// as Tests/WshModelTests/Fixtures/mastodon/error_*.json; see SOURCES.md
/// there), read by `APIClient.check` with `MastodonErrors`: `{"error": "…"}` is an API error with
/// the server's message and no code, whatever the HTTP status, classified once.
@Suite("Real Mastodon error bodies")
struct MastodonErrorBodiesTests {
    /// The API failure `check` throws for `body` with `status`; nil if it throws something else or nothing.
    func failure(_ body: String, status: Int) -> APIFailure? {
        do {
            try APIClient.check(HTTPResponse(status: status, body: Data(body.utf8)), url: "https://mastodon.example/api/v1/statuses", errors: MastodonErrors())
            return nil
        } catch {
            guard case .api(let failure) = error else { return nil }
            return failure
        }
    }

    @Test("404 Record not found (Mastodon)")
    func recordNotFound() {
        #expect(failure(#"{"error":"Record not found"}"#, status: 404)
            == APIFailure(code: nil, message: "Record not found", request: nil, httpStatus: 404, kind: .notFound))
    }

    @Test("422 validation failure, in the account's language")
    func validation() {
        let japanese = failure(#"{"error":"バリデーションに失敗しました: このアンケートには投票済みです"}"#, status: 422)
        #expect(japanese?.code == nil)
        #expect(japanese?.message == "バリデーションに失敗しました: このアンケートには投票済みです")
        #expect(japanese?.httpStatus == 422)
        let german = failure(#"{"error":"Gültigkeitsprüfung ist fehlgeschlagen: Text Begrenzung von 500 Zeichen überschritten"}"#, status: 422)
        #expect(german?.message == "Gültigkeitsprüfung ist fehlgeschlagen: Text Begrenzung von 500 Zeichen überschritten")
        #expect(german?.isRateLimit == false)
    }

    @Test("401 with an invalid token")
    func unauthorized() {
        #expect(failure(#"{"error":"The access token is invalid"}"#, status: 401)
            == APIFailure(code: nil, message: "The access token is invalid", request: nil, httpStatus: 401, kind: .unauthorized))
    }

    @Test("an OAuth error: the short `error` is the message")
    func oauth() {
        let body = #"{"error": "invalid_grant", "error_description": "The provided authorization grant is invalid, expired, revoked, does not match the redirection URI used in the authorization request, or was issued to another client."}"#
        let failure = failure(body, status: 400)
        #expect(failure?.code == nil)
        #expect(failure?.message == "invalid_grant")
        #expect(failure?.httpStatus == 400)
    }

    @Test("GoToSocial's 404 and 403 bodies name the status text in the message")
    func goToSocial() {
        #expect(failure("{\n  \"error\": \"Not Found: target status not found\"\n}", status: 404)?.message == "Not Found: target status not found")
        #expect(failure(#"{"error": "Forbidden: you do not have permission to boost this status"}"#, status: 403)
            == APIFailure(code: nil, message: "Forbidden: you do not have permission to boost this status", request: nil, httpStatus: 403, kind: .forbidden))
    }

    @Test("a timeline and a context are not failures; an error object with a numeric `status` is one")
    func notFailures() throws {
        try APIClient.check(HTTPResponse(status: 200, body: Data(#"[{"id":"1","content":"<p>error</p>"}]"#.utf8)), url: "u", errors: MastodonErrors())
        try APIClient.check(HTTPResponse(status: 200, body: Data(#"{"ancestors":[],"descendants":[]}"#.utf8)), url: "u", errors: MastodonErrors())
        #expect(failure(#"{"error": "Something went wrong", "status": 400}"#, status: 400)?.message == "Something went wrong")
    }
}
