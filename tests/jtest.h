/* jtest.h - what the JSON-reading C tests share (header-only, static): a
 * whole file read into memory (tests/data), an API call whose answer comes
 * back parsed, and a member read with a default.  Test code only: it asserts
 * nothing (the tests do) and must not hide a failed call (status comes back). */
#ifndef SZ_JTEST_H
#define SZ_JTEST_H

#include <cjson/cJSON.h>
#include <stdio.h>
#include <stdlib.h>

#include "client.h"

/* The file's bytes, NUL-terminated (caller frees), or NULL. */
static inline char *jtest_slurp(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *s = malloc((size_t)n + 1);
    if (s && fread(s, 1, (size_t)n, f) != (size_t)n)
        n = 0;
    fclose(f);
    if (s)
        s[n] = 0;
    return s;
}

/* POST `body` to `path` through the handler: the parsed answer (NULL when it
 * is not JSON; caller deletes) and its status. */
static inline cJSON *jtest_post(const char *path, const char *body, int *status)
{
    struct api_response r = client_api_call("POST", path, NULL, "application/json", body, 0);
    *status = r.status;
    cJSON *j = r.body ? cJSON_Parse(r.body) : NULL;
    free(r.body);
    return j;
}

/* Member k of j: a number (else -1) or a string (else ""). */
static inline double jtest_num(const cJSON *j, const char *k)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(j, k);
    return cJSON_IsNumber(v) ? v->valuedouble : -1;
}
static inline const char *jtest_str(const cJSON *j, const char *k)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(j, k);
    return cJSON_IsString(v) ? v->valuestring : "";
}

#endif
