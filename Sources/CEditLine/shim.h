// Typed wrappers around libedit's variadic el_set/el_get/history, which
// Swift cannot call, plus the SIGINT flag the shell's loop polls.
#ifndef WSH_CEDITLINE_SHIM_H
#define WSH_CEDITLINE_SHIM_H

#include <histedit.h>
#include <signal.h>
#include <string.h>
#include <stdio.h>

typedef char *(*wsh_el_prompt_fn)(EditLine *);
typedef unsigned char (*wsh_el_command_fn)(EditLine *, int);

static inline int wsh_el_set_prompt(EditLine *el, wsh_el_prompt_fn fn) {
    return el_set(el, EL_PROMPT, fn);
}
static inline int wsh_el_set_editor(EditLine *el, const char *mode) {
    return el_set(el, EL_EDITOR, mode);
}
static inline int wsh_el_set_signal(EditLine *el, int on) {
    return el_set(el, EL_SIGNAL, on);
}
static inline int wsh_el_set_history(EditLine *el, History *h) {
    return el_set(el, EL_HIST, history, h);
}
static inline int wsh_el_add_function(EditLine *el, const char *name, const char *help, wsh_el_command_fn fn) {
    return el_set(el, EL_ADDFN, name, help, fn);
}
static inline int wsh_el_bind(EditLine *el, const char *key, const char *function) {
    return el_set(el, EL_BIND, key, function, (const char *)NULL);
}
static inline int wsh_el_set_client_data(EditLine *el, void *data) {
    return el_set(el, EL_CLIENTDATA, data);
}
static inline void *wsh_el_client_data(EditLine *el) {
    void *data = NULL;
    el_get(el, EL_CLIENTDATA, &data);
    return data;
}
static inline int wsh_el_set_getc(EditLine *el, el_rfunc_t fn) {
    return el_set(el, EL_GETCFN, fn);
}

static inline int wsh_history_set_size(History *h, int size) {
    HistEvent ev;
    return history(h, &ev, H_SETSIZE, size);
}
static inline int wsh_history_set_unique(History *h, int unique) {
    HistEvent ev;
    return history(h, &ev, H_SETUNIQUE, unique);
}
static inline int wsh_history_enter(History *h, const char *line) {
    HistEvent ev;
    return history(h, &ev, H_ENTER, line);
}
static inline int wsh_history_load(History *h, const char *path) {
    HistEvent ev;
    return history(h, &ev, H_LOAD, path);
}
static inline int wsh_history_save(History *h, const char *path) {
    HistEvent ev;
    return history(h, &ev, H_SAVE, path);
}
static inline int wsh_history_clear(History *h) {
    HistEvent ev;
    return history(h, &ev, H_CLEAR);
}

// The standard streams, as functions: Swift 6 treats the C globals as
// shared mutable state.
static inline FILE *wsh_stdin(void) { return stdin; }
static inline FILE *wsh_stdout(void) { return stdout; }
static inline FILE *wsh_stderr(void) { return stderr; }

// SIGINT: the handler only records the signal. Installed without SA_RESTART
// so a blocking read (el_gets) returns EINTR and the loop can act on it.
static volatile sig_atomic_t wsh_sigint_count = 0;

static inline void wsh_sigint_handler(int signo) {
    (void)signo;
    wsh_sigint_count += 1;
}
static inline int wsh_install_sigint_handler(void) {
    // A process started from a thread that blocks signals (a dispatch worker
    // that spawned tmux, say) inherits that mask: unblock what a shell needs.
    sigset_t wanted;
    sigemptyset(&wanted);
    sigaddset(&wanted, SIGINT);
    sigaddset(&wanted, SIGTERM);
    sigaddset(&wanted, SIGHUP);
    sigaddset(&wanted, SIGQUIT);
    sigaddset(&wanted, SIGWINCH);
    sigaddset(&wanted, SIGCONT);
    sigaddset(&wanted, SIGTSTP);
    sigprocmask(SIG_UNBLOCK, &wanted, NULL);
    struct sigaction action;
    memset(&action, 0, sizeof action);
    action.sa_handler = wsh_sigint_handler;
    sigemptyset(&action.sa_mask);
    action.sa_flags = 0;
    return sigaction(SIGINT, &action, NULL);
}
/// Returns how many SIGINTs arrived since the last call, and resets the count.
static inline int wsh_take_sigint(void) {
    int n = (int)wsh_sigint_count;
    wsh_sigint_count = 0;
    return n;
}
static inline int wsh_peek_sigint(void) {
    return (int)wsh_sigint_count;
}

#endif
