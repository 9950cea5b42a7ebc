import WshRequest

/// An operation every API has whose help names the API's own call
/// (`help comment`, `help delete`), and the calls it depends on; a toggle's
/// calls are in its declaration (`Toggle`).
public enum SharedOperation: String, Sendable, CaseIterable {
    case comment, reply, deleteComment, delete, repost, unrepost, rateLimits
    /// The read a lost answer is checked by: a status's comments.
    case readComments
}

/// How one API carries out a `SharedOperation`: the request its dialect
/// sends (`endpoint`), and what help says of it, `POST /api/v1/statuses`
/// (status, in_reply_to_id), read from the same declaration.
public struct OperationCall: Sendable, Hashable, CustomStringConvertible {
    public var method: HTTPMethod
    /// The path as the API names it (`:id` for a value).
    public var path: String
    /// The parameters it sends, as help lists them; "" for none.
    public var parameters: String

    public init(_ method: HTTPMethod, _ path: String, _ parameters: String = "") {
        self.method = method
        self.path = path
        self.parameters = parameters
    }

    /// `POST /api/v1/statuses` (status, in_reply_to_id).
    public var description: String { "\(method.rawValue) \(path)" + (parameters.isEmpty ? "" : " (\(parameters))") }

    /// The request: `id` (percent-encoded) in place of `:id`, and `form`.
    public func endpoint(id: String = "", _ form: [(String, String)] = []) -> Endpoint {
        Endpoint(method, documented: path, id: id, parameters: form)
    }
}
