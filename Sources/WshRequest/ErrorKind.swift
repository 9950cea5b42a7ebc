/// What a failure means, whichever API said it: the one vocabulary that
/// undo, the lost-answer checks, `retry`, the advice in messages and scripts
/// (`$errkind`) are written against.
///
/// Each API classifies its own errors once, where its answers are read
/// (Weibo by its error codes, in `WeiboErrorKinds`; Mastodon by its HTTP
/// statuses and messages, in its dialect). A failure no API classified is
/// read by its HTTP status.
public enum ErrorKind: String, Sendable, Hashable, CaseIterable {
    /// The thing asked about does not exist (or no longer does): a deleted status, an unknown user.
    case notFound = "not_found"
    /// The token is missing, expired, revoked or unknown: log in again.
    case unauthorized
    /// The token is fine, but this account may not do that (someone else's status).
    case forbidden
    /// Too many requests: wait until the limit resets.
    case rateLimited = "rate_limited"
    /// What was asked is already so (favourited twice, followed twice).
    case alreadyDone = "already_done"
    /// The request itself was wrong: a value out of range, text too long, a missing parameter.
    case invalid
    /// The server failed (5xx, an answer that does not read).
    case server
    /// No complete answer: refused, DNS, timeout, TLS, dropped.
    case network

    /// The kind an HTTP status means when the API said nothing more.
    public init?(httpStatus status: Int) {
        switch status {
        case 401: self = .unauthorized
        case 403: self = .forbidden
        case 404, 410: self = .notFound
        case 409: self = .alreadyDone
        case 429: self = .rateLimited
        case 400, 405, 413, 414, 415, 422: self = .invalid
        case 500...599: self = .server
        default: return nil
        }
    }
}

extension RequestError {
    /// What this failure means (see `ErrorKind`); nil for a cancelled request.
    public var kind: ErrorKind? {
        switch self {
        case .api(let failure): failure.kind ?? ErrorKind(httpStatus: failure.httpStatus)
        case .http(let status, _, _): ErrorKind(httpStatus: status)
        case .transport: .network
        case .decoding: .server
        case .cancelled: nil
        case .configuration: .invalid
        }
    }

    /// This error, with an API failure's kind set by `classify` (the API's own
    /// reading of its answer) where it gives one.
    public func classified(by classify: (APIFailure) -> ErrorKind?) -> RequestError {
        guard case .api(var failure) = self, let kind = classify(failure) else { return self }
        failure.kind = kind
        return .api(failure)
    }
}
