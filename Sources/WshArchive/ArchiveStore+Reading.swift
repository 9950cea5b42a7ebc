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
    /// The statuses matching `query`, best first (bm25), at most `limit`.
    ///
    /// Each word of `query` must appear in the text, the content warning or
    /// a media description, anywhere inside a word (the trigram tokenizer: so
    /// Chinese, written without spaces, matches too). A word shorter than
    /// three characters has no trigram: such queries are answered by a scan
    /// of the same table (LIKE), newest first.
    public func search(_ query: String, limit: Int) throws(ArchiveError) -> [ArchiveMatch] {
        let words = query.split(whereSeparator: \.isWhitespace).map(String.init)
        guard !words.isEmpty else { return [] }
        let marks = "char(1), char(2)"
        let sql: String
        var parameters: [SQLiteValue]
        if words.allSatisfy({ $0.count >= 3 }) {
            let match = words.map { "\"" + $0.replacing("\"", with: "\"\"") + "\"" }.joined(separator: " ")
            // The best rows are ranked first on the index alone; only they are
            // then joined to their JSON and marked (`highlight` needs the MATCH again).
            sql = """
                WITH best AS (SELECT rowid, bm25(search) AS score FROM search WHERE search MATCH ?1 ORDER BY score LIMIT ?2)
                SELECT s.api, s.json, highlight(search, 0, \(marks)), s.server, s.account, s.deleted_at
                FROM best JOIN search ON search.rowid = best.rowid JOIN statuses s ON s.rowid = best.rowid
                WHERE search MATCH ?1 ORDER BY best.score
                """
            parameters = [.text(match), .integer(Int64(limit))]
        } else {
            let each = words.map { _ in "(search.text LIKE ? ESCAPE '\\' OR search.cw LIKE ? ESCAPE '\\' OR search.alt LIKE ? ESCAPE '\\')" }
            sql = """
                SELECT s.api, s.json, search.text, s.server, s.account, s.deleted_at
                FROM search JOIN statuses s ON s.rowid = search.rowid
                WHERE \(each.joined(separator: " AND ")) ORDER BY s.id_number DESC LIMIT ?
                """
            parameters = []
            for word in words {
                let escaped = "%" + word.replacing("\\", with: "\\\\").replacing("%", with: "\\%").replacing("_", with: "\\_") + "%"
                parameters += [.text(escaped), .text(escaped), .text(escaped)]
            }
            parameters.append(.integer(Int64(limit)))
        }
        var matches: [ArchiveMatch] = []
        do {
            try connection.run(sql, parameters) { row in
                guard let status = Self.status(api: row.string(0) ?? "", json: row.string(1) ?? "") else { return }
                var marked = row.string(2) ?? ""
                if !words.allSatisfy({ $0.count >= 3 }) { marked = Self.mark(words, in: marked) }
                matches.append(ArchiveMatch(status: status, marked: marked, server: row.string(3) ?? "",
                                            account: row.string(4) ?? "", deletedAt: row.string(5)))
            }
        } catch {
            throw Self.explain(error, path: path)
        }
        return matches
    }

    /// The statuses `source` brought on `server` to `account`, newest first:
    /// `limit` of them, older than `olderThan` when given. Deleted ones are left out.
    /// With no `account`, any account's (offline, the account cannot be asked).
    public func statuses(server: String, account: String?, source: String, limit: Int, olderThan: String? = nil)
        throws(ArchiveError) -> [Status] {
        var statuses: [Status] = []
        let below = olderThan.flatMap { Int64($0) } ?? .max
        do {
            try connection.run("""
                SELECT DISTINCT s.api, s.json, s.id_number FROM source_statuses ss JOIN statuses s ON s.rowid = ss.status
                WHERE ss.server = ?1 AND (?2 IS NULL OR ss.account = ?2) AND ss.source = ?3 AND s.deleted_at IS NULL
                  AND s.id_number < ?4
                ORDER BY s.id_number DESC LIMIT ?5
                """, [.text(server), account.map { .text($0) } ?? .null, .text(source), .integer(below),
                      .integer(Int64(limit))]) { row in
                if let status = Self.status(api: row.string(0) ?? "", json: row.string(1) ?? "") { statuses.append(status) }
            }
        } catch {
            throw Self.explain(error, path: path)
        }
        return statuses
    }

    /// Each source's count and last sync, for `archive`.
    public func summary() throws(ArchiveError) -> [ArchiveSourceSummary] {
        do { return try Self.summary(connection) } catch { throw Self.explain(error, path: path) }
    }

    /// Each source's count and last sync, read through `connection` (a read-only one will do).
    public static func summary(_ connection: SQLiteConnection) throws(ArchiveError) -> [ArchiveSourceSummary] {
        var sources: [ArchiveSourceSummary] = []
        do {
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
        } catch {
            throw explain(error, path: connection.path)
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

    /// `text` with each of `words` between the marks.
    static func mark(_ words: [String], in text: String) -> String {
        var result = ""
        var rest = Substring(text)
        while !rest.isEmpty {
            let found = words.compactMap { word in rest.firstRange(of: word).map { ($0, word) } }
                .min { $0.0.lowerBound < $1.0.lowerBound }
            guard let (range, _) = found else { break }
            result += rest[..<range.lowerBound] + String(ArchiveMatch.markStart) + rest[range] + String(ArchiveMatch.markEnd)
            rest = rest[range.upperBound...]
        }
        return result + rest
    }
}
