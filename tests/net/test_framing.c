/* test_framing.c - what a hostile or careless client can send a real daemon
 * over raw loopback sockets (issue 18, "Framing and protocol" and "Load and
 * slow clients"): unknown codings, smuggling, malformed fields, query floods,
 * oversized bodies written in full before reading, FIFOs in the static
 * folder, a head sent one byte at a time.  Every request must be answered at
 * once (the client gives up after 5 s of silence) or, for the slow head,
 * dropped; times here are bounds on hanging, never speed measurements. */
#define _GNU_SOURCE 1   /* mkdtemp, usleep under -std=c11 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "net/framing.h"
#include "net/http.h"
#include "check.h"
#include "client.h"

static uint16_t port;

/* ---- framing.c's pure functions, without a daemon (issue 22) ---------------------- */

/* framing_check on `n` fields (name, value) with no chain check: its field
 * ("" when accepted). */
static const char *judge(const char *version, const char *const (*fields)[2], int n,
                         struct sz_error *err)
{
    struct framing f;
    framing_begin(&f, NULL);
    for (int i = 0; i < n; i++)
        framing_field(&f, fields[i][0], strlen(fields[i][0]), fields[i][1],
                      strlen(fields[i][1]));
    err->field[0] = '\0';
    if (framing_check(&f, NULL, version, err) == 0)
        return "";
    return err->field;
}

static void test_framing_units(void)
{
    static const struct { const char *target; unsigned stop, want; } q[] = {
        {"/api/x", 32, 0}, {"/api/x?", 32, 0}, {"/api/x?a=1", 32, 1}, {"/api/x?a=1&b", 32, 2},
        {"/api/x?&&", 32, 3}, {"/api/x?a&b&c&d", 2, 3},     /* counts stop + 1 at most */
    };
    for (size_t i = 0; i < sizeof q / sizeof q[0]; i++)
        CHECK(framing_query_args(q[i].target, q[i].stop) == q[i].want,
              "query_args(%s, %u) = %u, want %u", q[i].target, q[i].stop,
              framing_query_args(q[i].target, q[i].stop), q[i].want);
    CHECK(framing_query_args(NULL, 32) == 0, "query_args(NULL)");

    static const struct { const char *in, *out; } u[] = {
        {"%41b%2f", "Ab/"}, {"%00x", "\x7Fx"}, {"%1f", "\x7F"}, {"%7F", "\x7F"},
        {"%zz%4", "%zz%4"}, {"%%41", "%A"}, {"a+b", "a+b"}, {"%C3%A9", "\xC3\xA9"}, {"", ""},
    };
    for (size_t i = 0; i < sizeof u / sizeof u[0]; i++) {
        char b[32];
        snprintf(b, sizeof b, "%s", u[i].in);
        size_t n = framing_unescape(b);
        CHECK(strcmp(b, u[i].out) == 0 && n == strlen(u[i].out), "unescape(%s): '%s' (%zu)",
              u[i].in, b, n);
    }

    struct sz_error err;
    static const char *const ok[][2] = {{"Host", "localhost"}, {"X-A", "a\tb"},
                                        {"Transfer-Encoding", "Chunked"}};
    CHECK(strcmp(judge("HTTP/1.1", ok, 3, &err), "") == 0, "a good head: %s", err.message);
    static const struct { const char *version; const char *f[3][2]; int n; const char *field; } bad[] = {
        {"HTTP/1.1", {{"Host", "a"}, {"host", "b"}}, 2, "Host"},
        {"HTTP/1.1", {{"Content-Length", "1"}, {"content-length", "1"}}, 2, "Content-Length"},
        {"HTTP/1.1", {{"Content-Length", "1"}, {"Transfer-Encoding", "chunked"}}, 2,
         "Transfer-Encoding"},
        {"HTTP/1.0", {{"Transfer-Encoding", "chunked"}}, 1, "Transfer-Encoding"},
        {"HTTP/1.1", {{"Transfer-Encoding", "gzip, chunked"}}, 1, "Transfer-Encoding"},
        {"HTTP/1.1", {{"Transfer-Encoding", "chunked "}}, 1, "Transfer-Encoding"},
        {"HTTP/1.1", {{"Transfer-Encoding", "chunked"}, {"Transfer-Encoding", "chunked"}}, 2,
         "Transfer-Encoding"},
        {"HTTP/1.1", {{"X A", "1"}}, 1, "header"},
        {"HTTP/1.1", {{"", "1"}}, 1, "header"},
        {"HTTP/1.1", {{"X-A", "a\rb"}}, 1, "header"},
        {"HTTP/1.1", {{"X-A", "a\x7F"}}, 1, "header"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        const char *fld = judge(bad[i].version, bad[i].f, bad[i].n, &err);
        CHECK(strcmp(fld, bad[i].field) == 0 && err.code == SZ_INVALID_ARGUMENT,
              "bad head %zu (%s: %s): field '%s', want %s", i, bad[i].f[0][0], bad[i].f[0][1],
              fld, bad[i].field);
    }

    /* The chain: libmicrohttpd parses the head in place, each CRLF zeroed;
     * a field line must start two bytes past the previous value's end. */
    static const char head[] = "GET\0/p\0HTTP/1.1\0\0Host\0 v\0\0X-A\0 b\0\0\0\0";
    const char *version = head + 7, *host = head + 17, *hv = head + 23, *xa = head + 26,
               *xv = head + 31, *end = head + 36;
    struct framing f;
    framing_begin(&f, version);
    framing_field(&f, host, 4, hv, 1);
    framing_field(&f, xa, 3, xv, 1);
    CHECK(framing_check(&f, end, version, &err) == 0, "a well-chained head: %s", err.message);
    framing_begin(&f, version);
    framing_field(&f, host, 4, hv, 1);
    framing_field(&f, xa + 1, 2, xv, 1);    /* a line not where it must start */
    CHECK(framing_check(&f, end, version, &err) < 0 && strcmp(err.field, "header") == 0,
          "a misplaced line is refused");
    framing_begin(&f, version);
    framing_field(&f, host, 4, hv, 1);
    framing_field(&f, xa, 3, xv, 1);
    CHECK(framing_check(&f, end + 1, version, &err) < 0, "a head that ends elsewhere");
}
static char tmpdir[] = "/tmp/swz-framing-XXXXXX";

static int count(const char *hay, const char *needle)
{
    int n = 0;
    for (const char *p = hay; p && (p = strstr(p, needle)) != NULL; p++)
        n++;
    return n;
}

/* `req` answered with `status`, exactly one answer, the JSON error body with
 * `needle` in it, and the connection closed after it. */
static void refused(const char *what, const char *req, size_t len, int status,
                    const char *needle)
{
    char *r = client_send(port, req, len ? len : strlen(req));
    int st = client_status(r);
    CHECK(st == status, "%s: status %d, want %d: %.200s", what, st, status, r ? r : "");
    CHECK(r && count(r, "HTTP/1.1 ") == 1, "%s: %d answers, want 1", what,
          count(r, "HTTP/1.1 "));
    CHECK(r && strstr(r, "Content-Type: application/json") &&
          strstr(r, "X-Content-Type-Options: nosniff") && strstr(r, "{\"error\":{\"code\":"),
          "%s: not the JSON error body with the security headers", what);
    if (needle)
        CHECK(r && strstr(r, needle), "%s: lacks '%s'", what, needle);
    free(r);
}

static void healthy(const char *after)
{
    char *r = client_raw(port, "GET /api/health HTTP/1.1\r\nHost: localhost\r\n"
                               "Connection: close\r\n\r\n");
    CHECK(client_status(r) == 200, "unhealthy after %s", after);
    free(r);
}

#define POST_APPLY "POST /api/apply HTTP/1.1\r\nHost: localhost\r\n" \
                   "Content-Type: application/json\r\n"

/* Transfer codings: only "chunked" is decoded; anything else used to leave the
 * daemon reading a body of unknown length until its 10 s timeout. */
static void test_codings(void)
{
    refused("gzip, chunked", POST_APPLY "Transfer-Encoding: gzip, chunked\r\n\r\n"
            "2\r\n{}\r\n0\r\n\r\n", 0, 400, "\"field\":\"Transfer-Encoding\"");
    refused("identity", POST_APPLY "Transfer-Encoding: identity\r\n\r\n{}", 0, 400,
            "Transfer-Encoding");
    refused("two codings", POST_APPLY "Transfer-Encoding: chunked\r\n"
            "Transfer-Encoding: chunked\r\n\r\n0\r\n\r\n", 0, 400, "Transfer-Encoding");
    refused("coding in HTTP/1.0", "POST /api/apply HTTP/1.0\r\nHost: localhost\r\n"
            "Transfer-Encoding: chunked\r\n\r\n0\r\n\r\n", 0, 400, "Transfer-Encoding");
    /* Content-Length with Transfer-Encoding: the two framings disagree on where
     * the second request starts; it must not be answered. */
    refused("length and coding (smuggling)", POST_APPLY "Content-Length: 4\r\n"
            "Transfer-Encoding: chunked\r\n\r\n0\r\n\r\n"
            "GET /api/health HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n", 0, 400,
            "Connection: close");
    refused("two lengths", POST_APPLY "Content-Length: 2\r\nContent-Length: 2\r\n\r\n{}", 0,
            400, "\"field\":\"Content-Length\"");
    refused("trailing blank", POST_APPLY "Transfer-Encoding: chunked \r\n\r\n0\r\n\r\n", 0,
            400, "Transfer-Encoding");
    char *r = client_raw(port, POST_APPLY "Connection: close\r\nTransfer-Encoding: Chunked\r\n"
                               "\r\n23\r\n{\"b\":3,\"m\":4,\"s\":3,\"offsets\":[128]}\r\n0\r\n\r\n");
    CHECK(client_status(r) == 200 && strstr(r, "\"swizzled\":[144]"), "chunked still works");
    free(r);
    healthy("codings");
}

/* Fields: a NUL (libmicrohttpd cut the value at it), obs-fold, two Hosts. */
static void test_fields(void)
{
    static const char nul[] = "GET /api/health HTTP/1.1\r\nHost: localhost\r\n"
                              "X-A: a\0b\r\n\r\n";
    refused("NUL in a value", nul, sizeof nul - 1, 400, "\"field\":\"header\"");
    refused("NUL in the Host value", "GET /api/health HTTP/1.1\r\nHost: localhost\0.evil\r\n\r\n",
            sizeof "GET /api/health HTTP/1.1\r\nHost: localhost\0.evil\r\n\r\n" - 1, 400,
            NULL);
    refused("obs-fold", "GET /api/health HTTP/1.1\r\nHost: localhost\r\nX-A: a\r\n b\r\n\r\n",
            0, 400, "\"field\":\"header\"");
    refused("obs-fold with a tab", "GET /api/health HTTP/1.1\r\nX-A: a\r\n\tb\r\n"
            "Host: localhost\r\n\r\n", 0, 400, NULL);
    refused("two Hosts", "GET /api/health HTTP/1.1\r\nHost: localhost\r\n"
            "Host: evil.example\r\n\r\n", 0, 400, "\"field\":\"Host\"");
    refused("space before the colon", "GET /api/health HTTP/1.1\r\nHost: localhost\r\n"
            "X-A : a\r\n\r\n", 0, 400, NULL);
    refused("bare CR in a value", "GET /api/health HTTP/1.1\r\nHost: localhost\r\n"
            "X-A: a\rb\r\n\r\n", 0, 400, NULL);
    refused("bare LF", "GET /api/health HTTP/1.1\nHost: localhost\n\n", 0, 400, NULL);
    char *r = client_raw(port, "GET /api/health HTTP/1.1\r\nHost: localhost\r\nX-A:\ta b\t\r\n"
                               "X-B:\r\nX-C:   \r\nConnection: close\r\n\r\n");
    CHECK(client_status(r) == 200, "tabs and empty values are fine: %d", client_status(r));
    free(r);
    /* Two requests in one write (pipelining) are both answered. */
    r = client_raw(port, "GET /api/health HTTP/1.1\r\nHost: localhost\r\n\r\n"
                         "GET /api/health HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n");
    CHECK(r && count(r, "HTTP/1.1 200") == 2, "pipelined: %d answers", count(r, "HTTP/1.1 200"));
    free(r);
    healthy("fields");
}

/* Query floods used to exhaust the connection's memory pool: no answer. */
static void test_query_floods(void)
{
    char *req = malloc(1 << 16);
    for (int shape = 0; shape < 3; shape++) {
        int n = sprintf(req, "GET /api/swizzle?");
        for (int i = 0; i < (shape == 0 ? 500 : shape == 1 ? 1000 : 33); i++)
            n += shape == 1 ? sprintf(req + n, "&") : sprintf(req + n, "%sa%d=1", i ? "&" : "", i);
        n += sprintf(req + n, " HTTP/1.1\r\nHost: localhost\r\n\r\n");
        const char *what = shape == 0 ? "500 arguments" : shape == 1 ? "1000 bare &"
                                                                     : "33 arguments";
        refused(what, req, (size_t)n, 413, "\"field\":\"query\"");
    }
    free(req);
    healthy("query floods");
}

/* A client that writes its whole oversized body before reading (Python's
 * urllib, curl without Expect) must get to read the 413: the daemon answers
 * at once and closes, and the rest of the body must be drained, not reset. */
static void test_big_bodies(void)
{
    size_t big = (size_t)20 << 20;
    char *req = malloc(big + 512);
    int hl = sprintf(req, POST_APPLY "Content-Length: %zu\r\n\r\n", big);
    memset(req + hl, ' ', big);
    for (int i = 0; i < 3; i++) {
        size_t sent = 0;
        char *r = client_send_counted(port, req, (size_t)hl + big, &sent);
        CHECK(sent == (size_t)hl + big, "20 MB body: only %zu of %zu bytes taken (reset)", sent,
              (size_t)hl + big);
        CHECK(client_status(r) == 413 && strstr(r, "too_large"), "20 MB body: status %d",
              client_status(r));
        free(r);
    }
    free(req);
    healthy("big bodies");
}

/* What libmicrohttpd answers itself (414, 431) cannot carry our headers; it
 * must at least answer, and never echo the request. */
static void test_daemon_pages(void)
{
    size_t n = 40000;
    char *req = malloc(n + 256);
    int k = sprintf(req, "GET /<script>");
    memset(req + k, 'a', n);
    k += (int)n;
    k += sprintf(req + k, " HTTP/1.1\r\nHost: localhost\r\n\r\n");
    char *r = client_send(port, req, (size_t)k);
    CHECK(client_status(r) == 414 && !strstr(r, "<script>"), "long URI: %d", client_status(r));
    free(r);
    k = sprintf(req, "GET / HTTP/1.1\r\nHost: localhost\r\nX-A: <script>");
    memset(req + k, 'a', n);
    k += (int)n;
    k += sprintf(req + k, "\r\n\r\n");
    r = client_send(port, req, (size_t)k);
    CHECK(client_status(r) == 431 && !strstr(r, "<script>"), "long header: %d",
          client_status(r));
    free(r);
    free(req);
    healthy("the daemon's own pages");
}

/* A FIFO used to block a worker in open() for ever; four stopped the server. */
static void test_fifo(void)
{
    char p[512];
    snprintf(p, sizeof p, "%s/pipe.js", tmpdir);
    CHECK(mkfifo(p, 0644) == 0, "mkfifo");
    for (int i = 0; i < 5; i++) {
        char *r = client_raw(port, "GET /pipe.js HTTP/1.1\r\nHost: localhost\r\n"
                                   "Connection: close\r\n\r\n");
        CHECK(client_status(r) == 404 && strstr(r, "not_found"), "FIFO: status %d",
              client_status(r));
        free(r);
    }
    char *r = client_raw(port, "GET /index.html HTTP/1.1\r\nHost: localhost\r\n"
                               "Connection: close\r\n\r\n");
    CHECK(client_status(r) == 200, "a regular file after the FIFO: %d", client_status(r));
    free(r);
    /* Release any worker still blocked in open() (without the fix), so that
     * the daemon can stop. */
    for (int i = 0; i < 5; i++) {
        int fd = open(p, O_WRONLY | O_NONBLOCK);
        if (fd >= 0)
            close(fd);
    }
    healthy("a FIFO");
}

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* A connection that sends `text` (all at once when `at_once`, else a byte
 * every 200 ms) and then `filler` a byte every 200 ms, until the server
 * closes it: the seconds that took, or -1 when it was still open after 4 s. */
static double closed_after(uint16_t p, const char *text, int at_once, char filler)
{
    int fd = client_connect(p);
    CHECK(fd >= 0, "connect");
    double t0 = now_s(), closed_at = -1;
    size_t len = strlen(text), i = 0;
    if (at_once && fd >= 0 && client_write(fd, text, len) != len)
        closed_at = 0;
    for (i = at_once ? len : 0; fd >= 0 && closed_at < 0 && now_s() - t0 < 4.0; i++) {
        char ch = i < len ? text[i] : filler;
        if (client_write(fd, &ch, 1) != 1) {
            closed_at = now_s() - t0;
            break;
        }
        struct pollfd pfd = {.fd = fd, .events = POLLIN};
        if (poll(&pfd, 1, 200) > 0) {
            char b[512];
            ssize_t n = recv(fd, b, sizeof b, MSG_DONTWAIT);
            if (n == 0 || (n < 0 && errno != EAGAIN))
                closed_at = now_s() - t0;
        }
    }
    if (fd >= 0)
        close(fd);
    /* A prompt request on the same server is unaffected. */
    char *r = client_raw(p, "GET /api/health HTTP/1.1\r\nHost: localhost\r\n"
                            "Connection: close\r\n\r\n");
    CHECK(client_status(r) == 200, "prompt request: %d", client_status(r));
    free(r);
    return closed_at;
}

/* Slowloris: one byte of the head every 200 ms restarts the idle timeout each
 * time; the head deadline (1 s on this server) must end it all the same. */
static void test_slow_head(uint16_t slow_port)
{
    double t = closed_after(slow_port, "GET /api/health HTTP/1.1\r\nHost: localhost\r\n"
                                       "X-Slow: ", 0, 'a');
    CHECK(t > 0, "a head sent one byte every 200 ms was still open after 4 s");
}

/* Issue 28: a complete head, then one body byte every 200 ms.  The idle
 * timeout restarts on every byte and the head deadline stopped at the head:
 * 1030 such connections locked everyone out.  The deadline (1 s here) covers
 * the body too. */
static void test_slow_body(uint16_t slow_port)
{
    double t = closed_after(slow_port, POST_APPLY "Content-Length: 1000\r\n\r\n", 1, ' ');
    CHECK(t > 0 && t < 2.5, "a body sent one byte every 200 ms: closed after %.2f s "
          "(deadline 1 s)", t);
}

/* Issue 28: bodies being received are held in memory (300 slow 2 MiB uploads:
 * 616 MB).  Past the server's budget (3 MiB here) a body is refused at once
 * with 503 and Retry-After; the budget comes back when the slow one's
 * deadline (1 s) ends it. */
static void test_body_budget(uint16_t budget_port)
{
    char head[256];
    snprintf(head, sizeof head, POST_APPLY "Content-Length: %u\r\n\r\n", 2u << 20);
    int a = client_connect(budget_port);
    CHECK(a >= 0 && client_write(a, head, strlen(head)) == strlen(head) &&
              client_write(a, "{\"b\":", 5) == 5, "the first slow body");
    struct timespec settle = {0, 100 * 1000 * 1000};
    nanosleep(&settle, NULL);
    int b = client_connect(budget_port);
    CHECK(b >= 0 && client_write(b, head, strlen(head)) == strlen(head), "the second head");
    struct pollfd pfd = {.fd = b, .events = POLLIN};
    double t0 = now_s();
    int answered = poll(&pfd, 1, 1000) > 0;
    char *r = client_finish(b);
    CHECK(answered && now_s() - t0 < 1.0 && client_status(r) == 503 &&
              strstr(r, "Retry-After: 1") && strstr(r, "\"code\":\"overloaded\""),
          "past the budget: %d after %.2f s: %.300s", client_status(r), now_s() - t0,
          r ? r : "(none)");
    free(r);
    /* the first one's deadline ends it and gives its 2 MiB back */
    struct timespec wait = {1, 500 * 1000 * 1000};
    nanosleep(&wait, NULL);
    if (a >= 0)
        close(a);
    size_t n = 2u << 20;
    char *req = malloc(n + 512);
    int hl = sprintf(req, POST_APPLY "Connection: close\r\nContent-Length: %zu\r\n\r\n", n);
    memset(req + hl, ' ', n);
    memcpy(req + hl, "{\"b\":3,\"m\":4,\"s\":3,\"offsets\":[128]}", 35);
    r = client_send(budget_port, req, (size_t)hl + n);
    CHECK(client_status(r) == 200 && strstr(r, "\"swizzled\":[144]"),
          "a whole 2 MiB body after the slow one ended: %d", client_status(r));
    free(r);
    free(req);
}

/* Why http.c has no NUL-in-query branch: a key or value can never hold a
 * NUL.  Decoding maps every %HH that is a control byte (%00 included) to
 * 0x7F, so the decoded length is the C string's length. */
static void unescape_never_yields_a_nul(void)
{
    int failures = 0;
    for (int ch = 0; ch < 256; ch++) {
        char s[16];
        snprintf(s, sizeof s, "a%%%02Xb", ch);
        size_t n = framing_unescape(s);
        unsigned char got = (unsigned char)s[1];
        unsigned char want = ch < 0x20 || ch == 0x7F ? 0x7F : (unsigned char)ch;
        CHECK_QUIET(failures, n == 3 && strlen(s) == n && got == want,
                    "%%%02X: length %zu, strlen %zu, byte 0x%02X", ch, n, strlen(s), got);
    }
    CHECK(failures == 0, "%d of 256 %%HH escapes", failures);
}

/* ...and a raw NUL in the target ends the target where it stands (libmicrohttpd
 * reads it as a C string): %00 is a bad value of its parameter, a raw NUL cuts
 * the query, and neither is ever answered as a NUL in the query. */
#define RAW_NUL "GET /api/inspect?b=3\0x&m=4&s=3&row=0&col=0 HTTP/1.1\r\nHost: localhost\r\n" \
                "Connection: close\r\n\r\n"
static void query_nul_arrives_as_a_bad_value(void)
{
    static const struct {
        const char *req;
        size_t len;
        const char *needle;
    } cases[] = {
        {"GET /api/inspect?b=%00&m=4&s=3&row=0&col=0 HTTP/1.1\r\nHost: localhost\r\n"
         "Connection: close\r\n\r\n", 0,
         "\"field\":\"b\",\"message\":\"must be an integer"},
        {RAW_NUL, sizeof RAW_NUL - 1,
         "\"field\":\"m\",\"message\":\"required"},
        {"POST /api/measure?x=%00 HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n"
         "Content-Type: application/json\r\nContent-Length: 2\r\n\r\n{}", 0,
         "\"field\":\"x\",\"message\":\"unknown query parameter"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        size_t len = cases[i].len ? cases[i].len : strlen(cases[i].req);
        char *r = client_send(port, cases[i].req, len);
        CHECK(r && client_status(r) == 400 && strstr(r, cases[i].needle) && !strstr(r, "NUL"),
              "case %zu: %.300s", i, r ? r : "(no answer)");
        free(r);
    }
    healthy("NUL in the query");
}

int main(void)
{
    if (mkdtemp(tmpdir) == NULL)
        abort();
    char p[512];
    snprintf(p, sizeof p, "%s/index.html", tmpdir);
    FILE *f = fopen(p, "w");
    fputs("<!doctype html><title>t</title>", f);
    fclose(f);
    struct http_config cfg = {.bind = "127.0.0.1", .port = 0, .static_dir = tmpdir,
                              .threads = 2};
    struct http_server *srv, *slow;
    struct sz_error err;
    CHECK(http_start(&cfg, &srv, &err) == 0, "start: %s", err.message);
    port = http_port(srv);
    struct http_config scfg = cfg;
    scfg.head_timeout_ms = 1000;
    scfg.body_budget = (size_t)3 << 20;
    CHECK(http_start(&scfg, &slow, &err) == 0, "start: %s", err.message);

    test_framing_units();
    test_codings();
    test_fields();
    test_query_floods();
    test_big_bodies();
    test_daemon_pages();
    test_fifo();
    unescape_never_yields_a_nul();
    query_nul_arrives_as_a_bad_value();
    test_slow_head(http_port(slow));
    test_slow_body(http_port(slow));
    test_body_budget(http_port(slow));

    http_stop(slow);
    http_stop(srv);
    char cmd[600];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", tmpdir);
    CHECK(system(cmd) == 0, "cleanup");
    return check_summary("test_framing");
}
