import Hummingbird
import NIOCore

/// An error the Mastodon side answers with: an HTTP status and Mastodon's
/// body `{"error":"…"}` (with `error_description` for OAuth errors).
///
/// Routes throw it in Mastodon's words; `reply(in:)` is the one door where it
/// becomes a body, worded as the flavour's server words it.
struct MastodonError: Error, Sendable {
    var status: HTTPResponse.Status
    var error: String
    var description: String? = nil
    /// What went wrong, for a flavour that words some errors its own way.
    var kind: Kind = .other

    /// The errors a flavour may answer differently.
    enum Kind: Sendable {
        /// A token unknown, expired or revoked, or none where a user is needed.
        case tokenRefused
        case notFound
        case rateLimited
        case other
    }

    static let tokenInvalid = MastodonError(status: .unauthorized, error: "The access token is invalid", kind: .tokenRefused)
    static let tokenExpired = MastodonError(status: .unauthorized, error: "The access token expired", kind: .tokenRefused)
    static let tokenRevoked = MastodonError(status: .unauthorized, error: "The access token was revoked", kind: .tokenRefused)
    /// No token where public preview is off.
    static let userRequired = MastodonError(status: .unauthorized, error: "This method requires an authenticated user",
                                            kind: .tokenRefused)
    /// An app-only token where a user is needed.
    static let appTokenRefused = MastodonError(
        status: .unprocessableContent, error: "This method requires an authenticated user")
    static let notFound = MastodonError(status: .notFound, error: "Record not found", kind: .notFound)
    static let notAllowed = MastodonError(status: .forbidden, error: "This action is not allowed")
    static let rateLimited = MastodonError(status: .tooManyRequests, error: "Too many requests", kind: .rateLimited)

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
    static func token(_ refusal: TokenRefusal) -> MastodonError {
        switch refusal {
        case .revoked: return .tokenRevoked
        case .unknownOrExpired: return .tokenInvalid
        }
    }

    /// What an injected fault answers on the Mastodon side: the same status,
    /// Mastodon's body (the rate-limit fault is 429).
    static func injected(_ fault: InjectedFault) -> MastodonError {
        if fault.isRateLimit { return .rateLimited }
        switch fault.status {
        case 401: return .tokenInvalid
        case 404: return .notFound
        default: return MastodonError(status: fault.httpStatus, error: fault.httpStatus.reasonPhrase)
        }
    }

    /// The one door: this error as `flavour`'s server answers it, its status
    /// and its body, with `headers` (the rate-limit headers) on it.
    func reply(in flavour: SandboxFlavour, headers: HTTPFields = [:]) -> MastodonAPI.Reply {
        let worded = self.worded(in: flavour)
        let body = JSONWriter.object(capacity: 128) { json in
            json.member("error", worded.error)
            if let description { json.member("error_description", description) }
        }
        return MastodonAPI.Reply(status: worded.status, body: ByteBuffer(bytes: body), headers: headers)
    }

    /// This error with the status and wording `flavour` gives it.
    private func worded(in flavour: SandboxFlavour) -> MastodonError {
        var worded = self
        switch kind {
        case .tokenRefused:
            if let (status, error) = flavour.errors.refusedToken {
                worded.status = status == 403 ? .forbidden : HTTPResponse.Status(code: status)
                worded.error = error
            }
        case .rateLimited:
            worded.error = flavour.errors.rateLimited
            return worded
        case .notFound, .other:
            break
        }
        // OAuth errors are Doorkeeper's codes on every server; the others GoToSocial leads with the reason phrase.
        if flavour.errors.wording == .reasonPhrase, description == nil, worded.status.code >= 400 {
            let detail = worded.error.prefix(1).lowercased() + worded.error.dropFirst()
            // Go's `http.StatusText`, which GoToSocial's errors start with.
            let reason = worded.status.code == 422 ? "Unprocessable Entity" : worded.status.reasonPhrase
            worded.error = detail.lowercased() == reason.lowercased() ? reason : reason + ": " + detail
        }
        return worded
    }
}
