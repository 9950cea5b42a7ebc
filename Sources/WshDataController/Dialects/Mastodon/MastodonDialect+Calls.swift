/// Mastodon's calls for the operations every API has: what `MastodonDialect`
/// sends for each (`call(for:).endpoint`) and what help names, one declaration
/// (`:id` for the value).
extension MastodonDialect {
    public var apiPaths: [String] {
        ["api/v1/timelines/public", "api/v1/timelines/home", "api/v1/statuses", "api/v1/accounts/verify_credentials",
         "api/v1/notifications", "api/v1/instance"]
    }

    public var apiExamples: [String] {
        ["api get api/v1/timelines/public limit=2", "api post api/v1/statuses 'status=hello 微博'"]
    }

    public func call(for operation: SharedOperation) -> OperationCall {
        switch operation {
        // A comment is a reply status in the thread.
        case .comment: OperationCall(.post, "/api/v1/statuses", "status, in_reply_to_id")
        case .reply: OperationCall(.post, "/api/v1/statuses", "status, in_reply_to_id: the comment's id")
        case .deleteComment: OperationCall(.delete, "/api/v1/statuses/:id")
        case .delete: OperationCall(.delete, "/api/v1/statuses/:id")
        case .repost: OperationCall(.post, "/api/v1/statuses/:id/reblog")
        // Mastodon's own compensating call: unboost the original.
        case .unrepost: OperationCall(.post, "/api/v1/statuses/:id/unreblog")
        // Mastodon has no rate-limit call: its limits come in the headers of any answer.
        case .rateLimits: OperationCall(.get, "/api/v1/accounts/verify_credentials", "its X-RateLimit-* headers")
        case .readComments: OperationCall(.get, "/api/v1/statuses/:id/context")
        }
    }
}
