import FoundationEssentials
import WshText

/// `archive export`: what the archive keeps, out in files other tools read.
/// Each file is written whole or not at all (`ExportFile`); an export reads
/// through one read-only connection, so it never changes the archive.
public enum ArchiveExport {
    /// What an export wrote: each file's name and how many rows it holds.
    public struct Written: Sendable, Hashable {
        public var files: [(name: String, rows: Int)] = []

        public static func == (left: Written, right: Written) -> Bool {
            left.files.map(\.name) == right.files.map(\.name) && left.files.map(\.rows) == right.files.map(\.rows)
        }
        public func hash(into hasher: inout Hasher) { hasher.combine(files.map(\.name)) }
    }

    /// The columns of `csv`, in order: what a spreadsheet shows of each status.
    public static let csvColumns = ["server", "account", "api", "id", "created_at", "author", "text", "cw", "visibility",
                                    "language", "replies_count", "reposts_count", "favourites_count", "in_reply_to_id",
                                    "boost_of_id", "url", "edited_at", "deleted_at", "deleted_by_me", "sources"]

    /// Every status, oldest first, one JSON document a line: where it was kept and the
    /// server's JSON whole (`status`), as `{"server", "account", "api", "id", "created_at",
    /// "deleted_at", "deleted_by_me", "sources", "status"}`.
    public static func jsonLines(_ connection: SQLiteConnection, to path: String) throws(ArchiveError) -> Written {
        var rows = 0
        try ExportFile.writing(path) { (file: inout ExportFile) throws(ArchiveError) in
            try eachStatus(connection) { (columns, json) throws(ArchiveError) in
                var line = "{"
                for (index, name) in ["server", "account", "api", "id", "created_at", "deleted_at", "deleted_by_me"].enumerated() {
                    line += (index == 0 ? "" : ",") + JSONText.quoted(name) + ":"
                    line += columns[name].map(JSONText.quoted) ?? "null"
                }
                let sources = (columns["sources"] ?? "").split(separator: "\u{1F}").map { JSONText.quoted(String($0)) }
                line += ",\"sources\":[" + sources.joined(separator: ",") + "]"
                // The server's JSON as kept; it was well-formed JSON when kept, and is one line once its breaks are spaces.
                line += ",\"status\":" + json.filter { $0 != "\n" && $0 != "\r" } + "}\n"
                try file.write(line)
                rows += 1
            }
        }
        return Written(files: [(path, rows)])
    }

    /// Every status, oldest first, as CSV (RFC 4180: a header line, fields quoted when they
    /// must be, lines ended by CRLF) with the columns of `csvColumns`.
    public static func csv(_ connection: SQLiteConnection, to path: String) throws(ArchiveError) -> Written {
        var rows = 0
        try ExportFile.writing(path) { (file: inout ExportFile) throws(ArchiveError) in
            try file.write(csvColumns.joined(separator: ",") + "\r\n")
            try eachStatus(connection) { (columns, _) throws(ArchiveError) in
                let fields = csvColumns.map { name in
                    name == "sources" ? (columns[name] ?? "").replacing("\u{1F}", with: " ") : columns[name] ?? ""
                }
                try file.write(fields.map { CSVField.text($0) }.joined(separator: ",") + "\r\n")
                rows += 1
            }
        }
        return Written(files: [(path, rows)])
    }

    /// Each status's columns by name (text, NULL as nil; `sources` joined by U+001F) and its JSON, oldest first.
    static func eachStatus(_ connection: SQLiteConnection, _ body: ([String: String], String) throws(ArchiveError) -> Void)
        throws(ArchiveError) {
        let names = csvColumns.filter { $0 != "sources" }
        try connection.run("""
            SELECT \(names.map { "s." + $0 }.joined(separator: ", ")),
                (SELECT group_concat(source, char(31)) FROM source_statuses ss WHERE ss.status = s.rowid), s.json
            FROM statuses s ORDER BY s.server, s.account, s.created_at, s.id_number, s.id
            """) { row throws(ArchiveError) in
            var columns: [String: String] = [:]
            for (index, name) in names.enumerated() {
                let value = row.value(index)
                if value != .null { columns[name] = value.text }
            }
            columns["sources"] = row.string(names.count)
            try body(columns, row.string(names.count + 1) ?? "null")
        }
    }

    // MARK: Mastodon's import files

    /// The files Mastodon's import page reads (Settings → Import and export), in the
    /// column layout of Mastodon's own export (app/models/export.rb): following with
    /// boosts, notify and languages, and mutes, with a header line; blocks, lists and
    /// bookmarks without. Addresses are `user@domain`, the server's own accounts given
    /// the domain a sync learnt (`servers.domain`). Only the edges the last sync of
    /// each kind saw are written.
    public static func mastodon(_ connection: SQLiteConnection, server: String, account: String, to folder: String)
        throws(ArchiveError) -> Written {
        try PrivateFolder.make(folder)
        let domain = try connection.scalar("SELECT domain FROM servers WHERE server = ?", [.text(server)])?.textValue
        func address(_ acct: String?) -> String {
            let acct = (acct ?? "").hasPrefix("@") ? String((acct ?? "").dropFirst()) : (acct ?? "")
            guard !acct.contains("@"), let domain else { return acct }
            return acct + "@" + domain
        }
        func flag(_ value: SQLiteValue) -> String {
            if case .integer(let number) = value { return number != 0 ? "true" : "false" }
            return ""
        }
        let scope: [SQLiteValue] = [.text(server), .text(account)]
        var written = Written()

        // Edges the kind's last complete read saw, newest first as Mastodon writes them.
        func current(_ kind: String, _ columns: String, _ row: (SQLiteConnection.Row) -> String) throws(ArchiveError) -> [String] {
            var lines: [String] = []
            try connection.run("""
                SELECT \(columns) FROM relations r
                WHERE r.server = ?1 AND r.account = ?2 AND r.kind = ?3 AND r.last_seen =
                    (SELECT max(synced_at) FROM relation_syncs WHERE server = ?1 AND account = ?2 AND kind = ?3)
                ORDER BY r.first_seen DESC, r.acct
                """, scope + [.text(kind)]) { lines.append(row($0)) }
            return lines
        }
        let following = try current("following", "acct, show_boosts, notify, languages") { row in
            let languages = (row.string(3) ?? "").split(separator: ",").joined(separator: ", ")
            return [address(row.string(0)), flag(row.value(1)), flag(row.value(2)), CSVField.text(languages)]
                .joined(separator: ",")
        }
        try write(folder + "/following_accounts.csv", header: "Account address,Show boosts,Notify on new posts,Languages",
                  following, into: &written)
        let mutes = try current("mutes", "acct, hide_notifications") { row in
            address(row.string(0)) + "," + flag(row.value(1))
        }
        try write(folder + "/muted_accounts.csv", header: "Account address,Hide notifications", mutes, into: &written)
        let blocks = try current("blocks", "acct") { address($0.string(0)) }
        try write(folder + "/blocked_accounts.csv", header: nil, blocks, into: &written)

        var lists: [String] = []
        try connection.run("""
            SELECT l.title, m.acct FROM lists l JOIN list_members m
                ON m.server = l.server AND m.account = l.account AND m.list_id = l.id AND m.last_seen = l.last_seen
            WHERE l.server = ?1 AND l.account = ?2 AND l.last_seen =
                (SELECT max(synced_at) FROM relation_syncs WHERE server = ?1 AND account = ?2 AND kind = 'lists')
            ORDER BY l.title, m.acct
            """, scope) { row in lists.append(CSVField.text(row.string(0) ?? "") + "," + address(row.string(1))) }
        try write(folder + "/lists.csv", header: nil, lists, into: &written)

        // A bookmark is the status's ActivityPub id (`uri`), which any server resolves; else its page.
        var bookmarks: [String] = []
        try connection.run("""
            SELECT coalesce(json_extract(s.json, '$.uri'), s.url) FROM source_statuses ss JOIN statuses s ON s.rowid = ss.status
            WHERE ss.server = ?1 AND ss.account = ?2 AND ss.source = 'bookmarks' ORDER BY s.id_number DESC, s.id DESC
            """, scope) { row in if let uri = row.string(0), !uri.isEmpty { bookmarks.append(uri) } }
        try write(folder + "/bookmarks.csv", header: nil, bookmarks, into: &written)
        return written
    }

    /// One CSV file as Ruby's CSV writes it (rows ended by LF), whole or not at all.
    private static func write(_ path: String, header: String?, _ rows: [String], into written: inout Written) throws(ArchiveError) {
        try ExportFile.writing(path) { (file: inout ExportFile) throws(ArchiveError) in
            if let header { try file.write(header + "\n") }
            for row in rows { try file.write(row + "\n") }
        }
        written.files.append((path, rows.count))
    }
}
