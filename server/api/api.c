/* api.c - the API's front door: the route table and dispatch (method, cache,
 * error body).  Routes live in the api_*.c files api_routes.h lists, request
 * readers in api_read.c, the answer writers they share in api_write.c; this
 * file parses nothing and computes nothing. */
#include "api.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "api_routes.h"
#include "api_write.h"
#include "base/buf.h"
#include "base/cache.h"
#include "base/error.h"
#include "base/stream.h"

/* A streamed answer is never one the cache could hold. */
_Static_assert(API_STREAM_MIN >= CACHE_MAX_BODY, "streamed answers must be uncacheable");

/* ---- dispatch ------------------------------------------------------------ */

/* The route table: every route the API answers, and how.
 * `cached`: the answer is a pure function of the query, so a repeat is
 *   served from cache.c (health is not: it reports live state).
 * `slow`: API_SLOW_GPU: the route may take seconds (it runs the GPU), so
 *   http.c answers it off its event threads, where it stalls no other request;
 *   API_SLOW_CPU: one request may cost tenths of a second of CPU (its work is
 *   bounded, but a flood of them would hold every event thread and /api/health
 *   with them, issue 36), so http.c answers it off its event threads too while
 *   few such are running.
 * `stream`: large answers are written as the socket takes them (stream.h),
 *   never whole in memory and never cached. */
static const struct route {
    const char *path;
    const char *method;     /* GET routes also answer HEAD */
    api_route_fn fn;
    int cached, slow;
    api_stream_fn stream;
} routes[] = {
    {"/api/health", "GET", api_route_health, 0, 0, NULL},
    {"/api/presets", "GET", api_route_presets, 1, 0, NULL},
    {"/api/swizzle", "GET", api_route_swizzle, 1, 0, api_stream_swizzle},
    {"/api/inspect", "GET", api_route_inspect, 1, 0, NULL},
    {"/api/apply", "POST", api_route_apply, 0, 0, NULL},
    {"/api/ops", "GET", api_route_ops, 1, 0, NULL},
    {"/api/conflicts", "POST", api_route_conflicts, 0, 0, NULL},
    {"/api/patterns", "GET", api_route_patterns, 1, 0, NULL},
    {"/api/access", "GET", api_route_access, 1, API_SLOW_CPU, NULL},
    {"/api/trace", "GET", api_route_trace, 1, API_SLOW_CPU, NULL},
    {"/api/recommend", "GET", api_route_recommend, 1, API_SLOW_CPU, NULL},
    {"/api/measure", "POST", api_route_measure, 0, API_SLOW_GPU, NULL},
    {"/api/measure/tma", "POST", api_route_measure_tma, 0, API_SLOW_GPU, NULL},
    {"/api/ptx/measure", "POST", api_route_ptx_measure, 0, API_SLOW_GPU, NULL},
    {"/api/linear/evaluate", "POST", api_route_linear_evaluate, 0, API_SLOW_CPU, NULL},
    {"/api/linear/optimize", "POST", api_route_linear_optimize, 0, API_SLOW_CPU, NULL},
    {"/api/layout", "POST", api_route_layout, 0, 0, NULL},
    {"/api/layout/access", "POST", api_route_layout_access, 0, API_SLOW_CPU, NULL},
    {"/api/layout/distributed", "POST", api_route_layout_distributed, 0, API_SLOW_CPU, NULL},
    {"/api/ttgir", "POST", api_route_ttgir, 0, API_SLOW_CPU, NULL},
    {"/api/ptx", "POST", api_route_ptx, 0, API_SLOW_CPU, NULL},
    {"/api/atoms", "GET", api_route_atoms, 1, 0, NULL},
    {"/api/ncu/explain", "POST", api_route_ncu_explain, 0, API_SLOW_CPU, NULL},
};

static const struct route *route_find(const char *path)
{
    for (size_t i = 0; i < sizeof routes / sizeof routes[0]; i++)
        if (strcmp(routes[i].path, path) == 0)
            return &routes[i];
    return NULL;
}

int api_is_slow(const char *path)
{
    const struct route *r = route_find(path);
    return r != NULL ? r->slow : 0;
}

int api_route_count(void) { return (int)(sizeof routes / sizeof routes[0]); }

const char *api_route_path(int i, const char **method)
{
    if (i < 0 || i >= api_route_count())
        return NULL;
    if (method)
        *method = routes[i].method;
    return routes[i].path;
}

/* Arguments in the cache key's order: by key, then value (api_read.c refuses a
 * repeated key, but the key must not depend on that). */
static int arg_cmp(const void *a, const void *b)
{
    const struct api_arg *x = a, *y = b;
    int c = strcmp(x->key, y->key);
    return c ? c : strcmp(x->value, y->value);
}

void api_cache_key(const struct api_request *req, struct buf *key)
{
    /* Sorted: the answer does not depend on the arguments' order, so a
     * reordered query is a hit (a client that shuffles it missed every time
     * and made every request a full search, issue 36). */
    enum { ON_STACK = 32 };
    struct api_arg stack[ON_STACK], *a = stack;
    if (req->nargs > ON_STACK && (a = malloc((size_t)req->nargs * sizeof *a)) == NULL) {
        key->oom = 1;
        return;
    }
    if (req->nargs > 0)
        memcpy(a, req->args, (size_t)req->nargs * sizeof *a);
    qsort(a, (size_t)req->nargs, sizeof *a, arg_cmp);
    buf_puts(key, req->path);
    for (int i = 0; i < req->nargs; i++)
        buf_printf(key, "|%zu:%s|%zu:%s", strlen(a[i].key), a[i].key,
                   strlen(a[i].value), a[i].value);
    if (a != stack)
        free(a);
}

int api_reserve(const struct api_request *req, size_t bytes, struct sz_error *err)
{
    if (req->reserve == NULL || req->reserve(req->reserve_cls, bytes) == 0)
        return 0;
    return sz_fail(err, SZ_OVERLOADED, "", "the server holds as many large answers as it "
                   "will at once: retry in a second");
}

void api_error_response(const struct sz_error *err, struct api_response *resp)
{
    struct buf b = {0};
    buf_puts(&b, "{\"error\":");
    api_put_error(&b, err);
    buf_putc(&b, '}');
    resp->status = sz_code_status(err->code);
    resp->body = buf_take(&b, &resp->len);
    if (resp->body == NULL) {
        resp->status = 500;
        resp->len = 0;
    }
}

void api_handle(const struct api_request *req, struct api_response *resp)
{
    struct sz_error err = {0};
    struct buf out = {0};
    resp->stream = NULL;
    const struct route *r = route_find(req->path);
    if (r == NULL) {
        sz_fail(&err, SZ_NOT_FOUND, "path", "no such API route");
        goto fail;
    }
    int head_ok = strcmp(r->method, "GET") == 0 && strcmp(req->method, "HEAD") == 0;
    if (strcmp(r->method, req->method) != 0 && !head_ok) {
        sz_fail(&err, SZ_METHOD_NOT_ALLOWED, "method", "%s answers %s only",
                r->path, r->method);
        goto fail;
    }
#ifdef SZ_TEST_GATE
    if (r->slow == API_SLOW_CPU)
        api_test_gate(req->path);       /* test builds only: api.h */
#endif
    struct buf key = {0};
    if (r->cached) {
        api_cache_key(req, &key);
        if (key.p && !key.oom && cache_get(key.p, &resp->body, &resp->len)) {
            buf_free(&key);
            resp->status = 200;
            return;
        }
    }
    if (r->stream && req->may_stream) {
        int rc = r->stream(req, &resp->stream, &err);
        if (rc != 0) {
            buf_free(&key);
            if (rc < 0)
                goto fail;
            resp->status = 200;
            resp->body = NULL;
            resp->len = stream_len(resp->stream);
            return;
        }
    }
    if (r->fn(req, &out, &err) < 0) {
        buf_free(&key);
        goto fail;
    }
    if (key.p && !key.oom && !out.oom)
        cache_put(key.p, out.p, out.len);
    buf_free(&key);
    resp->body = buf_take(&out, &resp->len);
    /* A large answer may wait long for its client: hold its length, not the
     * doubling's slack (a 12.7 MB layout sat in 16 MB). */
    if (resp->body && resp->len > API_STREAM_MIN) {
        char *fit = realloc(resp->body, resp->len + 1);
        if (fit)
            resp->body = fit;
    }
    if (resp->body == NULL) {
        sz_fail(&err, SZ_INTERNAL, NULL, "out of memory");
        goto fail;
    }
    resp->status = 200;
    return;
fail:
    buf_free(&out);
    api_error_response(&err, resp);
}
