import Hummingbird
import WshModel

/// An error the Weibo side answers with (its API, its OAuth2 and `/admin/`):
/// an HTTP status and a Weibo error body `{"error":"…","error_code":N,"request":"/2/…"}`.
struct WeiboError: Error, Sendable {
    var status: HTTPResponse.Status
    var code: Int
    var message: String
    /// For the OAuth2 endpoints: the human-readable `error_description`
    /// (the body then also names `error_uri`, as Weibo's OAuth errors do).
    var oauthDescription: String? = nil

    static let authMissing = WeiboError(status: .unauthorized, code: APIErrorCode.authFailed, message: "auth failed")
    static let tokenExpired = WeiboError(status: .unauthorized, code: APIErrorCode.tokenExpired, message: "expired_token")
    static let rateLimited = WeiboError(
        status: .forbidden, code: APIErrorCode.rateLimited, message: "User requests out of rate limit!")
    /// A token revoked through `oauth2/revokeoauth2`.
    static let tokenRevoked = WeiboError(status: .unauthorized, code: 21332, message: "invalid_access_token")
    static let statusNotFound = WeiboError(
        status: .notFound, code: APIErrorCode.statusDoesNotExist, message: "target weibo does not exist!")
    /// Weibo's answer to deleting someone else's status.
    static let notYourOwnStatus = WeiboError(status: .forbidden, code: 20102, message: "Not your own weibo!")
    static let userNotFound = WeiboError(
        status: .notFound, code: APIErrorCode.userDoesNotExist, message: "User does not exists!")
    static let commentNotFound = WeiboError(
        status: .notFound, code: 20201, message: "target weibo comment does not exist!")
    /// Weibo's answer to deleting someone else's comment.
    static let notYourOwnComment = WeiboError(status: .forbidden, code: 20203, message: "Not your own comment!")
    static let alreadyFavorited = WeiboError(status: .badRequest, code: 20704, message: "This weibo has been favorited!")
    static let notFavorited = WeiboError(status: .badRequest, code: 20705, message: "This weibo has not been favorited!")
    static let cannotFollowSelf = WeiboError(status: .badRequest, code: 20504, message: "Can not follow yourself!")
    static let alreadyFollowed = WeiboError(status: .badRequest, code: 20506, message: "Already followed!")
    static let notFollowed = WeiboError(status: .badRequest, code: 20522, message: "Not followed!")
    static let apiNotFound = WeiboError(status: .notFound, code: 10020, message: "Request Api not found!")
    static let methodNotSupported = WeiboError(
        status: .methodNotAllowed, code: 10021, message: "HTTP METHOD is not suported for this request!")
    /// `/admin/` asked by a client on another machine without the admin token.
    static let adminForbidden = WeiboError(
        status: .forbidden, code: APIErrorCode.authFailed,
        message: "the admin API answers other hosts only with the admin token: send Authorization: Bearer TOKEN")
    static let systemError = WeiboError(
        status: .internalServerError, code: APIErrorCode.systemError, message: "system error!")

    /// A missing or unreadable parameter (10008).
    static func parameter(_ message: String) -> WeiboError {
        WeiboError(status: .badRequest, code: APIErrorCode.parameterError, message: message)
    }

    /// A parameter outside what is allowed (10017).
    static func invalidValue(_ message: String) -> WeiboError {
        WeiboError(status: .badRequest, code: APIErrorCode.invalidParameterValue, message: message)
    }

    /// An OAuth2 error (`invalid_grant`, 21325, …): HTTP 400 and Weibo's OAuth body.
    static func oauth(_ code: Int, _ error: String, _ description: String) -> WeiboError {
        WeiboError(status: .badRequest, code: code, message: error, oauthDescription: description)
    }

    /// A status longer than Weibo's 140 (20012).
    static let textTooLong = WeiboError(
        status: .badRequest, code: 20012, message: "Text too long, please input text less than 140 characters!")

    /// Weibo's words for a token the shared store refused: 21327 for an
    /// unknown or expired token, 21332 for a revoked one.
    static func token(_ refusal: TokenRefusal) -> WeiboError {
        switch refusal {
        case .unknownOrExpired: return .tokenExpired
        case .revoked: return .tokenRevoked
        }
    }

    /// The error an injected fault answers with, with the code a client would
    /// meet for that status from the real service.
    static func injected(_ fault: InjectedFault) -> WeiboError {
        switch fault.status {
        case 400: return .parameter("parameter error")
        case 401: return .tokenExpired
        // The rate-limit fault is 403 too.
        case 403: return .rateLimited
        case 404: return .statusNotFound
        default: return WeiboError(status: fault.httpStatus, code: APIErrorCode.systemError, message: "system error!")
        }
    }

    /// The body, naming the request path (without its query) as Weibo does.
    func body(request path: String) -> [UInt8] {
        JSONWriter.object(capacity: 128) { json in
            json.member("error", message)
            json.member("error_code", code)
            json.member("request", path)
            if let oauthDescription {
                json.member("error_uri", path)
                json.member("error_description", oauthDescription)
            }
        }
    }

    var contentType: String { "application/json;charset=UTF-8" }
}
