/// Weibo's error body: `{"error": "...", "error_code": 21327, "request": "/2/..."}`.
///
/// `error_code` arrives as a number or as a string; both decode to `code`.
public struct APIErrorBody: Hashable, Sendable, Codable, Error {
    /// The numeric code (e.g. 21327 expired token), nil if it was unreadable.
    public var code: Int?
    /// The service's message.
    public var message: String
    /// The request path the service names, e.g. Weibo's `/2/` path of the call.
    public var request: String?

    enum CodingKeys: String, CodingKey {
        case message = "error"
        case code = "error_code"
        case request
    }
}

// In an extension, so that Swift still writes the memberwise init.
extension APIErrorBody {
    public init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        // An error body is recognised by its `error` or `error_code` field.
        guard c.contains(.message) || c.contains(.code) else {
            throw c.missing(.message, "not a Weibo error body")
        }
        self.init(code: c.lenient(Int.self, .code), message: c.lenient(String.self, .message) ?? "",
                  request: c.lenient(String.self, .request))
    }
}

/// Error codes of Weibo API v2 that wsh and its sandbox use.
public enum APIErrorCode {
    public static let systemError = 10001
    public static let sourceMissing = 10006
    public static let parameterError = 10008
    public static let invalidParameterValue = 10017
    public static let rateLimited = 10023
    public static let userDoesNotExist = 20003
    public static let statusDoesNotExist = 20101
    public static let authFailed = 21301
    public static let tokenExpired = 21327
}
