// A small C surface over SQLite for WshArchive.
//
// libsqlite3 is loaded with dlopen on first use (as CCurl loads libcurl), so
// a process that never opens the archive (`wsh -c 'echo hi'`, every script
// that does not say `archive` or `sql`) neither links nor loads it: start-up
// stays where scripts/bench-startup holds it and the binary does not grow by
// a copy of SQLite. The system's library is the one every other tool on the
// machine reads the file with (Debian 12: 3.40, FTS5 and trigram included).
#ifndef WSH_SQLITE_H
#define WSH_SQLITE_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/// A connection and a prepared statement, as SQLite's own opaque types.
typedef struct sqlite3 wsh_sqlite;
typedef struct sqlite3_stmt wsh_sqlite_stmt;

/// Loads libsqlite3 once; NULL when it loaded, else why not (one line).
const char *wsh_sqlite_load(void);

/// The library's version as a number (3040001 for 3.40.1); 0 when not loaded.
int wsh_sqlite_libversion_number(void);

int wsh_sqlite_open(const char *path, wsh_sqlite **db, int flags);
int wsh_sqlite_close(wsh_sqlite *db);
int wsh_sqlite_exec(wsh_sqlite *db, const char *sql);
const char *wsh_sqlite_errmsg(wsh_sqlite *db);
int wsh_sqlite_extended_errcode(wsh_sqlite *db);
int wsh_sqlite_busy_timeout(wsh_sqlite *db, int milliseconds);
int wsh_sqlite_changes(wsh_sqlite *db);
int64_t wsh_sqlite_last_insert_rowid(wsh_sqlite *db);
int wsh_sqlite_readonly(wsh_sqlite *db);
/// Ctrl-C: makes the running statement return SQLITE_INTERRUPT.
void wsh_sqlite_interrupt(wsh_sqlite *db);

/// Turns off what a query has no business with, on every connection: fts3_tokenizer
/// (its one-argument form returns a pointer, its two-argument form installs one: the
/// function is denied by an authorizer, and the setting is off), loading extensions,
/// and writes to the schema (SQLITE_DBCONFIG_DEFENSIVE). 0 when all took.
int wsh_sqlite_harden(wsh_sqlite *db);
/// sqlite3_limit: sets limit `limit` (SQLITE_LIMIT_LENGTH 0, SQLITE_LIMIT_ATTACHED 7…) to `value`
/// (negative: leave it); returns what it was.
int wsh_sqlite_limit(wsh_sqlite *db, int limit, int value);
/// Calls `handler(context)` every `instructions` virtual-machine steps of a running
/// statement; a non-zero answer interrupts it (SQLITE_INTERRUPT). NULL removes it.
void wsh_sqlite_progress_handler(wsh_sqlite *db, int instructions, int (*handler)(void *), void *context);

int wsh_sqlite_prepare(wsh_sqlite *db, const char *sql, wsh_sqlite_stmt **statement, const char **tail);
int wsh_sqlite_step(wsh_sqlite_stmt *statement);
int wsh_sqlite_reset(wsh_sqlite_stmt *statement);
int wsh_sqlite_finalize(wsh_sqlite_stmt *statement);
int wsh_sqlite_stmt_readonly(wsh_sqlite_stmt *statement);

/// Binds copy their value (SQLITE_TRANSIENT), so Swift's buffers are only borrowed.
int wsh_sqlite_bind_text(wsh_sqlite_stmt *statement, int index, const char *text, int length);
int wsh_sqlite_bind_int64(wsh_sqlite_stmt *statement, int index, int64_t value);
int wsh_sqlite_bind_double(wsh_sqlite_stmt *statement, int index, double value);
int wsh_sqlite_bind_null(wsh_sqlite_stmt *statement, int index);

int wsh_sqlite_column_count(wsh_sqlite_stmt *statement);
const char *wsh_sqlite_column_name(wsh_sqlite_stmt *statement, int column);
/// 1 integer, 2 float, 3 text, 4 blob, 5 null (SQLite's own numbers).
int wsh_sqlite_column_type(wsh_sqlite_stmt *statement, int column);
int64_t wsh_sqlite_column_int64(wsh_sqlite_stmt *statement, int column);
double wsh_sqlite_column_double(wsh_sqlite_stmt *statement, int column);
const unsigned char *wsh_sqlite_column_text(wsh_sqlite_stmt *statement, int column);
int wsh_sqlite_column_bytes(wsh_sqlite_stmt *statement, int column);

#ifdef __cplusplus
}
#endif

#endif
