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
