import FoundationEssentials
import WshModel
import WshText

/// What `--json` does with an entity the server sent (a Mastodon-family
/// status, account or notification): writes every field it sent, known or
/// not (`in_reply_to_account_id`, `pinned`, Pleroma's `pleroma: {…}`,
/// Akkoma's `akkoma`), with wsh's own fields merged over it, so a jq filter
/// written against the server's documentation works on wsh's output.
enum ServerFields {
    /// `json` parsed, every key and string through the one sanitizer (line
    /// breaks kept: JSON escapes them); nil without one or when it is not an object.
    static func sanitized(_ json: ServerJSON?) -> JSONValue? {
        guard let value = json?.value, value.object != nil else { return nil }
        return sanitized(value)
    }

    static func sanitized(_ value: JSONValue) -> JSONValue {
        switch value {
        case .string(let text): return .string(TerminalText.sanitize(text, .multiline))
        case .array(let elements): return .array(elements.map(sanitized))
        case .object(let members):
            return .object(Dictionary(members.map { (TerminalText.sanitize($0.key), sanitized($0.value)) },
                                      uniquingKeysWith: { first, _ in first }))
        default: return value
        }
    }

    /// `typed` merged over `server`: objects member by member, arrays of the
    /// same length element by element; where the server sent an object or an
    /// array and wsh has a plain value under the same name (a notification's
    /// `account`, which wsh writes as the acct), the server's, so that
    /// `.account.acct` from the server's documentation finds it; anything
    /// else wsh's value.
    static func merged(_ server: JSONValue, under typed: JSONValue) -> JSONValue {
        switch (server, typed) {
        case (.object(var members), .object(let ours)):
            for (key, value) in ours { members[key] = members[key].map { merged($0, under: value) } ?? value }
            return .object(members)
        case (.array(let elements), .array(let ours)) where elements.count == ours.count:
            return .array(zip(elements, ours).map { merged($0, under: $1) })
        case (.object, .array), (.array, .object), (.array, .array):
            return typed
        case (.object, _), (.array, _):
            return server
        default:
            return typed
        }
    }

    /// Writes `typed` alone without `server`, else merged over it.
    static func encode(_ server: JSONValue?, typed: @escaping (Encoder) throws -> Void, to encoder: Encoder) throws {
        guard let server else { return try typed(encoder) }
        let ours = try JSONDecoder().decode(JSONValue.self, from: JSONEncoder().encode(Typed(write: typed)))
        try merged(server, under: ours).encode(to: encoder)
    }

    /// wsh's own fields, as a value of their own.
    private struct Typed: Encodable {
        let write: (Encoder) throws -> Void
        func encode(to encoder: Encoder) throws { try write(encoder) }
    }
}
