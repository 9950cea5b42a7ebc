#include "wsh_editline.h"
#include "wsh_dynamic_load.h"

#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

// The libedit entry points wsh uses, resolved with dlsym.
static struct {
    EditLine *(*el_init)(const char *, FILE *, FILE *, FILE *);
    void (*el_end)(EditLine *);
    const char *(*el_gets)(EditLine *, int *);
    int (*el_set)(EditLine *, int, ...);
    int (*el_get)(EditLine *, int, ...);
    int (*el_source)(EditLine *, const char *);
    const LineInfo *(*el_line)(EditLine *);
    int (*el_insertstr)(EditLine *, const char *);
    History *(*history_init)(void);
    void (*history_end)(History *);
    int (*history)(History *, HistEvent *, int, ...);
} api;

static const struct {
    const char *name;
    void **slot;
} symbols[] = {
    {"el_init", (void **)&api.el_init},
    {"el_end", (void **)&api.el_end},
    {"el_gets", (void **)&api.el_gets},
    {"el_set", (void **)&api.el_set},
    {"el_get", (void **)&api.el_get},
    {"el_source", (void **)&api.el_source},
    {"el_line", (void **)&api.el_line},
    {"el_insertstr", (void **)&api.el_insertstr},
    {"history_init", (void **)&api.history_init},
    {"history_end", (void **)&api.history_end},
    {"history", (void **)&api.history},
};

static pthread_once_t load_once = PTHREAD_ONCE_INIT;
static const char *load_error = "libedit was not loaded";
static char missing_symbol[96];

static void load_library(void) {
    static const char *const names[] = {"libedit.so.2", "libedit.so", "libedit.3.dylib", "libedit.dylib", NULL};
    void *library;
    load_error = wsh_open_first(&library, names, RTLD_NOW | RTLD_LOCAL, "cannot load libedit (install libedit2)");
    if (load_error != NULL) return;
    for (size_t i = 0; i < sizeof symbols / sizeof symbols[0]; i++) {
        *symbols[i].slot = dlsym(library, symbols[i].name);
        if (*symbols[i].slot == NULL) {
            snprintf(missing_symbol, sizeof missing_symbol, "libedit lacks %s", symbols[i].name);
            load_error = missing_symbol;
            return;
        }
    }
    load_error = NULL;
}

const char *wsh_edit_load(void) {
    pthread_once(&load_once, load_library);
    return load_error;
}

EditLine *wsh_el_init(const char *program, FILE *in, FILE *out, FILE *err) {
    return api.el_init(program, in, out, err);
}
void wsh_el_end(EditLine *el) { api.el_end(el); }
const char *wsh_el_gets(EditLine *el, int *count) { return api.el_gets(el, count); }
int wsh_el_source(EditLine *el, const char *path) { return api.el_source(el, path); }
const LineInfo *wsh_el_line(EditLine *el) { return api.el_line(el); }
int wsh_el_insertstr(EditLine *el, const char *text) { return api.el_insertstr(el, text); }

int wsh_el_set_prompt(EditLine *el, wsh_el_prompt_fn fn) { return api.el_set(el, EL_PROMPT, fn); }
int wsh_el_set_editor(EditLine *el, const char *mode) { return api.el_set(el, EL_EDITOR, mode); }
int wsh_el_set_signal(EditLine *el, int on) { return api.el_set(el, EL_SIGNAL, on); }
int wsh_el_set_history(EditLine *el, History *h) { return api.el_set(el, EL_HIST, api.history, h); }
int wsh_el_add_function(EditLine *el, const char *name, const char *help, wsh_el_command_fn fn) {
    return api.el_set(el, EL_ADDFN, name, help, fn);
}
int wsh_el_bind(EditLine *el, const char *key, const char *function) {
    return api.el_set(el, EL_BIND, key, function, (const char *)NULL);
}
int wsh_el_set_client_data(EditLine *el, void *data) { return api.el_set(el, EL_CLIENTDATA, data); }
void *wsh_el_client_data(EditLine *el) {
    void *data = NULL;
    api.el_get(el, EL_CLIENTDATA, &data);
    return data;
}
int wsh_el_set_getc(EditLine *el, el_rfunc_t fn) { return api.el_set(el, EL_GETCFN, fn); }
int wsh_el_disable_quit_character(EditLine *el) {
    // An empty value is libedit's "undefined": the terminal sends no SIGQUIT for Ctrl-\ while editing.
    return api.el_set(el, EL_SETTY, "-d", "quit=", (const char *)NULL);
}

History *wsh_history_init(void) { return api.history_init(); }
void wsh_history_end(History *h) { api.history_end(h); }
int wsh_history_set_size(History *h, int size) {
    HistEvent event;
    return api.history(h, &event, H_SETSIZE, size);
}
int wsh_history_set_unique(History *h, int unique) {
    HistEvent event;
    return api.history(h, &event, H_SETUNIQUE, unique);
}
int wsh_history_enter(History *h, const char *line) {
    HistEvent event;
    return api.history(h, &event, H_ENTER, line);
}
const char *wsh_history_oldest(History *h) {
    HistEvent event;
    return api.history(h, &event, H_LAST) < 0 ? NULL : event.str;
}
const char *wsh_history_newer(History *h) {
    HistEvent event;
    return api.history(h, &event, H_PREV) < 0 ? NULL : event.str;
}

// Lock-free, so the handler may touch it; atomic_exchange in take() means a
// signal that lands between reading and clearing the count is never lost.
static atomic_int sigint_count = 0;

static void on_sigint(int signo) {
    (void)signo;
    atomic_fetch_add(&sigint_count, 1);
}

static void on_sigquit(int signo) {
    (void)signo;
    // A script stops at once and quietly, as a shell killed by SIGQUIT would (128 + 3).
    _exit(128 + SIGQUIT);
}

int wsh_install_sigint_handler(void) {
    // A process started from a thread that blocks signals (a dispatch worker
    // that spawned tmux, say) inherits that mask: unblock what a shell needs.
    sigset_t wanted;
    sigemptyset(&wanted);
    int wanted_signals[] = {SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGWINCH, SIGCONT, SIGTSTP};
    for (size_t i = 0; i < sizeof wanted_signals / sizeof wanted_signals[0]; i++) {
        sigaddset(&wanted, wanted_signals[i]);
    }
    sigprocmask(SIG_UNBLOCK, &wanted, NULL);
    struct sigaction action;
    memset(&action, 0, sizeof action);
    action.sa_handler = on_sigint;
    sigemptyset(&action.sa_mask);
    action.sa_flags = 0;
    return sigaction(SIGINT, &action, NULL);
}

int wsh_install_sigquit_handler(int interactive) {
    struct sigaction action;
    memset(&action, 0, sizeof action);
    action.sa_handler = interactive ? SIG_IGN : on_sigquit;
    sigemptyset(&action.sa_mask);
    action.sa_flags = 0;
    return sigaction(SIGQUIT, &action, NULL);
}

int wsh_take_sigint(void) { return atomic_exchange(&sigint_count, 0); }

int wsh_peek_sigint(void) { return atomic_load(&sigint_count); }

// History files, shared by sessions: each appends the lines typed in it under
// an exclusive lock, and a trim replaces the file whole (rename), so a session
// that waited for the lock on the old file opens the new one instead.
//
// The file is never reached through a symbolic link: every open is O_NOFOLLOW
// and takes only a regular file, so a link planted at the history path cannot
// make wsh chmod or write the file it points to.

// libedit's first line of a history file; it writes it whenever its stream is
// at position 0, and reads any later copy back as an entry.
static const char history_cookie[] = "_HiStOrY_V2_";

// The regular file at `path`, opened with `flags` without following a link
// (ELOOP for a link); -1 with errno otherwise. O_NONBLOCK keeps a FIFO from
// blocking the open; it is cleared once the file is known to be regular.
static int open_regular(const char *path, int flags) {
    int fd = open(path, flags | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK, 0600);
    if (fd < 0) return -1;
    struct stat info;
    int saved = fstat(fd, &info) != 0 ? errno : S_ISREG(info.st_mode) ? 0 : EINVAL;
    if (saved != 0) {
        close(fd);
        errno = saved;
        return -1;
    }
    fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK);
    return fd;
}

static int open_locked(const char *path) {
    for (int attempt = 0; attempt < 8; attempt++) {
        int fd = open_regular(path, O_RDWR | O_APPEND | O_CREAT);
        if (fd < 0) return -1;
        if (flock(fd, LOCK_EX) != 0) {
            int saved = errno;
            close(fd);
            errno = saved;
            return -1;
        }
        struct stat opened, current;
        if (fstat(fd, &opened) == 0 && lstat(path, &current) == 0 &&
            opened.st_dev == current.st_dev && opened.st_ino == current.st_ino) {
            return fd;
        }
        close(fd);  // replaced while we waited: lock the new one
    }
    errno = EAGAIN;
    return -1;
}

// Reads the history file open at `fd` into `into` (whose size and uniqueness
// apply), leaving out libedit's header line wherever it appears: older wsh
// wrote one before every appended line. libedit loads only from a path, so it
// is given the descriptor's own: /dev/fd/N is the file already opened, not
// whatever the history path names by now.
static int load_entries(History *into, int fd) {
    if (lseek(fd, 0, SEEK_SET) < 0) return -1;
    char descriptor[32];
    snprintf(descriptor, sizeof descriptor, "/dev/fd/%d", fd);
    History *all = api.history_init();
    if (all == NULL) return -1;
    HistEvent event;
    api.history(all, &event, H_SETSIZE, INT_MAX);
    int result = api.history(all, &event, H_LOAD, descriptor) < 0 ? -1 : 0;
    for (int found = api.history(all, &event, H_LAST); result == 0 && found >= 0;
         found = api.history(all, &event, H_PREV)) {
        if (strcmp(event.str, history_cookie) == 0) continue;
        HistEvent entered;
        api.history(into, &entered, H_ENTER, event.str);
    }
    api.history_end(all);
    return result;
}

int wsh_history_check(const char *path) {
    int fd = open_regular(path, O_WRONLY | O_APPEND | O_CREAT);
    if (fd < 0) return -1;
    close(fd);
    return 0;
}

int wsh_history_load(History *h, const char *path) {
    int fd = open_regular(path, O_RDONLY);
    if (fd < 0) return -1;
    int result = load_entries(h, fd);
    close(fd);
    return result;
}

int wsh_history_append(const char *path, const char *line) {
    int fd = open_locked(path);
    if (fd < 0) return -1;
    FILE *file = fdopen(fd, "a");
    if (file == NULL) {
        int saved = errno;
        close(fd);
        errno = saved;
        return -1;
    }
    // stdio starts an appending stream at position 0, where libedit would
    // write its header again: the header goes only into an empty file.
    History *one = api.history_init();
    HistEvent event;
    errno = 0;
    // A new History keeps no entries until it is given a size.
    int failed = one == NULL || fseek(file, 0, SEEK_END) != 0 || api.history(one, &event, H_SETSIZE, 1) < 0 ||
                 api.history(one, &event, H_ENTER, line) < 0 ||
                 api.history(one, &event, H_SAVE_FP, file) < 0 || fflush(file) != 0;
    int error = errno ? errno : EIO;
    if (one) api.history_end(one);
    fclose(file);  // releases the lock
    if (failed) {
        errno = error;
        return -1;
    }
    return 0;
}

int wsh_history_trim(const char *path, int keep, int limit) {
    int fd = open_locked(path);
    if (fd < 0) return -1;
    int lines = 0;
    char buffer[8192];
    ssize_t count;
    for (off_t offset = 0; (count = pread(fd, buffer, sizeof buffer, offset)) > 0; offset += count) {
        for (ssize_t i = 0; i < count; i++) lines += buffer[i] == '\n';
    }
    int result = 0;
    if (lines > limit) {
        History *kept = api.history_init();
        HistEvent event;
        char temporary[4096];
        snprintf(temporary, sizeof temporary, "%s.XXXXXX", path);
        int out = -1;
        result = -1;
        if (kept) api.history(kept, &event, H_SETSIZE, keep);
        if (kept && load_entries(kept, fd) == 0 && (out = mkstemp(temporary)) >= 0) {
            fchmod(out, 0600);
            FILE *stream = fdopen(out, "w");
            // rename replaces a link at `path` itself, never the file it points to.
            if (stream != NULL && api.history(kept, &event, H_SAVE_FP, stream) >= 0 && fflush(stream) == 0 &&
                rename(temporary, path) == 0) {
                result = 0;
            } else {
                unlink(temporary);
            }
            if (stream != NULL) fclose(stream); else close(out);
        }
        if (kept) api.history_end(kept);
    }
    close(fd);
    return result;
}
