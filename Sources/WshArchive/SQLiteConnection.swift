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

    /// Runs `sql` once, not kept (a query a user typed): its column names and rows.
    public func query(_ sql: String, limit: Int = .max) throws(ArchiveError) -> (columns: [String], rows: [[SQLiteValue]]) {
        var statement: OpaquePointer?
        var tail: UnsafePointer<CChar>?
        guard wsh_sqlite_prepare(handle, sql, &statement, &tail) == 0 else { throw lastError }
        guard let statement else { return ([], []) }
        defer { wsh_sqlite_finalize(statement) }
        if let tail, tail.pointee != 0, !String(cString: tail).allSatisfy(\.isWhitespace) {
            throw ArchiveError("give one statement at a time")
        }
        let count = wsh_sqlite_column_count(statement)
        let columns = (0..<count).map { String(cString: wsh_sqlite_column_name(statement, $0)) }
        var rows: [[SQLiteValue]] = []
        try step(statement) { row throws(ArchiveError) in
            if rows.count < limit { rows.append((0..<Int(count)).map { row.value($0) }) }
        }
        return (columns, rows)
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
