// libedit for wsh, loaded with dlopen when the prompt first needs it, so
// `wsh -c` and scripts never pay for loading it (and the four libraries it
// brings). Typed wrappers stand in for the variadic el_set/el_get/history,
// which Swift cannot call. Also the SIGINT counter the shell polls.
#ifndef WSH_EDITLINE_H
#define WSH_EDITLINE_H

#include <histedit.h>
#include <stdio.h>

/// Loads libedit once; NULL on success, else why it could not be loaded.
const char *wsh_edit_load(void);

// Valid only after wsh_edit_load() returned NULL.
EditLine *wsh_el_init(const char *program, FILE *in, FILE *out, FILE *err);
void wsh_el_end(EditLine *el);
const char *wsh_el_gets(EditLine *el, int *count);
int wsh_el_source(EditLine *el, const char *path);
const LineInfo *wsh_el_line(EditLine *el);
int wsh_el_insertstr(EditLine *el, const char *text);

typedef char *(*wsh_el_prompt_fn)(EditLine *);
typedef unsigned char (*wsh_el_command_fn)(EditLine *, int);

int wsh_el_set_prompt(EditLine *el, wsh_el_prompt_fn fn);
int wsh_el_set_editor(EditLine *el, const char *mode);
int wsh_el_set_signal(EditLine *el, int on);
int wsh_el_set_history(EditLine *el, History *h);
int wsh_el_add_function(EditLine *el, const char *name, const char *help, wsh_el_command_fn fn);
int wsh_el_bind(EditLine *el, const char *key, const char *function);
int wsh_el_set_client_data(EditLine *el, void *data);
void *wsh_el_client_data(EditLine *el);
int wsh_el_set_getc(EditLine *el, el_rfunc_t fn);
/// Ctrl-\ sends no SIGQUIT while a line is edited (the terminal's quit character is undefined in edit mode).
int wsh_el_disable_quit_character(EditLine *el);

History *wsh_history_init(void);
void wsh_history_end(History *h);
int wsh_history_set_size(History *h, int size);
int wsh_history_set_unique(History *h, int unique);
int wsh_history_enter(History *h, const char *line);
/// The oldest entry of `h` (the cursor moves there), or NULL when it is empty.
const char *wsh_history_oldest(History *h);
/// The entry after the cursor towards the newest (the cursor moves there), or NULL past the newest.
const char *wsh_history_newer(History *h);

// The history file: never reached through a symbolic link (-1 with ELOOP for
// one) and only a regular file (-1 with EINVAL for anything else).
/// 0 when `path` can be opened for appending (created 0600), else -1 with errno.
int wsh_history_check(const char *path);
/// Enters the entries of the history file at `path` into `h`, oldest first; -1 with errno on failure.
int wsh_history_load(History *h, const char *path);
/// Appends `line` as one entry to the history file at `path` under an
/// exclusive lock (the file created 0600); -1 with errno on failure.
int wsh_history_append(const char *path, const char *line);
/// When `path` holds more than `limit` lines, keeps its newest `keep` entries
/// (under the same lock, replacing the file whole); -1 with errno on failure.
int wsh_history_trim(const char *path, int keep, int limit);

// The standard streams, as functions: Swift 6 treats the C globals as
// shared mutable state.
static inline FILE *wsh_stdin(void) { return stdin; }
static inline FILE *wsh_stdout(void) { return stdout; }
static inline FILE *wsh_stderr(void) { return stderr; }

// SIGINT: the handler only counts. Installed without SA_RESTART so a blocking
// read (el_gets, getline) returns EINTR and the loop can act on it.
int wsh_install_sigint_handler(void);
/// How many SIGINTs arrived since the last call; resets the count.
int wsh_take_sigint(void);
int wsh_peek_sigint(void);
/// SIGQUIT: ignored when `interactive` (as at a shell's prompt), else the
/// process exits at once, quietly, with status 131.
int wsh_install_sigquit_handler(int interactive);

#endif
