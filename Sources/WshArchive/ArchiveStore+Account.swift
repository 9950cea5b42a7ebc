import Glibc
import WshText

/// One edge of the account's graph as a sync read it: who, and how the
/// edge is set where the server said.
public struct ArchivedRelation: Sendable, Hashable {
    public var targetID: String
    /// The address as the server wrote it: `name`, or `name@domain`.
    public var acct: String?
    public var displayName: String?
    /// The account's JSON as the server sent it (kept in `accounts`).
    public var json: String?
    public var showBoosts: Bool?
    public var notify: Bool?
    public var languages: [String]?
    public var hideNotifications: Bool?
    public var expiresAt: String?

    public init(targetID: String, acct: String?, displayName: String? = nil, json: String? = nil, showBoosts: Bool? = nil,
                notify: Bool? = nil, languages: [String]? = nil, hideNotifications: Bool? = nil, expiresAt: String? = nil) {
        self.targetID = targetID
        self.acct = acct
        self.displayName = displayName
        self.json = json
        self.showBoosts = showBoosts
        self.notify = notify
        self.languages = languages
        self.hideNotifications = hideNotifications
        self.expiresAt = expiresAt
    }
}

/// One list of the account's, with its members as a sync read them.
public struct ArchivedList: Sendable, Hashable {
    public var id: String
    public var title: String
    public var repliesPolicy: String?
    public var exclusive: Bool?
    public var members: [ArchivedRelation]

    public init(id: String, title: String, repliesPolicy: String?, exclusive: Bool?, members: [ArchivedRelation]) {
        self.id = id
        self.title = title
        self.repliesPolicy = repliesPolicy
        self.exclusive = exclusive
        self.members = members
    }
}

/// One notification as the server sent it.
public struct ArchivedNotification: Sendable, Hashable {
    public var id: String
    public var type: String
    public var createdAt: String?
    public var fromID: String?
    public var fromAcct: String?
    public var statusID: String?
    public var json: String

    public init(id: String, type: String, createdAt: String?, fromID: String?, fromAcct: String?, statusID: String?, json: String) {
        self.id = id
        self.type = type
        self.createdAt = createdAt
        self.fromID = fromID
        self.fromAcct = fromAcct
        self.statusID = statusID
        self.json = json
    }
}

/// Who came and who left between the last two complete reads of a kind.
public struct ArchiveChanges: Sendable, Hashable {
    public struct Edge: Sendable, Hashable {
        public var targetID: String
        public var acct: String?
    }
    /// The two syncs compared (nil `before`: there was only one).
    public var before: String?
    public var after: String?
    public var came: [Edge] = []
    public var left: [Edge] = []
}

/// An account's data beyond its timelines: the follow graph, mutes and
/// blocks, lists, notifications. Each kind is read whole by a sync and
/// written in one transaction when the read is complete: an edge seen is
/// touched (`last_seen`), a new one gets `first_seen`, and the read is noted
/// in `relation_syncs`, so an edge whose `last_seen` is older than the kind's
/// last read is gone. A read that stops half-way writes nothing, and so
/// never makes anyone look gone.
extension ArchiveStore {
    /// Keeps a complete read of `kind` (`following`, `followers`, `mutes`, `blocks`); how many edges
    /// are new, and how many of those seen by the read before are gone.
    @discardableResult
    public func storeRelations(_ edges: [ArchivedRelation], kind: String, scope: ArchiveScope) throws(ArchiveError)
        -> (came: Int, left: Int) {
        try writing { () throws(ArchiveError) -> (came: Int, left: Int) in
            let previous = try lastRead(kind, scope)
            let now = Self.readTime(after: previous)
            var came = 0
            for edge in edges {
                try keepAccount(edge, server: scope.server)
                let known = try connection.scalar(
                    "SELECT last_seen FROM relations WHERE server = ? AND account = ? AND kind = ? AND target_id = ?",
                    [.text(scope.server), .text(scope.account), .text(kind), .text(edge.targetID)])
                // An edge not seen by the read before (new, or back after it left) has come.
                if known == nil || known != previous.map(SQLiteValue.text) { came += 1 }
                try connection.run("""
                    INSERT INTO relations (server, account, kind, target_id, acct, first_seen, last_seen, show_boosts,
                                           notify, languages, hide_notifications, expires_at)
                    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                    ON CONFLICT (server, account, kind, target_id) DO UPDATE SET
                        acct = excluded.acct,
                        first_seen = CASE WHEN relations.last_seen = ?13 OR ?13 IS NULL THEN relations.first_seen
                                          ELSE excluded.first_seen END,
                        last_seen = excluded.last_seen, show_boosts = excluded.show_boosts, notify = excluded.notify,
                        languages = excluded.languages, hide_notifications = excluded.hide_notifications,
                        expires_at = excluded.expires_at
                    """, [.text(scope.server), .text(scope.account), .text(kind), .text(edge.targetID), SQLiteValue(edge.acct),
                          .text(now), .text(now), SQLiteValue(edge.showBoosts), SQLiteValue(edge.notify),
                          SQLiteValue(edge.languages?.joined(separator: ",")), SQLiteValue(edge.hideNotifications),
                          SQLiteValue(edge.expiresAt), SQLiteValue(previous)])
            }
            var left = 0
            if let previous, case .integer(let gone)? = try connection.scalar(
                "SELECT count(*) FROM relations WHERE server = ? AND account = ? AND kind = ? AND last_seen = ?",
                [.text(scope.server), .text(scope.account), .text(kind), .text(previous)]) {
                left = Int(gone)
            }
            try noteRead(kind, scope, at: now, count: edges.count)
            return (came, left)
        }
    }

    /// Keeps a complete read of the account's lists, each with its members.
    public func storeLists(_ lists: [ArchivedList], scope: ArchiveScope) throws(ArchiveError) {
        try writing { () throws(ArchiveError) in
            let now = Self.readTime(after: try lastRead("lists", scope))
            for list in lists {
                try connection.run("""
                    INSERT INTO lists (server, account, id, title, replies_policy, exclusive, first_seen, last_seen)
                    VALUES (?, ?, ?, ?, ?, ?, ?, ?)
                    ON CONFLICT (server, account, id) DO UPDATE SET title = excluded.title,
                        replies_policy = excluded.replies_policy, exclusive = excluded.exclusive, last_seen = excluded.last_seen
                    """, [.text(scope.server), .text(scope.account), .text(list.id), .text(list.title),
                          SQLiteValue(list.repliesPolicy), SQLiteValue(list.exclusive), .text(now), .text(now)])
                for member in list.members {
                    try keepAccount(member, server: scope.server)
                    try connection.run("""
                        INSERT INTO list_members (server, account, list_id, target_id, acct, first_seen, last_seen)
                        VALUES (?, ?, ?, ?, ?, ?, ?)
                        ON CONFLICT (server, account, list_id, target_id) DO UPDATE SET acct = excluded.acct,
                            last_seen = excluded.last_seen
                        """, [.text(scope.server), .text(scope.account), .text(list.id), .text(member.targetID),
                              SQLiteValue(member.acct), .text(now), .text(now)])
                }
            }
            try noteRead("lists", scope, at: now, count: lists.count)
        }
    }

    /// Keeps notifications (their statuses are kept as statuses, by `store`).
    public func storeNotifications(_ notifications: [ArchivedNotification], scope: ArchiveScope) throws(ArchiveError) {
        guard !notifications.isEmpty else { return }
        try writing { () throws(ArchiveError) in
            for notification in notifications {
                try connection.run("""
                    INSERT INTO notifications (server, account, id, type, created_at, from_id, from_acct, status_id, json)
                    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
                    ON CONFLICT (server, account, id) DO UPDATE SET json = excluded.json
                    """, [.text(scope.server), .text(scope.account), .text(notification.id), .text(notification.type),
                          SQLiteValue(notification.createdAt), SQLiteValue(notification.fromID), SQLiteValue(notification.fromAcct),
                          SQLiteValue(notification.statusID), .text(notification.json)])
            }
        }
    }

    /// Notes the domain of `server`'s own accounts.
    public func storeDomain(_ domain: String, server: String) throws(ArchiveError) {
        try writing { () throws(ArchiveError) in
            try connection.run("""
                INSERT INTO servers (server, domain, seen_at) VALUES (?, ?, ?)
                ON CONFLICT (server) DO UPDATE SET domain = excluded.domain, seen_at = excluded.seen_at
                """, [.text(server), .text(domain), .text(Self.now())])
        }
    }

    /// Who came and who left in `kind` between its last two complete reads.
    public static func changes(_ connection: SQLiteConnection, kind: String, server: String, account: String)
        throws(ArchiveError) -> ArchiveChanges {
        var times: [String] = []
        try connection.run("""
            SELECT synced_at FROM relation_syncs WHERE server = ? AND account = ? AND kind = ? ORDER BY synced_at DESC LIMIT 2
            """, [.text(server), .text(account), .text(kind)]) { row in times.append(row.string(0) ?? "") }
        var changes = ArchiveChanges(before: times.count > 1 ? times[1] : nil, after: times.first)
        guard let after = changes.after, let before = changes.before else { return changes }
        try connection.run("""
            SELECT target_id, acct, first_seen = ?, last_seen = ? FROM relations
            WHERE server = ? AND account = ? AND kind = ? AND (first_seen = ? OR last_seen = ?) ORDER BY acct
            """, [.text(after), .text(before), .text(server), .text(account), .text(kind), .text(after), .text(before)]) { row in
            let edge = ArchiveChanges.Edge(targetID: row.string(0) ?? "", acct: row.string(1))
            if row.integer(2) == 1 { changes.came.append(edge) } else if row.integer(3) == 1 { changes.left.append(edge) }
        }
        return changes
    }

    /// When `kind` was last read whole for `scope`, if ever.
    private func lastRead(_ kind: String, _ scope: ArchiveScope) throws(ArchiveError) -> String? {
        try connection.scalar("SELECT max(synced_at) FROM relation_syncs WHERE server = ? AND account = ? AND kind = ?",
                              [.text(scope.server), .text(scope.account), .text(kind)])?.textValue
    }

    /// Now (to the millisecond), after `previous`: two reads never share a time, so they compare.
    static func readTime(after previous: String?) -> String {
        for _ in 0..<20 {
            let now = Self.now()
            guard let previous, now <= previous else { return now }
            usleep(1_000)
        }
        // A clock that went back: still after the read before.
        return (previous ?? "") + "+"
    }

    private func noteRead(_ kind: String, _ scope: ArchiveScope, at time: String, count: Int) throws(ArchiveError) {
        try connection.run("INSERT OR REPLACE INTO relation_syncs (server, account, kind, synced_at, count) VALUES (?, ?, ?, ?, ?)",
                           [.text(scope.server), .text(scope.account), .text(kind), .text(time), .integer(Int64(count))])
    }

    /// The account in `accounts`, with its JSON where the read had it.
    private func keepAccount(_ edge: ArchivedRelation, server: String) throws(ArchiveError) {
        try connection.run("""
            INSERT INTO accounts (server, id, name, display_name, json) VALUES (?, ?, ?, ?, ?)
            ON CONFLICT (server, id) DO UPDATE SET name = excluded.name, display_name = excluded.display_name,
                json = coalesce(excluded.json, accounts.json)
            """, [.text(server), .text(edge.targetID), SQLiteValue(edge.acct.map { "@" + $0 }), SQLiteValue(edge.displayName),
                  SQLiteValue(edge.json)])
    }
}


/// One earlier version of a status, from the server's edit history.
public struct ArchivedVersion: Sendable, Hashable {
    /// When the version after it was written (when this one was replaced).
    public var replacedAt: String?
    public var text: String
    public var cw: String?
    public var json: String

    public init(replacedAt: String?, text: String, cw: String?, json: String) {
        self.replacedAt = replacedAt
        self.text = text
        self.cw = cw
        self.json = json
    }
}

extension ArchiveStore {
    /// The kept statuses of `scope`'s source that were edited since their history was last kept:
    /// rowid, id and the edit's time.
    public func statusesWantingHistory(_ scope: ArchiveScope) throws(ArchiveError) -> [(rowid: Int64, id: String, editedAt: String)] {
        var found: [(rowid: Int64, id: String, editedAt: String)] = []
        try connection.run("""
            SELECT s.rowid, s.id, s.edited_at FROM source_statuses ss JOIN statuses s ON s.rowid = ss.status
            WHERE ss.server = ? AND ss.account = ? AND ss.source = ? AND s.edited_at IS NOT NULL AND s.deleted_at IS NULL
                AND s.history_edited_at IS NOT s.edited_at
            """, [.text(scope.server), .text(scope.account), .text(scope.source)]) { row in
            found.append((row.integer(0) ?? 0, row.string(1) ?? "", row.string(2) ?? ""))
        }
        return found
    }

    /// Keeps the earlier versions of the status `rowid` that `edits` lacks (by when each was
    /// replaced), and notes that its history up to `editedAt` is kept; how many were new.
    @discardableResult
    public func keepHistory(_ versions: [ArchivedVersion], of rowid: Int64, editedAt: String) throws(ArchiveError) -> Int {
        try writing { () throws(ArchiveError) -> Int in
            var added = 0
            for version in versions {
                guard case .integer(0)? = try connection.scalar(
                    "SELECT count(*) FROM edits WHERE status = ? AND edited_at IS ?", [.integer(rowid), SQLiteValue(version.replacedAt)])
                else { continue }
                try connection.run("INSERT INTO edits (status, edited_at, text, cw, json, replaced_at) VALUES (?, ?, ?, ?, ?, ?)",
                                   [.integer(rowid), SQLiteValue(version.replacedAt), .text(version.text), SQLiteValue(version.cw),
                                    .text(version.json), .text(Self.now())])
                added += 1
            }
            try connection.run("UPDATE statuses SET history_edited_at = ? WHERE rowid = ?", [.text(editedAt), .integer(rowid)])
            return added
        }
    }
}

/// One kind of an account's data in the archive: how many the last complete read saw, and when.
public struct ArchiveKindSummary: Sendable, Hashable {
    public var server: String
    public var account: String
    public var kind: String
    public var count: Int
    public var lastSync: String
}

extension ArchiveStore {
    /// Each kind of each account's data (following, followers, mutes, blocks, lists) as its last
    /// read saw it, read through `connection` (a read-only one will do).
    public static func kindSummary(_ connection: SQLiteConnection) throws(ArchiveError) -> [ArchiveKindSummary] {
        var kinds: [ArchiveKindSummary] = []
        try connection.run("""
            SELECT server, account, kind, count, max(synced_at) FROM relation_syncs GROUP BY server, account, kind
            ORDER BY server, account, kind
            """) { row in
            kinds.append(ArchiveKindSummary(server: row.string(0) ?? "", account: row.string(1) ?? "", kind: row.string(2) ?? "",
                                            count: Int(row.integer(3) ?? 0), lastSync: row.string(4) ?? ""))
        }
        return kinds
    }
}
