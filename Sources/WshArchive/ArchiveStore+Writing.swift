import FoundationEssentials
import WshModel
import WshText

/// Which server, account and timeline a page of statuses came from.
public struct ArchiveScope: Sendable, Hashable {
    /// The API's base URL.
    public var server: String
    /// The account that saw it: its name in wsh's accounts, else its uid.
    public var account: String
    /// `mastodon` or `weibo`: how the kept JSON reads.
    public var api: String
    /// The timeline as `fetch` names it (`home`, `user @name`, `tag #swift`, `notifications`).
    public var source: String

    public init(server: String, account: String, api: String, source: String) {
        self.server = server
        self.account = account
        self.api = api
        self.source = source
    }
}

/// A status to keep: the Model's reading of it and the server's JSON for it, whole.
public struct ArchivedStatus: Sendable {
    public var status: Status
    public var json: String
    /// `json` is the Model's own encoding (the body did not give the server's):
    /// the row's api is then `wsh`.
    public var modelEncoded: Bool

    public init(status: Status, json: String, modelEncoded: Bool = false) {
        self.status = status
        self.json = json
        self.modelEncoded = modelEncoded
    }
}

/// Where a source's syncs stand: what it has and where an interrupted walk goes on.
public struct ArchiveCursors: Sendable, Hashable {
    /// The newest and oldest status ids the source has.
    public var newestID: String?
    public var oldestID: String?
    /// Where the walk back through older pages goes on; nil before it starts or once done.
    public var backCursor: String?
    /// The walk back reached the timeline's end.
    public var backDone = false
    /// A catch-up walk (from the top down to `gapFloor`) that was interrupted: where it goes on.
    public var gapCursor: String?
    public var gapFloor: String?
    /// The newest id that catch-up walk started from: `newestID` once it is done.
    public var gapTop: String?
    /// When the last sync of the source ended (ISO 8601).
    public var lastSync: String?

    public init() {}
}

/// What storing a page did.
public struct ArchiveWrite: Sendable, Hashable {
    /// Statuses the archive did not have.
    public var added = 0
    /// Statuses it had, whose edit the page brought (the version before is kept in `edits`).
    public var edited = 0
}

extension ArchiveStore {
    /// The cursors of `scope`'s source (empty before its first sync).
    public func cursors(_ scope: ArchiveScope) throws(ArchiveError) -> ArchiveCursors {
        var cursors = ArchiveCursors()
        try connection.run("""
            SELECT newest_id, oldest_id, back_cursor, back_done, gap_cursor, gap_floor, gap_top, last_sync
            FROM cursors WHERE server = ? AND account = ? AND source = ?
            """, [.text(scope.server), .text(scope.account), .text(scope.source)]) { row in
            cursors.newestID = row.string(0)
            cursors.oldestID = row.string(1)
            cursors.backCursor = row.string(2)
            cursors.backDone = row.integer(3) == 1
            cursors.gapCursor = row.string(4)
            cursors.gapFloor = row.string(5)
            cursors.gapTop = row.string(6)
            cursors.lastSync = row.string(7)
        }
        return cursors
    }

    /// Stores one page of `scope` and its source's new `cursors` (nil: a page
    /// read live, `archive on`, which moves no sync's cursors), in one
    /// transaction: after a crash either both are in the file or neither.
    /// A status it has already is updated (its counts move); when its
    /// `edited_at` changed, the version it had is kept in `edits`.
    @discardableResult
    public func store(_ page: [ArchivedStatus], scope: ArchiveScope, cursors: ArchiveCursors?) throws(ArchiveError) -> ArchiveWrite {
        try checkWritable()
        do {
            return try connection.transaction { () throws(ArchiveError) -> ArchiveWrite in
                var write = ArchiveWrite()
                let now = Self.now()
                for item in page { try store(item, scope: scope, now: now, write: &write) }
                if let cursors { try save(cursors, scope: scope) }
                return write
            }
        } catch {
            throw Self.explain(error, path: path)
        }
    }

    /// Saves `cursors` alone (a sync that brought nothing new still says when it ran).
    public func save(_ cursors: ArchiveCursors, for scope: ArchiveScope) throws(ArchiveError) {
        try checkWritable()
        do {
            try connection.transaction { () throws(ArchiveError) in try save(cursors, scope: scope) }
        } catch {
            throw Self.explain(error, path: path)
        }
    }

    /// Marks deleted the statuses of `scope`'s source whose ids lie between
    /// `window`'s oldest and newest but which the server no longer lists.
    /// They stay in the file, with `deleted_at` set. Returns how many.
    @discardableResult
    public func markMissing(from window: [String], scope: ArchiveScope) throws(ArchiveError) -> Int {
        try checkWritable()
        let numbers = window.compactMap { Int64($0) }
        guard numbers.count == window.count, let low = numbers.min(), let high = numbers.max() else { return 0 }
        var missing: [Int64] = []
        let present = Set(window)
        try connection.run("""
            SELECT s.rowid, s.id FROM source_statuses ss JOIN statuses s ON s.rowid = ss.status
            WHERE ss.server = ?1 AND ss.account = ?2 AND ss.source = ?3
              AND s.id_number BETWEEN ?4 AND ?5 AND s.deleted_at IS NULL
            """, [.text(scope.server), .text(scope.account), .text(scope.source), .integer(low), .integer(high)]) { row in
            if let id = row.string(1), !present.contains(id), let rowid = row.integer(0) { missing.append(rowid) }
        }
        guard !missing.isEmpty else { return 0 }
        let now = Self.now()
        do {
            try connection.transaction { () throws(ArchiveError) in
                for rowid in missing {
                    try connection.run("UPDATE statuses SET deleted_at = ? WHERE rowid = ?", [.text(now), .integer(rowid)])
                }
            }
        } catch {
            throw Self.explain(error, path: path)
        }
        return missing.count
    }

    private func save(_ cursors: ArchiveCursors, scope: ArchiveScope) throws(ArchiveError) {
        func text(_ value: String?) -> SQLiteValue { value.map { .text($0) } ?? .null }
        try connection.run("""
            INSERT INTO cursors (server, account, source, newest_id, oldest_id, back_cursor, back_done,
                                 gap_cursor, gap_floor, gap_top, last_sync)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            ON CONFLICT (server, account, source) DO UPDATE SET
                newest_id = excluded.newest_id, oldest_id = excluded.oldest_id, back_cursor = excluded.back_cursor,
                back_done = excluded.back_done, gap_cursor = excluded.gap_cursor, gap_floor = excluded.gap_floor,
                gap_top = excluded.gap_top, last_sync = excluded.last_sync
            """, [.text(scope.server), .text(scope.account), .text(scope.source), text(cursors.newestID),
                  text(cursors.oldestID), text(cursors.backCursor), .integer(cursors.backDone ? 1 : 0),
                  text(cursors.gapCursor), text(cursors.gapFloor), text(cursors.gapTop), text(cursors.lastSync)])
    }

    private func store(_ item: ArchivedStatus, scope: ArchiveScope, now: String, write: inout ArchiveWrite) throws(ArchiveError) {
        let status = item.status
        guard let id = status.identifier else { return }
        let columns = StatusColumns(status)
        var existing: (rowid: Int64, editedAt: String?, text: String?, cw: String?, json: String)?
        try connection.run("SELECT rowid, edited_at, text, cw, json FROM statuses WHERE server = ? AND account = ? AND id = ?",
                           [.text(scope.server), .text(scope.account), .text(id)]) { row in
            existing = (row.integer(0) ?? 0, row.string(1), row.string(2), row.string(3), row.string(4) ?? "")
        }
        let values: [SQLiteValue] = [
            columns.authorID, columns.author, columns.createdAt, .text(columns.text), columns.cw, columns.visibility,
            columns.replies, columns.reposts, columns.favourites, columns.inReplyTo, columns.boostOf, columns.url,
            columns.editedAt, .text(item.json),
        ]
        let rowid: Int64
        if let existing {
            rowid = existing.rowid
            if columns.editedAtText != nil, columns.editedAtText != existing.editedAt {
                try connection.run("INSERT INTO edits (status, edited_at, text, cw, json, replaced_at) VALUES (?, ?, ?, ?, ?, ?)",
                                   [.integer(rowid), columns.editedAt, existing.text.map { .text($0) } ?? .null,
                                    existing.cw.map { .text($0) } ?? .null, .text(existing.json), .text(now)])
                write.edited += 1
            }
            try connection.run("""
                UPDATE statuses SET author_id = ?, author = ?, created_at = ?, text = ?, cw = ?, visibility = ?,
                    replies_count = ?, reposts_count = ?, favourites_count = ?, in_reply_to_id = ?, boost_of_id = ?,
                    url = ?, edited_at = ?, json = ?, language = json_extract(json, '$.language'), deleted_at = NULL
                WHERE rowid = ?
                """, values + [.integer(rowid)])
            try connection.run("DELETE FROM search WHERE rowid = ?", [.integer(rowid)])
            try connection.run("DELETE FROM media WHERE status = ?", [.integer(rowid)])
            try connection.run("DELETE FROM tags WHERE status = ?", [.integer(rowid)])
            try connection.run("DELETE FROM mentions WHERE status = ?", [.integer(rowid)])
        } else {
            try connection.run("""
                INSERT INTO statuses (server, account, api, id, id_number, author_id, author, created_at, text, cw,
                    visibility, replies_count, reposts_count, favourites_count, in_reply_to_id, boost_of_id, url,
                    edited_at, json, archived_at, language)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, json_extract(?19, '$.language'))
                """, [.text(scope.server), .text(scope.account), .text(item.modelEncoded ? "wsh" : scope.api), .text(id),
                      Int64(id).map { .integer($0) } ?? .null] + values + [.text(now)])
            guard case .integer(let inserted)? = try connection.scalar("SELECT last_insert_rowid()") else { return }
            rowid = inserted
            write.added += 1
        }
        var alts: [String] = []
        for (position, url) in columns.mediaURLs.enumerated() {
            let alt = position < status.mediaDescriptions.count ? status.mediaDescriptions[position] : nil
            let type = position < status.mediaTypes.count ? status.mediaTypes[position] : nil
            if let alt { alts.append(alt) }
            try connection.run("INSERT OR REPLACE INTO media (status, position, type, url, alt) VALUES (?, ?, ?, ?, ?)",
                               [.integer(rowid), .integer(Int64(position)), type.map { .text($0) } ?? .null, .text(url),
                                alt.map { .text($0) } ?? .null])
        }
        for tag in Set(status.tags) {
            try connection.run("INSERT OR IGNORE INTO tags (status, tag) VALUES (?, ?)", [.integer(rowid), .text(tag)])
        }
        for name in Set(status.mentions) {
            try connection.run("INSERT OR IGNORE INTO mentions (status, name) VALUES (?, ?)", [.integer(rowid), .text(name)])
        }
        if let user = status.user, let userID = user.identifier {
            try connection.run("""
                INSERT INTO accounts (server, id, name, display_name) VALUES (?, ?, ?, ?)
                ON CONFLICT (server, id) DO UPDATE SET name = excluded.name, display_name = excluded.display_name
                """, [.text(scope.server), .text(userID), columns.author, (user.displayName ?? user.name).map { .text($0) } ?? .null])
        }
        try connection.run("INSERT INTO search (rowid, text, cw, alt) VALUES (?, ?, ?, ?)",
                           [.integer(rowid), .text(columns.text), columns.cw, .text(alts.joined(separator: "\n"))])
        try connection.run("INSERT OR IGNORE INTO source_statuses (server, account, source, status) VALUES (?, ?, ?, ?)",
                           [.text(scope.server), .text(scope.account), .text(scope.source), .integer(rowid)])
    }

    /// Now, as the archive writes times: ISO 8601 in UTC.
    static func now() -> String {
        Timestamp(date: Date(), utcOffset: 0).iso8601Text
    }
}

/// The columns people query, read from a status.
struct StatusColumns {
    var authorID: SQLiteValue
    var author: SQLiteValue
    var createdAt: SQLiteValue
    var text: String
    var cw: SQLiteValue
    var visibility: SQLiteValue
    var replies: SQLiteValue
    var reposts: SQLiteValue
    var favourites: SQLiteValue
    var inReplyTo: SQLiteValue
    var boostOf: SQLiteValue
    var url: SQLiteValue
    var editedAtText: String?
    var editedAt: SQLiteValue
    var mediaURLs: [String]

    init(_ status: Status) {
        func text(_ value: String?) -> SQLiteValue { value.map { .text($0) } ?? .null }
        func number(_ value: Int?) -> SQLiteValue { value.map { .integer(Int64($0)) } ?? .null }
        authorID = text(status.user?.identifier)
        author = text((status.user?.screenName ?? status.user?.username).map { "@" + $0 })
        createdAt = text(status.createdAt.map { Timestamp(date: $0.date, utcOffset: 0).iso8601Text })
        self.text = status.text ?? ""
        cw = text(status.contentWarning.flatMap { $0.isEmpty ? nil : $0 })
        visibility = text(status.visibility)
        replies = number(status.commentsCount)
        reposts = number(status.repostsCount)
        favourites = number(status.attitudesCount)
        inReplyTo = text(status.inReplyToStatusID)
        boostOf = text(status.retweetedStatus?.identifier)
        url = text(status.url)
        editedAtText = status.editedAt.map { Timestamp(date: $0.date, utcOffset: 0).iso8601Text }
        editedAt = text(editedAtText)
        mediaURLs = status.picURLs
    }
}
