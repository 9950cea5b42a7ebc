import WshText

// Mastodon's entities for editing and scheduling (StatusEdit, StatusSource,
// ScheduledStatus, and what an edit must send again of a status), decoded
// leniently like the others (`@Lenient` fields) and mapped onto the Model.

/// A Mastodon `StatusEdit`: one version in `statuses/:id/history`.
public struct MastodonStatusEdit: Decodable, Sendable {
    @Lenient public var content: String? = nil
    @Lenient public var spoilerText: String? = nil
    @Lenient public var sensitive: Bool? = nil
    @LenientISO8601 public var createdAt: Timestamp? = nil

    enum CodingKeys: String, CodingKey {
        case content, sensitive
        case spoilerText = "spoiler_text"
        case createdAt = "created_at"
    }

    /// The version with its HTML as text.
    public var edit: StatusEdit {
        StatusEdit(text: content.map(HTMLText.plainText) ?? "", contentWarning: spoilerText?.isEmpty == false ? spoilerText : nil,
                   sensitive: sensitive, createdAt: createdAt)
    }
}

/// A Mastodon `StatusSource`: `{id, text, spoiler_text}`.
public struct MastodonStatusSource: Decodable, Sendable {
    @Lenient public var id: String? = nil
    @Lenient public var text: String? = nil
    @Lenient public var spoilerText: String? = nil

    enum CodingKeys: String, CodingKey {
        case id, text
        case spoilerText = "spoiler_text"
    }

    public var source: StatusSource {
        StatusSource(id: id ?? "", text: text ?? "", spoilerText: spoilerText ?? "")
    }
}

/// A Mastodon `ScheduledStatus`: its id, `scheduled_at`, and the `params` it will be posted with.
public struct MastodonScheduledStatus: Decodable, Sendable {
    @Lenient public var id: String? = nil
    @LenientISO8601 public var scheduledAt: Timestamp? = nil
    @Lenient public var params: Params? = nil

    public struct Params: Decodable, Sendable, LenientValue {
        @Lenient public var text: String? = nil
        @Lenient public var visibility: String? = nil
        @Lenient public var spoilerText: String? = nil
        @Lenient public var language: String? = nil
        @Lenient public var inReplyToID: String? = nil
        @Lenient public var mediaIDs: [String] = []
        @Lenient var poll: Poll? = nil

        /// `params.poll`: `{options, expires_in, multiple}`.
        struct Poll: Decodable, Sendable, LenientValue {
            @Lenient var options: [String] = []
            @Lenient var expiresIn: Int? = nil
            @Lenient var multiple: Bool? = nil

            enum CodingKeys: String, CodingKey {
                case options, multiple
                case expiresIn = "expires_in"
            }
        }

        enum CodingKeys: String, CodingKey {
            case text, visibility, language, poll
            case spoilerText = "spoiler_text"
            case inReplyToID = "in_reply_to_id"
            case mediaIDs = "media_ids"
        }
    }

    enum CodingKeys: String, CodingKey {
        case id, params
        case scheduledAt = "scheduled_at"
    }

    public var scheduled: ScheduledStatus {
        var scheduled = ScheduledStatus(id: id ?? "", scheduledAt: scheduledAt, text: params?.text ?? "", visibility: params?.visibility,
                                        contentWarning: params?.spoilerText?.isEmpty == false ? params?.spoilerText : nil)
        scheduled.language = params?.language.flatMap { $0.isEmpty ? nil : $0 }
        scheduled.inReplyTo = params?.inReplyToID.flatMap { $0.isEmpty ? nil : $0 }
        scheduled.mediaIDs = params?.mediaIDs ?? []
        if let poll = params?.poll, poll.options.count >= 2 {
            scheduled.poll = PollDraft(options: poll.options, expiresIn: poll.expiresIn ?? 86_400, multiple: poll.multiple ?? false)
        }
        return scheduled
    }
}

/// What a Mastodon edit must send again so that only the text changes: the
/// status's content warning, sensitivity, language, media (by id) and poll.
public struct MastodonEditableStatus: Decodable, Sendable {
    @Lenient public var spoilerText: String? = nil
    @Lenient public var sensitive: Bool? = nil
    @Lenient public var language: String? = nil
    @Lenient var media: [MastodonStatus.Media] = []
    @Lenient public var poll: Poll? = nil

    /// The ids of its media, in order.
    public var mediaIDs: [String] { media.compactMap(\.id) }

    public struct Poll: Decodable, Sendable, LenientValue {
        @Lenient var choices: [MastodonPoll.Option] = []
        @LenientISO8601 public var expiresAt: Timestamp? = nil
        @Lenient public var expired: Bool? = nil
        @Lenient public var multiple: Bool? = nil

        /// Its options' titles, in order.
        public var options: [String] { choices.compactMap(\.title) }

        enum CodingKeys: String, CodingKey {
            case expired, multiple
            case choices = "options"
            case expiresAt = "expires_at"
        }
    }

    enum CodingKeys: String, CodingKey {
        case sensitive, language, poll
        case spoilerText = "spoiler_text"
        case media = "media_attachments"
    }
}
