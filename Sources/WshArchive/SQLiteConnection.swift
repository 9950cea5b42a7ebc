import CSQLite
import WshText

/// What went wrong with the archive file, in one line a user can act on.
public struct ArchiveError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The line shown.
    public let message: String
    /// SQLite's extended result code, 0 when the error is wsh's own.
    public let code: Int32

    public init(_ message: String, code: Int32 = 0) {
        self.message = message
        self.code = code
    }

    public var description: String { message }
}

/// One SQLite value of a result row.
public enum SQLiteValue: Sendable, Hashable {
    case null
    case integer(Int64)
    case real(Double)
    case text(String)

    /// `.text`, or `.null` for nil.
    init(_ text: String?) {
        self = text.map { .text($0) } ?? .null
    }

    /// `.integer`, or `.null` for nil.
    init(_ number: Int?) {
        self = number.map { .integer(Int64($0)) } ?? .null
    }

    /// `.integer` 1 or 0, or `.null` for nil.
    init(_ flag: Bool?) {
        self = flag.map { .integer($0 ? 1 : 0) } ?? .null
    }

    /// The text of a text value, nil otherwise.
    public var textValue: String? {
        if case .text(let text) = self { return text }
        return nil
    }

    /// As a table cell shows it.
    public var text: String {
        switch self {
        case .null: ""
        case .integer(let value): String(value)
        case .real(let value): String(value)
        case .text(let value): value
        }
    }
}

/// What one query a user types may take.
public struct QueryLimits: Sendable, Hashable {
    /// The most bytes of one value (SQLite's SQLITE_LIMIT_LENGTH): a larger
    /// string or blob, made or read, ends the statement.
    public var valueBytes: Int
    /// The most rows of one result.
    public var rows: Int

    /// 16 MB a value (a status's JSON is a few KB) and a million rows.
    public static let standard = QueryLimits(valueBytes: 16 << 20, rows: 1_000_000)
    /// The most a value may be raised to: SQLite's own ceiling.
    public static let largestValue = 1_000_000_000

    public init(valueBytes: Int, rows: Int) {
        self.valueBytes = valueBytes
        self.rows = rows
    }
}

/// The stop question a running statement's progress handler asks, kept alive for C.
private final class StopCheck {
    let stop: () -> Bool
    init(_ stop: @escaping () -> Bool) { self.stop = stop }
}

/// A connection to one SQLite file through the C API, the library loaded
/// on first use (see CSQLite). Not thread-safe: one owner at a time.
public final class SQLiteConnection: @unchecked Sendable {
    /// The file this connection opened.
    public let path: String
    let handle: OpaquePointer
    private var statements: [String: OpaquePointer] = [:]

    /// Opens `path`: read-write (created when missing) or, with `readOnly`,
    /// SQLITE_OPEN_READONLY. Waits up to `busyMilliseconds` for a lock another
    /// connection holds.
    public init(path: String, readOnly: Bool, create: Bool = true, busyMilliseconds: Int32 = 5000) throws(ArchiveError) {
        if let problem = wsh_sqlite_load() { throw ArchiveError(String(cString: problem)) }
        self.path = path
        // SQLITE_OPEN_READONLY 1, READWRITE 2, CREATE 4, FULLMUTEX 0x10000.
        let flags: Int32 = readOnly ? 0x1 : (create ? 0x2 | 0x4 : 0x2)
        var db: OpaquePointer?
        let result = wsh_sqlite_open(path, &db, flags | 0x10000)
        guard result == 0, let db else {
            let message = db.map { String(cString: wsh_sqlite_errmsg($0)) } ?? "out of memory"
            if let db { wsh_sqlite_close(db) }
            throw ArchiveError("cannot open \(path): \(message)", code: result)
        }
        handle = db
        wsh_sqlite_busy_timeout(db, busyMilliseconds)
        guard wsh_sqlite_harden(db) == 0 else { throw lastError }
    }

    deinit {
        for statement in statements.values { wsh_sqlite_finalize(statement) }
        wsh_sqlite_close(handle)
    }

    /// SQLite's last error on this connection, as one line.
    var lastError: ArchiveError {
        ArchiveError(String(cString: wsh_sqlite_errmsg(handle)), code: wsh_sqlite_extended_errcode(handle))
    }

    /// Runs `sql` (one or more statements, no parameters, no rows wanted).
    public func execute(_ sql: String) throws(ArchiveError) {
        guard wsh_sqlite_exec(handle, sql) == 0 else { throw lastError }
    }

    /// Stops the statement running on another thread (Ctrl-C).
    public func interrupt() {
        wsh_sqlite_interrupt(handle)
    }

    /// Rows changed by the last INSERT, UPDATE or DELETE.
    public var changes: Int { Int(wsh_sqlite_changes(handle)) }

    /// The rowid of the last row inserted.
    public var lastInsertRowID: Int64 { wsh_sqlite_last_insert_rowid(handle) }

    /// Runs `sql` with `parameters` and hands each row to `row`; the
    /// statement is prepared once per connection and kept.
    public func run(_ sql: String, _ parameters: [SQLiteValue] = [], row: (Row) throws(ArchiveError) -> Void = { _ in })
        throws(ArchiveError) {
        let statement = try prepared(sql)
        defer { wsh_sqlite_reset(statement) }
        try bind(parameters, to: statement)
        try step(statement, row: row)
    }

    /// Runs `sql`, one statement a user typed, under `limits`: `columns` hears
    /// the column names once, then `row` each row as SQLite makes it, so no
    /// result is held whole. Nothing is stepped unless the statement only reads
    /// (SQLite's own judgement, `sqlite3_stmt_readonly`): `VACUUM INTO` would
    /// make its file before a read-only connection refused it. `stop` is asked
    /// every few thousand steps of SQLite's machine; true interrupts the statement.
    ///
    /// Throws code 8 for a statement that writes, 9 when `stop` said so, 18 for a
    /// value above `limits.valueBytes`; returns the rows sent, and whether the
    /// row budget ended the result early.
    public func stream(_ sql: String, limits: QueryLimits, stop: @escaping () -> Bool,
                       columns: ([String]) -> Void, row: ([SQLiteValue]) -> Void)
        throws(ArchiveError) -> (rows: Int, overBudget: Bool) {
        let previousLength = wsh_sqlite_limit(handle, 0, Int32(clamping: limits.valueBytes))  // SQLITE_LIMIT_LENGTH
        let previousAttached = wsh_sqlite_limit(handle, 7, 0)  // SQLITE_LIMIT_ATTACHED: no ATTACH
        let check = Unmanaged.passRetained(StopCheck(stop))
        wsh_sqlite_progress_handler(handle, 4096, { context in
            Unmanaged<StopCheck>.fromOpaque(context!).takeUnretainedValue().stop() ? 1 : 0
        }, check.toOpaque())
        defer {
            wsh_sqlite_progress_handler(handle, 0, nil, nil)
            check.release()
            wsh_sqlite_limit(handle, 0, previousLength)
            wsh_sqlite_limit(handle, 7, previousAttached)
        }
        var statement: OpaquePointer?
        var tail: UnsafePointer<CChar>?
        guard wsh_sqlite_prepare(handle, sql, &statement, &tail) == 0 else { throw lastError }
        guard let statement else { return (0, false) }
        defer { wsh_sqlite_finalize(statement) }
        if let tail, tail.pointee != 0, !String(cString: tail).allSatisfy(\.isWhitespace) {
            throw ArchiveError("give one statement at a time")
        }
        guard wsh_sqlite_stmt_readonly(statement) != 0 else {
            throw ArchiveError("the statement would write (sql only reads)", code: 8)
        }
        let count = Int(wsh_sqlite_column_count(statement))
        columns((0..<count).map { String(cString: wsh_sqlite_column_name(statement, Int32($0))) })
        var sent = 0
        while true {
            let result = wsh_sqlite_step(statement)
            if result == 101 { return (sent, false) }  // SQLITE_DONE
            guard result == 100 else { throw lastError }  // SQLITE_ROW
            if sent == limits.rows { return (sent, true) }
            let current = Row(statement: statement)
            row((0..<count).map { current.value($0) })
            sent += 1
        }
    }

    /// The first column of the first row of `sql`, or nil.
    public func scalar(_ sql: String, _ parameters: [SQLiteValue] = []) throws(ArchiveError) -> SQLiteValue? {
        var value: SQLiteValue?
        try run(sql, parameters) { row in if value == nil { value = row.value(0) } }
        return value
    }

    /// Runs `body` inside one transaction (BEGIN IMMEDIATE: the write lock is
    /// taken at once, so a second writer waits here, not half-way through).
    public func transaction<T>(_ body: () throws(ArchiveError) -> T) throws(ArchiveError) -> T {
        try execute("BEGIN IMMEDIATE")
        do {
            let result = try body()
            try execute("COMMIT")
            return result
        } catch {
            try? execute("ROLLBACK")
            throw error
        }
    }

    private func prepared(_ sql: String) throws(ArchiveError) -> OpaquePointer {
        if let statement = statements[sql] { return statement }
        var statement: OpaquePointer?
        guard wsh_sqlite_prepare(handle, sql, &statement, nil) == 0, let statement else { throw lastError }
        statements[sql] = statement
        return statement
    }

    private func bind(_ parameters: [SQLiteValue], to statement: OpaquePointer) throws(ArchiveError) {
        for (offset, parameter) in parameters.enumerated() {
            let index = Int32(offset + 1)
            let result: Int32
            switch parameter {
            case .null: result = wsh_sqlite_bind_null(statement, index)
            case .integer(let value): result = wsh_sqlite_bind_int64(statement, index, value)
            case .real(let value): result = wsh_sqlite_bind_double(statement, index, value)
            case .text(let value):
                result = value.withCString { wsh_sqlite_bind_text(statement, index, $0, Int32(value.utf8.count)) }
            }
            guard result == 0 else { throw lastError }
        }
    }

    private func step(_ statement: OpaquePointer, row: (Row) throws(ArchiveError) -> Void) throws(ArchiveError) {
        while true {
            let result = wsh_sqlite_step(statement)
            if result == 101 { return }  // SQLITE_DONE
            guard result == 100 else { throw lastError }  // SQLITE_ROW
            try row(Row(statement: statement))
        }
    }

    /// The current row of a running statement, read by column.
    public struct Row {
        let statement: OpaquePointer

        /// Column `index` as a value.
        public func value(_ index: Int) -> SQLiteValue {
            let column = Int32(index)
            switch wsh_sqlite_column_type(statement, column) {
            case 1: return .integer(wsh_sqlite_column_int64(statement, column))
            case 2: return .real(wsh_sqlite_column_double(statement, column))
            case 5: return .null
            default: return .text(string(index) ?? "")
            }
        }

        /// Column `index` as text; nil when NULL.
        public func string(_ index: Int) -> String? {
            let column = Int32(index)
            guard let text = wsh_sqlite_column_text(statement, column) else { return nil }
            let count = Int(wsh_sqlite_column_bytes(statement, column))
            return String(decoding: UnsafeBufferPointer(start: text, count: count), as: UTF8.self)
        }

        /// Column `index` as an integer; nil when NULL.
        public func integer(_ index: Int) -> Int64? {
            wsh_sqlite_column_type(statement, Int32(index)) == 5 ? nil : wsh_sqlite_column_int64(statement, Int32(index))
        }
    }
}
