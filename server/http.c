/* http.c - libmicrohttpd daemon: Host check, limits, headers, sending static
 * files, and handing /api/ requests to api.c.
 *
 * The only file that includes microhttpd.h.  It must not parse or write JSON
 * bodies (api.c does) nor decide which file a path names (files.c does). */
#define _GNU_SOURCE 1   /* PATH_MAX under -std=c11 */
#include "http.h"

#include <arpa/inet.h>
#include <limits.h>
#include <microhttpd.h>
#include <netinet/in.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "api.h"
#include "buf.h"
#include "files.h"

/* Limits, each sized for a local tool that a classroom may hit at once:
 * - connections: a classroom of ~50 browsers, each with ~6 parallel
 *   connections, plus a load test of 256: 1024 leaves headroom while bounding
 *   file descriptors well below the usual 1024*N ulimit.
 * - idle timeout: a slow or stalled client loses its connection after 10 s, so
 *   it cannot hold a worker; every real request here completes in milliseconds
 *   (measurement, the slowest, has its own child timeout in measure.c).
 * - query arguments: the API refuses a repeated name (api_read.c), and the
 *   widest route (/api/access) accepts 14 names; 32 leaves room and refuses
 *   floods before the API sees them.
 * - path: a slow request keeps its own copy of the API path, 1024 bytes at
 *   most (routes are far shorter; static paths have files.h's limit). */
#define HTTP_MAX_CONNECTIONS 1024
#define HTTP_IDLE_TIMEOUT_S 10
#define HTTP_MAX_ARGS 32
#define HTTP_MAX_PATH 1024

struct http_server {
    struct MHD_Daemon *daemon;
    char static_root[PATH_MAX];     /* realpath of static_dir, no trailing '/' */
    char bind_text[INET6_ADDRSTRLEN + 2];   /* as it appears in a Host header */
    uint16_t port;
    int loopback, wildcard;
    /* slow requests running on their own threads; http_stop waits for them */
    pthread_mutex_t lock;
    pthread_cond_t idle;
    int slow_running;
};

/* Where a slow route's request stands: the handler runs again once its thread
 * resumes the connection and must know whether to queue the answer, and
 * request_done whether `resp` still owns a body. */
enum http_slow {
    HTTP_SLOW_NONE = 0,     /* not a slow route, or not started (calloc'd) */
    HTTP_SLOW_RUNNING,      /* api_handle runs on its own thread */
    HTTP_SLOW_ANSWERED,     /* resp is filled and owns its body; not yet queued */
    HTTP_SLOW_QUEUED        /* resp's body handed to MHD, which frees it */
};

/* Per-request state: the body as it arrives, whether it overflowed, and a
 * slow route's progress. */
struct req_ctx {
    struct buf body;
    int too_large;
    enum http_slow slow_state;
    struct api_response resp;   /* a slow route's answer, filled by its thread */
};

/* ---- headers ------------------------------------------------------------- */

/* No inline script or style anywhere: the page is ES modules and a stylesheet.
 * blob:/data: images are for PNG/SVG export; nothing may frame the page. */
static const char csp[] =
    "default-src 'self'; script-src 'self'; style-src 'self'; "
    "img-src 'self' data: blob:; connect-src 'self'; object-src 'none'; "
    "base-uri 'none'; frame-ancestors 'none'; form-action 'none'";

static void add_security_headers(struct MHD_Response *r, const char *cache)
{
    MHD_add_response_header(r, "Content-Security-Policy", csp);
    MHD_add_response_header(r, "X-Content-Type-Options", "nosniff");
    MHD_add_response_header(r, "Referrer-Policy", "no-referrer");
    MHD_add_response_header(r, "X-Frame-Options", "DENY");
    MHD_add_response_header(r, "Cross-Origin-Resource-Policy", "same-origin");
    MHD_add_response_header(r, "Cache-Control", cache);
}

static enum MHD_Result queue_json(struct MHD_Connection *c, int status, char *body,
                                  size_t len)
{
    struct MHD_Response *r;
    if (body == NULL) {
        static const char oom[] = "{\"error\":{\"code\":\"internal\",\"field\":\"\","
                                  "\"message\":\"out of memory\"}}";
        r = MHD_create_response_from_buffer(sizeof oom - 1, (void *)oom,
                                            MHD_RESPMEM_PERSISTENT);
        status = 500;
    } else {
        /* MUST_FREE hands our malloc'd body over without a copy: a million-cell
         * map is megabytes, and copying it would double the work per request. */
        r = MHD_create_response_from_buffer(len, body, MHD_RESPMEM_MUST_FREE);
    }
    if (r == NULL) {
        free(body);
        return MHD_NO;
    }
    MHD_add_response_header(r, "Content-Type", "application/json; charset=utf-8");
    /* API answers depend on the query only, but are cheap and the server may be
     * rebuilt under the page: never cache them. */
    add_security_headers(r, "no-store");
    enum MHD_Result ok = MHD_queue_response(c, (unsigned)status, r);
    MHD_destroy_response(r);
    return ok;
}

/* ---- prefetches ------------------------------------------------------------ */

/* The page asks ahead, in idle time, for states one click away, and marks
 * those requests "X-Swz-Prefetch: 1".  Some of those states are invalid (a
 * preset whose period does not divide the rows typed in).  Asking ahead for a
 * state nobody chose is not an error, and a 4xx would print a red line in the
 * browser's console for a request no user made; so a refused prefetch is
 * answered 204 No Content with the status it would have had in X-Swz-Refused.
 * The same request without the header still gets its 4xx and error body. */
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
    add_security_headers(r, "no-store");
    enum MHD_Result ok = MHD_queue_response(c, MHD_HTTP_NO_CONTENT, r);
    MHD_destroy_response(r);
    return ok;
}

static enum MHD_Result queue_sz_error(struct MHD_Connection *c, const struct sz_error *err)
{
    struct api_response resp = {0};
    api_error_response(err, &resp);
    return queue_json(c, resp.status, resp.body, resp.len);
}

static enum MHD_Result queue_error(struct MHD_Connection *c, enum sz_code code,
                                   const char *field, const char *msg)
{
    struct sz_error err;
    sz_fail(&err, code, field, "%s", msg);
    return queue_sz_error(c, &err);
}

/* ---- Host check ------------------------------------------------------------ */

/* A page on another site can make the browser talk to 127.0.0.1 under its own
 * hostname (DNS rebinding).  Refusing every Host but the loopback names and
 * the bound address closes that door: such a page always sends its own name. */
static int host_allowed(const struct http_server *s, const char *host)
{
    if (host == NULL || *host == '\0')
        return 0;
    char name[300];
    size_t n = strlen(host);
    if (n >= sizeof name)
        return 0;
    memcpy(name, host, n + 1);
    /* split off ":port"; an IPv6 literal keeps its brackets */
    char *colon = strrchr(name, ':');
    char *bracket = strrchr(name, ']');
    if (colon && (!bracket || colon > bracket)) {
        *colon = '\0';
        const char *p = colon + 1;
        if (*p == '\0' || strspn(p, "0123456789") != strlen(p) || strlen(p) > 5 ||
            atoi(p) != s->port)
            return 0;
    }
    if (strcmp(name, "localhost") == 0 || strcmp(name, "127.0.0.1") == 0 ||
        strcmp(name, "[::1]") == 0 || strcmp(name, s->bind_text) == 0)
        return 1;
    if (s->wildcard) {
        /* Bound to every interface: any IP literal is a direct peer, never a
         * rebound name, so it may stay; names still may not. */
        struct in6_addr a6;
        struct in_addr a4;
        size_t len = strlen(name);
        if (inet_pton(AF_INET, name, &a4) == 1)
            return 1;
        if (len > 2 && name[0] == '[' && name[len - 1] == ']') {
            name[len - 1] = '\0';
            return inet_pton(AF_INET6, name + 1, &a6) == 1;
        }
    }
    return 0;
}

/* ---- static files ---------------------------------------------------------- */

static enum MHD_Result serve_static(struct http_server *s, struct MHD_Connection *c,
                                    const char *url, const char *method)
{
    if (strcmp(method, "GET") != 0 && strcmp(method, "HEAD") != 0)
        return queue_error(c, SZ_METHOD_NOT_ALLOWED, "method",
                           "static files answer GET and HEAD only");
    struct files_file f;
    struct sz_error err;
    if (files_open(s->static_root, url, &f, &err) < 0)
        return queue_sz_error(c, &err);
    /* no-cache makes the browser revalidate every file (the page may be
     * edited while the server runs); the ETag lets that be a bodiless 304. */
    const char *inm = MHD_lookup_connection_value(c, MHD_HEADER_KIND,
                                                  MHD_HTTP_HEADER_IF_NONE_MATCH);
    int fresh = inm && strcmp(inm, f.etag) == 0;
    struct MHD_Response *r;
    if (fresh) {
        close(f.fd);
        r = MHD_create_response_from_buffer(0, NULL, MHD_RESPMEM_PERSISTENT);
    } else {
        /* from_fd lets MHD sendfile() the file: no copy through user space. */
        r = MHD_create_response_from_fd(f.size, f.fd);
    }
    if (r == NULL) {
        if (!fresh)
            close(f.fd);
        return MHD_NO;
    }
    MHD_add_response_header(r, "Content-Type", f.type);
    MHD_add_response_header(r, "ETag", f.etag);
    add_security_headers(r, "no-cache");
    enum MHD_Result ok = MHD_queue_response(c, fresh ? MHD_HTTP_NOT_MODIFIED : MHD_HTTP_OK, r);
    MHD_destroy_response(r);
    return ok;
}

/* ---- the API ---------------------------------------------------------------- */

struct arg_collect {
    struct api_arg args[HTTP_MAX_ARGS];
    int n, overflow, bad;
};

static enum MHD_Result collect_arg(void *cls, enum MHD_ValueKind kind, const char *key,
                                   size_t key_size, const char *value, size_t value_size)
{
    (void)kind;
    struct arg_collect *ac = cls;
    /* A decoded NUL would silently cut a key or value short: refuse it. */
    if (strlen(key) != key_size || (value && strlen(value) != value_size))
        ac->bad = 1;
    if (ac->n == HTTP_MAX_ARGS) {
        ac->overflow = 1;
        return MHD_NO;
    }
    ac->args[ac->n].key = key;
    ac->args[ac->n].value = value ? value : "";
    ac->n++;
    return MHD_YES;
}

/* Everything a slow request needs after its connection is suspended: MHD's
 * strings stay valid while the connection lives, but copies make the thread
 * independent of that subtlety. */
struct slow_job {
    struct http_server *srv;
    struct MHD_Connection *conn;
    struct req_ctx *ctx;
    struct arg_collect ac;
    char method[16], path[HTTP_MAX_PATH + 1], ctype[256];
    int has_ctype;
};

static void collect_args(struct MHD_Connection *c, struct arg_collect *ac)
{
    memset(ac, 0, sizeof *ac);
    MHD_get_connection_values_n(c, MHD_GET_ARGUMENT_KIND, collect_arg, ac);
}

static void *slow_main(void *arg)
{
    struct slow_job *job = arg;
    struct api_request req = {
        .method = job->method,
        .path = job->path,
        .args = job->ac.args,
        .nargs = job->ac.n,
        .content_type = job->has_ctype ? job->ctype : NULL,
        .body = job->ctx->body.p,
        .body_len = job->ctx->body.len,
    };
    api_handle(&req, &job->ctx->resp);
    job->ctx->slow_state = HTTP_SLOW_ANSWERED;
    struct http_server *s = job->srv;
    MHD_resume_connection(job->conn);
    free(job);
    pthread_mutex_lock(&s->lock);
    if (--s->slow_running == 0)
        pthread_cond_broadcast(&s->idle);
    pthread_mutex_unlock(&s->lock);
    return NULL;
}

/* Measurement takes seconds; an epoll worker blocked that long would stall
 * every other connection it serves.  Suspend the connection, answer on a
 * thread of its own, resume when done. */
static enum MHD_Result start_slow(struct http_server *s, struct MHD_Connection *c,
                                  const char *url, const char *method, struct req_ctx *ctx,
                                  const char *ctype)
{
    struct slow_job *job = calloc(1, sizeof *job);
    if (job == NULL)
        return queue_error(c, SZ_INTERNAL, NULL, "out of memory");
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
    if (job->ac.overflow || job->ac.bad) {
        free(job);
        return queue_error(c, SZ_INVALID_ARGUMENT, "query", "bad query parameters");
    }
    ctx->slow_state = HTTP_SLOW_RUNNING;
    pthread_mutex_lock(&s->lock);
    s->slow_running++;
    pthread_mutex_unlock(&s->lock);
    MHD_suspend_connection(c);
    pthread_t th;
    pthread_attr_t at;
    pthread_attr_init(&at);
    pthread_attr_setdetachstate(&at, PTHREAD_CREATE_DETACHED);
    int rc = pthread_create(&th, &at, slow_main, job);
    pthread_attr_destroy(&at);
    if (rc != 0) {
        /* no thread: answer inline rather than not at all */
        MHD_resume_connection(c);
        slow_main(job);
    }
    return MHD_YES;
}

static enum MHD_Result serve_api(struct http_server *s, struct MHD_Connection *c,
                                 const char *url, const char *method, struct req_ctx *ctx)
{
    const char *ctype = MHD_lookup_connection_value(c, MHD_HEADER_KIND,
                                                    MHD_HTTP_HEADER_CONTENT_TYPE);
    if (ctx->slow_state == HTTP_SLOW_ANSWERED) {
        ctx->slow_state = HTTP_SLOW_QUEUED;
        return queue_json(c, ctx->resp.status, ctx->resp.body, ctx->resp.len);
    }
    if (ctx->slow_state == HTTP_SLOW_RUNNING)
        return MHD_YES;     /* resumed spuriously: still running */
    if (api_is_slow(url))
        return start_slow(s, c, url, method, ctx, ctype);
    struct arg_collect ac;
    collect_args(c, &ac);
    if (ac.overflow)
        return queue_error(c, SZ_TOO_LARGE, "query", "too many query parameters");
    if (ac.bad)
        return queue_error(c, SZ_INVALID_ARGUMENT, "query",
                           "query parameters may not contain NUL bytes");
    struct api_request req = {
        .method = method,
        .path = url,
        .args = ac.args,
        .nargs = ac.n,
        .content_type = ctype,
        .body = ctx->body.p,
        .body_len = ctx->body.len,
    };
    struct api_response resp = {0};
    api_handle(&req, &resp);
    if (resp.status >= 400 && resp.status < 500 && is_prefetch(c))
        return queue_refused_prefetch(c, &resp);
    return queue_json(c, resp.status, resp.body, resp.len);
}

/* ---- the handler ------------------------------------------------------------ */

static enum MHD_Result handle(void *cls, struct MHD_Connection *c, const char *url,
                              const char *method, const char *version,
                              const char *upload_data, size_t *upload_data_size,
                              void **con_cls)
{
    (void)version;
    struct http_server *s = cls;
    struct req_ctx *ctx = *con_cls;
    if (ctx == NULL) {
        /* First call: headers only.  Refuse early what needs no body. */
        ctx = calloc(1, sizeof *ctx);
        if (ctx == NULL)
            return MHD_NO;
        *con_cls = ctx;
        const char *host = MHD_lookup_connection_value(c, MHD_HEADER_KIND,
                                                       MHD_HTTP_HEADER_HOST);
        if (!host_allowed(s, host))
            return queue_error(c, SZ_MISDIRECTED, "Host",
                               "this server answers only to localhost, 127.0.0.1 "
                               "or [::1] (and the address it is bound to)");
        const char *cl = MHD_lookup_connection_value(c, MHD_HEADER_KIND,
                                                     MHD_HTTP_HEADER_CONTENT_LENGTH);
        if (cl && strtoull(cl, NULL, 10) > API_MAX_BODY)
            return queue_error(c, SZ_TOO_LARGE, "body",
                               "request bodies are limited to 2 MiB");
        return MHD_YES;
    }
    if (*upload_data_size != 0) {
        /* Chunked bodies have no Content-Length: count as they arrive. */
        if (!ctx->too_large) {
            if (ctx->body.len + *upload_data_size > API_MAX_BODY) {
                ctx->too_large = 1;
                buf_free(&ctx->body);
            } else {
                buf_put(&ctx->body, upload_data, *upload_data_size);
            }
        }
        *upload_data_size = 0;
        return MHD_YES;
    }
    if (ctx->too_large)
        return queue_error(c, SZ_TOO_LARGE, "body", "request bodies are limited to 2 MiB");
    if (ctx->body.oom)
        return queue_error(c, SZ_INTERNAL, NULL, "out of memory");
    if (strncmp(url, "/api/", 5) == 0 || strcmp(url, "/api") == 0)
        return serve_api(s, c, url, method, ctx);
    return serve_static(s, c, url, method);
}

static void request_done(void *cls, struct MHD_Connection *c, void **con_cls,
                         enum MHD_RequestTerminationCode toe)
{
    (void)cls, (void)c, (void)toe;
    struct req_ctx *ctx = *con_cls;
    if (ctx) {
        if (ctx->slow_state == HTTP_SLOW_ANSWERED)
            free(ctx->resp.body);   /* answered but the client left first */
        buf_free(&ctx->body);
        free(ctx);
        *con_cls = NULL;
    }
}

static int hexval(char ch)
{
    if (ch >= '0' && ch <= '9')
        return ch - '0';
    if (ch >= 'a' && ch <= 'f')
        return ch - 'a' + 10;
    if (ch >= 'A' && ch <= 'F')
        return ch - 'A' + 10;
    return -1;
}

/* Decode %HH once, in place, for the path and every query argument.  A decoded
 * control byte becomes 0x7F so that files.c and the integer parsers refuse it
 * rather than a NUL silently truncating the string. */
static size_t unescape(void *cls, struct MHD_Connection *c, char *s)
{
    (void)cls, (void)c;
    char *w = s;
    for (const char *r = s; *r; r++) {
        int hi, lo;
        if (r[0] == '%' && (hi = hexval(r[1])) >= 0 && (lo = hexval(r[2])) >= 0) {
            unsigned char ch = (unsigned char)(hi * 16 + lo);
            *w++ = (ch < 0x20 || ch == 0x7F) ? (char)0x7F : (char)ch;
            r += 2;
        } else {
            *w++ = *r;
        }
    }
    *w = '\0';
    return (size_t)(w - s);
}

/* ---- start / stop ------------------------------------------------------------ */

int http_start(const struct http_config *cfg, struct http_server **out,
               struct sz_error *err)
{
    struct http_server *s = calloc(1, sizeof *s);
    if (s == NULL)
        return sz_fail(err, SZ_INTERNAL, NULL, "out of memory");
    pthread_mutex_init(&s->lock, NULL);
    pthread_cond_init(&s->idle, NULL);
    if (files_root(cfg->static_dir ? cfg->static_dir : "static", s->static_root, err) < 0) {
        free(s);
        return -1;
    }
    const char *bind = cfg->bind ? cfg->bind : "127.0.0.1";
    struct sockaddr_in a4 = {0};
    struct sockaddr_in6 a6 = {0};
    struct sockaddr *sa;
    unsigned flags = MHD_USE_INTERNAL_POLLING_THREAD | MHD_USE_EPOLL | MHD_USE_TURBO |
                     MHD_ALLOW_SUSPEND_RESUME;
    if (inet_pton(AF_INET, bind, &a4.sin_addr) == 1) {
        a4.sin_family = AF_INET;
        a4.sin_port = htons(cfg->port);
        sa = (struct sockaddr *)&a4;
        s->loopback = (ntohl(a4.sin_addr.s_addr) >> 24) == 127;
        s->wildcard = a4.sin_addr.s_addr == htonl(INADDR_ANY);
        snprintf(s->bind_text, sizeof s->bind_text, "%s", bind);
    } else if (inet_pton(AF_INET6, bind, &a6.sin6_addr) == 1) {
        a6.sin6_family = AF_INET6;
        a6.sin6_port = htons(cfg->port);
        sa = (struct sockaddr *)&a6;
        flags |= MHD_USE_IPv6;
        s->loopback = IN6_IS_ADDR_LOOPBACK(&a6.sin6_addr);
        s->wildcard = IN6_IS_ADDR_UNSPECIFIED(&a6.sin6_addr);
        snprintf(s->bind_text, sizeof s->bind_text, "[%s]", bind);
    } else {
        free(s);
        return sz_fail(err, SZ_INVALID_ARGUMENT, "bind",
                       "'%s' is not a numeric IPv4 or IPv6 address", bind);
    }
    /* A pool of epoll threads, two per core: requests are short, but a
     * worker also waits in sendmsg, and on 2 cores 4 workers served 20% more
     * than 2 (bench/load.sh).  Never fewer than 2: libmicrohttpd 0.9.75 with
     * one epoll thread stalls once more than 128 connections are open (wrk at
     * 256 connections: 180 requests/s, then nothing), while a pool does not. */
    unsigned threads = cfg->threads;
    if (threads == 0) {
        long n = sysconf(_SC_NPROCESSORS_ONLN);
        threads = n > 0 && n <= 32 ? 2 * (unsigned)n : 8;
    }
    if (threads < 2)
        threads = 2;
    s->daemon = MHD_start_daemon(
        flags, cfg->port, NULL, NULL, handle, s,
        MHD_OPTION_SOCK_ADDR, sa,
        MHD_OPTION_THREAD_POOL_SIZE, threads,
        MHD_OPTION_CONNECTION_LIMIT, (unsigned)HTTP_MAX_CONNECTIONS,
        MHD_OPTION_CONNECTION_TIMEOUT, (unsigned)HTTP_IDLE_TIMEOUT_S,
        MHD_OPTION_LISTEN_BACKLOG_SIZE, (unsigned)HTTP_MAX_CONNECTIONS,
        MHD_OPTION_NOTIFY_COMPLETED, request_done, s,
        MHD_OPTION_UNESCAPE_CALLBACK, unescape, s,
        MHD_OPTION_END);
    if (s->daemon == NULL) {
        free(s);
        return sz_fail(err, SZ_INVALID_ARGUMENT, "port",
                       "cannot listen on %s port %u (in use, or not permitted)",
                       bind, (unsigned)cfg->port);
    }
    const union MHD_DaemonInfo *info =
        MHD_get_daemon_info(s->daemon, MHD_DAEMON_INFO_BIND_PORT);
    s->port = info ? info->port : cfg->port;
    *out = s;
    return 0;
}

uint16_t http_port(const struct http_server *srv) { return srv->port; }

int http_is_loopback(const struct http_server *srv) { return srv->loopback; }

void http_stop(struct http_server *srv)
{
    if (srv == NULL)
        return;
    /* A suspended connection must be resumed before MHD stops; each slow
     * request ends by its own deadline, so this wait is bounded. */
    pthread_mutex_lock(&srv->lock);
    while (srv->slow_running > 0)
        pthread_cond_wait(&srv->idle, &srv->lock);
    pthread_mutex_unlock(&srv->lock);
    MHD_stop_daemon(srv->daemon);
    pthread_mutex_destroy(&srv->lock);
    pthread_cond_destroy(&srv->idle);
    free(srv);
}
