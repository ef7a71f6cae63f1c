/* api.h - the JSON API: one request in, one response out.
 *
 * The only module that parses or builds JSON.  It never touches sockets or
 * libmicrohttpd (http.c hands it a plain request), so tests drive it directly. */
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
};

struct api_response {
    int status;                 /* 200, or the status of the error's code */
    char *body;                 /* malloc'd JSON (caller frees); NULL only if status is 500 */
    size_t len;
};

/* Every request body the API accepts fits in this; http.c refuses larger ones
 * with 413 before reading them.  65536 offsets of up to ten digits, a comma and
 * a space each are 786432 bytes; 2 MiB leaves room for pretty-printed bodies. */
#define API_MAX_BODY (2u * 1024 * 1024)

/* Offsets one /api/apply request may carry (the contract). */
#define API_MAX_OFFSETS 65536

/* Answer `req`.  Always fills `resp` (an error body for every failure: 4xx for
 * anything the client sent, 500 only when memory runs out).  Thread-safe. */
void api_handle(const struct api_request *req, struct api_response *resp);

/* Write the JSON error body for `code`, `field`, `message` into `resp`
 * (used by http.c for errors it finds before the API sees the request). */
struct sz_error;
void api_error_response(const struct sz_error *err, struct api_response *resp);

#endif
