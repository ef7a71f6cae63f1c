/* http.c - libmicrohttpd daemon: Host check, limits, headers, sending static
 * files, and handing /api/ requests to api.c.
 *
 * The only file that includes microhttpd.h.  It must not parse or write JSON
 * bodies (api.c does), decide which file a path names (files.c does), judge
 * a request head's syntax (framing.c does) nor write the main page's first
 * screen (firstscreen.c does; this file sends it). */
#define _GNU_SOURCE 1   /* PATH_MAX under -std=c11 */
#include "http.h"

#include <ctype.h>
#include <limits.h>
#include <microhttpd.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "addr.h"
#include "api/api.h"
#include "base/buf.h"
#include "base/sha256.h"
#include "files.h"
#include "firstscreen.h"
#include "framing.h"
#include "pagever.h"
#include "base/stream.h"
#include "watch.h"

/* Limits, each sized for a local tool that a classroom may hit at once:
 * - connections: ~50 browsers of ~6 connections, plus a load test of 256: 1024
 *   leaves headroom and bounds file descriptors (--max-connections).
 * - idle: a stalled client loses its connection after 10 s; requests take
 *   milliseconds (measurement has measure.c's timeout).
 * - query arguments: the widest route (/api/access) takes 20 names, none twice
 *   (api_read.c); 32 leaves room and stops floods early.
 * - path: a slow request's own copy of the API path (static: files.h's limit).
 * - request: the idle timeout restarts on every byte, so a slowloris would hold
 *   a connection for ever: a request, head and body, must arrive within 10 s
 *   of the connection (or the previous answer).  Browsers send a head in one
 *   packet and a body at once; 2 MiB in 10 s is 200 KB/s.
 * - bodies: held whole (the API parses them), so their bytes at once are
 *   bounded, all connections together (HTTP_BODY_BUDGET, http.h).
 * - a refused chunked body is read and dropped to its end, up to 64 MiB;
 *   a streamed answer is written 64 KiB at a time, whatever its size. */
#define HTTP_MAX_CONNECTIONS 1024
#define HTTP_IDLE_TIMEOUT_S 10
#define HTTP_HEAD_TIMEOUT_MS 10000
#define HTTP_MAX_ARGS 32
#define HTTP_MAX_PATH 1024
#define HTTP_MAX_DISCARD ((size_t)64 << 20)
#define HTTP_STREAM_WINDOW ((size_t)64 << 10)
/* At stop, a slow request's queued answer (a measurement's 503) gets this long
 * to reach its client before the daemon closes the connection. */
#define HTTP_FLUSH_MS 2000
/* Costly requests (API_SLOW_CPU) answered off the event threads at once: each
 * holds a thread and its scratch (a recommender's search: about 1 MB) for up
 * to tenths of a second of CPU, so past this many the CPU is spent anyway;
 * the next ones run on their event thread, as every request did before. */
#define HTTP_MAX_CPU_JOBS 16

struct http_server {
    struct MHD_Daemon *daemon;
    struct watch *watch;            /* head deadlines, lingering close */
    char static_root[PATH_MAX];     /* realpath of static_dir, no trailing '/' */
    char examples_root[PATH_MAX];   /* realpath of examples_dir, "" when there is none */
    struct addr addr;               /* bound to; the Host allow-list */
    uint16_t port;
    /* bytes reserved by the request bodies being received, and the bound */
    atomic_size_t body_held;
    size_t body_budget;
    /* bytes of large built answers not yet sent, and the bound */
    atomic_size_t answer_held;
    size_t answer_budget;
    /* slow requests running on their own threads; http_stop waits for them */
    pthread_mutex_t lock;
    pthread_cond_t idle;
    int slow_suspended;             /* suspended: MHD must not stop before resumed */
    int slow_running;               /* started and not yet complete (answer sent or
                                       client gone), suspended or not */
    int stopping;                   /* http_stop began: no new slow request starts */
    int cpu_jobs;                   /* API_SLOW_CPU requests running off the event threads */
    char page_csp[1024];            /* the static pages' CSP with embed_origins, or "" */
    char embed_list[1024];          /* those origins normalised, " a b ", or "" */
};

/* Where a slow route's request stands, for the handler's call after the resume and
 * for request_done (does `resp` still own a body?).  Slow answers never stream. */
enum http_slow {
    HTTP_SLOW_NONE = 0,     /* not a slow route, or not started (calloc'd) */
    HTTP_SLOW_RUNNING,      /* api_handle runs on its own thread */
    HTTP_SLOW_ANSWERED,     /* resp is filled and owns its body; not yet queued */
    HTTP_SLOW_QUEUED        /* resp's body handed to MHD, which frees it */
};

/* Per-request state from the request line (uri_seen): the query cut, the body, its
 * overflow, a slow route's progress. */
struct req_ctx {
    int started, too_many_args;
    struct buf body;
    size_t held;                /* bytes of body_held reserved for body */
    size_t answer;              /* bytes of answer_held its answer holds */
    int too_large, over_budget;
    size_t discarded;
    enum http_slow slow_state;
    int costly;                 /* an API_SLOW_CPU route answered off the event threads */
    int refused;                /* its answer budget refused it (answer_cls.refused) */
    struct api_response resp;   /* a slow route's answer, filled by its thread */
};

/* ---- headers ------------------------------------------------------------- */

/* No inline script or style anywhere but a page's import map (pagever.h), which
 * its response's CSP allows by its hash alone: the page is ES modules and a
 * stylesheet.  blob:/data: images are for PNG/SVG export; nothing may frame
 * the page. */
#define CSP_HEAD \
    "default-src 'self'; script-src 'self'; style-src 'self'; " \
    "img-src 'self' data: blob:; connect-src 'self'; object-src 'none'; base-uri 'none'; "
#define CSP_TAIL "; form-action 'none'"
static const char csp[] = CSP_HEAD "frame-ancestors 'none'" CSP_TAIL;

static const char *csp_with_hash(const char *base, const char *hash, char *out, size_t cap);

/* page_csp: NULL, or the CSP of --embed-origins (only frame-ancestors differs),
 * which replaces X-Frame-Options: DENY for the static pages.  hash: NULL, or
 * the CSP hash-source of the page's one inline script (its import map). */
static void add_security_headers(struct MHD_Response *r, const char *cache,
                                 const char *page_csp, const char *hash)
{
    char policy[1024 + PAGEVER_HASH_MAX + 2];
    const char *base = page_csp ? page_csp : csp;
    MHD_add_response_header(r, "Content-Security-Policy",
                            hash ? csp_with_hash(base, hash, policy, sizeof policy) : base);
    MHD_add_response_header(r, "X-Content-Type-Options", "nosniff");
    MHD_add_response_header(r, "Referrer-Policy", "no-referrer");
    if (!page_csp)
        MHD_add_response_header(r, "X-Frame-Options", "DENY");
    MHD_add_response_header(r, "Cross-Origin-Resource-Policy", "same-origin");
    MHD_add_response_header(r, "Cache-Control", cache);
}

/* Queue `a`: its body, or its stream written into MHD's window as the socket
 * takes it, is now MHD's.  `close`: the request's framing cannot be trusted,
 * so nothing after it on the connection can be either.  `retry_after`: the
 * Retry-After header's value, or NULL for none. */
static enum MHD_Result queue_json_h(struct MHD_Connection *c, struct api_response *a,
                                    int close, const char *retry_after)
{
    struct MHD_Response *r;
    if (a->stream) {
        r = MHD_create_response_from_callback(a->len, HTTP_STREAM_WINDOW, stream_window,
                                              a->stream, stream_release);
    } else if (a->body == NULL) {
        static const char oom[] = "{\"error\":{\"code\":\"internal\",\"field\":\"\","
                                  "\"message\":\"out of memory\"}}";
        r = MHD_create_response_from_buffer(sizeof oom - 1, (void *)oom, MHD_RESPMEM_PERSISTENT);
        a->status = 500;
    } else {
        /* MUST_FREE: no copy of an answer's bytes */
        r = MHD_create_response_from_buffer(a->len, a->body, MHD_RESPMEM_MUST_FREE);
    }
    if (r == NULL) {
        free(a->body);
        stream_free(a->stream);
        return MHD_NO;
    }
    MHD_add_response_header(r, "Content-Type", "application/json; charset=utf-8");
    /* cheap, and the server may be rebuilt under the page: never cached */
    add_security_headers(r, "no-store", NULL, NULL);
    if (close)
        MHD_add_response_header(r, "Connection", "close");
    if (retry_after)
        MHD_add_response_header(r, "Retry-After", retry_after);
    enum MHD_Result ok = MHD_queue_response(c, (unsigned)a->status, r);
    MHD_destroy_response(r);
    return ok;
}

static enum MHD_Result queue_json(struct MHD_Connection *c, struct api_response *a, int close)
{
    return queue_json_h(c, a, close, NULL);
}

/* ---- prefetches ------------------------------------------------------------ */

/* A refused prefetch ("X-Swz-Prefetch: 1": the page asking ahead for a state
 * nobody chose) is 204 with the status it would have had in X-Swz-Refused, not
 * a 4xx that prints a console error for a request no user made (README). */
static int is_prefetch(struct MHD_Connection *c)
{
    const char *v = MHD_lookup_connection_value(c, MHD_HEADER_KIND, "X-Swz-Prefetch");
    return v != NULL && strcmp(v, "1") == 0;
}

static enum MHD_Result queue_refused_prefetch(struct MHD_Connection *c,
                                              struct api_response *resp)
{
    char status[8];
    snprintf(status, sizeof status, "%d", resp->status);
    free(resp->body);
    struct MHD_Response *r = MHD_create_response_from_buffer(0, NULL, MHD_RESPMEM_PERSISTENT);
    if (r == NULL)
        return MHD_NO;
    MHD_add_response_header(r, "X-Swz-Refused", status);
    add_security_headers(r, "no-store", NULL, NULL);
    enum MHD_Result ok = MHD_queue_response(c, MHD_HTTP_NO_CONTENT, r);
    MHD_destroy_response(r);
    return ok;
}

static enum MHD_Result queue_sz_error(struct MHD_Connection *c, const struct sz_error *err,
                                     int close)
{
    struct api_response resp = {0};
    api_error_response(err, &resp);
    return queue_json(c, &resp, close);
}

static enum MHD_Result queue_error(struct MHD_Connection *c, enum sz_code code,
                                   const char *field, const char *msg)
{
    struct sz_error err;
    sz_fail(&err, code, field, "%s", msg);
    return queue_sz_error(c, &err, 0);
}

/* ---- static files ---------------------------------------------------------- */

struct arg_collect {
    struct api_arg args[HTTP_MAX_ARGS];
    int n, overflow;
};

static enum MHD_Result collect_arg(void *cls, enum MHD_ValueKind kind, const char *key,
                                   size_t key_size, const char *value, size_t value_size)
{
    (void)kind;
    struct arg_collect *ac = cls;
    /* No key or value holds a NUL, so none is cut short: libmicrohttpd reads the
     * target as a C string (a raw NUL ends it) and unescape() turns %00 into
     * 0x7F (test_framing.c: unescape_never_yields_a_nul,
     * query_nul_arrives_as_a_bad_value). */
    (void)key_size, (void)value_size;
    if (ac->n == HTTP_MAX_ARGS) {
        ac->overflow = 1;
        return MHD_NO;
    }
    ac->args[ac->n].key = key;
    ac->args[ac->n].value = value ? value : "";
    ac->n++;
    return MHD_YES;
}

static void collect_args(struct MHD_Connection *c, struct arg_collect *ac)
{
    memset(ac, 0, sizeof *ac);
    MHD_get_connection_values_n(c, MHD_GET_ARGUMENT_KIND, collect_arg, ac);
}

/* The CSP of a page whose inline import map hashes to `hash` (pagever.h):
 * `base` (csp or page_csp) with that one hash-source added to script-src, so
 * that no other inline script may run.  No hash: base as it is. */
static const char *csp_with_hash(const char *base, const char *hash, char *out, size_t cap)
{
    static const char key[] = "script-src 'self'";
    const char *at = hash[0] ? strstr(base, key) : NULL;
    if (at == NULL)
        return base;
    size_t head = (size_t)(at - base) + sizeof key - 1;
    if ((size_t)snprintf(out, cap, "%.*s %s%s", (int)head, base, hash, base + head) >= cap)
        return base;    /* never: cap holds the longest base and a hash */
    return out;
}

/* An HTML page goes out from memory: a first-screen template (firstscreen.h)
 * rendered for the request's query, then every page with its scripts and
 * stylesheets at versioned URLs and its import map (pagever.h), the map's
 * hash in the CSP.  A template's body varies with the query, so it has no
 * ETag; another page's ETag is its bytes' hash (it changes with any module's
 * version), revalidated every time (no-cache).  Returns 1 when it queued the
 * answer (*ok), 0 when f could not be read whole (f.fd is still open, for
 * the plain path). */
static int serve_page(struct http_server *s, struct MHD_Connection *c, const char *root,
                      const char *url, struct files_file *f, enum MHD_Result *ok)
{
    char *t = malloc(f->size + 1);
    size_t got = 0;
    while (t && got < f->size) {
        ssize_t n = pread(f->fd, t + got, f->size - got, (off_t)got);
        if (n <= 0)
            break;
        got += (size_t)n;
    }
    if (t == NULL || got != f->size) {
        free(t);
        return 0;
    }
    close(f->fd);
    /* the page to version: the file as read, or the template rendered */
    struct buf page = {0}, out = {0};
    struct sz_error err;
    int rc = 0, templ = firstscreen_is_template(t, got);
    if (templ) {
        struct arg_collect ac;
        collect_args(c, &ac);
        /* too many arguments: the plain page (the page's own banner says what is wrong) */
        rc = firstscreen_render(t, got, ac.args, ac.overflow ? -1 : ac.n, &page, &err);
    }
    char hash[PAGEVER_HASH_MAX];
    if (rc >= 0)
        rc = pagever_render(root, url, templ ? page.p : t, templ ? page.len : got, &out, hash, &err);
    free(t);
    free(page.p);
    if (rc < 0) {
        free(out.p);
        *ok = queue_sz_error(c, &err, 0);
        return 1;
    }
    char etag[24] = "";
    if (!templ) {
        unsigned char d[SHA256_BYTES];
        sha256_digest(out.p, out.len, d);
        snprintf(etag, sizeof etag, "\"p%02x%02x%02x%02x%02x%02x%02x%02x\"", d[0], d[1], d[2],
                 d[3], d[4], d[5], d[6], d[7]);
    }
    const char *inm = MHD_lookup_connection_value(c, MHD_HEADER_KIND, MHD_HTTP_HEADER_IF_NONE_MATCH);
    int fresh = etag[0] && inm && strcmp(inm, etag) == 0;
    struct MHD_Response *r = fresh ? MHD_create_response_from_buffer(0, NULL, MHD_RESPMEM_PERSISTENT)
                                   : MHD_create_response_from_buffer(out.len, out.p, MHD_RESPMEM_MUST_FREE);
    if (fresh || r == NULL)
        free(out.p);
    if (r == NULL) {
        *ok = MHD_NO;
        return 1;
    }
    MHD_add_response_header(r, "Content-Type", f->type);
    if (etag[0])
        MHD_add_response_header(r, "ETag", etag);
    add_security_headers(r, "no-cache", s->page_csp[0] ? s->page_csp : NULL, hash);
    *ok = MHD_queue_response(c, fresh ? MHD_HTTP_NOT_MODIFIED : MHD_HTTP_OK, r);
    MHD_destroy_response(r);
    return 1;
}

static size_t embed_origin(const char *p, size_t n, char *o, size_t cap);

/* A browser framing a page (Sec-Fetch-Dest: iframe or frame) from an origin
 * --embed-origins does not name would show its own blank refusal, which a
 * teacher's slide cannot tell from a broken server; 1 when this request is
 * one, with the framing page's origin (from its Referer, normalised: only
 * letters, digits and ":/.-[]") in `origin`, or "" where unknown.  Without a
 * Referer (a page that sends none) the page is sent as always and the CSP's
 * frame-ancestors decides; it decides for a forged Referer too. */
static int frame_refused(const struct http_server *s, struct MHD_Connection *c,
                         char *origin, size_t cap)
{
    origin[0] = '\0';
    const char *dest = MHD_lookup_connection_value(c, MHD_HEADER_KIND, "Sec-Fetch-Dest");
    if (dest == NULL || (strcmp(dest, "iframe") != 0 && strcmp(dest, "frame") != 0))
        return 0;
    const char *ref = MHD_lookup_connection_value(c, MHD_HEADER_KIND, "Referer");
    const char *host = ref ? strstr(ref, "://") : NULL;
    if (host) {
        size_t n = (size_t)(host - ref) + 3 + strcspn(host + 3, "/?#");
        if (embed_origin(ref, n, origin, cap) == 0)
            origin[0] = '\0';
    }
    if (s->embed_list[0] == '\0')
        return 1;                       /* no origin may frame the pages */
    if (origin[0] == '\0')
        return 0;
    char key[320];
    snprintf(key, sizeof key, " %s ", origin);
    return strstr(s->embed_list, key) == NULL;
}

/* The page a refused frame shows: what happened and what lets it through.
 * Framing it is harmless (no control, no data), so any origin may. */
static enum MHD_Result queue_frame_refusal(const struct http_server *s,
                                           struct MHD_Connection *c, const char *origin)
{
    char page[2048], why[512];
    const char *who = origin[0] ? origin : "the page around this frame";
    if (s->embed_list[0])
        snprintf(why, sizeof why, "This swizzlescope server lets only the origins its "
                 "<code>--embed-origins</code> names frame its pages, and %s is not one of "
                 "them.", who);
    else
        snprintf(why, sizeof why, "This swizzlescope server was started without "
                 "<code>--embed-origins</code>, so no page may frame it (%s tried).", who);
    snprintf(page, sizeof page,
             "<!doctype html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
             "<title>swizzlescope: not shown in this frame</title>"
             "<link rel=\"stylesheet\" href=\"/css/style.css\"></head>\n"
             "<body class=\"frame-refused\"><main id=\"frame-refused\">"
             "<h1>This swizzlescope view is not shown here</h1>\n<p>%s</p>\n"
             "<p>To show it here, start the server with <code>--embed-origins %s</code>%s; "
             "or open the view in a tab of its own.</p></main></body></html>\n",
             why, origin[0] ? origin : "ORIGIN",
             s->embed_list[0] ? " (with the origins it names now)" : "");
    struct MHD_Response *r = MHD_create_response_from_buffer(strlen(page), page,
                                                             MHD_RESPMEM_MUST_COPY);
    if (r == NULL)
        return MHD_NO;
    MHD_add_response_header(r, "Content-Type", "text/html; charset=utf-8");
    MHD_add_response_header(r, "Content-Security-Policy",
                            "default-src 'none'; style-src 'self'; base-uri 'none'; "
                            "form-action 'none'; frame-ancestors *");
    MHD_add_response_header(r, "X-Content-Type-Options", "nosniff");
    MHD_add_response_header(r, "Referrer-Policy", "no-referrer");
    MHD_add_response_header(r, "Cache-Control", "no-store");
    enum MHD_Result ok = MHD_queue_response(c, MHD_HTTP_FORBIDDEN, r);
    MHD_destroy_response(r);
    return ok;
}

static enum MHD_Result serve_static(struct http_server *s, struct MHD_Connection *c,
                                    const char *url, const char *method)
{
    if (strcmp(method, "GET") != 0 && strcmp(method, "HEAD") != 0)
        return queue_error(c, SZ_METHOD_NOT_ALLOWED, "method",
                           "static files answer GET and HEAD only");
    char origin[300];
    if (frame_refused(s, c, origin, sizeof origin))
        return queue_frame_refusal(s, c, origin);
    struct files_file f;
    struct sz_error err;
    /* /kernels/NAME: the corpus's own files (the examples are the measured
     * kernels, never a copy that could drift from them) */
    static const char kprefix[] = "/kernels/";
    int example = strncmp(url, kprefix, sizeof kprefix - 1) == 0;
    if (example && !s->examples_root[0])
        return queue_error(c, SZ_NOT_FOUND, "path", "no example kernels here (the test corpus "
                           "tests/data/ptx/corpus is not beside the page's folder)");
    if (files_open(example ? s->examples_root : s->static_root,
                   example ? url + sizeof kprefix - 2 : url, &f, &err) < 0)
        return queue_sz_error(c, &err, 0);
    if (strncmp(f.type, "text/html", 9) == 0 && f.size <= FIRSTSCREEN_MAX_TEMPLATE) {
        enum MHD_Result ok;
        if (serve_page(s, c, example ? s->examples_root : s->static_root, url, &f, &ok))
            return ok;
    }
    /* no-cache: revalidate (the page may change under a running server); the
     * ETag makes that a bodiless 304.  Asked for as ?v=<its version>, as the
     * pages name their modules and stylesheets (pagever.h), it is the file's
     * version now, whose bytes never change: kept for a year, never asked
     * again.  Another version (a page older than the file) is revalidated. */
    const char *v = MHD_lookup_connection_value(c, MHD_GET_ARGUMENT_KIND, "v");
    size_t el = strlen(f.etag);
    int immutable = v && el > 2 && strlen(v) == el - 2 && strncmp(v, f.etag + 1, el - 2) == 0;
    const char *inm = MHD_lookup_connection_value(c, MHD_HEADER_KIND, MHD_HTTP_HEADER_IF_NONE_MATCH);
    int fresh = inm && strcmp(inm, f.etag) == 0;
    struct MHD_Response *r;
    if (fresh) {
        close(f.fd);
        r = MHD_create_response_from_buffer(0, NULL, MHD_RESPMEM_PERSISTENT);
    } else {
        /* sendfile(): no copy through user space */
        r = MHD_create_response_from_fd(f.size, f.fd);
    }
    if (r == NULL) {
        if (!fresh)
            close(f.fd);
        return MHD_NO;
    }
    MHD_add_response_header(r, "Content-Type", f.type);
    MHD_add_response_header(r, "ETag", f.etag);
    add_security_headers(r, immutable ? "public, max-age=31536000, immutable" : "no-cache",
                         s->page_csp[0] ? s->page_csp : NULL, NULL);
    enum MHD_Result ok = MHD_queue_response(c, fresh ? MHD_HTTP_NOT_MODIFIED : MHD_HTTP_OK, r);
    MHD_destroy_response(r);
    return ok;
}

/* ---- the API ---------------------------------------------------------------- */

/* Everything a slow request needs after its connection is suspended: MHD's strings
 * live as long as it, but copies make the thread independent of that subtlety. */
struct slow_job {
    struct http_server *srv;
    struct MHD_Connection *conn;
    struct req_ctx *ctx;
    struct arg_collect ac;
    char method[16], path[HTTP_MAX_PATH + 1], ctype[256];
    int has_ctype;
};

/* api_request's reserve: a route about to build a large answer takes its
 * bytes first (api_reserve), so that answers being built count too. */
struct answer_cls {
    struct http_server *s;
    struct req_ctx *ctx;
    int refused;        /* the budget refused it: the route answers 503 overloaded */
};
static int answer_reserve_cb(void *cls, size_t bytes);

/* A place among the HTTP_MAX_CPU_JOBS costly requests off the event threads:
 * 1 taken, 0 all taken (or stopping: the request runs on its event thread). */
static int cpu_job_take(struct http_server *s)
{
    pthread_mutex_lock(&s->lock);
    int ok = !s->stopping && s->cpu_jobs < HTTP_MAX_CPU_JOBS;
    s->cpu_jobs += ok;
    pthread_mutex_unlock(&s->lock);
    return ok;
}

static void cpu_job_done(struct http_server *s, int costly)
{
    if (!costly)
        return;
    pthread_mutex_lock(&s->lock);
    s->cpu_jobs--;
    pthread_mutex_unlock(&s->lock);
}

static void *slow_main(void *arg)
{
    struct slow_job *job = arg;
    struct http_server *s = job->srv;
    struct answer_cls acls = {s, job->ctx, 0};
    struct api_request req = {
        .method = job->method,
        .path = job->path,
        .args = job->ac.args,
        .nargs = job->ac.n,
        .content_type = job->has_ctype ? job->ctype : NULL,
        .body = job->ctx->body.p,
        .body_len = job->ctx->body.len,
    };
    if (job->ctx->costly) {
        /* as serve_api asks it: its answer budget, taken before building */
        req.reserve = answer_reserve_cb;
        req.reserve_cls = &acls;
    }
    api_handle(&req, &job->ctx->resp);
    job->ctx->refused = acls.refused;
    cpu_job_done(s, job->ctx->costly);
    job->ctx->slow_state = HTTP_SLOW_ANSWERED;
    MHD_resume_connection(job->conn);
    free(job);
    return NULL;
}

/* A slow job is resumed when MHD has its connection back (answer queued, or
 * client gone): MHD_stop_daemon aborts on a connection still suspended
 * (0.9.75).  It is done when its request completes (answer sent, or client
 * gone): http_stop lets it finish so that the answer is not cut off. */
static void slow_count(struct http_server *s, int suspended, int running)
{
    pthread_mutex_lock(&s->lock);
    s->slow_suspended += suspended;
    s->slow_running += running;
    pthread_cond_broadcast(&s->idle);
    pthread_mutex_unlock(&s->lock);
}

/* Measurement takes seconds, which would stall every connection of the epoll
 * worker: suspend the connection, answer on a thread of its own, resume.  A
 * costly route's request (API_SLOW_CPU) goes the same way, so that /api/health
 * and every cheap request on the same worker never wait behind it; `costly`
 * says it is one (it counts in cpu_jobs, taken by the caller). */
static enum MHD_Result start_slow(struct http_server *s, struct MHD_Connection *c,
                                  const char *url, const char *method, struct req_ctx *ctx,
                                  const char *ctype, int costly)
{
    struct slow_job *job = calloc(1, sizeof *job);
    ctx->costly = costly;
    if (job == NULL) {
        cpu_job_done(s, costly);
        return queue_error(c, SZ_INTERNAL, NULL, "out of memory");
    }
    job->srv = s;
    job->conn = c;
    job->ctx = ctx;
    snprintf(job->method, sizeof job->method, "%s", method);
    snprintf(job->path, sizeof job->path, "%s", url);
    if (ctype) {
        snprintf(job->ctype, sizeof job->ctype, "%s", ctype);
        job->has_ctype = 1;
    }
    collect_args(c, &job->ac);
    if (job->ac.overflow) {
        free(job);
        cpu_job_done(s, costly);
        if (costly)     /* as serve_api answers it on its event thread */
            return queue_error(c, SZ_TOO_LARGE, "query", "too many query parameters");
        return queue_error(c, SZ_INVALID_ARGUMENT, "query", "bad query parameters");
    }
    pthread_mutex_lock(&s->lock);
    int stopping = s->stopping;
    if (!stopping)
        s->slow_running++, s->slow_suspended++;
    pthread_mutex_unlock(&s->lock);
    if (stopping) {
        free(job);
        cpu_job_done(s, costly);
        return queue_error(c, SZ_GPU_UNAVAILABLE, NULL, "the server is stopping");
    }
    ctx->slow_state = HTTP_SLOW_RUNNING;
    MHD_suspend_connection(c);
    pthread_t th;
    pthread_attr_t at;
    pthread_attr_init(&at);
    pthread_attr_setdetachstate(&at, PTHREAD_CREATE_DETACHED);
    int rc = pthread_create(&th, &at, slow_main, job);
    pthread_attr_destroy(&at);
    if (rc != 0)
        slow_main(job);     /* no thread: answer inline rather than not at all */
    return MHD_YES;
}

static enum MHD_Result queue_answer(struct http_server *s, struct MHD_Connection *c,
                                    struct req_ctx *ctx, struct api_response *a);

static enum MHD_Result queue_api(struct http_server *s, struct MHD_Connection *c,
                                 struct req_ctx *ctx, struct api_response *resp, int refused);
static int answer_hold(struct http_server *s, struct req_ctx *ctx, size_t total);

static enum MHD_Result serve_api(struct http_server *s, struct MHD_Connection *c,
                                 const char *url, const char *method, struct req_ctx *ctx)
{
    const char *ctype = MHD_lookup_connection_value(c, MHD_HEADER_KIND, MHD_HTTP_HEADER_CONTENT_TYPE);
    if (ctx->slow_state == HTTP_SLOW_ANSWERED) {
        /* released in request_done, once the answer is sent: http_stop waits
         * for that, or a stop during a measurement closed before its 503 */
        ctx->slow_state = HTTP_SLOW_QUEUED;
        slow_count(s, -1, 0);
        if (ctx->costly)
            return queue_api(s, c, ctx, &ctx->resp, ctx->refused);
        return queue_answer(s, c, ctx, &ctx->resp);
    }
    if (ctx->slow_state == HTTP_SLOW_RUNNING)
        return MHD_YES;     /* resumed spuriously: still running */
    if (ctx->slow_state == HTTP_SLOW_QUEUED)
        return MHD_NO;      /* called again after the answer (MHD stopping): never rerun */
    int slow = api_is_slow(url);
    if (slow == API_SLOW_GPU)
        return start_slow(s, c, url, method, ctx, ctype, 0);
    if (slow == API_SLOW_CPU && cpu_job_take(s))
        return start_slow(s, c, url, method, ctx, ctype, 1);
    struct arg_collect ac;
    collect_args(c, &ac);
    if (ac.overflow)
        return queue_error(c, SZ_TOO_LARGE, "query", "too many query parameters");
    struct api_request req = {
        .method = method,
        .path = url,
        .args = ac.args,
        .nargs = ac.n,
        .content_type = ctype,
        .body = ctx->body.p,
        .body_len = ctx->body.len,
        .may_stream = 1,
    };
    struct answer_cls acls = {s, ctx, 0};
    req.reserve = answer_reserve_cb;
    req.reserve_cls = &acls;
    struct api_response resp = {0};
    api_handle(&req, &resp);
    return queue_api(s, c, ctx, &resp, acls.refused);
}

/* Queue an API answer; `refused`: the answer budget refused its route. */
static enum MHD_Result queue_api(struct http_server *s, struct MHD_Connection *c,
                                 struct req_ctx *ctx, struct api_response *resp, int refused)
{
    if (refused && resp->status == 503) {
        answer_hold(s, ctx, 0);     /* as queue_overloaded answers: retry in a second */
        return queue_json_h(c, resp, 1, "1");
    }
    if (resp->status >= 400 && resp->status < 500 && is_prefetch(c))
        return queue_refused_prefetch(c, resp);
    return queue_answer(s, c, ctx, resp);
}

/* ---- the handler ------------------------------------------------------------ */

static struct watch_conn *watched(struct MHD_Connection *c)
{
    const union MHD_ConnectionInfo *i =
        MHD_get_connection_info(c, MHD_CONNECTION_INFO_SOCKET_CONTEXT);
    return i ? i->socket_context : NULL;
}

static enum MHD_Result add_field(void *cls, enum MHD_ValueKind kind, const char *key,
                                 size_t key_size, const char *value, size_t value_size)
{
    (void)kind;
    framing_field(cls, key, key_size, value ? value : "", value_size);
    return MHD_YES;
}

/* ---- the body budget ---------------------------------------------------------- */

/* Make *mine, one holder's share of a pool (`held` of at most `budget` bytes
 * in all), `total` bytes: 0, or -1 when growing it would pass the budget (the
 * share is unchanged then); a smaller total gives the difference back.  One
 * compare-and-swap loop for the body and the answer budgets alike. */
static int share_set(atomic_size_t *held, size_t budget, size_t *mine, size_t total)
{
    if (total <= *mine) {
        atomic_fetch_sub(held, *mine - total);
        *mine = total;
        return 0;
    }
    size_t more = total - *mine;
    size_t cur = atomic_load(held);
    do {
        if (cur + more > budget)
            return -1;
    } while (!atomic_compare_exchange_weak(held, &cur, cur + more));
    *mine = total;
    return 0;
}

/* Reserve up to `total` bytes for ctx's body (it holds ctx->held already;
 * a body's share only grows until it is released): 0, or -1 when that would
 * pass the server's budget (nothing reserved then). */
static int body_reserve(struct http_server *s, struct req_ctx *ctx, size_t total)
{
    return total <= ctx->held ? 0 : share_set(&s->body_held, s->body_budget, &ctx->held, total);
}

static void body_release(struct http_server *s, struct req_ctx *ctx)
{
    atomic_fetch_sub(&s->body_held, ctx->held);
    ctx->held = 0;
}

/* Make ctx's share of the answer budget `total` bytes: 0, or -1 when growing it
 * would pass the budget (the share is unchanged then). */
static int answer_hold(struct http_server *s, struct req_ctx *ctx, size_t total)
{
    return share_set(&s->answer_held, s->answer_budget, &ctx->answer, total);
}

static int answer_reserve_cb(void *cls, size_t bytes)
{
    struct answer_cls *a = cls;
    if (bytes <= a->ctx->answer || answer_hold(a->s, a->ctx, bytes) == 0)
        return 0;
    a->refused = 1;
    return -1;
}

/* A large answer built whole (not streamed) is held until sent, for as long
 * as its client takes to read it: its share of the answer budget becomes its
 * length (what its route reserved before building is trued up), or -1 when
 * the budget is spent (the answer is then freed and refused).  Small ones
 * (API_STREAM_MIN or less: every cached one) are not counted. */
static int answer_reserve(struct http_server *s, struct req_ctx *ctx,
                          const struct api_response *a)
{
    int large = !a->stream && a->body != NULL && a->len > API_STREAM_MIN;
    return answer_hold(s, ctx, large ? a->len : 0);
}

static enum MHD_Result queue_overloaded(struct MHD_Connection *c);

/* queue_json for an API answer: within the answer budget, or 503. */
static enum MHD_Result queue_answer(struct http_server *s, struct MHD_Connection *c,
                                    struct req_ctx *ctx, struct api_response *a)
{
    if (answer_reserve(s, ctx, a) < 0) {
        answer_hold(s, ctx, 0);
        free(a->body);
        return queue_overloaded(c);
    }
    return queue_json(c, a, 0);
}

/* Take `n` more body bytes into ctx->body within the budget: a body whose
 * Content-Length was reserved at the head never grows past it; a chunked one
 * grows by doublings, each reserved first.  -1 when the budget is spent. */
static int body_take(struct http_server *s, struct req_ctx *ctx, const char *data, size_t n)
{
    struct buf *b = &ctx->body;
    if (b->len + n + 1 > b->cap) {
        size_t want = b->len + n, dbl = 2 * b->len < API_MAX_BODY ? 2 * b->len : API_MAX_BODY;
        if (want < dbl)
            want = dbl;
        if (body_reserve(s, ctx, want + 1) < 0)
            return -1;
        buf_reserve(b, want - b->len);
    }
    buf_put(b, data, n);
    return 0;
}

static enum MHD_Result queue_overloaded(struct MHD_Connection *c)
{
    struct sz_error err;
    sz_fail(&err, SZ_OVERLOADED, "", "the server holds as many request bodies or large "
            "answers as it will at once: retry in a second");
    struct api_response resp = {0};
    api_error_response(&err, &resp);
    return queue_json_h(c, &resp, 1, "1");
}

/* The first call: the head is complete, the body not read yet; refuse here what needs
 * no body.  An answer queued now makes libmicrohttpd close without reading the body,
 * and a close with input unread resets the connection, losing the answer for a client
 * that writes its whole body before reading: so the watcher drains it (lingering close). */
static enum MHD_Result head_arrived(struct http_server *s, struct MHD_Connection *c,
                                    const char *method, const char *version,
                                    struct req_ctx *ctx)
{
    struct watch_conn *wc = watched(c);
    ctx->started = 1;
    struct framing f;
    framing_begin(&f, version);
    MHD_get_connection_values_n(c, MHD_HEADER_KIND, add_field, &f);
    /* the head as parsed in place: from the method to past its blank line */
    const union MHD_ConnectionInfo *hs =
        MHD_get_connection_info(c, MHD_CONNECTION_INFO_REQUEST_HEADER_SIZE);
    const char *host = MHD_lookup_connection_value(c, MHD_HEADER_KIND, MHD_HTTP_HEADER_HOST);
    const char *cl = MHD_lookup_connection_value(c, MHD_HEADER_KIND,
                                                 MHD_HTTP_HEADER_CONTENT_LENGTH);
    unsigned long long length = cl ? strtoull(cl, NULL, 10) : 0;
    struct sz_error err;
    enum MHD_Result r;
    if (framing_check(&f, hs ? method + hs->header_size : NULL, version, &err) < 0)
        r = queue_sz_error(c, &err, 1);
    else if (ctx->too_many_args)
        r = queue_error(c, SZ_TOO_LARGE, "query", "too many query parameters");
    else if (!addr_host_allowed(&s->addr, s->port, host))
        r = queue_error(c, SZ_MISDIRECTED, "Host",
                        "this server answers only to localhost, 127.0.0.1 "
                        "or [::1] (and the address it is bound to)");
    else if (length > API_MAX_BODY)
        r = queue_error(c, SZ_TOO_LARGE, "body", "request bodies are limited to " API_MAX_BODY_TEXT);
    else if (length > 0 && body_reserve(s, ctx, (size_t)length + 1) < 0)
        r = queue_overloaded(c);
    else if (length > 0 && buf_reserve(&ctx->body, (size_t)length) < 0)
        r = queue_error(c, SZ_INTERNAL, NULL, "out of memory");
    else
        return MHD_YES;     /* the deadline runs on until the body is in (handle) */
    watch_received(wc);
    if (length > 0 || f.codings > 0)
        watch_linger(wc);
    return r;
}

static enum MHD_Result handle(void *cls, struct MHD_Connection *c, const char *url,
                              const char *method, const char *version,
                              const char *upload_data, size_t *upload_data_size,
                              void **con_cls)
{
    struct http_server *s = cls;
    struct req_ctx *ctx = *con_cls;
    if (ctx == NULL && (*con_cls = ctx = calloc(1, sizeof *ctx)) == NULL)
        return MHD_NO;      /* uri_seen was out of memory too */
    if (!ctx->started)
        return head_arrived(s, c, method, version, ctx);
    if (*upload_data_size != 0) {
        /* Chunked bodies have no Content-Length: count as they arrive, and
         * past the limit (or the budget) read on, to answer, only so far. */
        if (!ctx->too_large && !ctx->over_budget) {
            if (ctx->body.len + *upload_data_size > API_MAX_BODY)
                ctx->too_large = 1;
            else if (body_take(s, ctx, upload_data, *upload_data_size) < 0)
                ctx->over_budget = 1;
            if (ctx->too_large || ctx->over_budget) {
                buf_free(&ctx->body);
                body_release(s, ctx);
            }
        } else if ((ctx->discarded += *upload_data_size) > HTTP_MAX_DISCARD) {
            return MHD_NO;
        }
        *upload_data_size = 0;
        return MHD_YES;
    }
    /* The request is all in: its deadline stops (a slow route may take longer). */
    watch_received(watched(c));
    if (ctx->too_large)
        return queue_error(c, SZ_TOO_LARGE, "body", "request bodies are limited to " API_MAX_BODY_TEXT);
    if (ctx->over_budget)
        return queue_overloaded(c);
    if (ctx->body.oom)
        return queue_error(c, SZ_INTERNAL, NULL, "out of memory");
    if (strncmp(url, "/api/", 5) == 0 || strcmp(url, "/api") == 0)
        return serve_api(s, c, url, method, ctx);
    return serve_static(s, c, url, method);
}

/* Called with the raw target in MHD's read buffer (writable: the const is its API's)
 * before the query is split into its 32 KiB pool, where ~470 arguments exhaust it and
 * the 431 it queues is lost (0.9.75): cutting at '?' here, the one place to stop such
 * a flood, the handler answers 413. */
static void *uri_seen(void *cls, const char *uri, struct MHD_Connection *c)
{
    (void)cls, (void)c;
    struct req_ctx *ctx = calloc(1, sizeof *ctx);
    if (uri && framing_query_args(uri, HTTP_MAX_ARGS) > HTTP_MAX_ARGS) {
        strchr(uri, '?')[1] = '\0';
        if (ctx)
            ctx->too_many_args = 1;
    }
    return ctx;
}

static void request_done(void *cls, struct MHD_Connection *c, void **con_cls,
                         enum MHD_RequestTerminationCode toe)
{
    (void)toe;
    watch_request_done(watched(c));
    struct req_ctx *ctx = *con_cls;
    if (ctx) {
        if (ctx->slow_state == HTTP_SLOW_ANSWERED) {
            free(ctx->resp.body);   /* answered but the client left first */
            slow_count(cls, -1, -1);
        } else if (ctx->slow_state == HTTP_SLOW_QUEUED) {
            slow_count(cls, 0, -1);
        }
        buf_free(&ctx->body);
        body_release(cls, ctx);
        atomic_fetch_sub(&((struct http_server *)cls)->answer_held, ctx->answer);
        free(ctx);
        *con_cls = NULL;
    }
}

/* Every connection is watched from accept to close (watch.h). */
static void conn_event(void *cls, struct MHD_Connection *c, void **socket_context,
                       enum MHD_ConnectionNotificationCode code)
{
    struct http_server *s = cls;
    if (code == MHD_CONNECTION_NOTIFY_STARTED) {
        const union MHD_ConnectionInfo *i =
            MHD_get_connection_info(c, MHD_CONNECTION_INFO_CONNECTION_FD);
        *socket_context = i ? watch_open(s->watch, i->connect_fd) : NULL;
    } else {
        watch_close(s->watch, *socket_context);
        *socket_context = NULL;
    }
}

static size_t unescape(void *cls, struct MHD_Connection *c, char *s)
{
    (void)cls, (void)c;
    return framing_unescape(s);
}

/* ---- start / stop ------------------------------------------------------------ */

#define EMBED_MAX 8

/* One origin, [p, p+n), normalised into o (cap bytes) as a CSP host-source:
 * scheme and host lower-cased, one trailing '/' dropped; then http:// or
 * https://, a host of dot-separated labels (1..63 letters, digits or '-', no
 * '-' at either end; an IPv4 literal is such a host) or a bracketed IPv6
 * literal, an optional :port in 1..65535; no path, no wildcard, nothing that
 * could end the CSP directive.  The normalised length, or 0 when invalid. */
static size_t embed_origin(const char *p, size_t n, char *o, size_t cap)
{
    if (n > 0 && p[n - 1] == '/')
        n--;
    if (n == 0 || n >= cap)
        return 0;
    for (size_t i = 0; i < n; i++)
        o[i] = (char)tolower((unsigned char)p[i]);
    o[n] = '\0';
    size_t k = strncmp(o, "https://", 8) == 0 ? 8 : strncmp(o, "http://", 7) == 0 ? 7 : 0;
    if (k == 0 || k == n)
        return 0;
    size_t h = k;
    if (o[h] == '[') {
        size_t d = ++h;
        while (h < n && o[h] && strchr("0123456789abcdef:.", o[h]))
            h++;
        if (h == d || h == n || o[h] != ']' || !memchr(o + d, ':', h - d))
            return 0;
        h++;
    } else {
        for (;;) {                      /* one label, then '.' and the next */
            size_t d = h;
            while (h < n && (isalnum((unsigned char)o[h]) || o[h] == '-'))
                h++;
            if (h == d || h - d > 63 || o[d] == '-' || o[h - 1] == '-')
                return 0;
            if (h == n || o[h] != '.')
                break;
            h++;
        }
        if (h - k > 253)
            return 0;
    }
    if (h < n && o[h] == ':') {
        size_t d = ++h;
        unsigned long port = 0;
        while (h < n && isdigit((unsigned char)o[h]) && h - d < 5)
            port = port * 10 + (unsigned long)(o[h++] - '0');
        if (h == d || port < 1 || port > 65535)
            return 0;
    }
    return h == n ? n : 0;
}

/* The static pages' CSP for --embed-origins: frame-ancestors names them,
 * every other directive is csp's.  "" when origins is NULL or empty. */
static int embed_csp(const char *origins, char *out, size_t cap, char *list, size_t lcap,
                     struct sz_error *err)
{
    out[0] = '\0';
    list[0] = '\0';
    if (origins == NULL || origins[strspn(origins, " ,")] == '\0')
        return 0;
    snprintf(list, lcap, " ");
    size_t len = (size_t)snprintf(out, cap, "%sframe-ancestors", CSP_HEAD);
    int count = 0;
    for (const char *p = origins; *p;) {
        p += strspn(p, " ,");
        size_t n = strcspn(p, " ,");
        if (n == 0)
            break;
        char o[300];
        size_t on = embed_origin(p, n, o, sizeof o);
        if (on == 0 || ++count > EMBED_MAX || len + on + 2 + sizeof CSP_TAIL > cap) {
            out[0] = list[0] = '\0';
            return sz_fail(err, SZ_INVALID_ARGUMENT, "embed_origins",
                           "'%.*s': up to %d origins, each scheme://host[:port] "
                           "(http or https, no path, no wildcard, a port in 1..65535)",
                           (int)sz_utf8_cut(p, n > 80 ? 80 : n), p, EMBED_MAX);
        }
        len += (size_t)snprintf(out + len, cap - len, " %s", o);
        size_t l = strlen(list);
        snprintf(list + l, lcap - l, "%s ", o);     /* fits: list's cap is out's */
        p += n;
    }
    snprintf(out + len, cap - len, "%s", CSP_TAIL);
    return 0;
}

/* A socket bound to `a` and listening (SO_REUSEADDR, and IPv6 only on an IPv6
 * address, as MHD sets its own), with the port bind chose in *port; -1 when
 * it cannot be bound.  MHD owns it once started (MHD_stop_daemon closes it). */
static int listen_socket(const struct addr *a, unsigned backlog, uint16_t *port)
{
    int fd = socket(a->u.sa.sa_family, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
    if (fd < 0)
        return -1;
    int on = 1;
    setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &on, sizeof on);
    if (a->ipv6)
        setsockopt(fd, IPPROTO_IPV6, IPV6_V6ONLY, &on, sizeof on);
    union {
        struct sockaddr sa;
        struct sockaddr_in in4;
        struct sockaddr_in6 in6;
    } got;
    socklen_t len = a->ipv6 ? sizeof a->u.in6 : sizeof a->u.in4;
    if (bind(fd, &a->u.sa, len) != 0 || listen(fd, (int)backlog) != 0 ||
        getsockname(fd, &got.sa, &len) != 0) {
        close(fd);
        return -1;
    }
    *port = ntohs(a->ipv6 ? got.in6.sin6_port : got.in4.sin_port);
    return fd;
}

int http_start(const struct http_config *cfg, struct http_server **out,
               struct sz_error *err)
{
    struct http_server *s = calloc(1, sizeof *s);
    if (s == NULL)
        return sz_fail(err, SZ_INTERNAL, NULL, "out of memory");
    pthread_mutex_init(&s->lock, NULL);
    pthread_cond_init(&s->idle, NULL);
    s->body_budget = cfg->body_budget ? cfg->body_budget : HTTP_BODY_BUDGET;
    s->answer_budget = cfg->answer_budget ? cfg->answer_budget : HTTP_ANSWER_BUDGET;
    if (files_root(cfg->static_dir ? cfg->static_dir : "static", s->static_root, err) < 0) {
        free(s);
        return -1;
    }
    char examples[PATH_MAX + 32];
    struct sz_error none;
    snprintf(examples, sizeof examples, "%s", cfg->examples_dir ? cfg->examples_dir : "");
    if (!cfg->examples_dir)
        snprintf(examples, sizeof examples, "%s/../tests/data/ptx/corpus", s->static_root);
    if (files_root(examples, s->examples_root, &none) < 0)
        s->examples_root[0] = '\0';
    if (embed_csp(cfg->embed_origins, s->page_csp, sizeof s->page_csp, s->embed_list,
                  sizeof s->embed_list, err) < 0) {
        free(s);
        return -1;
    }
    const char *bind = cfg->bind ? cfg->bind : "127.0.0.1";
    unsigned flags = MHD_USE_INTERNAL_POLLING_THREAD | MHD_USE_EPOLL | MHD_USE_TURBO |
                     MHD_ALLOW_SUSPEND_RESUME;
    if (addr_parse(bind, cfg->port, &s->addr, err) < 0) {
        free(s);
        return -1;
    }
    if (s->addr.ipv6)
        flags |= MHD_USE_IPv6;
    /* A pool of epoll threads, two per core: requests are short, but a worker
     * also waits in sendmsg; on 2 cores 4 workers served 20% more than 2
     * (bench/load.sh).  Never fewer than 2: 0.9.75 with one epoll thread stalls
     * past 128 open connections (wrk at 256: 180 requests/s, then nothing). */
    unsigned threads = cfg->threads;
    if (threads == 0) {
        long n = sysconf(_SC_NPROCESSORS_ONLN);
        threads = n > 0 && n <= 32 ? 2 * (unsigned)n : 8;
    }
    if (threads < 2)
        threads = 2;
    if (watch_start(cfg->head_timeout_ms ? cfg->head_timeout_ms : HTTP_HEAD_TIMEOUT_MS,
                    &s->watch, err) < 0) {
        free(s);
        return -1;
    }
    unsigned cap = cfg->max_connections ? cfg->max_connections : HTTP_MAX_CONNECTIONS;
    /* Bound and listening before MHD's threads exist: the port the Host check
     * compares with (port 0 is only resolved by bind) is then set before any
     * request can be read.  When MHD bound it, a request at the first instant
     * met s->port still 0 and got 421 (issue 36, 1 start in 40). */
    int fd = listen_socket(&s->addr, cap, &s->port);
    if (fd < 0) {
        watch_stop(s->watch);
        free(s);
        return sz_fail(err, SZ_INVALID_ARGUMENT, "port",
                       "cannot listen on %s port %u (in use, or not permitted)",
                       bind, (unsigned)cfg->port);
    }
    s->daemon = MHD_start_daemon(
        flags, s->port, NULL, NULL, handle, s,
        MHD_OPTION_LISTEN_SOCKET, fd,
        MHD_OPTION_THREAD_POOL_SIZE, threads,
        MHD_OPTION_CONNECTION_LIMIT, cap,
        MHD_OPTION_CONNECTION_TIMEOUT, (unsigned)HTTP_IDLE_TIMEOUT_S,
        MHD_OPTION_NOTIFY_COMPLETED, request_done, s,
        MHD_OPTION_NOTIFY_CONNECTION, conn_event, s,
        MHD_OPTION_URI_LOG_CALLBACK, uri_seen, s,
        MHD_OPTION_UNESCAPE_CALLBACK, unescape, s,
        MHD_OPTION_END);
    if (s->daemon == NULL) {
        /* fd is not closed here: whether a failed start closed it is
         * MHD's business, and a double close could hit another thread's. */
        watch_stop(s->watch);
        free(s);
        return sz_fail(err, SZ_INTERNAL, NULL, "cannot start the HTTP daemon on %s port %u",
                       bind, (unsigned)cfg->port);
    }
    if (cfg->serving)
        cfg->serving(s, cfg->serving_arg);
    *out = s;
    return 0;
}

uint16_t http_port(const struct http_server *srv) { return srv->port; }

int http_is_loopback(const struct http_server *srv) { return srv->addr.loopback; }

void http_stop(struct http_server *srv)
{
    if (srv == NULL)
        return;
    /* A suspended connection must be resumed before MHD stops; each slow
     * request ends by its own deadline, so this wait is bounded.  Its answer
     * is then sent before the daemon closes the connection (a client that
     * does not read gets HTTP_FLUSH_MS, then the close). */
    pthread_mutex_lock(&srv->lock);
    srv->stopping = 1;
    while (srv->slow_suspended > 0)
        pthread_cond_wait(&srv->idle, &srv->lock);
    struct timespec end;
    clock_gettime(CLOCK_REALTIME, &end);
    end.tv_sec += HTTP_FLUSH_MS / 1000;
    end.tv_nsec += (long)(HTTP_FLUSH_MS % 1000) * 1000000L;
    if (end.tv_nsec >= 1000000000L) {
        end.tv_sec++;
        end.tv_nsec -= 1000000000L;
    }
    while (srv->slow_running > 0 &&
           pthread_cond_timedwait(&srv->idle, &srv->lock, &end) == 0)
        ;
    pthread_mutex_unlock(&srv->lock);
    MHD_stop_daemon(srv->daemon);
    watch_stop(srv->watch);     /* after the daemon: its closes hand over drains */
    pthread_mutex_destroy(&srv->lock);
    pthread_cond_destroy(&srv->idle);
    free(srv);
}
