import FoundationEssentials
import Hummingbird

/// The POST endpoints. The token's owner is the actor: what they write is
/// theirs, and only they may delete it. Each answer is rendered after the
/// change, as the actor now sees it.
extension WeiboAPI {
    /// The largest picture `statuses/upload.json` takes, as Weibo's documentation says (under 5 MB).
    static let maximumPictureBytes = 5 << 20

    /// The fields of `statuses/upload.json`'s `multipart/form-data` body (the
    /// query's too, which win) and its file `pic`; 10008 for a body that is not
    /// multipart or not readable, 20006 for a picture over 5 MB.
    static func uploadFields(of request: Request) async throws -> ([String: String], UploadedFile?) {
        guard var fields = FormFields.parse(request.uri.query.map { Substring($0) } ?? "") else {
            throw WeiboError.parameter("parameter encoding is not valid UTF-8")
        }
        let contentType = request.headers[.contentType] ?? ""
        guard contentType.lowercased().hasPrefix("multipart/form-data") else {
            throw WeiboError.parameter("statuses/upload takes multipart/form-data (status, pic)")
        }
        let body: ByteBuffer
        do {
            body = try await request.body.collect(upTo: maximumPictureBytes + FormFields.maximumBodySize)
        } catch {
            throw WeiboError(status: .badRequest, code: 20006, message: "image size too large")
        }
        var parameters = MastodonAPI.Parameters()
        do {
            try MastodonAPI.readMultipart(body, contentType: contentType, into: &parameters)
        } catch {
            throw WeiboError.parameter("the multipart body could not be read")
        }
        for (name, value) in parameters.first where fields[name] == nil { fields[name] = value }
        return (fields, parameters.files["pic"])
    }

    /// `POST statuses/upload.json`: a status with the picture `pic` (JPG, GIF or
    /// PNG, under 5 MB), which its `pic_urls` and `thumbnail_pic`… then name.
    /// 10008 without `pic`, 20005 for a file that is not such a picture, 20006 over 5 MB.
    func upload(_ fields: [String: String], picture: UploadedFile?, actor: Int) throws -> ByteBuffer {
        let text = try text(fields, "status")
        guard let picture, !picture.bytes.isEmpty else { throw WeiboError.parameter("miss required parameter (pic), see doc for more info.") }
        guard picture.bytes.count <= Self.maximumPictureBytes else {
            throw WeiboError(status: .badRequest, code: 20006, message: "image size too large")
        }
        guard let kind = MastodonAPI.mediaKind(picture.bytes), ["png", "jpg", "gif"].contains(kind.fileExtension) else {
            throw WeiboError(status: .badRequest, code: 20005, message: "unsupported image type, only suport JPG, GIF, PNG")
        }
        return store.write { timeline in
            // The picture's key, as Weibo names its images (what the URLs are made of).
            let key = "wshup\(String(timeline.ordinalCount + 1, radix: 36))\(kind.fileExtension)"
            let status = timeline.post(text: text, source: Self.source, author: actor, pictureKeys: [key])
            return WeiboRenderer(timeline: timeline, viewer: actor).statusJSON(status)
        }
    }

    /// `statuses/update.json`: `status`, the text.
    func update(_ fields: [String: String], actor: Int) throws -> ByteBuffer {
        let text = try text(fields, "status")
        return store.write { timeline in
            let status = timeline.post(text: text, source: Self.source, author: actor)
            return WeiboRenderer(timeline: timeline, viewer: actor).statusJSON(status)
        }
    }

    /// `statuses/destroy.json`: the actor's own status `id`.
    func destroy(_ fields: [String: String], actor: Int) throws -> ByteBuffer {
        let id = try identifier(fields, "id")
        return try store.write { timeline in
            let status = try timeline.delete(id: id, by: actor).mapError(Self.error).get()
            return WeiboRenderer(timeline: timeline, viewer: actor).statusJSON(status)
        }
    }

    /// `statuses/repost.json`: `id`, `status` (the remark), `is_comment`.
    func repost(_ fields: [String: String], actor: Int) throws -> ByteBuffer {
        let id = try identifier(fields, "id")
        let remark = fields["status"].map { $0.allSatisfy(\.isWhitespace) ? "" : $0 } ?? ""
        guard weiboLength(remark) <= 140 else { throw WeiboError.textTooLong }
        // 0: no comment; 1: also comment on the status reposted; 2: on the original; 3: both.
        let alsoComment = try integer(fields, "is_comment", default: 0, in: 0...3)
        return try store.write { timeline in
            guard let target = timeline.weiboStatus(id: id) else { throw WeiboError.statusNotFound }
            var text = remark.isEmpty ? "转发微博" : remark
            // Reposting a repost quotes the chain, as Weibo does.
            if target.retweetedOrdinal != nil {
                text += "//@\(timeline.data.users[target.authorIndex].screenName):\(target.text)"
            }
            let status = timeline.post(text: text, source: Self.source, author: actor, reposting: target)
            let root = target.retweetedOrdinal.flatMap { timeline.status(ordinal: $0) } ?? target
            var commented: [SandboxStatus] = []
            if alsoComment & 1 != 0 { commented.append(target) }
            if alsoComment & 2 != 0, root.ordinal != target.ordinal || commented.isEmpty { commented.append(root) }
            for status in commented {
                _ = timeline.addComment(text: remark.isEmpty ? "转发微博" : remark, on: status, author: actor,
                                        source: Self.source)
            }
            return WeiboRenderer(timeline: timeline, viewer: actor).statusJSON(status)
        }
    }

    /// `comments/create.json`: `id`, `comment`.
    func createComment(_ fields: [String: String], actor: Int) throws -> ByteBuffer {
        let id = try identifier(fields, "id")
        let text = try text(fields, "comment")
        return try store.write { timeline in
            guard let status = timeline.weiboStatus(id: id) else { throw WeiboError.statusNotFound }
            let comment = timeline.addComment(text: text, on: status, author: actor, source: Self.source)
            return WeiboRenderer(timeline: timeline, viewer: actor).commentJSON(comment, on: status)
        }
    }

    /// `comments/reply.json`: `id`, `cid` (the comment answered), `comment`, `without_mention`.
    func replyComment(_ fields: [String: String], actor: Int) throws -> ByteBuffer {
        let id = try identifier(fields, "id")
        let cid = try identifier(fields, "cid")
        var text = try text(fields, "comment")
        let withoutMention = try integer(fields, "without_mention", default: 0, in: 0...1) == 1
        return try store.write { timeline in
            guard let status = timeline.weiboStatus(id: id) else { throw WeiboError.statusNotFound }
            guard let (replied, on) = timeline.comment(id: cid), on.ordinal == status.ordinal else {
                throw WeiboError.commentNotFound
            }
            // Weibo prefixes a reply with whom it answers unless told not to.
            if !withoutMention { text = "回复@\(timeline.data.users[replied.authorIndex].screenName):" + text }
            let comment = timeline.addComment(text: text, on: status, author: actor, source: Self.source,
                                              replyTo: replied.id)
            return WeiboRenderer(timeline: timeline, viewer: actor).commentJSON(comment, on: status)
        }
    }

    /// `comments/destroy.json`: the actor's own comment `cid`.
    func destroyComment(_ fields: [String: String], actor: Int) throws -> ByteBuffer {
        let cid = try identifier(fields, "cid")
        return try store.write { timeline in
            let (comment, status) = try timeline.deleteComment(id: cid, by: actor).mapError(Self.error).get()
            return WeiboRenderer(timeline: timeline, viewer: actor).commentJSON(comment, on: status)
        }
    }

    /// `favorites/create.json` (`create`) and `destroy.json`: `id`.
    func favorite(_ fields: [String: String], actor: Int, create: Bool) throws -> ByteBuffer {
        let id = try identifier(fields, "id")
        return try store.write { timeline in
            guard let status = timeline.weiboStatus(id: id) else { throw WeiboError.statusNotFound }
            let change = create ? timeline.favourite(status, by: actor) : timeline.unfavourite(status, by: actor)
            let time = try change.mapError(Self.error).get()
            return WeiboRenderer(timeline: timeline, viewer: actor).favoriteJSON(status, time: time)
        }
    }

    /// `friendships/create.json` (`create`) and `destroy.json`: `uid` or `screen_name`.
    func friendship(_ fields: [String: String], actor: Int, create: Bool) throws -> ByteBuffer {
        let target = try user(fields, in: store.timeline)
        return try store.write { timeline in
            let change = create ? timeline.follow(target.index, by: actor) : timeline.unfollow(target.index, by: actor)
            try change.mapError(Self.error).get()
            return WeiboRenderer(timeline: timeline, viewer: actor).userJSON(target)
        }
    }

    /// Weibo's error for a refused write.
    private static func error(_ refusal: Timeline.Refusal) -> WeiboError {
        switch refusal {
        case .noSuchStatus: return .statusNotFound
        case .notTheAuthor: return .notYourOwnStatus
        case .noSuchComment: return .commentNotFound
        case .notTheCommentAuthor: return .notYourOwnComment
        case .alreadyFavourited: return .alreadyFavorited
        case .notFavourited: return .notFavorited
        case .alreadyFollowing: return .alreadyFollowed
        case .notFollowing: return .notFollowed
        case .followingSelf: return .cannotFollowSelf
        }
    }
}
