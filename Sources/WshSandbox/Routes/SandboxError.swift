import Hummingbird
import WshModel

/// An error the sandbox answers with: an HTTP status and a Weibo error body
/// `{"error":"…","error_code":N,"request":"/2/…"}`.
struct SandboxError: Error, Sendable {
    var status: HTTPResponse.Status
    var code: Int
    var message: String
    /// Sent as an HTML page, as a proxy in front of the API would, not as JSON.
    var isProxyPage = false
    /// For the OAuth2 endpoints: the human-readable `error_description`
    /// (the body then also names `error_uri`, as Weibo's OAuth errors do).
    var oauthDescription: String? = nil

    static let authMissing = SandboxError(status: .unauthorized, code: APIErrorCode.authFailed, message: "auth failed")
    static let tokenExpired = SandboxError(status: .unauthorized, code: APIErrorCode.tokenExpired, message: "expired_token")
    static let rateLimited = SandboxError(
        status: .forbidden, code: APIErrorCode.rateLimited, message: "User requests out of rate limit!")
    /// A token revoked through `oauth2/revokeoauth2`.
    static let tokenRevoked = SandboxError(status: .unauthorized, code: 21332, message: "invalid_access_token")
    static let statusNotFound = SandboxError(
        status: .notFound, code: APIErrorCode.statusDoesNotExist, message: "target weibo does not exist!")
    /// Weibo's answer to deleting someone else's status.
    static let notYourOwnStatus = SandboxError(status: .forbidden, code: 20102, message: "Not your own weibo!")
    static let userNotFound = SandboxError(
        status: .notFound, code: APIErrorCode.userDoesNotExist, message: "User does not exists!")
    static let commentNotFound = SandboxError(
        status: .notFound, code: 20201, message: "target weibo comment does not exist!")
    /// Weibo's answer to deleting someone else's comment.
    static let notYourOwnComment = SandboxError(status: .forbidden, code: 20203, message: "Not your own comment!")
    static let alreadyFavorited = SandboxError(status: .badRequest, code: 20704, message: "This weibo has been favorited!")
    static let notFavorited = SandboxError(status: .badRequest, code: 20705, message: "This weibo has not been favorited!")
    static let cannotFollowSelf = SandboxError(status: .badRequest, code: 20504, message: "Can not follow yourself!")
    static let alreadyFollowed = SandboxError(status: .badRequest, code: 20506, message: "Already followed!")
    static let notFollowed = SandboxError(status: .badRequest, code: 20522, message: "Not followed!")
    static let apiNotFound = SandboxError(status: .notFound, code: 10020, message: "Request Api not found!")
    static let methodNotSupported = SandboxError(
        status: .methodNotAllowed, code: 10021, message: "HTTP METHOD is not suported for this request!")
    /// `/admin/` asked by a client on another machine without the admin token.
    static let adminForbidden = SandboxError(
        status: .forbidden, code: APIErrorCode.authFailed,
        message: "the admin API answers other hosts only with the admin token: send Authorization: Bearer TOKEN")
    static let systemError = SandboxError(
        status: .internalServerError, code: APIErrorCode.systemError, message: "system error!")

    /// A missing or unreadable parameter (10008).
    static func parameter(_ message: String) -> SandboxError {
        SandboxError(status: .badRequest, code: APIErrorCode.parameterError, message: message)
    }

    /// A parameter outside what is allowed (10017).
    static func invalidValue(_ message: String) -> SandboxError {
        SandboxError(status: .badRequest, code: APIErrorCode.invalidParameterValue, message: message)
    }

    /// An OAuth2 error (`invalid_grant`, 21325, …): HTTP 400 and Weibo's OAuth body.
    static func oauth(_ code: Int, _ error: String, _ description: String) -> SandboxError {
        SandboxError(status: .badRequest, code: code, message: error, oauthDescription: description)
    }

    /// A status longer than Weibo's 140 (20012).
    static let textTooLong = SandboxError(
        status: .badRequest, code: 20012, message: "Text too long, please input text less than 140 characters!")

    /// The error a fault injects for `status`, with the code a client would
    /// meet for that status from the real service.
    static func injected(status: Int) -> SandboxError {
        let httpStatus = HTTPResponse.Status(code: status, reasonPhrase: reasonPhrases[status] ?? "")
        switch status {
        case 400: return SandboxError(status: httpStatus, code: APIErrorCode.parameterError, message: "parameter error")
        case 401: return SandboxError(status: httpStatus, code: APIErrorCode.tokenExpired, message: "expired_token")
        case 403: return SandboxError(status: httpStatus, code: APIErrorCode.rateLimited,
                                      message: "User requests out of rate limit!")
        case 404: return SandboxError(status: httpStatus, code: APIErrorCode.statusDoesNotExist,
                                      message: "target weibo does not exist!")
        case 502, 503, 504:
            return SandboxError(status: httpStatus, code: APIErrorCode.systemError,
                                message: httpStatus.reasonPhrase, isProxyPage: true)
        default: return SandboxError(status: httpStatus, code: APIErrorCode.systemError, message: "system error!")
        }
    }

    private static let reasonPhrases = [
        400: "Bad Request", 401: "Unauthorized", 403: "Forbidden", 404: "Not Found",
        429: "Too Many Requests", 500: "Internal Server Error", 502: "Bad Gateway",
        503: "Service Unavailable", 504: "Gateway Timeout",
    ]

    /// The body, naming the request path (without its query) as Weibo does.
    func body(request path: String) -> [UInt8] {
        if isProxyPage {
            let title = "\(status.code) \(message)"
            return Array("<html>\r\n<head><title>\(title)</title></head>\r\n<body>\r\n<center><h1>\(title)</h1></center>\r\n<hr><center>nginx</center>\r\n</body>\r\n</html>\r\n".utf8)
        }
        var json = JSONWriter(capacity: 128)
        json.objectStart()
        json.member("error", message)
        json.member("error_code", code)
        json.member("request", path)
        if let oauthDescription {
            json.member("error_uri", path)
            json.member("error_description", oauthDescription)
        }
        json.objectEnd()
        return json.bytes
    }

    var contentType: String { isProxyPage ? "text/html" : "application/json;charset=UTF-8" }
}
