/* api.h - the JSON API: one request in, one response out.
 *
 * The API (api.c and its api_*.c routes, with instr_json.c) is where JSON is
 * built and request bodies are parsed; the one reader outside it is
 * firstscreen.c, which parses the API's own answers (it builds none).  It
 * never touches sockets or libmicrohttpd (http.c hands it a plain request),
 * so tests drive it directly. */
#ifndef SZ_API_H
#define SZ_API_H

#include <stddef.h>

struct api_arg {
    const char *key;
    const char *value;      /* decoded; "" for a bare key */
};

struct api_request {
    const char *method;         /* "GET", "POST", ... */
    const char *path;           /* decoded path, starts with "/api/" */
    const struct api_arg *args; /* query arguments in arrival order */
    int nargs;
    const char *content_type;   /* NULL when absent */
    const char *body;           /* NULL or body_len bytes, not NUL-terminated */
    size_t body_len;
    int may_stream;             /* the caller can send an api_response's stream */
    /* The caller's bound on answers held in memory (http.c's answer budget), or
     * NULL for none: reserve(reserve_cls, n) makes this request's reservation n
     * bytes (it only grows), 0, or -1 when the budget cannot hold that much.
     * See api_reserve. */
    int (*reserve)(void *cls, size_t bytes);
    void *reserve_cls;
};

struct stream;
struct api_response {
    int status;                 /* 200, or the status of the error's code */
    char *body;                 /* malloc'd JSON (caller frees); NULL only if status is 500
                                   or `stream` is set */
    size_t len;                 /* of body, or of the stream's answer */
    struct stream *stream;      /* a large answer to write as the socket takes it
                                   (stream.h; caller frees); only when the request's
                                   may_stream, and then body is NULL */
};

/* Answers past this many bytes stream (when the caller allows) instead of being
 * built whole: no larger answer is cached (cache.h), so none loses a cache hit. */
#define API_STREAM_MIN (256u * 1024)

/* Every request body the API accepts fits in this; http.c refuses larger ones
 * with 413 before reading them.  65536 offsets of up to ten digits, a comma and
 * a space each are 786432 bytes; 2 MiB leaves room for pretty-printed bodies.
 * API_MAX_BODY_TEXT is the same limit as messages print it ("2 MiB"). */
#define API_MAX_BODY_MIB 2
#define API_MAX_BODY (API_MAX_BODY_MIB * 1024u * 1024u)
#define API_MAX_BODY_TEXT API_STR(API_MAX_BODY_MIB) " MiB"
#define API_STR(x) API_STR_(x)
#define API_STR_(x) #x

/* Offsets one /api/apply request may carry (the contract). */
#define API_MAX_OFFSETS 65536

/* JSON values one body may hold, counted on its text before it is parsed: the
 * largest a route needs is /api/apply's offsets and its few other members;
 * 1024 more leave room for any other route's (the next largest is a
 * /api/linear body of a few hundred). */
#define API_MAX_JSON_VALUES (API_MAX_OFFSETS + 1024)

/* Where the measurement tool is and how long it may run.  Set before the
 * server starts; api_configure also asks the tool which GPU it sees (bounded
 * by info_timeout_ms) so that /api/health can say it without running it. */
struct api_config {
    const char *measure_tool;       /* path; NULL = no tool */
    int measure_timeout_ms;         /* one measurement, ncu pass included */
    int info_timeout_ms;            /* the tool's --info at start-up */
};
void api_configure(const struct api_config *cfg);

/* api_configure in two steps, so that the server listens before the tool
 * answers (a tool whose --info hangs held the port closed for 15 s):
 * api_measure_setup records `cfg` (health says measurement is unavailable,
 * "being asked", and /api/measure waits, until the probe ends);
 * api_measure_probe asks the tool, blocking up to
 * info_timeout_ms (or until measure_cancel_all), on any thread;
 * api_measure_probed says whether it has ended.  api_configure is both. */
void api_measure_setup(const struct api_config *cfg);
void api_measure_probe(void);
int api_measure_probed(void);

/* One line for the terminal: which GPU measures, or why none does. */
void api_measure_status(char *line, size_t cap);

/* API_SLOW_GPU for routes that may take seconds (measurement): http.c runs
 * them off its event threads so that they never stall other requests;
 * API_SLOW_CPU for routes whose one request may cost tenths of a second of
 * CPU: off the event threads while few are running; 0 for the rest.  The
 * route table's `slow` field says which. */
#define API_SLOW_GPU 1
#define API_SLOW_CPU 2
int api_is_slow(const char *path);

#ifdef SZ_TEST_GATE
/* TEST BUILD ONLY: the Makefile compiles api.c with SZ_TEST_GATE for
 * test_http alone (build/hook/), never for build/swizzlescope nor
 * build/asan/swizzlescope.  api_handle calls it, on the request's own
 * thread, before an API_SLOW_CPU route runs; the test defines it and makes it
 * wait until the test releases it, so that it can hold more costly requests
 * than the server has event threads without timing anything (issue 36). */
void api_test_gate(const char *path);
#endif

/* The route table, for tests and docs: api_route_path(i) for i in
 * 0..api_route_count()-1 is the path of route i (NULL past the end), and
 * *method (if not NULL) its method. */
int api_route_count(void);
const char *api_route_path(int i, const char **method);

/* Answer `req`.  Always fills `resp` (an error body for every failure: 4xx for
 * anything the client sent, 500 only when memory runs out), with a stream
 * instead of a body for a large answer of a streaming route when
 * req->may_stream.  Thread-safe. */
void api_handle(const struct api_request *req, struct api_response *resp);

/* The key a cached route's answer is stored under: the path and every
 * argument, sorted by key then value and length-prefixed, so that two queries
 * that differ only in their arguments' order share it and no two different
 * argument lists do.  Appended to `key` (key->oom when memory runs out). */
struct buf;
void api_cache_key(const struct api_request *req, struct buf *key);

/* Before a route builds a large answer whole: reserve `bytes` (its answer's
 * size bound plus the scratch it holds while building) in the caller's answer
 * budget, so that the memory is counted before it is taken, not after (issue
 * 36: a hundred clients that never read held 389 MB of answers the budget
 * refused only once built).  0, or -1 with SZ_OVERLOADED; 0 when the caller
 * has no budget.  The caller trues the reservation up to the answer's length. */
struct sz_error;
int api_reserve(const struct api_request *req, size_t bytes, struct sz_error *err);

/* Write the JSON error body for `code`, `field`, `message` into `resp`
 * (used by http.c for errors it finds before the API sees the request). */
struct sz_error;
void api_error_response(const struct sz_error *err, struct api_response *resp);

#endif
