#include "wsh_curl.h"
#include "wsh_dynamic_load.h"

#include <curl/curl.h>
#include <dlfcn.h>
#include <errno.h>
#include <poll.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

// The libcurl entry points wsh uses, resolved with dlsym.
static struct {
    CURLcode (*global_init)(long);
    CURL *(*easy_init)(void);
    void (*easy_cleanup)(CURL *);
    CURLcode (*easy_setopt)(CURL *, CURLoption, ...);
    CURLcode (*easy_getinfo)(CURL *, CURLINFO, ...);
    const char *(*easy_strerror)(CURLcode);
    CURLcode (*easy_perform)(CURL *);
    CURLcode (*easy_send)(CURL *, const void *, size_t, size_t *);
    CURLcode (*easy_recv)(CURL *, void *, size_t, size_t *);
    struct curl_slist *(*slist_append)(struct curl_slist *, const char *);
    void (*slist_free_all)(struct curl_slist *);
    CURLM *(*multi_init)(void);
    CURLMcode (*multi_cleanup)(CURLM *);
    CURLMcode (*multi_add_handle)(CURLM *, CURL *);
    CURLMcode (*multi_remove_handle)(CURLM *, CURL *);
    CURLMcode (*multi_perform)(CURLM *, int *);
    CURLMcode (*multi_poll)(CURLM *, struct curl_waitfd *, unsigned int, int, int *);
    CURLMcode (*multi_wakeup)(CURLM *);
    CURLMsg *(*multi_info_read)(CURLM *, int *);
    char *(*version)(void);
    curl_mime *(*mime_init)(CURL *);
    void (*mime_free)(curl_mime *);
    curl_mimepart *(*mime_addpart)(curl_mime *);
    CURLcode (*mime_name)(curl_mimepart *, const char *);
    CURLcode (*mime_data)(curl_mimepart *, const char *, size_t);
    CURLcode (*mime_filedata)(curl_mimepart *, const char *);
    CURLcode (*mime_filename)(curl_mimepart *, const char *);
    CURLcode (*mime_type)(curl_mimepart *, const char *);
} api;

static pthread_once_t load_once = PTHREAD_ONCE_INIT;
static const char *load_error = "libcurl was not loaded";

#define RESOLVE(field, symbol)                                   \
    do {                                                         \
        *(void **)(&api.field) = dlsym(library, symbol);         \
        if (api.field == NULL) {                                 \
            load_error = "libcurl lacks " symbol;                \
            return;                                              \
        }                                                        \
    } while (0)

static void load_library(void) {
    static const char *const names[] = {"libcurl.so.4", "libcurl.so", "libcurl.4.dylib", "libcurl.dylib", NULL};
    void *library;
    // Lazy binding: the ~30 libraries libcurl brings are not all bound up
    // front (those built with BIND_NOW still are); every entry point wsh
    // calls is looked up below, so a missing one is still found at once.
    load_error = wsh_open_first(&library, names, RTLD_LAZY | RTLD_LOCAL, "cannot load libcurl (install libcurl4)");
    if (load_error != NULL) return;
    RESOLVE(global_init, "curl_global_init");
    RESOLVE(easy_init, "curl_easy_init");
    RESOLVE(easy_cleanup, "curl_easy_cleanup");
    RESOLVE(easy_setopt, "curl_easy_setopt");
    RESOLVE(easy_getinfo, "curl_easy_getinfo");
    RESOLVE(easy_strerror, "curl_easy_strerror");
    RESOLVE(easy_perform, "curl_easy_perform");
    RESOLVE(easy_send, "curl_easy_send");
    RESOLVE(easy_recv, "curl_easy_recv");
    RESOLVE(slist_append, "curl_slist_append");
    RESOLVE(slist_free_all, "curl_slist_free_all");
    RESOLVE(multi_init, "curl_multi_init");
    RESOLVE(multi_cleanup, "curl_multi_cleanup");
    RESOLVE(multi_add_handle, "curl_multi_add_handle");
    RESOLVE(multi_remove_handle, "curl_multi_remove_handle");
    RESOLVE(multi_perform, "curl_multi_perform");
    RESOLVE(multi_poll, "curl_multi_poll");
    RESOLVE(multi_info_read, "curl_multi_info_read");
    RESOLVE(version, "curl_version");
    RESOLVE(mime_init, "curl_mime_init");
    RESOLVE(mime_free, "curl_mime_free");
    RESOLVE(mime_addpart, "curl_mime_addpart");
    RESOLVE(mime_name, "curl_mime_name");
    RESOLVE(mime_data, "curl_mime_data");
    RESOLVE(mime_filedata, "curl_mime_filedata");
    RESOLVE(mime_filename, "curl_mime_filename");
    RESOLVE(mime_type, "curl_mime_type");
    // Optional (7.68+): lets cancel interrupt a poll at once.
    *(void **)(&api.multi_wakeup) = dlsym(library, "curl_multi_wakeup");
    if (api.global_init(CURL_GLOBAL_DEFAULT) != CURLE_OK) {
        load_error = "curl_global_init failed";
        return;
    }
    load_error = NULL;
}

const char *wsh_curl_load(void) {
    pthread_once(&load_once, load_library);
    return load_error;
}

static atomic_int preload_started;

static void *preload_thread(void *unused) {
    (void)unused;
    wsh_curl_load();
    return NULL;
}

void wsh_curl_preload(void) {
    if (atomic_exchange(&preload_started, 1)) return;
    pthread_attr_t attributes;
    pthread_t thread;
    if (pthread_attr_init(&attributes) != 0) return;
    pthread_attr_setdetachstate(&attributes, PTHREAD_CREATE_DETACHED);
    // If no thread can be made, wsh_curl_load loads on first use as before.
    pthread_create(&thread, &attributes, preload_thread, NULL);
    pthread_attr_destroy(&attributes);
}

// Typed wrappers around the variadic calls.
static CURLcode set_long(CURL *easy, CURLoption option, long value) {
    return api.easy_setopt(easy, option, value);
}
static CURLcode set_pointer(CURL *easy, CURLoption option, const void *value) {
    return api.easy_setopt(easy, option, value);
}
static CURLcode set_off(CURL *easy, CURLoption option, curl_off_t value) {
    return api.easy_setopt(easy, option, value);
}
static long info_long(CURL *easy, CURLINFO info) {
    long value = 0;
    api.easy_getinfo(easy, info, &value);
    return value;
}
static double info_seconds(CURL *easy, CURLINFO info) {
    curl_off_t micros = 0;
    api.easy_getinfo(easy, info, &micros);
    return (double)micros / 1e6;
}

typedef struct buffer {
    char *data;
    size_t length;
    size_t capacity;
} buffer;

// Makes room for `capacity` bytes (the body's announced length, so that it
// arrives without being moved as it grows).
static void buffer_reserve(buffer *b, size_t capacity) {
    if (capacity <= b->capacity) return;
    char *grown = realloc(b->data, capacity);
    if (grown == NULL) return;  // it grows as it arrives instead
    b->data = grown;
    b->capacity = capacity;
}

static int buffer_append(buffer *b, const char *bytes, size_t n) {
    if (b->length + n + 1 > b->capacity) {
        size_t capacity = b->capacity ? b->capacity : 16384;
        while (capacity < b->length + n + 1) capacity *= 2;
        char *grown = realloc(b->data, capacity);
        if (grown == NULL) return 0;
        b->data = grown;
        b->capacity = capacity;
    }
    memcpy(b->data + b->length, bytes, n);
    b->length += n;
    b->data[b->length] = '\0';
    return 1;
}

struct wsh_curl {
    CURLM *multi;
    CURL *easy;
    buffer body;
    buffer headers;
    size_t max_body_bytes;
    int body_too_large;
    int headers_ended;                // the blank line after the last status line's headers arrived
    int (*on_chunk)(void *, const char *, size_t);
    void *chunk_context;
    int chunk_stopped;                // on_chunk asked to stop
    atomic_int cancelled;
    char error[CURL_ERROR_SIZE];
};

static size_t on_body(char *bytes, size_t size, size_t count, void *context) {
    wsh_curl *h = context;
    size_t n = size * count;
    if (h->on_chunk) {
        long status = info_long(h->easy, CURLINFO_RESPONSE_CODE);
        if (status >= 200 && status < 300) {
            if (h->on_chunk(h->chunk_context, bytes, n)) return n;
            h->chunk_stopped = 1;
            return 0;
        }
    }
    if (h->max_body_bytes && h->body.length + n > h->max_body_bytes) {
        h->body_too_large = 1;
        return 0;
    }
    if (h->body.length == 0) {
        // Room for the whole body at once, when it says how long it is; a
        // length past the limit (or past 64 MiB) is not taken at its word.
        curl_off_t announced = -1;
        api.easy_getinfo(h->easy, CURLINFO_CONTENT_LENGTH_DOWNLOAD_T, &announced);
        size_t most = h->max_body_bytes ? h->max_body_bytes : (size_t)64 << 20;
        if (announced > 0 && (size_t)announced <= most) buffer_reserve(&h->body, (size_t)announced + 1);
    }
    return buffer_append(&h->body, bytes, n) ? n : 0;
}

static size_t on_header(char *bytes, size_t size, size_t count, void *context) {
    wsh_curl *h = context;
    size_t n = size * count;
    // A new status line starts a new block (redirects, 100 Continue): keep the last.
    if (n >= 5 && memcmp(bytes, "HTTP/", 5) == 0) {
        h->headers.length = 0;
        h->headers_ended = 0;
    } else if ((n == 2 && bytes[0] == '\r' && bytes[1] == '\n') || (n == 1 && bytes[0] == '\n')) {
        h->headers_ended = 1;
    }
    return buffer_append(&h->headers, bytes, n) ? n : 0;
}

static int on_progress(void *context, curl_off_t a, curl_off_t b, curl_off_t c, curl_off_t d) {
    (void)a; (void)b; (void)c; (void)d;
    wsh_curl *h = context;
    return atomic_load(&h->cancelled) ? 1 : 0;
}

wsh_curl *wsh_curl_new(void) {
    if (wsh_curl_load() != NULL) return NULL;
    wsh_curl *h = calloc(1, sizeof *h);
    if (h == NULL) return NULL;
    h->multi = api.multi_init();
    h->easy = api.easy_init();
    if (h->multi == NULL || h->easy == NULL) {
        wsh_curl_free(h);
        return NULL;
    }
    atomic_init(&h->cancelled, 0);
    CURL *e = h->easy;
    set_pointer(e, CURLOPT_WRITEFUNCTION, (const void *)on_body);
    set_pointer(e, CURLOPT_WRITEDATA, h);
    set_pointer(e, CURLOPT_HEADERFUNCTION, (const void *)on_header);
    set_pointer(e, CURLOPT_HEADERDATA, h);
    set_long(e, CURLOPT_NOPROGRESS, 0L);
    set_pointer(e, CURLOPT_XFERINFOFUNCTION, (const void *)on_progress);
    set_pointer(e, CURLOPT_XFERINFODATA, h);
    set_pointer(e, CURLOPT_ERRORBUFFER, h->error);
    set_long(e, CURLOPT_NOSIGNAL, 1L);
    set_pointer(e, CURLOPT_ACCEPT_ENCODING, "");  // every encoding libcurl decodes, gzip included
    set_pointer(e, CURLOPT_USERAGENT, "wsh/0.1");
    set_long(e, CURLOPT_TCP_KEEPALIVE, 1L);
    set_long(e, CURLOPT_TCP_NODELAY, 1L);
    // Read up to 256 KB a call (libcurl's default is 16 KB): a page of 100
    // statuses (200 KB) then arrives in one or two reads and callbacks, not
    // thirteen (scripts/bench-table, the pages row). libcurl allocates the
    // buffer once per handle, and a read touches only the part it fills.
    set_long(e, CURLOPT_BUFFERSIZE, 256L * 1024);
    return h;
}

char *wsh_curl_take_body(wsh_curl *h) {
    char *body = h->body.data;
    h->body.data = NULL;
    h->body.length = 0;
    h->body.capacity = 0;
    return body;
}

void wsh_curl_free(wsh_curl *h) {
    if (h == NULL) return;
    if (h->easy) api.easy_cleanup(h->easy);
    if (h->multi) api.multi_cleanup(h->multi);
    free(h->body.data);
    free(h->headers.data);
    free(h);
}

int wsh_curl_set_ca_file(wsh_curl *h, const char *path) {
    return set_pointer(h->easy, CURLOPT_CAINFO, path);  // libcurl keeps a copy
}

void wsh_curl_reset_cancel(wsh_curl *h) {
    atomic_store(&h->cancelled, 0);
}

void wsh_curl_cancel(wsh_curl *h) {
    atomic_store(&h->cancelled, 1);
    if (api.multi_wakeup) api.multi_wakeup(h->multi);
}

// The multipart body of `request`, or NULL (and `*code` set) when a part cannot be made.
// A file part is streamed by libcurl from disk as it sends.
static curl_mime *build_mime(CURL *e, const wsh_curl_request *request, CURLcode *code) {
    curl_mime *mime = api.mime_init(e);
    if (mime == NULL) {
        *code = CURLE_OUT_OF_MEMORY;
        return NULL;
    }
    for (size_t i = 0; i < request->part_count; i++) {
        const wsh_curl_part *part = &request->parts[i];
        curl_mimepart *made = api.mime_addpart(mime);
        CURLcode result = made ? api.mime_name(made, part->name) : CURLE_OUT_OF_MEMORY;
        if (result == CURLE_OK) {
            result = part->file_path ? api.mime_filedata(made, part->file_path)
                                     : api.mime_data(made, part->data ? part->data : "", part->data_length);
        }
        if (result == CURLE_OK && part->file_path) result = api.mime_filename(made, part->filename);
        if (result == CURLE_OK && part->content_type) result = api.mime_type(made, part->content_type);
        if (result != CURLE_OK) {
            api.mime_free(mime);
            *code = result;
            return NULL;
        }
    }
    return mime;
}

int wsh_curl_perform(wsh_curl *h, const wsh_curl_request *request, wsh_curl_response *response) {
    memset(response, 0, sizeof *response);
    CURL *e = h->easy;
    h->body.length = 0;
    h->headers.length = 0;
    if (h->body.data) h->body.data[0] = '\0';
    if (h->headers.data) h->headers.data[0] = '\0';
    h->error[0] = '\0';
    h->body_too_large = 0;
    h->headers_ended = 0;
    h->max_body_bytes = request->max_body_bytes;
    h->on_chunk = request->on_chunk;
    h->chunk_context = request->chunk_context;
    h->chunk_stopped = 0;

    struct curl_slist *headers = NULL;
    for (size_t i = 0; i < request->header_count; i++) {
        struct curl_slist *appended =
            request->headers[i] ? api.slist_append(headers, request->headers[i]) : NULL;
        if (appended == NULL) {
            // Out of memory (here or in the caller's copy): fail rather than send a partial request.
            api.slist_free_all(headers);
            response->curl_code = CURLE_OUT_OF_MEMORY;
            response->error_message = api.easy_strerror(CURLE_OUT_OF_MEMORY);
            response->body = "";
            response->headers = "";
            return CURLE_OUT_OF_MEMORY;
        }
        headers = appended;
    }
    set_pointer(e, CURLOPT_URL, request->url);
    set_pointer(e, CURLOPT_HTTPHEADER, headers);
    set_long(e, CURLOPT_CONNECTTIMEOUT_MS, request->connect_timeout_ms);
    set_long(e, CURLOPT_TIMEOUT_MS, request->timeout_ms);
    // A POST gets a connection of its own. On a reused keep-alive connection
    // that closes before any answer byte, libcurl silently sends the request
    // again on a new one; for a POST that is a second status posted. On a
    // fresh connection it reports the loss instead, and wsh resolves it.
    set_long(e, CURLOPT_FRESH_CONNECT, request->is_post ? 1L : 0L);
    curl_mime *mime = NULL;
    CURLcode code = CURLE_OK;
    if (request->is_post == 1 && request->part_count > 0) {
        mime = build_mime(e, request, &code);
        if (mime) set_pointer(e, CURLOPT_MIMEPOST, mime);
    } else if (request->is_post == 2) {
        // DELETE: no body; the method name only. Reset after the transfer.
        set_long(e, CURLOPT_HTTPGET, 1L);
        set_pointer(e, CURLOPT_CUSTOMREQUEST, "DELETE");
    } else if (request->is_post) {
        set_long(e, CURLOPT_POST, 1L);
        set_off(e, CURLOPT_POSTFIELDSIZE_LARGE, (curl_off_t)request->body_length);
        // libcurl keeps its own copy: the caller's buffer is gone once this call returns.
        set_pointer(e, CURLOPT_COPYPOSTFIELDS, request->body ? request->body : "");
        // PUT and PATCH: a body as for POST, under their own method name. Reset after the transfer.
        if (request->is_post == 3) set_pointer(e, CURLOPT_CUSTOMREQUEST, "PUT");
        if (request->is_post == 4) set_pointer(e, CURLOPT_CUSTOMREQUEST, "PATCH");
    } else {
        set_long(e, CURLOPT_HTTPGET, 1L);
    }

    int running = code == CURLE_OK;
    if (running && api.multi_add_handle(h->multi, e) != CURLM_OK) {
        code = CURLE_FAILED_INIT;
        running = 0;
    }
    while (running) {
        if (api.multi_perform(h->multi, &running) != CURLM_OK) {
            code = CURLE_FAILED_INIT;
            break;
        }
        if (atomic_load(&h->cancelled)) {
            code = CURLE_ABORTED_BY_CALLBACK;
            break;
        }
        if (running) api.multi_poll(h->multi, NULL, 0, 20, NULL);
    }
    int pending = 0;
    CURLMsg *message;
    while ((message = api.multi_info_read(h->multi, &pending)) != NULL) {
        if (message->msg == CURLMSG_DONE && message->easy_handle == e && code == CURLE_OK) {
            code = message->data.result;
        }
    }
    api.multi_remove_handle(h->multi, e);
    set_pointer(e, CURLOPT_HTTPHEADER, NULL);
    api.slist_free_all(headers);
    if (request->is_post == 1 && request->part_count > 0) {
        // The form goes with this request only; the next one on the handle is a GET unless it says otherwise.
        set_pointer(e, CURLOPT_MIMEPOST, NULL);
        if (mime) api.mime_free(mime);
        set_long(e, CURLOPT_HTTPGET, 1L);
    } else if (request->is_post == 2) {
        set_pointer(e, CURLOPT_CUSTOMREQUEST, NULL);
    } else if (request->is_post) {
        // Drop the body copy and the POST method, so nothing of this request
        // reaches the next one on the handle (HTTPGET after POSTFIELDS: a GET).
        if (request->is_post >= 3) set_pointer(e, CURLOPT_CUSTOMREQUEST, NULL);
        set_pointer(e, CURLOPT_POSTFIELDS, NULL);
        set_long(e, CURLOPT_HTTPGET, 1L);
    }

    if (atomic_load(&h->cancelled)) {
        code = CURLE_ABORTED_BY_CALLBACK;
        response->cancelled = 1;
    }
    if (h->body_too_large) {
        // Not curl's "Failure writing output": the limit is wsh's, and the caller words it.
        code = CURLE_FILESIZE_EXCEEDED;
        h->error[0] = '\0';
    }
    if (h->chunk_stopped) code = CURLE_OK;  // the reader stopped it: not a failure
    h->on_chunk = NULL;
    h->chunk_context = NULL;
    response->curl_code = code;
    response->status = info_long(e, CURLINFO_RESPONSE_CODE);
    response->body = h->body.data ? h->body.data : "";
    response->body_length = h->body.length;
    response->headers = h->headers.data ? h->headers.data : "";
    response->headers_length = h->headers.length;
    response->total_seconds = info_seconds(e, CURLINFO_TOTAL_TIME_T);
    response->connect_seconds = info_seconds(e, CURLINFO_CONNECT_TIME_T);
    response->new_connections = info_long(e, CURLINFO_NUM_CONNECTS);
    response->error_message = h->error[0] ? h->error : api.easy_strerror(code);
    // An oversize header is reported as out of memory, a receive error or
    // "too large" depending on libcurl's version, and often before the header
    // callback saw the line: what tells it apart is where the transfer stopped.
    response->in_headers = code != CURLE_OK && !h->headers_ended && info_long(e, CURLINFO_REQUEST_SIZE) > 0;
    return code;
}

struct wsh_curl_socket {
    CURL *easy;
    curl_socket_t fd;
};

// Stops a connect in progress when the caller's flag is set.
static int on_connect_progress(void *context, curl_off_t a, curl_off_t b, curl_off_t c, curl_off_t d) {
    (void)a; (void)b; (void)c; (void)d;
    const int *cancel = context;
    return cancel != NULL && __atomic_load_n(cancel, __ATOMIC_SEQ_CST) ? 1 : 0;
}

static void copy_message(char *error, size_t error_size, const char *message) {
    if (error == NULL || error_size == 0) return;
    snprintf(error, error_size, "%s", message ? message : "");
}

wsh_curl_socket *wsh_curl_connect(const char *url, const char *ca_file, long connect_timeout_ms,
                                  const int *cancel, int *code, char *error, size_t error_size) {
    char curl_error[CURL_ERROR_SIZE] = "";
    const char *unloaded = wsh_curl_load();
    if (unloaded != NULL) {
        *code = CURLE_FAILED_INIT;
        copy_message(error, error_size, unloaded);
        return NULL;
    }
    CURL *e = api.easy_init();
    wsh_curl_socket *s = e ? calloc(1, sizeof *s) : NULL;
    if (s == NULL) {
        if (e) api.easy_cleanup(e);
        *code = CURLE_OUT_OF_MEMORY;
        copy_message(error, error_size, api.easy_strerror(CURLE_OUT_OF_MEMORY));
        return NULL;
    }
    s->easy = e;
    set_pointer(e, CURLOPT_URL, url);
    set_long(e, CURLOPT_CONNECT_ONLY, 1L);
    // Its own connection: nothing else may write on it. (Not FORBID_REUSE:
    // that closes the connection as soon as the connect "transfer" ends.)
    set_long(e, CURLOPT_FRESH_CONNECT, 1L);
    set_long(e, CURLOPT_CONNECTTIMEOUT_MS, connect_timeout_ms);
    set_long(e, CURLOPT_NOSIGNAL, 1L);
    set_long(e, CURLOPT_TCP_KEEPALIVE, 1L);
    set_long(e, CURLOPT_TCP_NODELAY, 1L);
    set_pointer(e, CURLOPT_ERRORBUFFER, curl_error);
    if (ca_file != NULL) set_pointer(e, CURLOPT_CAINFO, ca_file);
    set_long(e, CURLOPT_NOPROGRESS, 0L);
    set_pointer(e, CURLOPT_XFERINFOFUNCTION, (const void *)on_connect_progress);
    set_pointer(e, CURLOPT_XFERINFODATA, cancel);
    CURLcode result = api.easy_perform(e);
    set_pointer(e, CURLOPT_ERRORBUFFER, NULL);
    if (result == CURLE_OK) {
        curl_socket_t fd = CURL_SOCKET_BAD;
        result = api.easy_getinfo(e, CURLINFO_ACTIVESOCKET, &fd);
        if (result == CURLE_OK && fd == CURL_SOCKET_BAD) result = CURLE_COULDNT_CONNECT;
        s->fd = fd;
    }
    if (result != CURLE_OK) {
        *code = result;
        copy_message(error, error_size, curl_error[0] ? curl_error : api.easy_strerror(result));
        api.easy_cleanup(e);
        free(s);
        return NULL;
    }
    *code = CURLE_OK;
    return s;
}

int wsh_curl_socket_send(wsh_curl_socket *s, const void *bytes, size_t length, size_t *sent) {
    *sent = 0;
    return api.easy_send(s->easy, bytes, length, sent);
}

int wsh_curl_socket_recv(wsh_curl_socket *s, void *buffer, size_t length, size_t *received) {
    *received = 0;
    return api.easy_recv(s->easy, buffer, length, received);
}

int wsh_curl_socket_wait(wsh_curl_socket *s, int for_write, int timeout_ms) {
    struct pollfd entry = {.fd = s->fd, .events = for_write ? POLLOUT : POLLIN};
    int ready = poll(&entry, 1, timeout_ms);
    if (ready < 0) return errno == EINTR ? 0 : -1;
    return ready > 0 ? 1 : 0;
}

void wsh_curl_flag_raise(int *flag) {
    __atomic_store_n(flag, 1, __ATOMIC_SEQ_CST);
}

void wsh_curl_socket_close(wsh_curl_socket *s) {
    if (s == NULL) return;
    api.easy_cleanup(s->easy);
    free(s);
}

const char *wsh_curl_version(void) {
    return wsh_curl_load() == NULL ? api.version() : NULL;
}

const char *wsh_curl_strerror(int code) {
    return wsh_curl_load() == NULL ? api.easy_strerror((CURLcode)code) : "libcurl unavailable";
}
