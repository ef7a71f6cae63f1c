/* client.c - the C tests' HTTP client and API driver (client.h).  Blocking
 * sockets and plain malloc: it must stay simple enough to trust, and must not
 * retry, parse bodies or hide a short answer from the tests. */
#define _GNU_SOURCE 1   /* MSG_NOSIGNAL, struct timeval under -std=c11 */
#include "client.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <unistd.h>

int client_connect(uint16_t port)
{
    int fd = socket(AF_INET, SOCK_STREAM, 0);
    if (fd < 0)
        return -1;
    struct sockaddr_in a = {.sin_family = AF_INET, .sin_port = htons(port)};
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    /* A server that stops answering fails the test instead of hanging it. */
    struct timeval tv = {.tv_sec = 5};
    setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
    if (connect(fd, (struct sockaddr *)&a, sizeof a) != 0) {
        close(fd);
        return -1;
    }
    return fd;
}

size_t client_write(int fd, const char *data, size_t len)
{
    size_t off = 0;
    while (off < len) {
        ssize_t n = send(fd, data + off, len - off, MSG_NOSIGNAL);
        if (n <= 0)
            break;
        off += (size_t)n;
    }
    return off;
}

char *client_finish(int fd)
{
    size_t cap = 1 << 16, got = 0;
    char *out = malloc(cap);
    for (;;) {
        if (got + 4096 > cap)
            out = realloc(out, cap *= 2);
        ssize_t n = recv(fd, out + got, cap - got - 1, 0);
        if (n <= 0)
            break;
        got += (size_t)n;
    }
    out[got] = '\0';
    close(fd);
    return out;
}

char *client_send_counted(uint16_t port, const char *req, size_t len, size_t *sent)
{
    int fd = client_connect(port);
    if (fd < 0)
        return NULL;
    /* The server may answer (413) and close before the body is all sent:
     * stop sending then, and read what it said. */
    size_t n = client_write(fd, req, len);
    if (sent)
        *sent = n;
    return client_finish(fd);
}

char *client_send(uint16_t port, const char *req, size_t len)
{
    return client_send_counted(port, req, len, NULL);
}

char *client_raw(uint16_t port, const char *req) { return client_send(port, req, strlen(req)); }

char *client_request(uint16_t port, const char *method, const char *target,
                     const char *host, const char *headers, const char *body)
{
    static const char fmt[] = "%s %s HTTP/1.1\r\nHost: %s\r\nConnection: close\r\n%s"
                              "Content-Length: %zu\r\n\r\n%s";
    const char *h = headers ? headers : "", *b = body ? body : "";
    int n = snprintf(NULL, 0, fmt, method, target, host, h, strlen(b), b);
    char *req = malloc((size_t)n + 1);
    snprintf(req, (size_t)n + 1, fmt, method, target, host, h, strlen(b), b);
    char *resp = client_send(port, req, (size_t)n);
    free(req);
    return resp;
}

int client_status(const char *resp)
{
    int st = 0;
    if (resp == NULL || sscanf(resp, "HTTP/1.%*d %d", &st) != 1)
        return -1;
    return st;
}

struct api_response client_api_call(const char *method, const char *path, const char *query,
                                    const char *ctype, const char *body, size_t body_len)
{
    /* Split a copy in place: the args point into it until api_handle returns. */
    char *q = strdup(query ? query : "");
    size_t max = 1;
    for (const char *p = q; *p; p++)
        max += *p == '&';
    struct api_arg *args = calloc(max, sizeof *args);
    int n = 0;
    for (char *tok = q; *q != '\0' && tok != NULL;) {
        char *amp = strchr(tok, '&');
        if (amp)
            *amp = '\0';
        if (*tok != '\0') {     /* "a=1&&b=2" has two arguments, as strtok saw it */
            char *eq = strchr(tok, '=');
            if (eq)
                *eq = '\0';
            args[n].key = tok;
            args[n].value = eq ? eq + 1 : "";
            n++;
        }
        tok = amp ? amp + 1 : NULL;
    }
    struct api_request req = {
        .method = method,
        .path = path,
        .args = args,
        .nargs = n,
        .content_type = ctype,
        .body = body,
        .body_len = body ? (body_len ? body_len : strlen(body)) : 0,
    };
    struct api_response resp = {0};
    api_handle(&req, &resp);
    free(args);
    free(q);
    return resp;
}

char *client_slurp(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *s = n >= 0 ? malloc((size_t)n + 1) : NULL;
    if (s && fread(s, 1, (size_t)n, f) != (size_t)n)
        n = 0;
    fclose(f);
    if (s)
        s[n] = 0;
    return s;
}
