import FoundationEssentials
import WshText

/// Weibo's error bodies, `{"error": …, "error_code": …, "request": …}`, read
/// once and classified by their `error_code` (`WeiboErrorKinds`).
public struct WeiboErrors: APIErrors {
    public init() {}

    public var errorFields: [StaticString] { ["error", "error_code"] }
    public var errorFieldKeys: JSONKeys { Self.keys }
    private static let keys = JSONKeys(["error", "error_code"])

    /// The Weibo error body in `response`, if it has one: any object with
    /// `error` or `error_code`, whatever the status (Weibo sometimes answers
    /// 200 with an error body).
    public func failure(in response: HTTPResponse, secrets: [String]) -> APIFailure? {
        guard mayBeErrorBody(response),
              let body = try? JSONDecoder().decode(WeiboErrorBody.self, from: response.body), body.isErrorBody
        else { return nil }
        return APIFailure(
            code: body.code,
            message: Self.quoted(body.error ?? "", secrets: secrets),
            request: body.request.map { Self.quoted($0, secrets: secrets) },
            httpStatus: response.status,
            kind: WeiboErrorKinds.kind(code: body.code))
    }
}

/// Weibo's error fields, `{"error": …, "error_code": …, "request": …}`, read
/// from any object; `error_code` may be a number or a string.
private struct WeiboErrorBody: Decodable {
    /// Whether the object has `error` or `error_code` at all.
    var isErrorBody: Bool
    var error: String?
    var code: Int?
    var request: String?

    enum CodingKeys: String, CodingKey {
        case error, request
        case errorCode = "error_code"
    }

    init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        isErrorBody = c.contains(.error) || c.contains(.errorCode)
        guard isErrorBody else { return }
        error = try? c.decodeIfPresent(String.self, forKey: .error)
        request = try? c.decodeIfPresent(String.self, forKey: .request)
        if let number = try? c.decodeIfPresent(Int.self, forKey: .errorCode) {
            code = number
        } else if let number = try? c.decodeIfPresent(Double.self, forKey: .errorCode), let exact = Int(exactly: number.rounded(.towardZero)) {
            code = exact
        } else if let text = try? c.decodeIfPresent(String.self, forKey: .errorCode) {
            code = Int(text.trimmingSpaces)
        }
    }
}
