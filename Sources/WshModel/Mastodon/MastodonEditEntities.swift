import WshText

// Mastodon's entities for editing and scheduling (StatusEdit, StatusSource,
// ScheduledStatus, and what an edit must send again of a status), decoded
// leniently like the others and mapped onto the Model.

/// A Mastodon `StatusEdit`: one version in `statuses/:id/history`.
public struct MastodonStatusEdit: Decodable, Sendable {
    public var content: String?
    public var spoilerText: String?
    public var sensitive: Bool?
    public var createdAt: WeiboTime?

    enum CodingKeys: String, CodingKey {
        case content, sensitive
        case spoilerText = "spoiler_text"
        case createdAt = "created_at"
    }

    public init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        content = c.lenientString(.content)
        spoilerText = c.lenientString(.spoilerText)
        sensitive = c.lenientBool(.sensitive)
        createdAt = c.lenientString(.createdAt).flatMap(WeiboTime.init(iso8601:))
    }

    /// The version with its HTML as text.
    public var edit: StatusEdit {
        StatusEdit(text: content.map(HTMLText.plainText) ?? "", contentWarning: spoilerText?.isEmpty == false ? spoilerText : nil,
                   sensitive: sensitive, createdAt: createdAt)
    }
}

/// A Mastodon `StatusSource`: `{id, text, spoiler_text}`.
public struct MastodonStatusSource: Decodable, Sendable {
    public var id: String?
    public var text: String?
    public var spoilerText: String?

    enum CodingKeys: String, CodingKey {
        case id, text
        case spoilerText = "spoiler_text"
    }

    public init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        id = c.lenientString(.id)
        text = c.lenientString(.text)
        spoilerText = c.lenientString(.spoilerText)
    }

    public var source: StatusSource {
        StatusSource(id: id ?? "", text: text ?? "", spoilerText: spoilerText ?? "")
    }
}

/// A Mastodon `ScheduledStatus`: its id, `scheduled_at`, and the `params` it will be posted with.
public struct MastodonScheduledStatus: Decodable, Sendable {
    public var id: String?
    public var scheduledAt: WeiboTime?
    public var params: Params?

    public struct Params: Decodable, Sendable {
        public var text: String?
        public var visibility: String?
        public var spoilerText: String?

        enum CodingKeys: String, CodingKey {
            case text, visibility
            case spoilerText = "spoiler_text"
        }

        public init(from decoder: Decoder) throws {
            let c = try decoder.container(keyedBy: CodingKeys.self)
            text = c.lenientString(.text)
            visibility = c.lenientString(.visibility)
            spoilerText = c.lenientString(.spoilerText)
        }
    }

    enum CodingKeys: String, CodingKey {
        case id, params
        case scheduledAt = "scheduled_at"
    }

    public init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        id = c.lenientString(.id)
        scheduledAt = c.lenientString(.scheduledAt).flatMap(WeiboTime.init(iso8601:))
        params = c.lenient(Params.self, .params)
    }

    public var scheduled: ScheduledStatus {
        ScheduledStatus(id: id ?? "", scheduledAt: scheduledAt, text: params?.text ?? "", visibility: params?.visibility,
                        contentWarning: params?.spoilerText?.isEmpty == false ? params?.spoilerText : nil)
    }
}

/// What a Mastodon edit must send again so that only the text changes: the
/// status's content warning, sensitivity, language, media (by id) and poll.
public struct MastodonEditableStatus: Decodable, Sendable {
    public var spoilerText: String?
    public var sensitive: Bool?
    public var language: String?
    public var mediaIDs: [String]
    public var poll: Poll?

    public struct Media: Decodable, Sendable {
        public var id: String?
        enum CodingKeys: String, CodingKey { case id }
        public init(from decoder: Decoder) throws {
            id = try decoder.container(keyedBy: CodingKeys.self).lenientString(.id)
        }
    }

    public struct Poll: Decodable, Sendable {
        public var options: [String]
        public var expiresAt: WeiboTime?
        public var expired: Bool?
        public var multiple: Bool?

        struct Option: Decodable {
            var title: String?
            enum CodingKeys: String, CodingKey { case title }
            init(from decoder: Decoder) throws {
                title = try decoder.container(keyedBy: CodingKeys.self).lenientString(.title)
            }
        }

        enum CodingKeys: String, CodingKey {
            case options, expired, multiple
            case expiresAt = "expires_at"
        }

        public init(from decoder: Decoder) throws {
            let c = try decoder.container(keyedBy: CodingKeys.self)
            options = (c.lenientArray(Option.self, .options) ?? []).compactMap(\.title)
            expiresAt = c.lenientString(.expiresAt).flatMap(WeiboTime.init(iso8601:))
            expired = c.lenientBool(.expired)
            multiple = c.lenientBool(.multiple)
        }
    }

    enum CodingKeys: String, CodingKey {
        case sensitive, language, poll
        case spoilerText = "spoiler_text"
        case media = "media_attachments"
    }

    public init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        spoilerText = c.lenientString(.spoilerText)
        sensitive = c.lenientBool(.sensitive)
        language = c.lenientString(.language)
        mediaIDs = (c.lenientArray(Media.self, .media) ?? []).compactMap(\.id)
        poll = c.lenient(Poll.self, .poll)
    }
}
