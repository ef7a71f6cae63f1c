/* client.h - the C tests' one way to talk to the server: raw HTTP/1.1 over a
 * loopback socket to a running daemon (client_send and friends), and the API
 * handler driven directly with a query string (client_api_call).
 * Test code only: it sends exactly what it is given and judges nothing; the
 * tests make every assertion. */
#ifndef SZ_CLIENT_H
#define SZ_CLIENT_H

#include <stddef.h>
#include <stdint.h>

#include "api/api.h"

/* Send `len` bytes of `req` verbatim to 127.0.0.1:`port` and read until the
 * server closes (or sends nothing for 5 s).  Returns the malloc'd response,
 * headers and body, NUL-terminated; NULL if the connection was refused. */
char *client_send(uint16_t port, const char *req, size_t len);

/* client_send, and how many bytes of `req` the server took before the
 * connection failed (len when all of it) in *sent (NULL: not wanted). */
char *client_send_counted(uint16_t port, const char *req, size_t len, size_t *sent);

/* The steps of client_send, for tests that pace what they send: a connected
 * socket (5 s receive timeout) or -1; send up to `len` bytes, returning how
 * many were taken before an error; read until the server closes or is silent
 * for 5 s, close `fd` and return what was read, NUL-terminated (malloc'd). */
int client_connect(uint16_t port);
size_t client_write(int fd, const char *data, size_t len);
char *client_finish(int fd);

/* The whole file at `path` (relative to the repository root, where the tests
 * run), NUL-terminated and malloc'd; NULL when it cannot be read. */
char *client_slurp(const char *path);

/* client_send of a NUL-terminated request. */
char *client_raw(uint16_t port, const char *req);

/* One request with "Host: `host`", "Connection: close", the `headers` lines
 * (each ending in "\r\n"; NULL for none) and `body` (NULL for none) with its
 * Content-Length.  Returns what client_send returns. */
char *client_request(uint16_t port, const char *method, const char *target,
                     const char *host, const char *headers, const char *body);

/* The status code of a response from the above; -1 for NULL or no status line. */
int client_status(const char *resp);

/* api_handle on `method` `path` with `query` split at '&' and '=' as given
 * (no percent-decoding; NULL or "" for none), Content-Type `ctype` (or NULL)
 * and `body` (NULL for none; body_len 0 means strlen(body)).  The caller frees
 * the returned body. */
struct api_response client_api_call(const char *method, const char *path, const char *query,
                                    const char *ctype, const char *body, size_t body_len);

#endif
