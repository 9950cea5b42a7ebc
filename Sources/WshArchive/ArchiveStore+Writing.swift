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
    /// The status's language as the JSON gives it (Mastodon's `language`), for the `language` column.
    public var language: String?

    public init(status: Status, json: String, modelEncoded: Bool = false, language: String? = nil) {
        self.status = status
        self.json = json
        self.modelEncoded = modelEncoded
        self.language = language
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
    ///
    /// New statuses reach the full-text tables many thousands at a time
    /// (`indexPending`, in the transaction of the page that passes
    /// `ArchiveStore.indexBatch`, and when a sync ends): FTS5 writes a segment
    /// of its index at each statement that writes to it, and merges segments
    /// as they pile up, so indexing page by page cost more than the rest of a
    /// sync. What is not indexed yet is the statuses above the highest rowid
    /// of `search`, so a sync killed before it indexed loses nothing: the next
    /// write or search indexes them.
    @discardableResult
    public func store(_ page: [ArchivedStatus], scope: ArchiveScope, cursors: ArchiveCursors?) throws(ArchiveError) -> ArchiveWrite {
        try writing { () throws(ArchiveError) -> ArchiveWrite in
            var batch = PageBatch(now: Self.now(), indexedUpTo: try indexedUpTo())
            for item in page { try store(item, scope: scope, batch: &batch) }
            for (id, author) in batch.authors {
                try connection.run("""
                    INSERT INTO accounts (server, id, name, display_name) VALUES (?, ?, ?, ?)
                    ON CONFLICT (server, id) DO UPDATE SET name = excluded.name, display_name = excluded.display_name
                    """, [.text(scope.server), .text(id), author.name, author.displayName])
            }
            // Which source brought them: one statement for the page.
            if !batch.sources.isEmpty {
                try connection.run("""
                    INSERT OR IGNORE INTO source_statuses (server, account, source, status)
                    SELECT ?, ?, ?, value FROM json_each(?)
                    """, [.text(scope.server), .text(scope.account), .text(scope.source),
                          .text("[" + batch.sources.map(String.init).joined(separator: ",") + "]")])
            }
            try batch.writeParts(connection)
            if let cursors { try save(cursors, scope: scope) }
            try batch.writeReplaced(connection)
            pendingIndex = (pendingIndex ?? 0) + batch.write.added
            if let pending = pendingIndex, pending >= Self.indexBatch { try indexPendingRows() }
            return batch.write
        }
    }

    /// How many new statuses wait before they are indexed together.
    public static let indexBatch = 16_000

    /// Indexes the statuses the full-text tables do not have yet (a sync's
    /// last ones, or those of a sync that was killed), in one transaction.
    public func indexPending() throws(ArchiveError) {
        try writing { () throws(ArchiveError) in try indexPendingRows() }
    }

    /// Whether statuses wait to be indexed.
    public func hasPendingIndex() throws(ArchiveError) -> Bool {
        if pendingIndex == 0 { return false }
        let pending = try connection.scalar("""
            SELECT (SELECT coalesce(max(rowid), 0) FROM statuses)
                > min((SELECT coalesce(max(id), 0) FROM search_docsize), (SELECT coalesce(max(id), 0) FROM search_words_docsize))
            """)
        return pending == .integer(1)
    }

    /// The highest rowid `search` holds: every status above it waits to be indexed.
    private func indexedUpTo() throws(ArchiveError) -> Int64 {
        if case .integer(let rowid)? = try connection.scalar("SELECT coalesce(max(id), 0) FROM search_docsize") { return rowid }
        return 0
    }

    private func indexPendingRows() throws(ArchiveError) {
        var wordsUpTo: Int64 = 0
        if case .integer(let rowid)? = try connection.scalar("SELECT coalesce(max(id), 0) FROM search_words_docsize") { wordsUpTo = rowid }
        let alts = """
            coalesce((SELECT group_concat(alt, char(10)) FROM
                (SELECT alt FROM media WHERE status = s.rowid AND alt IS NOT NULL ORDER BY position)), '')
            """
        // `search` straight from the statuses, in one statement.
        try connection.run("INSERT INTO search (rowid, text, cw, alt) SELECT s.rowid, s.text, s.cw, \(alts) FROM statuses s "
                           + "WHERE s.rowid > (SELECT coalesce(max(id), 0) FROM search_docsize) ORDER BY s.rowid")
        // `search_words` through ArchiveWords.
        try PageBatch.insertWords(selecting: "SELECT s.rowid, s.text, s.cw, \(alts) FROM statuses s WHERE s.rowid > ? ORDER BY s.rowid",
                                  [.integer(wordsUpTo)], connection)
        pendingIndex = 0
    }

    /// Saves `cursors` alone (a sync that brought nothing new still says when it ran).
    public func save(_ cursors: ArchiveCursors, for scope: ArchiveScope) throws(ArchiveError) {
        try writing { () throws(ArchiveError) in try save(cursors, scope: scope) }
    }

    /// Marks deleted the statuses of `scope`'s source whose ids lie between
    /// `window`'s oldest and newest (and above, when `newest`: the window is
    /// the source's newest page, so nothing it has above that page is still
    /// there) but which the server no longer lists.
    /// They stay in the file, with `deleted_at` set. Returns how many.
    @discardableResult
    public func markMissing(from window: [String], scope: ArchiveScope, newest: Bool = false) throws(ArchiveError) -> Int {
        try checkWritable()
        let numbers = window.compactMap { Int64($0) }
        guard numbers.count == window.count, let low = numbers.min(), var high = numbers.max() else { return 0 }
        if newest { high = .max }
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
        try writing { () throws(ArchiveError) in
            for rowid in missing {
                try connection.run("UPDATE statuses SET deleted_at = ? WHERE rowid = ?", [.text(now), .integer(rowid)])
            }
        }
        return missing.count
    }

    private func save(_ cursors: ArchiveCursors, scope: ArchiveScope) throws(ArchiveError) {
        try connection.run("""
            INSERT INTO cursors (server, account, source, newest_id, oldest_id, back_cursor, back_done,
                                 gap_cursor, gap_floor, gap_top, last_sync)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            ON CONFLICT (server, account, source) DO UPDATE SET
                newest_id = excluded.newest_id, oldest_id = excluded.oldest_id, back_cursor = excluded.back_cursor,
                back_done = excluded.back_done, gap_cursor = excluded.gap_cursor, gap_floor = excluded.gap_floor,
                gap_top = excluded.gap_top, last_sync = excluded.last_sync
            """, [.text(scope.server), .text(scope.account), .text(scope.source), SQLiteValue(cursors.newestID),
                  SQLiteValue(cursors.oldestID), SQLiteValue(cursors.backCursor), .integer(cursors.backDone ? 1 : 0),
                  SQLiteValue(cursors.gapCursor), SQLiteValue(cursors.gapFloor), SQLiteValue(cursors.gapTop),
                  SQLiteValue(cursors.lastSync)])
    }

    private func store(_ item: ArchivedStatus, scope: ArchiveScope, batch: inout PageBatch) throws(ArchiveError) {
        let status = item.status
        guard let id = status.identifier else { return }
        let columns = StatusColumns(status)
        let values = columns.values + [.text(item.json), SQLiteValue(item.language)]
        // Most statuses of a sync are new: try the insert first, and read the row kept only when there is one.
        try connection.run("""
            INSERT INTO statuses (author_id, author, created_at, text, cw, visibility, replies_count, reposts_count,
                favourites_count, in_reply_to_id, boost_of_id, url, edited_at, json, language,
                server, account, api, id, id_number, archived_at)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            ON CONFLICT (server, account, id) DO NOTHING
            """, values + [.text(scope.server), .text(scope.account), .text(item.modelEncoded ? "wsh" : scope.api), .text(id),
                           Int64(id).map { .integer($0) } ?? .null, .text(batch.now)])
        let rowid: Int64
        if connection.changes == 1 {
            rowid = connection.lastInsertRowID
            batch.write.added += 1
        } else {
            var existing: (rowid: Int64, editedAt: String?, text: String?, cw: String?, json: String)?
            try connection.run("SELECT rowid, edited_at, text, cw, json FROM statuses WHERE server = ? AND account = ? AND id = ?",
                               [.text(scope.server), .text(scope.account), .text(id)]) { row in
                existing = (row.integer(0) ?? 0, row.string(1), row.string(2), row.string(3), row.string(4) ?? "")
            }
            guard let existing else { return }
            rowid = existing.rowid
            // Read again, unchanged: only the source that brought it may be new (and it is there again).
            if existing.json == item.json {
                try connection.run("UPDATE statuses SET deleted_at = NULL WHERE rowid = ? AND deleted_at IS NOT NULL", [.integer(rowid)])
                batch.sources.append(rowid)
                return
            }
            if columns.editedAtText != nil, columns.editedAtText != existing.editedAt {
                try connection.run("INSERT INTO edits (status, edited_at, text, cw, json, replaced_at) VALUES (?, ?, ?, ?, ?, ?)",
                                   [.integer(rowid), SQLiteValue(columns.editedAtText), SQLiteValue(existing.text),
                                    SQLiteValue(existing.cw), .text(existing.json), .text(batch.now)])
                batch.write.edited += 1
            }
            try connection.run("""
                UPDATE statuses SET author_id = ?, author = ?, created_at = ?, text = ?, cw = ?, visibility = ?,
                    replies_count = ?, reposts_count = ?, favourites_count = ?, in_reply_to_id = ?, boost_of_id = ?,
                    url = ?, edited_at = ?, json = ?, language = ?, deleted_at = NULL, api = ?
                WHERE rowid = ?
                """, values + [.text(item.modelEncoded ? "wsh" : scope.api), .integer(rowid)])
            if rowid <= batch.indexedUpTo { batch.replaced.append(rowid) }
            try connection.run("DELETE FROM media WHERE status = ?", [.integer(rowid)])
            try connection.run("DELETE FROM tags WHERE status = ?", [.integer(rowid)])
            try connection.run("DELETE FROM mentions WHERE status = ?", [.integer(rowid)])
        }
        var alts: [String] = []
        for (position, url) in status.picURLs.enumerated() {
            let alt = position < status.mediaDescriptions.count ? status.mediaDescriptions[position] : nil
            let type = position < status.mediaTypes.count ? status.mediaTypes[position] : nil
            if let alt { alts.append(alt) }
            batch.media.append((rowid, position, type, url, alt))
        }
        for tag in Set(status.tags) { batch.tags.append((rowid, tag)) }
        for name in Set(status.mentions) { batch.mentions.append((rowid, name)) }
        if let user = status.user, let userID = user.identifier {
            batch.authors[userID] = (columns.author, SQLiteValue(user.displayName ?? user.name))
        }
        if rowid <= batch.indexedUpTo {
            batch.search.append((rowid, columns.text, columns.cwText, alts.joined(separator: "\n")))
        }
        batch.sources.append(rowid)
    }

    /// Now, as the archive writes times: ISO 8601 in UTC.
    static func now() -> String {
        Timestamp(date: Date(), utcOffset: 0).iso8601Text
    }
}

/// The columns people query, read from a status.
struct StatusColumns {
    /// `author_id` to `edited_at`, in the order the statements of `store` write them.
    var values: [SQLiteValue]
    var author: SQLiteValue
    var text: String
    var cwText: String?
    var editedAtText: String?

    init(_ status: Status) {
        author = SQLiteValue((status.user?.screenName ?? status.user?.username).map { "@" + $0 })
        text = status.text ?? ""
        cwText = status.contentWarning.flatMap { $0.isEmpty ? nil : $0 }
        editedAtText = status.editedAt.map { Timestamp(date: $0.date, utcOffset: 0).iso8601Text }
        values = [
            SQLiteValue(status.user?.identifier), author,
            SQLiteValue(status.createdAt.map { Timestamp(date: $0.date, utcOffset: 0).iso8601Text }), .text(text),
            SQLiteValue(cwText), SQLiteValue(status.visibility), SQLiteValue(status.commentsCount),
            SQLiteValue(status.repostsCount), SQLiteValue(status.attitudesCount), SQLiteValue(status.inReplyToStatusID),
            SQLiteValue(status.retweetedStatus?.identifier), SQLiteValue(status.url), SQLiteValue(editedAtText),
        ]
    }
}

/// What one page's transaction gathers, and how full-text rows are written.
struct PageBatch {
    /// One row of the full-text tables.
    typealias SearchRow = (rowid: Int64, text: String, cw: String?, alt: String)

    let now: String
    /// Statuses up to this rowid are indexed; those above wait for `indexPending`.
    let indexedUpTo: Int64
    var write = ArchiveWrite()
    /// The page's authors, once each: id → (@name, display name).
    var authors: [String: (name: SQLiteValue, displayName: SQLiteValue)] = [:]
    /// Indexed statuses whose text the page replaces: their old rows go, these come.
    var replaced: [Int64] = []
    /// Every status of the page, kept or read again: the source brought them.
    var sources: [Int64] = []
    var search: [SearchRow] = []
    /// The page's attachments, hashtags and mentions, written a table a statement (`writeParts`).
    var media: [(status: Int64, position: Int, type: String?, url: String, alt: String?)] = []
    var tags: [(status: Int64, tag: String)] = []
    var mentions: [(status: Int64, name: String)] = []

    /// Writes the page's media, tags and mentions: one statement a table, each reading a JSON array of
    /// rows (a statement a row cost more than the rows).
    func writeParts(_ connection: SQLiteConnection) throws(ArchiveError) {
        if !media.isEmpty {
            let rows = JSONText.array(media) { medium, json in
                json += Array("\(medium.status),\(medium.position),".utf8)
                JSONText.append(optional: medium.type, to: &json)
                json.append(UInt8(ascii: ","))
                JSONText.append(medium.url, to: &json)
                json.append(UInt8(ascii: ","))
                JSONText.append(optional: medium.alt, to: &json)
            }
            try connection.run("""
                INSERT OR REPLACE INTO media (status, position, type, url, alt)
                SELECT json_extract(value, '$[0]'), json_extract(value, '$[1]'), json_extract(value, '$[2]'),
                       json_extract(value, '$[3]'), json_extract(value, '$[4]') FROM json_each(?)
                """, [.text(rows)])
        }
        for (table, column, pairs) in [("tags", "tag", tags.map { ($0.status, $0.tag) }),
                                       ("mentions", "name", mentions.map { ($0.status, $0.name) })] where !pairs.isEmpty {
            let rows = JSONText.array(pairs) { pair, json in
                json += Array("\(pair.0),".utf8)
                JSONText.append(pair.1, to: &json)
            }
            try connection.run("INSERT OR IGNORE INTO \(table) (status, \(column)) "
                               + "SELECT json_extract(value, '$[0]'), json_extract(value, '$[1]') FROM json_each(?)",
                               [.text(rows)])
        }
    }

    /// Replaces the full text of the indexed statuses the page changed.
    func writeReplaced(_ connection: SQLiteConnection) throws(ArchiveError) {
        guard !replaced.isEmpty else { return }
        let rowids = "[" + replaced.map(String.init).joined(separator: ",") + "]"
        try connection.run("DELETE FROM search WHERE rowid IN (SELECT value FROM json_each(?))", [.text(rowids)])
        try connection.run("DELETE FROM search_words WHERE rowid IN (SELECT value FROM json_each(?))", [.text(rowids)])
        try Self.insertSearch(search[...], connection)
        try Self.insertWords(search[...], connection)
    }

    /// Writes `rows` into `search` in one statement (one JSON array of rows:
    /// FTS5 then writes them as one segment).
    static func insertSearch(_ rows: ArraySlice<SearchRow>, _ connection: SQLiteConnection) throws(ArchiveError) {
        guard !rows.isEmpty else { return }
        let array = JSONText.array(rows, bytesEach: 160) { row, json in
            json += Array("\(row.rowid),".utf8)
            JSONText.append(row.text, to: &json)
            json.append(UInt8(ascii: ","))
            JSONText.append(optional: row.cw, to: &json)
            json.append(UInt8(ascii: ","))
            JSONText.append(row.alt, to: &json)
        }
        try connection.run("""
            INSERT INTO search (rowid, text, cw, alt)
            SELECT json_extract(value, '$[0]'), json_extract(value, '$[1]'), json_extract(value, '$[2]'), json_extract(value, '$[3]')
            FROM json_each(?)
            """, [.text(array)])
    }

    /// Writes into `search_words` the rows `sql` selects (rowid, text, cw, alt), five thousand a statement.
    static func insertWords(selecting sql: String, _ parameters: [SQLiteValue], _ connection: SQLiteConnection)
        throws(ArchiveError) {
        var rows: [SearchRow] = []
        try connection.run(sql, parameters) { row in
            rows.append((row.integer(0) ?? 0, row.string(1) ?? "", row.string(2), row.string(3) ?? ""))
        }
        var start = 0
        while start < rows.count {
            try insertWords(rows[start..<min(rows.count, start + 5000)], connection)
            start += 5000
        }
    }

    /// Writes `rows` into `search_words`, as `ArchiveWords.indexed` writes them, in one
    /// statement: a JSON object from rowid to words, read by `json_each` with no `json_extract`.
    static func insertWords(_ rows: ArraySlice<SearchRow>, _ connection: SQLiteConnection) throws(ArchiveError) {
        guard !rows.isEmpty else { return }
        var json: [UInt8] = [UInt8(ascii: "{")]
        json.reserveCapacity(rows.count * 200)
        for (offset, row) in rows.enumerated() {
            if offset > 0 { json.append(UInt8(ascii: ",")) }
            json += Array("\"\(row.rowid)\":\"".utf8)
            ArchiveWords.append(row.text, to: &json, escapingJSON: true)
            if let cw = row.cw, !cw.isEmpty {
                json += Array("\\n".utf8)
                ArchiveWords.append(cw, to: &json, escapingJSON: true)
            }
            if !row.alt.isEmpty {
                json += Array("\\n".utf8)
                ArchiveWords.append(row.alt, to: &json, escapingJSON: true)
            }
            json.append(UInt8(ascii: "\""))
        }
        json.append(UInt8(ascii: "}"))
        try connection.run("INSERT INTO search_words (rowid, words) SELECT CAST(key AS INTEGER), value FROM json_each(?)",
                           [.text(String(decoding: json, as: UTF8.self))])
    }
}

/// JSON string literals, written by hand (bytes) for the full-text rows.
enum JSONText {
    /// A JSON array of `rows`, each written by `row` (its elements, without the brackets), as
    /// one text for `json_each`: how a page's rows of a table go to SQLite in one statement.
    static func array<Rows: Collection>(_ rows: Rows, bytesEach: Int = 64, _ row: (Rows.Element, inout [UInt8]) -> Void) -> String {
        var json: [UInt8] = [UInt8(ascii: "[")]
        json.reserveCapacity(rows.count * bytesEach)
        for (offset, element) in rows.enumerated() {
            if offset > 0 { json.append(UInt8(ascii: ",")) }
            json.append(UInt8(ascii: "["))
            row(element, &json)
            json.append(UInt8(ascii: "]"))
        }
        json.append(UInt8(ascii: "]"))
        return String(decoding: json, as: UTF8.self)
    }

    /// `text`, or `null`.
    static func append(optional text: String?, to json: inout [UInt8]) {
        if let text { append(text, to: &json) } else { json += Array("null".utf8) }
    }

    static func append(_ text: String, to json: inout [UInt8]) {
        json.append(UInt8(ascii: "\""))
        for byte in text.utf8 { appendEscaped(byte, to: &json) }
        json.append(UInt8(ascii: "\""))
    }

    /// One byte of UTF-8 inside a JSON string: a quote, a backslash and the
    /// control characters escaped (no byte of a multibyte character is one of them).
    @inline(__always)
    static func appendEscaped(_ byte: UInt8, to json: inout [UInt8]) {
        switch byte {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"):
            json.append(UInt8(ascii: "\\"))
            json.append(byte)
        case 0..<0x20:
            let hex = Array("0123456789abcdef".utf8)
            json += [UInt8(ascii: "\\"), UInt8(ascii: "u"), UInt8(ascii: "0"), UInt8(ascii: "0"), hex[Int(byte >> 4)], hex[Int(byte & 0xF)]]
        default:
            json.append(byte)
        }
    }
}
