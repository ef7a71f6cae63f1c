/* http.h - the HTTP daemon: routing between the API and static files, request
 * limits, the Host check and the security headers.
 *
 * The only module that touches libmicrohttpd.  It never computes the model
 * and never exits the process: http_start fails with an sz_error instead. */
#ifndef SZ_HTTP_H
#define SZ_HTTP_H

#include <stddef.h>
#include <stdint.h>

#include "base/error.h"

struct http_server;

struct http_config {
    const char *bind;        /* numeric IPv4 or IPv6 address; NULL = 127.0.0.1 */
    uint16_t port;           /* 0 = an ephemeral port (see http_port) */
    const char *static_dir;  /* the page's files, served from / */
    const char *examples_dir;   /* the page's example kernels, served from /kernels/: the
                                   test corpus, one copy for the tests and the page; NULL:
                                   static_dir/../tests/data/ptx/corpus; where it is no
                                   folder, /kernels/ is not found (the server still starts) */
    unsigned threads;        /* worker threads; 0 = two per online CPU; at least 2 */
    unsigned max_connections;   /* open connections at once; 0 = 1024 */
    unsigned head_timeout_ms;   /* a request, head and body, must arrive within this
                                   of the connection or the previous answer;
                                   0 = 10000 */
    size_t body_budget;         /* bytes of request bodies held at once, all
                                   connections together; past it a body is refused
                                   with 503 and Retry-After; 0 = HTTP_BODY_BUDGET */
    size_t answer_budget;       /* bytes of built answers (past API_STREAM_MIN, not
                                   streamed) held until sent, all connections
                                   together; past it 503 and Retry-After;
                                   0 = HTTP_ANSWER_BUDGET */
    const char *embed_origins;  /* NULL or "": no page may be framed (X-Frame-Options:
                                   DENY, frame-ancestors 'none'); else up to 8 origins
                                   (scheme://host[:port], space or comma separated) that
                                   may frame the static pages (CSP frame-ancestors, no
                                   X-Frame-Options); the API's answers stay unframeable */
    void (*serving)(const struct http_server *srv, void *arg);
                                /* may be NULL: called once on http_start's thread as
                                   soon as the daemon's threads serve, before
                                   http_start returns (a test sends its request at
                                   that first instant); srv is complete by then */
    void *serving_arg;
};

/* The default body budget: 32 bodies of the largest size at once (2 MiB each,
 * api.h), 64 MiB, whatever the number of connections (1024 x 2 MiB would be
 * 2 GiB). */
#define HTTP_BODY_BUDGET ((size_t)64 << 20)

/* The default answer budget: a 2^20-element /api/layout answer is 12.7 MB and
 * was held whole for a client that never reads (200 such clients: 2.6 GB);
 * 256 MiB holds 20 of them at once, and any number of small answers. */
#define HTTP_ANSWER_BUDGET ((size_t)256 << 20)

/* Start serving in background threads.  Fails (and starts nothing) when the
 * address does not parse, the port cannot be bound, static_dir is not a
 * readable directory or embed_origins holds anything but origins (field
 * "embed_origins").  Thread-safe to call once per server. */
int http_start(const struct http_config *cfg, struct http_server **out,
               struct sz_error *err);

/* The port actually bound (resolves port 0). */
uint16_t http_port(const struct http_server *srv);

/* True when the bound address is a loopback address. */
int http_is_loopback(const struct http_server *srv);

/* Stop accepting, finish in-flight responses, free everything.  NULL is a no-op. */
void http_stop(struct http_server *srv);

#endif
