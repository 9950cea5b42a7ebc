import Foundation
import Testing
@testable import WshDataController
import WshRequest

/// Mastodon's `{"error": …}` answers read into the one vocabulary of failures.
@Suite("Mastodon's error kinds")
struct MastodonErrorKindsTests {
    private func kind(_ status: Int, _ message: String) -> ErrorKind? {
        MastodonErrorKinds.kind(APIFailure(code: nil, message: message, request: nil, httpStatus: status))
    }

    @Test("401 and the 422 of a server that wants a login are unauthorized; a validation 422 is invalid; 404 not_found")
    func statusesAndMessages() {
        #expect(kind(401, "The access token is invalid") == .unauthorized)
        #expect(kind(422, "This method requires an authenticated user") == .unauthorized)
        #expect(kind(422, "Validation failed: Text character limit of 500 exceeded") == .invalid)
        #expect(kind(422, "Validation failed: You have already voted on this poll") == .alreadyDone)
        #expect(kind(404, "Record not found") == .notFound)
        #expect(kind(403, "This action is not allowed") == .forbidden)
        #expect(kind(429, "Too many requests") == .rateLimited)
        #expect(kind(503, "") == .server)
    }
}

/// Real servers' error bodies (Tests/WshModelTests/Fixtures/mastodon, sources in
/// its SOURCES.md), read through the client's check and Mastodon's classification.
@Suite("Mastodon's recorded error bodies classified")
struct MastodonRecordedErrorsTests {
    private static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("WshModelTests/Fixtures/mastodon")

    @Test("each recorded error body, with the status it came with, reads as the kind a user would expect", arguments: [
        ("error_record_not_found.json", 404, ErrorKind.notFound),
        ("error_gotosocial_not_found.json", 404, .notFound),
        ("error_unauthorized_401.json", 401, .unauthorized),
        ("error_validation_422.json", 422, .invalid),
        ("error_oauth_invalid_grant.json", 400, .invalid),
    ])
    func classified(file: String, status: Int, kind: ErrorKind) throws {
        let body = try Data(contentsOf: Self.fixtures.appendingPathComponent(file))
        do {
            try APIClient.check(HTTPResponse(status: status, headers: [:], body: body), url: "https://m.example/api/v1/x", errors: MastodonErrors())
            Issue.record("\(file) was not an error")
        } catch {
            #expect(error.kind == kind, "\(file)")
        }
    }
}

/// GoToSocial's error bodies as its own API tests expect them
/// (Tests/WshModelTests/Fixtures/servers, sources in mastodon/SOURCES.md):
/// `{"error": "Status Text: detail"}` read as the kind `$errkind` names.
@Suite("GoToSocial's error bodies classified")
struct GoToSocialRecordedErrorsTests {
    private static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("WshModelTests/Fixtures/servers")

    @Test("each body, with the status its test answered, reads as the kind a user would expect", arguments: [
        ("gotosocial_error_not_found_bare.json", 404, ErrorKind.notFound),
        ("gotosocial_error_forbidden_scope.json", 403, .forbidden),
        ("gotosocial_error_unauthorized.json", 401, .unauthorized),
        ("gotosocial_error_unprocessable.json", 422, .invalid),
    ])
    func classified(file: String, status: Int, kind: ErrorKind) throws {
        let body = try Data(contentsOf: Self.fixtures.appendingPathComponent(file))
        do {
            try APIClient.check(HTTPResponse(status: status, headers: [:], body: body), url: "https://gts.example/api/v1/x", errors: MastodonErrors())
            Issue.record("\(file) was not an error")
        } catch {
            #expect(error.kind == kind, "\(file)")
        }
    }
}
