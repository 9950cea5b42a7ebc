import FoundationEssentials
import WshModel
import WshText

/// Mastodon's own account export, read into the archive: the archive's
/// `outbox.json`, an ActivityPub `OrderedCollection` whose `orderedItems` are
/// `Create` activities of `Note` objects (the account's posts; its boosts,
/// `Announce` activities of a bare URL, carry no text and are left out).
/// Each Note is kept whole as the row's JSON, with `api` = `activitypub`.
public enum OutboxImport {
    /// What an import did.
    public struct Result: Sendable, Hashable {
        /// Notes read, and how many the archive did not have.
        public var notes = 0
        public var added = 0
        /// The account the outbox belongs to, `@name`, and its server.
        public var account = ""
        public var server = ""
    }

    /// Imports the outbox at `path` into `store`, one transaction per 500 notes.
    public static func run(path: String, into store: ArchiveStore) throws(ArchiveError) -> Result {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw ArchiveError("cannot read \(path)")
        }
        guard let root = JSONValue.parse(data), root["type"]?.string == "OrderedCollection",
              let items = root["orderedItems"]?.array else {
            throw ArchiveError("\(path) is not a Mastodon outbox.json (an OrderedCollection with orderedItems)")
        }
        var result = Result()
        var page: [ArchivedStatus] = []
        var scope: ArchiveScope?
        for item in items where item["type"]?.string == "Create" {
            guard let note = item["object"], note["type"]?.string == "Note",
                  let actor = item["actor"]?.string ?? note["attributedTo"]?.string,
                  let status = status(note: note, actor: actor) else { continue }
            if scope == nil {
                let (server, account) = Self.actor(actor)
                scope = ArchiveScope(server: server, account: account, api: "activitypub", source: "outbox")
                result.server = server
                result.account = account
            }
            page.append(ArchivedStatus(status: status, json: String(decoding: note.encoded(), as: UTF8.self)))
            result.notes += 1
            if page.count == 500, let scope {
                result.added += try store.store(page, scope: scope, cursors: nil).added
                page.removeAll()
            }
        }
        if !page.isEmpty, let scope { result.added += try store.store(page, scope: scope, cursors: nil).added }
        try store.indexPending()
        return result
    }

    /// `https://host/users/name` → (`https://host/`, `@name`).
    static func actor(_ url: String) -> (server: String, account: String) {
        let parts = url.split(separator: "/", omittingEmptySubsequences: true)
        let server = parts.count >= 2 ? "\(parts[0])//\(parts[1])/" : url
        return (server, "@" + (parts.last.map(String.init) ?? "?"))
    }

    /// A Note as the Model's status: its id (the last part of its URL),
    /// time, text as plain text, content warning, visibility, media with
    /// their descriptions, hashtags and mentions.
    public static func status(note: JSONValue, actor: String) -> Status? {
        guard let url = note["id"]?.string, let id = url.split(separator: "/").last.map(String.init) else { return nil }
        var storage = Status.Storage()
        storage.idstr = id
        storage.id = Int64(id)
        storage.url = note["url"]?.string ?? url
        storage.createdAt = note["published"]?.string.flatMap(Timestamp.init(iso8601:))
        storage.editedAt = note["updated"]?.string.flatMap(Timestamp.init(iso8601:))
        storage.contentHTML = note["content"]?.string
        storage.text = HTMLText.plainText(note["content"]?.string ?? "")
        storage.contentWarning = note["summary"]?.string
        storage.sensitive = note["sensitive"]?.bool
        storage.inReplyToStatusID = note["inReplyTo"]?.string.flatMap { $0.split(separator: "/").last.map(String.init) }
        let everyone = "https://www.w3.org/ns/activitystreams#Public"
        let to = note["to"]?.array?.compactMap(\.string) ?? []
        let cc = note["cc"]?.array?.compactMap(\.string) ?? []
        storage.visibility = to.contains(everyone) ? "public" : cc.contains(everyone) ? "unlisted"
            : to.contains { $0.hasSuffix("/followers") } ? "private" : "direct"
        for attachment in note["attachment"]?.array ?? [] {
            guard let link = attachment["url"]?.string else { continue }
            storage.picURLs.append(link)
            storage.mediaDescriptions.append(attachment["name"]?.string)
            storage.mediaTypes.append(attachment["mediaType"]?.string)
        }
        for tag in note["tag"]?.array ?? [] {
            guard let name = tag["name"]?.string else { continue }
            switch tag["type"]?.string {
            case "Hashtag": storage.tags.append(String(name.drop { $0 == "#" }))
            case "Mention": storage.mentions.append(String(name.drop { $0 == "@" }))
            default: break
            }
        }
        var user = User.Storage()
        let (_, account) = Self.actor(actor)
        user.screenName = String(account.dropFirst())
        user.username = user.screenName
        user.idstr = actor
        storage.user = User(user)
        storage.shape = .mastodon
        return Status(storage)
    }
}
