/// Weibo's calls for the operations every API has: what `WeiboDialect` sends
/// for each (`call(for:).endpoint`) and what help names, one declaration.
extension WeiboDialect {
    public var apiPaths: [String] {
        ["statuses/public_timeline.json", "statuses/show.json", "comments/show.json", "users/show.json", "statuses/update.json"]
    }

    public var apiExamples: [String] {
        ["api get statuses/public_timeline.json count=2", "api post statuses/update.json 'status=hello 微博'"]
    }

    public func call(for operation: SharedOperation) -> OperationCall {
        switch operation {
        case .comment: OperationCall(.post, "comments/create.json", "id, comment")
        case .reply: OperationCall(.post, "comments/reply.json", "id, cid, comment")
        case .deleteComment: OperationCall(.post, "comments/destroy.json", "cid")
        case .delete: OperationCall(.post, "statuses/destroy.json", "id")
        case .repost: OperationCall(.post, "statuses/repost.json", "id, status")
        // Weibo takes a repost back by deleting the repost status.
        case .unrepost: OperationCall(.post, "statuses/destroy.json", "the repost's id")
        case .rateLimits: OperationCall(.get, "account/rate_limit_status.json")
        case .readComments: OperationCall(.get, "comments/show.json", "id")
        }
    }
}
