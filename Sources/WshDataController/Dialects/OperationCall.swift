/// An operation every API has whose help names the API's own call
/// (`help comment`, `help delete`), and the calls it depends on; a toggle's
/// calls are in its declaration (`Toggle`).
public enum SharedOperation: String, Sendable, CaseIterable {
    case comment, reply, deleteComment, delete, repost, unrepost, rateLimits
    /// The read a lost answer is checked by: a status's comments.
    case readComments
}

/// How one API carries out a `SharedOperation`, as help says it:
/// `POST /api/v1/statuses` (status, in_reply_to_id).
public struct OperationCall: Sendable, Hashable, CustomStringConvertible {
    /// `GET`, `POST`, `DELETE`.
    public var method: String
    /// The path as the API names it (`:id` for a value).
    public var path: String
    /// The parameters it sends, as help lists them; "" for none.
    public var parameters: String

    /// A call as help shows it.
    public init(_ method: String, _ path: String, _ parameters: String = "") {
        self.method = method
        self.path = path
        self.parameters = parameters
    }

    /// `POST /api/v1/statuses` (status, in_reply_to_id).
    public var description: String { "\(method) \(path)" + (parameters.isEmpty ? "" : " (\(parameters))") }
}
