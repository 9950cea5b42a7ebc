// A small, typed C surface over libcurl for WshRequest.
//
// libcurl is loaded with dlopen on first use, so a process that never makes
// a request (`wsh -c 'echo hi'`) never pays the ~5 ms it takes to load it
// and its 30-odd shared libraries. The variadic curl_easy_setopt and
// curl_easy_getinfo are called only from wsh_curl.c, behind typed functions.
#ifndef WSH_CURL_H
#define WSH_CURL_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/// One reusable transfer context: a multi handle (which owns the connection
/// cache, so keep-alive connections survive between requests) and one easy
/// handle, plus the buffers of the last response.
typedef struct wsh_curl wsh_curl;

/// One part of a multipart/form-data body: a field's value, or a file
/// libcurl streams from disk while it sends (never read into memory here).
typedef struct wsh_curl_part {
    const char *name;
    const char *data;                 ///< the value, when not a file
    size_t data_length;
    const char *file_path;            ///< the file to stream, or NULL
    const char *filename;             ///< the name sent for a file, or NULL
    const char *content_type;         ///< the part's Content-Type, or NULL
} wsh_curl_part;

/// What one request asks for. Strings are NUL-terminated and borrowed.
typedef struct wsh_curl_request {
    int is_post;                      ///< 0: GET, 1: POST with `body`, 2: DELETE (a write, without a body), 3: PUT, 4: PATCH (with `body`)
    const char *url;
    const char *const *headers;       ///< "Name: value" lines; a NULL entry fails the request (out of memory)
    size_t header_count;
    const char *body;                 ///< POST body, may be NULL; copied, so only borrowed for the call
    size_t body_length;
    long connect_timeout_ms;
    long timeout_ms;
    size_t max_body_bytes;            ///< 0 means no limit
    /// When set, a 2xx body is handed to it chunk by chunk as it arrives
    /// (server-sent events) instead of being kept; it returns 0 to stop the
    /// transfer, anything else to go on. Other statuses' bodies are kept as usual.
    int (*on_chunk)(void *context, const char *bytes, size_t length);
    void *chunk_context;
    const wsh_curl_part *parts;       ///< with is_post 1: a multipart/form-data body instead of `body`
    size_t part_count;
} wsh_curl_request;

/// The outcome of one request. Pointers stay valid until the next request
/// on the same handle or until it is freed.
typedef struct wsh_curl_response {
    int curl_code;                    ///< CURLE_OK (0) or the failure
    int cancelled;                    ///< 1 when wsh_curl_cancel stopped it
    long status;                      ///< HTTP status, 0 if none arrived
    const char *body;
    size_t body_length;
    const char *headers;              ///< the final header block, raw
    size_t headers_length;
    double total_seconds;
    double connect_seconds;
    long new_connections;             ///< 0 when a kept-alive connection was reused
    const char *error_message;        ///< curl's message for curl_code
    int in_headers;                   ///< 1 when the request was sent and the response's header block never ended
} wsh_curl_response;

/// Loads libcurl once. Returns NULL when it is usable, or a message.
const char *wsh_curl_load(void);

/// Starts loading libcurl on a thread of its own and returns at once, so the
/// ~5 ms it takes overlap other work; wsh_curl_load (and so wsh_curl_new)
/// then waits only for what is left. Does nothing once loading has started.
void wsh_curl_preload(void);

/// A new handle, or NULL if libcurl cannot be loaded or initialised.
wsh_curl *wsh_curl_new(void);
void wsh_curl_free(wsh_curl *handle);
/// The body `wsh_curl_perform` received (`body_length` bytes, then a NUL),
/// now the caller's to `free`: the handle starts its next body afresh, so
/// the response need not be copied out of it. NULL when nothing arrived.
char *wsh_curl_take_body(wsh_curl *handle);

/// Trusts the CA certificates in the PEM file at `path` in place of
/// libcurl's default bundle (its default CA directory, if it has one, still
/// counts, as with curl's --cacert). Peer and host verification stay on:
/// nothing here turns them off. Returns the curl code of setting it.
int wsh_curl_set_ca_file(wsh_curl *handle, const char *path);

/// Runs one request to completion on the calling thread (it blocks).
/// Returns the curl code, also stored in `response->curl_code`.
int wsh_curl_perform(wsh_curl *handle, const wsh_curl_request *request,
                     wsh_curl_response *response);

/// Asks the running request on `handle` to stop. Safe from any thread; the
/// transfer notices within a few milliseconds.
void wsh_curl_cancel(wsh_curl *handle);

/// Clears a cancel request, before the next request starts. A cancel that
/// arrives before `wsh_curl_perform` is therefore not lost: the caller
/// resets, checks its own state, then performs.
void wsh_curl_reset_cancel(wsh_curl *handle);

/// A connection libcurl opened and then handed over (CURLOPT_CONNECT_ONLY):
/// TCP, or TLS verified as any request's, on which the caller speaks a
/// protocol libcurl does not (the WebSocket: Debian's libcurl is built
/// without its own). One per connection, never the request handle, whose
/// connection cache it would otherwise share.
typedef struct wsh_curl_socket wsh_curl_socket;

/// Connects to `url` (http:// or https://; only its host and port are used)
/// on the calling thread, trusting `ca_file` (NULL: libcurl's default) and
/// giving up after `connect_timeout_ms`. On failure returns NULL with
/// `*code` set and curl's message in `error` (`error_size` bytes). A
/// `wsh_curl_socket_cancel` from another thread during the connect has no
/// socket to name yet: `cancel` (may be NULL) is read instead.
wsh_curl_socket *wsh_curl_connect(const char *url, const char *ca_file, long connect_timeout_ms,
                                  const int *cancel, int *code, char *error, size_t error_size);

/// Sends up to `length` bytes without blocking; `*sent` says how many went.
/// Returns the curl code: 0, or CURLE_AGAIN (81) when nothing could go yet.
int wsh_curl_socket_send(wsh_curl_socket *socket, const void *bytes, size_t length, size_t *sent);

/// Receives up to `length` bytes without blocking. Returns the curl code:
/// 0 with `*received` 0 when the peer closed the connection, CURLE_AGAIN
/// (81) when nothing is there yet.
int wsh_curl_socket_recv(wsh_curl_socket *socket, void *buffer, size_t length, size_t *received);

/// Waits at most `timeout_ms` for the connection to be readable (or, with
/// `for_write`, writable): 1 ready, 0 not yet, -1 failed. Try recv first:
/// TLS may hold bytes the socket no longer shows.
int wsh_curl_socket_wait(wsh_curl_socket *socket, int for_write, int timeout_ms);

/// Sets `*flag` to 1 atomically: how another thread stops `wsh_curl_connect`.
void wsh_curl_flag_raise(int *flag);

/// Closes the connection and frees it.
void wsh_curl_socket_close(wsh_curl_socket *socket);

/// libcurl's version string, or NULL if it cannot be loaded.
const char *wsh_curl_version(void);

/// curl's message for a code (for codes the caller made up too).
const char *wsh_curl_strerror(int code);

#ifdef __cplusplus
}
#endif
#endif
