#include "wsh_sqlite.h"
#include "wsh_dynamic_load.h"

#include <dlfcn.h>
#include <pthread.h>
#include <sqlite3.h>

// The SQLite entry points wsh uses, resolved with dlsym.
static struct {
    int (*libversion_number)(void);
    int (*open_v2)(const char *, sqlite3 **, int, const char *);
    int (*close_v2)(sqlite3 *);
    int (*exec)(sqlite3 *, const char *, int (*)(void *, int, char **, char **), void *, char **);
    const char *(*errmsg)(sqlite3 *);
    int (*extended_errcode)(sqlite3 *);
    int (*busy_timeout)(sqlite3 *, int);
    int (*changes)(sqlite3 *);
    sqlite3_int64 (*last_insert_rowid)(sqlite3 *);
    int (*db_readonly)(sqlite3 *, const char *);
    void (*interrupt)(sqlite3 *);
    int (*prepare_v2)(sqlite3 *, const char *, int, sqlite3_stmt **, const char **);
    int (*step)(sqlite3_stmt *);
    int (*reset)(sqlite3_stmt *);
    int (*finalize)(sqlite3_stmt *);
    int (*stmt_readonly)(sqlite3_stmt *);
    int (*bind_text)(sqlite3_stmt *, int, const char *, int, void (*)(void *));
    int (*bind_int64)(sqlite3_stmt *, int, sqlite3_int64);
    int (*bind_double)(sqlite3_stmt *, int, double);
    int (*bind_null)(sqlite3_stmt *, int);
    int (*column_count)(sqlite3_stmt *);
    const char *(*column_name)(sqlite3_stmt *, int);
    int (*column_type)(sqlite3_stmt *, int);
    sqlite3_int64 (*column_int64)(sqlite3_stmt *, int);
    double (*column_double)(sqlite3_stmt *, int);
    const unsigned char *(*column_text)(sqlite3_stmt *, int);
    int (*column_bytes)(sqlite3_stmt *, int);
    int (*db_config)(sqlite3 *, int, ...);
    int (*limit)(sqlite3 *, int, int);
    void (*progress_handler)(sqlite3 *, int, int (*)(void *), void *);
    int (*set_authorizer)(sqlite3 *, int (*)(void *, int, const char *, const char *, const char *, const char *), void *);
    int (*stricmp)(const char *, const char *);
} api;

static pthread_once_t load_once = PTHREAD_ONCE_INIT;
static const char *load_error = "libsqlite3 was not loaded";

#define RESOLVE(field, symbol)                                   \
    do {                                                         \
        *(void **)(&api.field) = dlsym(library, symbol);         \
        if (api.field == NULL) {                                 \
            load_error = "libsqlite3 lacks " symbol;             \
            return;                                              \
        }                                                        \
    } while (0)

static void load_library(void) {
    static const char *const names[] = {"libsqlite3.so.0", "libsqlite3.so", "libsqlite3.dylib", NULL};
    void *library;
    load_error = wsh_open_first(&library, names, RTLD_NOW | RTLD_LOCAL, "cannot load libsqlite3 (install libsqlite3-0)");
    if (load_error != NULL) return;
    RESOLVE(libversion_number, "sqlite3_libversion_number");
    RESOLVE(open_v2, "sqlite3_open_v2");
    RESOLVE(close_v2, "sqlite3_close_v2");
    RESOLVE(exec, "sqlite3_exec");
    RESOLVE(errmsg, "sqlite3_errmsg");
    RESOLVE(extended_errcode, "sqlite3_extended_errcode");
    RESOLVE(busy_timeout, "sqlite3_busy_timeout");
    RESOLVE(changes, "sqlite3_changes");
    RESOLVE(last_insert_rowid, "sqlite3_last_insert_rowid");
    RESOLVE(db_readonly, "sqlite3_db_readonly");
    RESOLVE(interrupt, "sqlite3_interrupt");
    RESOLVE(prepare_v2, "sqlite3_prepare_v2");
    RESOLVE(step, "sqlite3_step");
    RESOLVE(reset, "sqlite3_reset");
    RESOLVE(finalize, "sqlite3_finalize");
    RESOLVE(stmt_readonly, "sqlite3_stmt_readonly");
    RESOLVE(bind_text, "sqlite3_bind_text");
    RESOLVE(bind_int64, "sqlite3_bind_int64");
    RESOLVE(bind_double, "sqlite3_bind_double");
    RESOLVE(bind_null, "sqlite3_bind_null");
    RESOLVE(column_count, "sqlite3_column_count");
    RESOLVE(column_name, "sqlite3_column_name");
    RESOLVE(column_type, "sqlite3_column_type");
    RESOLVE(column_int64, "sqlite3_column_int64");
    RESOLVE(column_double, "sqlite3_column_double");
    RESOLVE(column_text, "sqlite3_column_text");
    RESOLVE(column_bytes, "sqlite3_column_bytes");
    RESOLVE(db_config, "sqlite3_db_config");
    RESOLVE(limit, "sqlite3_limit");
    RESOLVE(progress_handler, "sqlite3_progress_handler");
    RESOLVE(set_authorizer, "sqlite3_set_authorizer");
    RESOLVE(stricmp, "sqlite3_stricmp");
    load_error = NULL;
}

const char *wsh_sqlite_load(void) {
    pthread_once(&load_once, load_library);
    return load_error;
}

int wsh_sqlite_libversion_number(void) { return wsh_sqlite_load() == NULL ? api.libversion_number() : 0; }
int wsh_sqlite_open(const char *path, wsh_sqlite **db, int flags) { return api.open_v2(path, db, flags, NULL); }
int wsh_sqlite_close(wsh_sqlite *db) { return api.close_v2(db); }
int wsh_sqlite_exec(wsh_sqlite *db, const char *sql) { return api.exec(db, sql, NULL, NULL, NULL); }
const char *wsh_sqlite_errmsg(wsh_sqlite *db) { return api.errmsg(db); }
int wsh_sqlite_extended_errcode(wsh_sqlite *db) { return api.extended_errcode(db); }
int wsh_sqlite_busy_timeout(wsh_sqlite *db, int milliseconds) { return api.busy_timeout(db, milliseconds); }
int wsh_sqlite_changes(wsh_sqlite *db) { return api.changes(db); }
int64_t wsh_sqlite_last_insert_rowid(wsh_sqlite *db) { return api.last_insert_rowid(db); }
int wsh_sqlite_readonly(wsh_sqlite *db) { return api.db_readonly(db, "main"); }
void wsh_sqlite_interrupt(wsh_sqlite *db) { api.interrupt(db); }
int wsh_sqlite_prepare(wsh_sqlite *db, const char *sql, wsh_sqlite_stmt **statement, const char **tail) {
    return api.prepare_v2(db, sql, -1, statement, tail);
}
int wsh_sqlite_step(wsh_sqlite_stmt *statement) { return api.step(statement); }
int wsh_sqlite_reset(wsh_sqlite_stmt *statement) { return api.reset(statement); }
int wsh_sqlite_finalize(wsh_sqlite_stmt *statement) { return api.finalize(statement); }
int wsh_sqlite_stmt_readonly(wsh_sqlite_stmt *statement) { return api.stmt_readonly(statement); }
int wsh_sqlite_bind_text(wsh_sqlite_stmt *statement, int index, const char *text, int length) {
    return api.bind_text(statement, index, text, length, SQLITE_TRANSIENT);
}
int wsh_sqlite_bind_int64(wsh_sqlite_stmt *statement, int index, int64_t value) { return api.bind_int64(statement, index, value); }
int wsh_sqlite_bind_double(wsh_sqlite_stmt *statement, int index, double value) { return api.bind_double(statement, index, value); }
int wsh_sqlite_bind_null(wsh_sqlite_stmt *statement, int index) { return api.bind_null(statement, index); }
int wsh_sqlite_column_count(wsh_sqlite_stmt *statement) { return api.column_count(statement); }
const char *wsh_sqlite_column_name(wsh_sqlite_stmt *statement, int column) { return api.column_name(statement, column); }
int wsh_sqlite_column_type(wsh_sqlite_stmt *statement, int column) { return api.column_type(statement, column); }
int64_t wsh_sqlite_column_int64(wsh_sqlite_stmt *statement, int column) { return api.column_int64(statement, column); }
double wsh_sqlite_column_double(wsh_sqlite_stmt *statement, int column) { return api.column_double(statement, column); }
const unsigned char *wsh_sqlite_column_text(wsh_sqlite_stmt *statement, int column) { return api.column_text(statement, column); }
int wsh_sqlite_column_bytes(wsh_sqlite_stmt *statement, int column) { return api.column_bytes(statement, column); }

// Functions no statement of wsh's calls and no query needs: fts3_tokenizer's
// one-argument form returns a tokenizer's address whatever
// SQLITE_DBCONFIG_ENABLE_FTS3_TOKENIZER says (only the two-argument form asks it).
static int deny_unsafe_functions(void *context, int action, const char *unused1, const char *name,
                                 const char *unused2, const char *unused3) {
    // For SQLITE_FUNCTION the first argument is NULL and the second the function's name.
    (void)context, (void)unused1, (void)unused2, (void)unused3;
    if (action != SQLITE_FUNCTION || name == NULL) return SQLITE_OK;
    if (api.stricmp(name, "fts3_tokenizer") == 0 || api.stricmp(name, "load_extension") == 0) return SQLITE_DENY;
    return SQLITE_OK;
}

int wsh_sqlite_harden(wsh_sqlite *db) {
    // Each setting is its own call: sqlite3_db_config is variadic, one option at a time.
    int failed = api.set_authorizer(db, deny_unsafe_functions, NULL);
    failed |= api.db_config(db, SQLITE_DBCONFIG_ENABLE_FTS3_TOKENIZER, 0, (int *)NULL);
    failed |= api.db_config(db, SQLITE_DBCONFIG_ENABLE_LOAD_EXTENSION, 0, (int *)NULL);
    failed |= api.db_config(db, SQLITE_DBCONFIG_DEFENSIVE, 1, (int *)NULL);
#ifdef SQLITE_DBCONFIG_TRUSTED_SCHEMA
    // Older libraries (before 3.31) lack it; the schema is wsh's own there all the same.
    api.db_config(db, SQLITE_DBCONFIG_TRUSTED_SCHEMA, 0, (int *)NULL);
#endif
    return failed;
}
int wsh_sqlite_limit(wsh_sqlite *db, int limit, int value) { return api.limit(db, limit, value); }
void wsh_sqlite_progress_handler(wsh_sqlite *db, int instructions, int (*handler)(void *), void *context) {
    api.progress_handler(db, instructions, handler, context);
}
