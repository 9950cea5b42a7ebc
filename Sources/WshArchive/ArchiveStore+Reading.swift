import FoundationEssentials
import WshModel
import WshText

/// One match of `archive search`.
public struct ArchiveMatch: Sendable {
    /// The status as the server sent it, read again from the kept JSON.
    public var status: Status
    /// The text with the matching parts between `ArchiveMatch.markStart` and `markEnd`.
    public var marked: String
    /// Where it came from.
    public var server: String
    public var account: String
    /// When a sync found it deleted on the server (ISO 8601); nil while it is there.
    public var deletedAt: String?

    /// The characters `marked` puts around a match (control characters, so no
    /// server text can forge one: the sanitizer removes them from the text itself).
    public static let markStart: Character = "\u{1}"
    public static let markEnd: Character = "\u{2}"
}

/// One source in `archive`'s summary.
public struct ArchiveSourceSummary: Sendable, Hashable {
    public var server: String
    public var account: String
    public var source: String
    public var count: Int
    public var lastSync: String?
    /// The walk back reached the timeline's end.
    public var complete: Bool
}

extension ArchiveStore {
    /// How many of a query's newest matches `search` ranks, at most.
    public static let rankedWindow = 5000

    /// The statuses matching `query`, best first (bm25), at most `limit`; a
    /// query matching more than `rankedWindow` statuses is ranked among its
    /// newest `rankedWindow`.
    ///
    /// Each word of `query` must appear in the text, the content warning or
    /// a media description. A word of three characters or more matches
    /// anywhere inside a word (`search`, the trigram tokenizer: so Chinese,
    /// written without spaces, matches too). A Chinese, Japanese or Korean
    /// word of one or two characters is found inside a sentence through
    /// `search_words` (ArchiveWords); a Latin one of one or two letters
    /// matches the start of a word there. Only a short word mixing scripts
    /// or of punctuation is looked for by a scan (LIKE).
    public func search(_ query: String, limit: Int) throws(ArchiveError) -> [ArchiveMatch] {
        let words = query.split(whereSeparator: \.isWhitespace).map(String.init)
        guard !words.isEmpty else { return [] }
        // What a sync left unindexed (it was killed) is indexed first, when the file can be written. Where
        // that fails (a full disk, a file of a newer wsh), the statuses above the index are scanned instead.
        if !isNewer, (try? hasPendingIndex()) == true { try? indexPending() }
        let unindexedAbove = try Self.explaining(path) { () throws(ArchiveError) in try unindexedBoundary() }
        var trigrams: [String] = []
        var short: [String] = []
        var scanned: [String] = []
        for word in words {
            switch ArchiveWords.term(word) {
            case .trigram(let text): trigrams.append(ArchiveWords.quoted(text))
            case .word(let expression): short.append(expression)
            case .scan(let text): scanned.append(text)
            }
        }
        var parameters: [SQLiteValue] = []
        var filters: [String] = []
        // Ranked by the trigram table when a word is there, else by the table of short words.
        let ranking: String
        if !trigrams.isEmpty {
            ranking = "search"
            parameters.append(.text(trigrams.joined(separator: " ")))
            if !short.isEmpty {
                filters.append("rowid IN (SELECT rowid FROM search_words WHERE search_words MATCH ?)")
                parameters.append(.text(short.joined(separator: " ")))
            }
        } else if !short.isEmpty {
            ranking = "search_words"
            parameters.append(.text(short.joined(separator: " ")))
        } else {
            ranking = ""
        }
        for word in scanned {
            let pattern = Self.likePattern(word)
            filters.append("rowid IN (SELECT rowid FROM search WHERE text LIKE ? ESCAPE '\\' OR cw LIKE ? ESCAPE '\\' "
                           + "OR alt LIKE ? ESCAPE '\\')")
            parameters += [.text(pattern), .text(pattern), .text(pattern)]
        }
        // The index answers for what it holds; the statuses above it are scanned below.
        if let unindexedAbove {
            filters.append("rowid <= ?")
            parameters.append(.integer(unindexedAbove))
        }
        parameters.append(.integer(Int64(limit)))
        let sql: String
        if ranking.isEmpty {
            sql = """
                SELECT s.api, s.json, s.text, s.server, s.account, s.deleted_at
                FROM statuses s WHERE s.\(filters.joined(separator: " AND s.")) ORDER BY s.id_number DESC LIMIT ?
                """
        } else {
            // The best rows are ranked on the index alone, then joined to their JSON. A query of one table
            // alone ranks the newest `rankedWindow` of its matches: a single character matching a third of
            // the archive cost bm25 a microsecond a match. (With a filter on another table the window could
            // leave out every row both match, so all are ranked.)
            var filter = filters.isEmpty ? "" : " AND " + filters.joined(separator: " AND ")
            if filters.isEmpty {
                filter = " AND rowid >= coalesce((SELECT rowid FROM \(ranking) WHERE \(ranking) MATCH ? ORDER BY rowid DESC "
                    + "LIMIT 1 OFFSET \(Self.rankedWindow - 1)), 0)"
                parameters.insert(parameters[0], at: 1)
            }
            sql = """
                WITH best AS (SELECT rowid, bm25(\(ranking)) AS score FROM \(ranking) WHERE \(ranking) MATCH ?\(filter)
                              ORDER BY score LIMIT ?)
                SELECT s.api, s.json, s.text, s.server, s.account, s.deleted_at
                FROM best JOIN statuses s ON s.rowid = best.rowid ORDER BY best.score
                """
        }
        var matches: [ArchiveMatch] = []
        try Self.explaining(path) { () throws(ArchiveError) in
            try connection.run(sql, parameters) { row in matches.append(contentsOf: Self.match(row, words)) }
            if let unindexedAbove, matches.count < limit {
                try scanUnindexed(above: unindexedAbove, words, limit: limit - matches.count) { row in
                    matches.append(contentsOf: Self.match(row, words))
                }
            }
        }
        return matches
    }

    /// The statuses above `rowid` (not in the full-text tables) in which each of `words` appears, newest
    /// first, at most `limit`: what `search` adds to the matches the index ranked when it could not catch up.
    private func scanUnindexed(above rowid: Int64, _ words: [String], limit: Int, row: (SQLiteConnection.Row) -> Void)
        throws(ArchiveError) {
        let alt = "coalesce((SELECT group_concat(alt, char(10)) FROM media WHERE status = s.rowid), '')"
        let each = "(s.text LIKE ?1 ESCAPE '\\' OR s.cw LIKE ?1 ESCAPE '\\' OR \(alt) LIKE ?1 ESCAPE '\\')"
        let filters = words.indices.map { index in each.replacing("?1", with: "?\(index + 3)") }
        try connection.run("""
            SELECT s.api, s.json, s.text, s.server, s.account, s.deleted_at FROM statuses s
            WHERE s.rowid > ?1 AND \(filters.joined(separator: " AND ")) ORDER BY s.rowid DESC LIMIT ?2
            """, [.integer(rowid), .integer(Int64(limit))] + words.map { .text(Self.likePattern($0)) }, row: row)
    }

    /// The highest rowid both full-text tables hold, when statuses above it wait to be indexed; nil when none wait.
    private func unindexedBoundary() throws(ArchiveError) -> Int64? {
        guard try hasPendingIndex() else { return nil }
        let indexed = try connection.scalar("""
            SELECT min((SELECT coalesce(max(id), 0) FROM search_docsize), (SELECT coalesce(max(id), 0) FROM search_words_docsize))
            """)
        if case .integer(let rowid)? = indexed { return rowid }
        return nil
    }

    /// A match read from a row of (api, json, text, server, account, deleted_at); none when its JSON does not read.
    private static func match(_ row: SQLiteConnection.Row, _ words: [String]) -> [ArchiveMatch] {
        guard let status = status(api: row.string(0) ?? "", json: row.string(1) ?? "") else { return [] }
        return [ArchiveMatch(status: status, marked: mark(words, in: row.string(2) ?? ""),
                             server: row.string(3) ?? "", account: row.string(4) ?? "", deletedAt: row.string(5))]
    }

    /// `%word%` for LIKE, with `\`, `%` and `_` in the word escaped.
    private static func likePattern(_ word: String) -> String {
        "%" + word.replacing("\\", with: "\\\\").replacing("%", with: "\\%").replacing("_", with: "\\_") + "%"
    }

    /// The statuses `source` brought on `server` to `account`, newest first:
    /// `limit` of them, older than `olderThan` when given. Deleted ones are left out.
    /// With no `account`, any account's (offline, the account cannot be asked).
    public func statuses(server: String, account: String?, source: String, limit: Int, olderThan: String? = nil)
        throws(ArchiveError) -> [Status] {
        var statuses: [Status] = []
        let below = olderThan.flatMap { Int64($0) } ?? .max
        try Self.explaining(path) { () throws(ArchiveError) in
            try connection.run("""
                SELECT DISTINCT s.api, s.json, s.id_number FROM source_statuses ss JOIN statuses s ON s.rowid = ss.status
                WHERE ss.server = ?1 AND (?2 IS NULL OR ss.account = ?2) AND ss.source = ?3 AND s.deleted_at IS NULL
                  AND s.id_number < ?4
                ORDER BY s.id_number DESC LIMIT ?5
                """, [.text(server), SQLiteValue(account), .text(source), .integer(below),
                      .integer(Int64(limit))]) { row in
                if let status = Self.status(api: row.string(0) ?? "", json: row.string(1) ?? "") { statuses.append(status) }
            }
        }
        return statuses
    }

    /// Each source's count and last sync, for `archive`.
    public func summary() throws(ArchiveError) -> [ArchiveSourceSummary] {
        try Self.explaining(path) { () throws(ArchiveError) in try Self.summary(connection) }
    }

    /// Each source's count and last sync, read through `connection` (a read-only one will do).
    public static func summary(_ connection: SQLiteConnection) throws(ArchiveError) -> [ArchiveSourceSummary] {
        var sources: [ArchiveSourceSummary] = []
        try explaining(connection.path) { () throws(ArchiveError) in
            try connection.run("""
                SELECT c.server, c.account, c.source, c.last_sync, c.back_done,
                    (SELECT count(*) FROM source_statuses ss WHERE ss.server = c.server AND ss.account = c.account
                        AND ss.source = c.source)
                FROM cursors c ORDER BY c.server, c.account, c.source
                """) { row in
                sources.append(ArchiveSourceSummary(
                    server: row.string(0) ?? "", account: row.string(1) ?? "", source: row.string(2) ?? "",
                    count: Int(row.integer(5) ?? 0), lastSync: row.string(3), complete: row.integer(4) == 1))
            }
        }
        return sources
    }

    /// How many statuses the file holds.
    public func statusCount() throws(ArchiveError) -> Int {
        if case .integer(let count)? = try connection.scalar("SELECT count(*) FROM statuses") { return Int(count) }
        return 0
    }

    /// A status from its kept JSON, read as its API writes it.
    public static func status(api: String, json: String) -> Status? {
        let data = Data(json.utf8)
        if api == "mastodon" {
            return (try? ModelDecoding.decode(MastodonStatus.self, from: data))?.status
        }
        if api == "activitypub" {
            return JSONValue.parse(data).flatMap { note in
                OutboxImport.status(note: note, actor: note["attributedTo"]?.string ?? "")
            }
        }
        return try? ModelDecoding.decode(Status.self, from: data)
    }

    /// `text` with each of `words` between the marks, found whatever their case.
    public static func mark(_ words: [String], in text: String) -> String {
        let characters = Array(text)
        let folded = characters.map { $0.lowercased() }
        let wanted = words.map { Array($0).map { $0.lowercased() } }.filter { !$0.isEmpty }
        var result = ""
        var index = 0
        while index < characters.count {
            let found = wanted.filter { word in
                index + word.count <= characters.count && folded[index..<(index + word.count)].elementsEqual(word)
            }.map(\.count).max()
            if let length = found {
                result.append(ArchiveMatch.markStart)
                result += String(characters[index..<(index + length)])
                result.append(ArchiveMatch.markEnd)
                index += length
            } else {
                result.append(characters[index])
                index += 1
            }
        }
        return result
    }
}
