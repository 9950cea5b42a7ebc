/// Weibo's calls for the operations every API has, as help names them.
extension WeiboDialect {
    public var apiPaths: [String] {
        ["statuses/public_timeline.json", "statuses/show.json", "comments/show.json", "users/show.json", "statuses/update.json"]
    }

    public var apiExamples: [String] {
        ["api get statuses/public_timeline.json count=2", "api post statuses/update.json 'status=hello 微博'"]
    }

    public func call(for operation: SharedOperation) -> OperationCall {
        switch operation {
        case .comment: OperationCall("POST", "comments/create.json", "id, comment")
        case .reply: OperationCall("POST", "comments/reply.json", "id, cid, comment")
        case .deleteComment: OperationCall("POST", "comments/destroy.json", "cid")
        case .delete: OperationCall("POST", "statuses/destroy.json", "id")
        case .repost: OperationCall("POST", "statuses/repost.json", "id, status")
        // Weibo takes a repost back by deleting the repost status.
        case .unrepost: OperationCall("POST", "statuses/destroy.json", "the repost's id")
        case .rateLimits: OperationCall("GET", "account/rate_limit_status.json")
        case .readComments: OperationCall("GET", "comments/show.json", "id")
        }
    }
}
