import FoundationEssentials
import WshText

/// Mastodon's error bodies, `{"error": "…"}` (an OAuth error adds
/// `error_description`), read once and classified by their HTTP status and
/// message (`MastodonErrorKinds`), for every server of the family.
public struct MastodonErrors: APIErrors {
    public init() {}

    public var errorFields: [StaticString] { ["error"] }
    public var errorFieldKeys: JSONKeys { Self.keys }
    private static let keys = JSONKeys(["error"])

    /// The error body in `response`, if it has one: any object with `error`,
    /// whatever the status; its message is `error` (the short one of an OAuth
    /// error), with no code (Mastodon has none).
    public func failure(in response: HTTPResponse, secrets: [String]) -> APIFailure? {
        guard mayBeErrorBody(response),
              let body = try? JSONDecoder().decode(MastodonErrorBody.self, from: response.body), body.isErrorBody
        else { return nil }
        var failure = APIFailure(code: nil, message: Self.quoted(body.error ?? "", secrets: secrets), request: nil,
                                 httpStatus: response.status)
        failure.kind = MastodonErrorKinds.kind(failure)
        return failure
    }
}

/// Mastodon's errors, read once into `ErrorKind`: Mastodon answers
/// `{"error": "…"}` with the HTTP status saying what it is, except that a 422
/// is both a validation failure and, on a server that keeps its API from
/// visitors, a call that needs a login.
public enum MastodonErrorKinds {
    /// The kind `failure` is, by its status and, for a 422, its message.
    public static func kind(_ failure: APIFailure) -> ErrorKind? {
        let message = failure.message.lowercased()
        switch failure.httpStatus {
        case 401: return .unauthorized
        case 422 where message.contains("authenticated user") || message.contains("access token"): return .unauthorized
        // "already" says the thing is so (`Validation failed: … already`), unless a
        // limit was reached: GoToSocial's `status pin limit exceeded, you've
        // already pinned 10` refused the pin, so it is invalid, not done.
        case 422 where message.contains("already") && !message.contains("limit"): return .alreadyDone
        default: return ErrorKind(httpStatus: failure.httpStatus)
        }
    }
}

/// Mastodon's error field, read from any object; an `error` that is not
/// text (a server's own shape) still makes it an error body, with no message.
///
/// Iceshrimp.NET answers a path its Mastodon API does not serve with its own
/// shape, `{"statusCode": 501, "error": "NotImplemented", "message": "This API
/// method has not been implemented", "requestId": …}`: there `error` only names
/// the status, and `message` is what the server said, so that is the message.
private struct MastodonErrorBody: Decodable {
    var isErrorBody: Bool
    var error: String?

    enum CodingKeys: String, CodingKey { case error, message, statusCode }

    init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        isErrorBody = c.contains(.error)
        error = try? c.decodeIfPresent(String.self, forKey: .error)
        if (try? c.decodeIfPresent(Int.self, forKey: .statusCode)) != nil,
           let message = try? c.decodeIfPresent(String.self, forKey: .message), !message.isEmpty {
            error = message
        }
    }
}
