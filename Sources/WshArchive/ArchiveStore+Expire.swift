import FoundationEssentials
import WshModel

/// One of the account's own statuses as the archive keeps it: what `expire`'s rules read.
public struct ExpireCandidate: Sendable, Hashable {
    /// The row in `statuses`.
    public var rowid: Int64
    /// The server's status id.
    public var id: String
    /// ISO 8601, UTC.
    public var createdAt: String?
    public var text: String
    public var visibility: String?
    public var favourites: Int
    public var boosts: Int
    /// True for a boost (a repost) of another status.
    public var isBoost: Bool
    /// Its hashtags, as the archive keeps them.
    public var tags: [String]
}

/// One `expire --confirmed` as the archive keeps it: its rules, and what it listed.
public struct ExpireRunRecord: Sendable {
    public var id: Int64
    /// The account that listed it (`@name`).
    public var account: String
    /// The rules, as `ExpireRules` wrote them.
    public var rules: String
    public var listedAt: String
    /// Each listed status, and when it was deleted (nil: not yet).
    public var items: [(status: ExpireCandidate, deletedAt: String?)]
}

/// A kept status's words and options, for `redraft`.
public struct ArchivedDraft: Sendable, Hashable {
    public var id: String
    public var text: String
    public var cw: String?
    public var visibility: String?
    public var language: String?
    /// When `expire` (or `delete`) removed it from the server, if it did.
    public var deletedByMe: String?
}

/// `expire`'s queries and writes: the statuses it may list, its runs, and the
/// marks each deletion leaves (`expire_runs`, `expire_items`, `statuses.deleted_by_me`).
extension ArchiveStore {
    private static let candidateColumns = """
        s.rowid, s.id, s.created_at, s.text, s.visibility, coalesce(s.favourites_count, 0), coalesce(s.reposts_count, 0),
        s.boost_of_id IS NOT NULL, (SELECT group_concat(tag, char(31)) FROM tags WHERE status = s.rowid)
        """

    private static func candidate(_ row: SQLiteConnection.Row) -> ExpireCandidate {
        ExpireCandidate(rowid: row.integer(0) ?? 0, id: row.string(1) ?? "", createdAt: row.string(2), text: row.string(3) ?? "",
                        visibility: row.string(4), favourites: Int(row.integer(5) ?? 0), boosts: Int(row.integer(6) ?? 0),
                        isBoost: row.integer(7) == 1,
                        tags: (row.string(8) ?? "").split(separator: "\u{1F}").map(String.init))
    }

    /// The statuses `authorID` wrote (or boosted) that `account` keeps of
    /// `server`, made before `createdBefore` (ISO 8601), still on the server
    /// as far as the archive knows and not deleted by wsh: oldest first.
    public func expireCandidates(server: String, account: String, authorID: String, createdBefore: String)
        throws(ArchiveError) -> [ExpireCandidate] {
        var found: [ExpireCandidate] = []
        try Self.explaining(path) { () throws(ArchiveError) in
            try connection.run("""
                SELECT \(Self.candidateColumns) FROM statuses s
                WHERE s.server = ?1 AND s.account = ?2 AND s.author_id = ?3 AND s.created_at < ?4
                  AND s.deleted_at IS NULL AND s.deleted_by_me IS NULL
                ORDER BY s.created_at, s.id_number
                """, [.text(server), .text(account), .text(authorID), .text(createdBefore)]) { row in
                found.append(Self.candidate(row))
            }
        }
        return found
    }

    /// The run of `server` not finished yet whose rules name `authorID`
    /// (found by the account's id, so a renamed account finds its run), with its items.
    public func unfinishedExpireRun(server: String, authorID: String) throws(ArchiveError) -> ExpireRunRecord? {
        var run: ExpireRunRecord?
        try Self.explaining(path) { () throws(ArchiveError) in
            try connection.run("""
                SELECT id, account, rules, listed_at FROM expire_runs
                WHERE server = ? AND finished_at IS NULL AND json_extract(rules, '$.author_id') = ? ORDER BY id DESC LIMIT 1
                """, [.text(server), .text(authorID)]) { row in
                run = ExpireRunRecord(id: row.integer(0) ?? 0, account: row.string(1) ?? "", rules: row.string(2) ?? "",
                                      listedAt: row.string(3) ?? "", items: [])
            }
            guard let id = run?.id else { return }
            try connection.run("""
                SELECT \(Self.candidateColumns), i.deleted_at FROM expire_items i JOIN statuses s ON s.rowid = i.status
                WHERE i.run = ? ORDER BY s.created_at, s.id_number
                """, [.integer(id)]) { row in
                run?.items.append((Self.candidate(row), row.string(9)))
            }
        }
        return run
    }

    /// The rows `rowids` as the archive keeps them now, by rowid.
    public func expireCopies(_ rowids: [Int64]) throws(ArchiveError) -> [Int64: ExpireCandidate] {
        var copies: [Int64: ExpireCandidate] = [:]
        try Self.explaining(path) { () throws(ArchiveError) in
            try connection.run("SELECT \(Self.candidateColumns) FROM statuses s WHERE s.rowid IN (SELECT value FROM json_each(?))",
                               [.text("[" + rowids.map(String.init).joined(separator: ",") + "]")]) { row in
                let copy = Self.candidate(row)
                copies[copy.rowid] = copy
            }
        }
        return copies
    }

    /// Writes a run listing `statuses` (rowids) under `rules`, in one transaction: its id.
    public func startExpireRun(server: String, account: String, rules: String, statuses: [Int64]) throws(ArchiveError) -> Int64 {
        try writing { () throws(ArchiveError) -> Int64 in
            try connection.run("INSERT INTO expire_runs (server, account, rules, listed_at) VALUES (?, ?, ?, ?)",
                               [.text(server), .text(account), .text(rules), .text(Self.now())])
            let run = connection.lastInsertRowID
            try connection.run("INSERT INTO expire_items (run, status) SELECT ?, value FROM json_each(?)",
                               [.integer(run), .text("[" + statuses.map(String.init).joined(separator: ",") + "]")])
            return run
        }
    }

    /// Marks `status` of `run` deleted on the server, in one transaction: the
    /// item's `deleted_at`, and `deleted_by_me` on every row of that server's
    /// status (each account that kept it). The rows stay, with their JSON.
    public func markExpired(run: Int64, status: ExpireCandidate, server: String) throws(ArchiveError) {
        let now = Self.now()
        try writing { () throws(ArchiveError) in
            try connection.run("UPDATE expire_items SET deleted_at = ?, failure = NULL WHERE run = ? AND status = ?",
                               [.text(now), .integer(run), .integer(status.rowid)])
            try connection.run("UPDATE statuses SET deleted_by_me = ? WHERE server = ? AND id = ? AND deleted_by_me IS NULL",
                               [.text(now), .text(server), .text(status.id)])
        }
    }

    /// Notes why `status` of `run` was not deleted (yet): kept now by a rule, a refusal, a wait.
    public func noteExpireFailure(run: Int64, status: Int64, failure: String) throws(ArchiveError) {
        try writing { () throws(ArchiveError) in
            try connection.run("UPDATE expire_items SET failure = ? WHERE run = ? AND status = ?",
                               [.text(failure), .integer(run), .integer(status)])
        }
    }

    /// Marks the unfinished run of `server` whose rules name `authorID` finished, deleting nothing more
    /// (`expire --abandon`); its id, nil when there was none.
    public func abandonExpireRun(server: String, authorID: String) throws(ArchiveError) -> Int64? {
        guard let run = try unfinishedExpireRun(server: server, authorID: authorID) else { return nil }
        try finishExpireRun(run.id)
        return run.id
    }

    /// Marks `run` finished (done, or abandoned): a later `expire --confirmed` lists afresh.
    public func finishExpireRun(_ run: Int64) throws(ArchiveError) {
        try writing { () throws(ArchiveError) in
            try connection.run("UPDATE expire_runs SET finished_at = ? WHERE id = ? AND finished_at IS NULL",
                               [.text(Self.now()), .integer(run)])
        }
    }

    /// The kept words and options of the status `id` of `server` (any account's row), for `redraft`.
    public func archivedDraft(server: String, id: String) throws(ArchiveError) -> ArchivedDraft? {
        var draft: ArchivedDraft?
        try Self.explaining(path) { () throws(ArchiveError) in
            try connection.run("""
                SELECT id, text, cw, visibility, language, deleted_by_me FROM statuses WHERE server = ? AND id = ?
                ORDER BY deleted_by_me IS NULL, rowid DESC LIMIT 1
                """, [.text(server), .text(id)]) { row in
                draft = ArchivedDraft(id: row.string(0) ?? id, text: row.string(1) ?? "", cw: row.string(2),
                                      visibility: row.string(3), language: row.string(4), deletedByMe: row.string(5))
            }
        }
        return draft
    }
}
