/* jtest.h - what the JSON-reading C tests share (header-only, static): a
 * an API call whose answer comes back parsed and a member read with a default
 * (a whole file is client.c's client_slurp).  Test code only: it asserts
 * nothing (the tests do) and must not hide a failed call (status comes back). */
#ifndef SZ_JTEST_H
#define SZ_JTEST_H

#include <cjson/cJSON.h>
#include <stdio.h>
#include <stdlib.h>

#include "client.h"

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
