import FoundationEssentials
import Glibc
import WshModel
import WshText

/// The local archive: one SQLite file of the statuses wsh fetched, from any
/// number of servers and accounts, that any SQLite tool reads (docs/ARCHIVE.md).
///
/// Writes go one page at a time, each in one transaction with the cursors
/// it moves, so a process killed between pages loses nothing committed and
/// the next sync goes on from the cursors. The file is in WAL mode: readers
/// (`sql`, `archive search`, another wsh) never wait for a sync.
public final class ArchiveStore: @unchecked Sendable {
    /// The file.
    public let path: String
    /// The connection everything goes through.
    public let connection: SQLiteConnection
    /// True when the file was written by a newer wsh (its schema version is
    /// above ours): it is read, never written.
    public let isNewer: Bool
    /// New statuses not in the full-text tables yet, as far as this store
    /// knows (nil: not counted since it opened); see `store`.
    var pendingIndex: Int?

    /// `$XDG_DATA_HOME/wsh/archive.sqlite`, else `~/.local/share/wsh/archive.sqlite`.
    public static func defaultPath(environment: [String: String]) -> String {
        if let data = environment["XDG_DATA_HOME"], data.hasPrefix("/") { return data + "/wsh/archive.sqlite" }
        return (environment["HOME"] ?? "") + "/.local/share/wsh/archive.sqlite"
    }

    /// Opens (or creates, 0600 in a 0700 folder) the archive at `path` and
    /// brings its schema up to date. Every failure is one line naming the file.
    ///
    /// - Parameter maximumPages: SQLite's `max_page_count` for this connection: a write that
    ///   would grow the file past it fails as on a full disk (how the tests make one).
    public init(path: String, create: Bool = true, maximumPages: Int? = nil) throws(ArchiveError) {
        self.path = path
        let exists = access(path, F_OK) == 0
        if !exists {
            guard create else { throw ArchiveError("no archive at \(path) (archive sync makes one)") }
            try Self.makeFile(path)
        }
        do {
            connection = try SQLiteConnection(path: path, readOnly: false, create: true)
            if exists { try Self.checkWhole(connection) }
            let version = try Self.version(connection)
            isNewer = version > ArchiveSchema.current
            if !isNewer {
                // Turning a new file to WAL needs it alone: SQLite answers "busy" at once, without its busy
                // handler, while another wsh opening the same new file holds it; try again for a while.
                try Self.retryingWhileBusy { () throws(ArchiveError) in
                    // A new file gets 16 KiB pages (before WAL fixes them): a status's JSON is about 2 KB,
                    // and 4 KiB pages held one or two, half empty.
                    if !exists { try connection.execute("PRAGMA page_size = 16384") }
                    try connection.execute("PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL; PRAGMA foreign_keys = ON")
                }
                if version < ArchiveSchema.current { try Self.migrate(connection, from: version) }
                if let maximumPages { try connection.execute("PRAGMA max_page_count = \(maximumPages)") }
            }
        } catch {
            throw Self.explain(error, path: path)
        }
    }

    /// Opens `path` for reading only: SQLITE_OPEN_READONLY and `PRAGMA
    /// query_only`, so no statement can write whatever its text says.
    public static func readOnlyConnection(path: String) throws(ArchiveError) -> SQLiteConnection {
        guard access(path, F_OK) == 0 else { throw ArchiveError("no archive at \(path) (archive sync makes one)") }
        do {
            let connection = try SQLiteConnection(path: path, readOnly: true)
            try connection.execute("PRAGMA query_only = 1")
            try checkWhole(connection)
            _ = try version(connection)
            return connection
        } catch {
            throw explain(error, path: path)
        }
    }

    /// The API (`mastodon`, `weibo`) in which the archive at `path` kept statuses of
    /// `server`; nil when it has none of them, or cannot be read.
    public static func api(ofServer server: String, in path: String) -> String? {
        guard let connection = try? readOnlyConnection(path: path),
              case .text(let api)? = try? connection.scalar(
                "SELECT api FROM statuses WHERE server = ? AND api IN ('mastodon', 'weibo') LIMIT 1", [.text(server)])
        else { return nil }
        return api
    }

    /// SQLite's `PRAGMA quick_check` of the whole file, before anything reads
    /// or writes it: a damaged page fails it as SQLITE_CORRUPT, which
    /// ``explain(_:path:)`` turns into the line that names `.recover`. A query
    /// that never reads the broken page would answer as if the file were whole,
    /// and a sync would write into it. The check reads every page (about 0.7 s
    /// a GB from the page cache), so it is skipped while the file and its log
    /// are as they were when it last passed (`CheckedStamp`).
    static func checkWhole(_ connection: SQLiteConnection) throws(ArchiveError) {
        let stamp = CheckedStamp(of: connection.path)
        if stamp != nil, stamp == CheckedStamp.kept(for: connection.path) { return }
        var problems: [String] = []
        try connection.run("PRAGMA quick_check(3)") { row in problems.append(row.string(0) ?? "") }
        guard problems == ["ok"] else {
            // Its first problem, on one line, without the `*** in database main ***` it starts with.
            let first = (problems.first ?? "").split(whereSeparator: \.isNewline).filter { !$0.hasPrefix("***") }
            throw ArchiveError("quick_check: " + (first.isEmpty ? "failed" : first.joined(separator: "; ")), code: 11)
        }
        stamp?.keep(for: connection.path)
    }

    /// Runs `body` again while SQLite says the file is busy or locked, for up to five seconds.
    private static func retryingWhileBusy(_ body: () throws(ArchiveError) -> Void) throws(ArchiveError) {
        let deadline = ContinuousClock.now + .seconds(5)
        while true {
            do {
                return try body()
            } catch {
                guard [5, 6].contains(error.code & 0xff), ContinuousClock.now < deadline else { throw error }
                usleep(20_000)
            }
        }
    }

    /// Throws the one line a user reads for a write this wsh must not make.
    func checkWritable() throws(ArchiveError) {
        if isNewer {
            throw ArchiveError("\(path) was written by a newer wsh (schema \(Self.versionText(connection))): "
                               + "it is read but not written")
        }
    }

    private static func versionText(_ connection: SQLiteConnection) -> String {
        ((try? version(connection)) ?? 0).description
    }

    static func version(_ connection: SQLiteConnection) throws(ArchiveError) -> Int {
        if case .integer(let version)? = try connection.scalar("PRAGMA user_version") { return Int(version) }
        return 0
    }

    private static func migrate(_ connection: SQLiteConnection, from version: Int) throws(ArchiveError) {
        try connection.transaction { () throws(ArchiveError) in
            // Read again inside the write lock: another wsh may have migrated it meanwhile.
            var at = try Self.version(connection)
            if at == 0, case .integer(let tables)? = try connection.scalar("SELECT count(*) FROM sqlite_schema"), tables > 0 {
                throw ArchiveError("an SQLite file, but not an archive of wsh (it has tables and no schema version)")
            }
            while at < ArchiveSchema.current {
                try connection.execute(ArchiveSchema.migrations[at])
                if at == 1 { try fillSearchWords(connection) }
                if at == 3 { try indexWordPrefixes(connection) }
                at += 1
            }
            try connection.execute("PRAGMA user_version = \(ArchiveSchema.current)")
        }
    }

    /// Copies a `search_words` made before schema 4 into one with an index of prefixes of one and two
    /// characters (see ArchiveSchema); one made with it is left as it is.
    private static func indexWordPrefixes(_ connection: SQLiteConnection) throws(ArchiveError) {
        guard let made = try connection.scalar("SELECT sql FROM sqlite_schema WHERE name = 'search_words'")?.textValue,
              !made.contains("prefix = '1 2'") else { return }
        try connection.execute("""
            ALTER TABLE search_words RENAME TO search_words_3;
            CREATE VIRTUAL TABLE search_words USING fts5 (words, tokenize = 'unicode61', prefix = '1 2');
            INSERT INTO search_words (rowid, words) SELECT rowid, words FROM search_words_3;
            DROP TABLE search_words_3;
            """)
    }

    /// Writes `search_words` for every row of `search`.
    private static func fillSearchWords(_ connection: SQLiteConnection) throws(ArchiveError) {
        try PageBatch.insertWords(selecting: "SELECT rowid, text, cw, alt FROM search", [], connection)
    }

    /// The folder (0700) and an empty file (0600) before SQLite opens it, so
    /// that the file, and the -wal and -shm files SQLite makes with the same
    /// mode, are never readable by others.
    private static func makeFile(_ path: String) throws(ArchiveError) {
        try PrivateFolder.make((path.hasPrefix("/") ? "/" : "") + path.split(separator: "/").dropLast().joined(separator: "/"))
        let descriptor = open(path, O_CREAT | O_EXCL | O_WRONLY | O_CLOEXEC, 0o600)
        // Another wsh making the same archive at the same moment got there first: open what it made.
        if descriptor < 0 && errno == EEXIST { return }
        guard descriptor >= 0 else {
            throw ArchiveError("cannot make \(path): \(String(cString: strerror(errno)))")
        }
        close(descriptor)
    }

    /// Runs `body` in one transaction once the file may be written; a failure is
    /// the line ``explain(_:path:)`` makes, and leaves `pendingIndex` to be
    /// counted again (the rollback may have taken statuses it counted).
    func writing<T>(_ body: () throws(ArchiveError) -> T) throws(ArchiveError) -> T {
        try checkWritable()
        do {
            return try connection.transaction(body)
        } catch {
            pendingIndex = nil
            throw Self.explain(error, path: path)
        }
    }

    /// Runs `body`; a failure is the line ``explain(_:path:)`` makes for `path`.
    static func explaining<T>(_ path: String, _ body: () throws(ArchiveError) -> T) throws(ArchiveError) -> T {
        do {
            return try body()
        } catch {
            throw explain(error, path: path)
        }
    }

    /// One line for an SQLite failure on the file at `path`.
    static func explain(_ error: ArchiveError, path: String) -> ArchiveError {
        switch error.code & 0xff {
        case 26: ArchiveError("\(path) is not an SQLite file: left as it is (--archive FILE picks another)", code: error.code)
        case 11: ArchiveError("\(path) is damaged (SQLite: \(error.message)): left as it is; "
                              + "sqlite3 \(path) .recover may save what it holds", code: error.code)
        case 13: ArchiveError("the disk holding \(path) is full: nothing of this page was written", code: error.code)
        case 8: ArchiveError("cannot write \(path) (read-only: \(error.message))", code: error.code)
        case 14: ArchiveError("cannot open \(path): \(error.message) (is its folder writable?)", code: error.code)
        case 5, 6: ArchiveError("\(path) is busy: another wsh is writing to it (waited 5 s); try again when it is done",
                                code: error.code)
        default: error.message.contains(path) ? error : ArchiveError("\(path): \(error.message)", code: error.code)
        }
    }
}

/// What the archive file and its write-ahead log were when `PRAGMA
/// quick_check` last passed: their sizes and change times, kept in
/// `FILE-checked` (0600 beside the file, as SQLite keeps `FILE-wal`). Any
/// write, by wsh or another tool, changes them, and the next open checks again.
struct CheckedStamp: Equatable {
    let text: String

    /// The file's and its log's stamp now; nil when the file cannot be read.
    /// An empty log is no log: SQLite makes one for each reader and removes it
    /// when the last connection closes, and it holds nothing.
    init?(of path: String) {
        func stamp(_ path: String) -> String? {
            var info = stat()
            guard stat(path, &info) == 0, info.st_size > 0 else { return nil }
            return "\(info.st_dev):\(info.st_ino):\(info.st_size):\(info.st_mtim.tv_sec).\(info.st_mtim.tv_nsec)"
        }
        guard let file = stamp(path) else { return nil }
        text = file + " " + (stamp(path + "-wal") ?? "-")
    }

    private init(text: String) { self.text = text }

    /// The stamp kept when the check last passed, if any.
    static func kept(for path: String) -> CheckedStamp? {
        let descriptor = open(path + "-checked", O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        var buffer = [UInt8](repeating: 0, count: 512)
        let count = read(descriptor, &buffer, buffer.count)
        guard count > 0 else { return nil }
        return CheckedStamp(text: String(decoding: buffer[..<count], as: UTF8.self))
    }

    /// Keeps this stamp; where the folder cannot be written, the next open checks again.
    func keep(for path: String) {
        let temporary = path + "-checked.new"
        let descriptor = open(temporary, O_CREAT | O_TRUNC | O_WRONLY | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { return }
        let written = Array(text.utf8).withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
        close(descriptor)
        if written == text.utf8.count { rename(temporary, path + "-checked") } else { unlink(temporary) }
    }
}
