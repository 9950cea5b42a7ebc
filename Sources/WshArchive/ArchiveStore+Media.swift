import WshText

/// A remote file the archive's statuses show: an attachment, an author's
/// avatar, a custom emoji.
public struct ArchiveMediaWanted: Sendable, Hashable {
    public let url: String
    /// `attachment`, `avatar` or `emoji`.
    public let kind: String
}

/// How much of what the statuses show is kept in the media folder.
public struct ArchiveMediaCount: Sendable, Hashable, Encodable {
    public var keptFiles = 0
    public var keptBytes = 0
    public var missing = 0
}

/// `archive media`'s rows: which URLs the kept statuses show (read from the
/// JSON each API writes, in one query), and `media_files`, one row a URL:
/// its hash and type once kept, else why its last try failed.
extension ArchiveStore {
    /// The most tries a URL gets: one that failed this often is left (its failure kept).
    public static let mediaTries = 3

    /// Notes in `media_files` every URL the statuses of `sources` (all kept
    /// statuses when nil) show, and returns those not kept yet that have
    /// had fewer than `mediaTries` tries, in the order they were first noted,
    /// with how many of the URLs are missing in all.
    public func noteMedia(sources: [String]?, statuses: [Int64]? = nil) throws(ArchiveError) -> (wanted: [ArchiveMediaWanted], missing: Int) {
        try writing { () throws(ArchiveError) in
            try connection.execute("DROP TABLE IF EXISTS temp.media_shown")
            try connection.run("CREATE TEMP TABLE media_shown AS " + Self.shownMediaQuery, Self.selection(sources, statuses))
            try connection.run("""
                INSERT INTO media_files (url, kind) SELECT url, kind FROM temp.media_shown WHERE true
                ON CONFLICT (url) DO NOTHING
                """)
            var wanted: [ArchiveMediaWanted] = []
            var missing = 0
            try connection.run("""
                SELECT f.url, f.kind, f.tries FROM media_files f JOIN temp.media_shown m ON m.url = f.url
                WHERE f.sha256 IS NULL ORDER BY f.rowid
                """) { row in
                missing += 1
                if (row.integer(2) ?? 0) < Self.mediaTries {
                    wanted.append(ArchiveMediaWanted(url: row.string(0) ?? "", kind: row.string(1) ?? "attachment"))
                }
            }
            try connection.execute("DROP TABLE temp.media_shown")
            return (wanted, missing)
        }
    }

    /// The URLs the statuses show, one row a URL with its kind (`url`,
    /// `kind`): the `media` table's attachments, and from each status's JSON
    /// (and the status a boost or repost carries) Mastodon's attachments,
    /// avatar and custom emojis (the status's and its author's), Weibo's
    /// pictures (`pic_urls`, `original_pic`) and avatar. `?1` is a JSON array
    /// of sources, or NULL for every kept status; `?2` one of statuses' rowids, or NULL for all.
    static let shownMediaQuery = """
        WITH kept AS (
            SELECT rowid AS id, api, json FROM statuses
            WHERE (?1 IS NULL OR rowid IN (SELECT status FROM source_statuses WHERE source IN (SELECT value FROM json_each(?1))))
                AND (?2 IS NULL OR rowid IN (SELECT value FROM json_each(?2)))
        ), parts (api, j) AS (
            SELECT api, json FROM kept WHERE api IN ('mastodon', 'weibo') AND json_valid(json)
            UNION ALL SELECT api, json_extract(json, '$.reblog') FROM kept
                WHERE api = 'mastodon' AND json_valid(json) AND json_type(json, '$.reblog') = 'object'
            UNION ALL SELECT api, json_extract(json, '$.retweeted_status') FROM kept
                WHERE api = 'weibo' AND json_valid(json) AND json_type(json, '$.retweeted_status') = 'object'
        ), shown (url, kind) AS (
            SELECT url, 'attachment' FROM media WHERE status IN (SELECT id FROM kept)
            UNION ALL SELECT json_extract(e.value, '$.url'), 'attachment' FROM parts p, json_each(p.j, '$.media_attachments') e
                WHERE p.api = 'mastodon'
            UNION ALL SELECT json_extract(p.j, '$.account.avatar'), 'avatar' FROM parts p WHERE p.api = 'mastodon'
            UNION ALL SELECT json_extract(p.j, '$.account.avatar_static'), 'avatar' FROM parts p WHERE p.api = 'mastodon'
            UNION ALL SELECT json_extract(e.value, '$.url'), 'emoji' FROM parts p, json_each(p.j, '$.emojis') e WHERE p.api = 'mastodon'
            UNION ALL SELECT json_extract(e.value, '$.url'), 'emoji' FROM parts p, json_each(p.j, '$.account.emojis') e
                WHERE p.api = 'mastodon'
            UNION ALL SELECT json_extract(e.value, '$.thumbnail_pic'), 'attachment' FROM parts p, json_each(p.j, '$.pic_urls') e
                WHERE p.api = 'weibo'
            UNION ALL SELECT json_extract(p.j, '$.original_pic'), 'attachment' FROM parts p WHERE p.api = 'weibo'
            UNION ALL SELECT json_extract(p.j, '$.user.profile_image_url'), 'avatar' FROM parts p WHERE p.api = 'weibo'
            UNION ALL SELECT json_extract(p.j, '$.user.avatar_large'), 'avatar' FROM parts p WHERE p.api = 'weibo'
        )
        SELECT url, min(kind) AS kind FROM shown
        WHERE typeof(url) = 'text' AND (url LIKE 'http://%' OR url LIKE 'https://%') GROUP BY url
        """

    /// `?1` and `?2` of `shownMediaQuery`.
    static func selection(_ sources: [String]?, _ statuses: [Int64]?) -> [SQLiteValue] {
        [sources.map { .text(String(decoding: JSONValue.array($0.map(JSONValue.string)).encoded(), as: UTF8.self)) } ?? .null,
         statuses.map { .text("[" + $0.map(String.init).joined(separator: ",") + "]") } ?? .null]
    }

    /// Those of `statuses` (rowids) with an attachment whose file is not kept.
    public func statusesMissingMedia(_ statuses: [Int64]) throws(ArchiveError) -> Set<Int64> {
        var missing = Set<Int64>()
        for status in statuses {
            let unkept = try connection.scalar("""
                WITH its AS (\(Self.shownMediaQuery))
                SELECT count(*) FROM its LEFT JOIN media_files f ON f.url = its.url
                WHERE its.kind = 'attachment' AND f.sha256 IS NULL
                """, Self.selection(nil, [status]))
            if case .integer(let count)? = unkept, count > 0 { missing.insert(status) }
        }
        return missing
    }

    /// Notes `url` as kept: its hash, size and type, in one transaction.
    public func keepMedia(url: String, sha256: String, bytes: Int, type: String) throws(ArchiveError) {
        try writing { () throws(ArchiveError) in
            try connection.run("""
                UPDATE media_files SET sha256 = ?, bytes = ?, type = ?, kept_at = ?, failure = NULL, tries = tries + 1
                WHERE url = ?
                """, [.text(sha256), .integer(Int64(bytes)), .text(type), .text(Self.now()), .text(url)])
        }
    }

    /// Notes a try of `url` that failed, and why (one line).
    public func failMedia(url: String, failure: String) throws(ArchiveError) {
        try writing { () throws(ArchiveError) in
            try connection.run("UPDATE media_files SET failure = ?, tries = tries + 1 WHERE url = ?", [.text(failure), .text(url)])
        }
    }

    /// The files kept and their size, and the URLs not kept: those noted in
    /// `media_files`, and attachments of the `media` table not noted yet (avatars
    /// and emojis are counted once `archive media` noted them). Read through
    /// `connection` (a read-only one will do).
    public static func mediaCount(_ connection: SQLiteConnection) throws(ArchiveError) -> ArchiveMediaCount {
        var count = ArchiveMediaCount()
        try explaining(connection.path) { () throws(ArchiveError) in
            try connection.run("""
                SELECT (SELECT count(*) FROM media_files WHERE sha256 IS NOT NULL),
                       (SELECT coalesce(sum(bytes), 0) FROM media_files WHERE sha256 IS NOT NULL),
                       (SELECT count(*) FROM media_files WHERE sha256 IS NULL)
                     + (SELECT count(DISTINCT url) FROM media WHERE url IS NOT NULL
                            AND url NOT IN (SELECT url FROM media_files))
                """) { row in
                count = ArchiveMediaCount(keptFiles: Int(row.integer(0) ?? 0), keptBytes: Int(row.integer(1) ?? 0),
                                          missing: Int(row.integer(2) ?? 0))
            }
        }
        return count
    }
}
