import Hummingbird

/// An error the Mastodon side answers with: an HTTP status and Mastodon's
/// body `{"error":"…"}` (with `error_description` for OAuth errors).
struct MastodonError: Error, Sendable {
    var status: HTTPResponse.Status
    var error: String
    var description: String? = nil

    static let tokenInvalid = MastodonError(status: .unauthorized, error: "The access token is invalid")
    static let tokenExpired = MastodonError(status: .unauthorized, error: "The access token expired")
    static let tokenRevoked = MastodonError(status: .unauthorized, error: "The access token was revoked")
    /// No token where public preview is off.
    static let userRequired = MastodonError(status: .unauthorized, error: "This method requires an authenticated user")
    /// An app-only token where a user is needed.
    static let appTokenRefused = MastodonError(
        status: .unprocessableContent, error: "This method requires an authenticated user")
    static let notFound = MastodonError(status: .notFound, error: "Record not found")
    static let notAllowed = MastodonError(status: .forbidden, error: "This action is not allowed")
    static let rateLimited = MastodonError(status: .tooManyRequests, error: "Too many requests")

    /// 422 `Validation failed: …`.
    static func validation(_ message: String) -> MastodonError {
        MastodonError(status: .unprocessableContent, error: "Validation failed: " + message)
    }

    /// 400 for a parameter that cannot be read.
    static func badParameter(_ message: String) -> MastodonError {
        MastodonError(status: .badRequest, error: message)
    }

    /// An OAuth error as Doorkeeper writes it.
    static func oauth(_ status: HTTPResponse.Status, _ error: String, _ description: String) -> MastodonError {
        MastodonError(status: status, error: error, description: description)
    }

    static let invalidRequest = oauth(.badRequest, "invalid_request",
        "The request is missing a required parameter, includes an unsupported parameter value, or is otherwise malformed.")
    static let invalidClient = oauth(.unauthorized, "invalid_client",
        "Client authentication failed due to unknown client, no client authentication included, or unsupported authentication method.")
    static let invalidGrant = oauth(.badRequest, "invalid_grant",
        "The provided authorization grant is invalid, expired, revoked, does not match the redirection URI used in the authorization request, or was issued to another client.")
    static let unsupportedGrant = oauth(.badRequest, "unsupported_grant_type",
        "The authorization grant type is not supported by the authorization server.")
    static let invalidRedirect = oauth(.badRequest, "invalid_redirect_uri",
        "The requested redirect uri is malformed or doesn't match client redirect URI.")
    static let unauthorizedClient = oauth(.forbidden, "unauthorized_client",
        "You are not authorized to revoke this token")

    /// The Mastodon error for a token the shared store refused.
    static func token(_ refusal: SandboxError) -> MastodonError {
        switch refusal.code {
        case SandboxError.tokenRevoked.code: return .tokenRevoked
        case SandboxError.tokenExpired.code: return .tokenInvalid
        default: return .tokenInvalid
        }
    }

    /// What an injected fault answers on the Mastodon side: the same status,
    /// Mastodon's body (the rate-limit fault is 429).
    static func injected(_ fault: SandboxError) -> MastodonError {
        if fault.code == SandboxError.rateLimited.code { return .rateLimited }
        switch fault.status.code {
        case 401: return .tokenInvalid
        case 404: return .notFound
        default: return MastodonError(status: fault.status, error: fault.status.reasonPhrase)
        }
    }

    var body: [UInt8] {
        var json = JSONWriter(capacity: 128)
        json.objectStart()
        json.member("error", error)
        if let description { json.member("error_description", description) }
        json.objectEnd()
        return json.bytes
    }
}
