/* fuzz_api.c - libFuzzer target for api_handle: the input bytes become one
 * request, and the response must keep the API's promise (DESIGN.md sec. 3):
 * a 200 or a 4xx with a JSON body, a 5xx only for the codes that mean a
 * server-side or GPU failure, and a body that is one valid UTF-8 JSON value.
 * Any broken promise aborts, so libFuzzer records the input.
 *
 * Input layout (seeds in corpus_api/ are written this way, one field a line):
 *   METHOD \n PATH \n QUERY \n CONTENT-TYPE \n BODY...
 * QUERY is k=v pairs split at '&' (a bare key has the value ""), at most 32,
 * as http.c passes them; an empty CONTENT-TYPE line means no header; a missing
 * fourth newline means no body.  The body is copied into an allocation of
 * exactly its length, so ASan sees any read past it.
 * It must not call api_configure: no measurement tool ever runs here; and
 * SWZ_NVCC=none: no compiler either (a request's "cuda" gets its 503). */
#define _POSIX_C_SOURCE 200809L   /* setenv */
#include <cjson/cJSON.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "api/api.h"
#include "base/error.h"
#include "../utf8_check.h"

#define MAX_ARGS 32     /* http.c refuses more with 413 before the API sees them */

/* FUZZ_API_LAX_UTF8=1 skips the UTF-8 check, to keep fuzzing the rest while a
 * known UTF-8 finding is open. */
static int lax_utf8;

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc, (void)argv;
    setenv("SWZ_NVCC", "none", 1);
    const char *v = getenv("FUZZ_API_LAX_UTF8");
    lax_utf8 = v != NULL && strcmp(v, "1") == 0;
    return 0;
}

static void fail(const char *why, const struct api_response *resp)
{
    fprintf(stderr, "fuzz_api: %s (status %d, body %.*s)\n", why, resp->status,
            resp->body ? (int)(resp->len > 400 ? 400 : resp->len) : 6,
            resp->body ? resp->body : "(null)");
    abort();
}

/* The next '\n'-terminated field as a NUL-terminated copy (NULL when the
 * input has no further newline: *rest is then left as it was). */
static char *field(const uint8_t **p, size_t *left)
{
    const uint8_t *nl = memchr(*p, '\n', *left);
    if (nl == NULL)
        return NULL;
    size_t n = (size_t)(nl - *p);
    char *s = malloc(n + 1);
    if (s == NULL)
        abort();
    memcpy(s, *p, n);
    s[n] = '\0';
    *p = nl + 1;
    *left -= n + 1;
    return s;
}

/* The invariant on one response. */
static void check_response(const struct api_response *resp)
{
    int st = resp->status;
    if (st != 200 && (st < 400 || st > 599))
        fail("status is neither 200, 4xx nor 5xx", resp);
    if (resp->body == NULL) {
        if (st != 500)     /* api.h: NULL only when memory ran out */
            fail("NULL body", resp);
        return;
    }
    if (strlen(resp->body) != resp->len)
        fail("body length disagrees with its NUL terminator", resp);
    if (!lax_utf8 && !utf8_ok((const unsigned char *)resp->body, resp->len))
        fail("body is not valid UTF-8 (RFC 8259 sec. 8.1)", resp);
    /* A million-cell map is tens of MB; cJSON would spend seconds and a node
     * per integer on it.  Those bodies come from the same writers as the small
     * ones, which are parsed in full. */
    if (resp->len > (1u << 20)) {
        if (resp->body[0] != '{' || resp->body[resp->len - 1] != '}')
            fail("large body is not an object", resp);
        return;
    }
    const char *end = NULL;
    cJSON *j = cJSON_ParseWithLengthOpts(resp->body, resp->len, &end, 0);
    if (j == NULL)
        fail("body is not JSON", resp);
    while (end < resp->body + resp->len && strchr(" \t\r\n", *end) && *end)
        end++;
    if (end != resp->body + resp->len)
        fail("trailing bytes after the JSON value", resp);
    if (!cJSON_IsObject(j))
        fail("body is not a JSON object", resp);
    const cJSON *e = cJSON_GetObjectItemCaseSensitive(j, "error");
    if (st == 200) {
        if (e != NULL)
            fail("200 with an error member", resp);
    } else {
        const cJSON *code = cJSON_GetObjectItemCaseSensitive(e, "code");
        const cJSON *fld = cJSON_GetObjectItemCaseSensitive(e, "field");
        const cJSON *msg = cJSON_GetObjectItemCaseSensitive(e, "message");
        if (!cJSON_IsString(code) || !cJSON_IsString(fld) || !cJSON_IsString(msg))
            fail("error body lacks code/field/message strings", resp);
        /* The code must be a known one and the status its status. */
        int known = 0;
        for (int c = SZ_INVALID_ARGUMENT; c <= SZ_INTERNAL; c++)
            if (strcmp(sz_code_name((enum sz_code)c), code->valuestring) == 0) {
                known = 1;
                if (sz_code_status((enum sz_code)c) != st)
                    fail("status differs from the code's status", resp);
            }
        if (!known)
            fail("unknown error code", resp);
        /* "at", where present, is {"line", "column"}: two integers from 1 */
        const cJSON *at = cJSON_GetObjectItemCaseSensitive(e, "at");
        if (at != NULL) {
            const cJSON *l = cJSON_GetObjectItemCaseSensitive(at, "line");
            const cJSON *c = cJSON_GetObjectItemCaseSensitive(at, "column");
            if (!cJSON_IsObject(at) || cJSON_GetArraySize(at) != 2 || !cJSON_IsNumber(l) ||
                !cJSON_IsNumber(c) || l->valuedouble < 1 || c->valuedouble < 1 ||
                l->valuedouble != (int)l->valuedouble || c->valuedouble != (int)c->valuedouble)
                fail("\"at\" is not {\"line\", \"column\"} from 1", resp);
        }
        /* 5xx only for what the client cannot cause: memory, or no GPU (the
         * tool is never configured here, so measure_failed cannot happen). */
        if (st >= 500 && strcmp(code->valuestring, "internal") != 0 &&
            strcmp(code->valuestring, "gpu_unavailable") != 0)
            fail("5xx for a client error", resp);
    }
    cJSON_Delete(j);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const uint8_t *p = data;
    size_t left = size;
    char *method = field(&p, &left);
    char *path = method ? field(&p, &left) : NULL;
    char *query = path ? field(&p, &left) : NULL;
    char *ctype = query ? field(&p, &left) : NULL;
    struct api_arg args[MAX_ARGS];
    int nargs = 0;
    if (query) {
        for (char *tok = query, *next; tok && nargs < MAX_ARGS; tok = next) {
            next = strchr(tok, '&');
            if (next)
                *next++ = '\0';
            if (*tok == '\0')
                continue;
            char *eq = strchr(tok, '=');
            if (eq)
                *eq = '\0';
            args[nargs].key = tok;
            args[nargs].value = eq ? eq + 1 : "";
            nargs++;
        }
    }
    char *body = NULL;
    if (ctype) {
        body = malloc(left ? left : 1);
        if (body == NULL)
            abort();
        memcpy(body, p, left);
    }
    struct api_request req = {
        .method = method ? method : "GET",
        .path = path ? path : "/api/health",
        .args = args,
        .nargs = nargs,
        .content_type = ctype && *ctype ? ctype : NULL,
        .body = body,
        .body_len = body ? left : 0,
    };
    struct api_response resp = {0};
    api_handle(&req, &resp);
    check_response(&resp);
    free(resp.body);
    free(body);
    free(ctype);
    free(query);
    free(path);
    free(method);
    return 0;
}
