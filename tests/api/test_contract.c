/* test_contract.c - the README's contract at its edges, through the handler
 * (issue 28): products of user-given Triton parameters that overflow an int,
 * error bodies that must stay UTF-8 whatever is echoed, bodies of too many
 * JSON values refused before they are built, descriptors above 2^64, fit=1
 * across the whole rows range, an escaped NUL in a string, a repeated
 * Triton attribute.  Each case failed (or crashed under UBSan) before its fix. */
#define _POSIX_C_SOURCE 200809L     /* clock_gettime under -std=c11 */
#include <cjson/cJSON.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "api/api.h"
#include "base/error.h"
#include "check.h"
#include "client.h"
#include "utf8_check.h"

/* The error's field of a response ("" when none); the caller frees r.body. */
static const char *field_of(const struct api_response *r, char *buf, size_t cap)
{
    buf[0] = '\0';
    cJSON *j = r->body ? cJSON_Parse(r->body) : NULL;
    const cJSON *f = cJSON_GetObjectItemCaseSensitive(
        cJSON_GetObjectItemCaseSensitive(j, "error"), "field");
    if (cJSON_IsString(f))
        snprintf(buf, cap, "%s", f->valuestring);
    cJSON_Delete(j);
    return buf;
}

static struct api_response post(const char *path, const char *body)
{
    return client_api_call("POST", path, NULL, "application/json", body, 0);
}

/* `body` on `path` is refused with `status` naming `field`. */
static void refused(const char *what, const char *path, const char *body, int status,
                    const char *field)
{
    struct api_response r = post(path, body);
    char f[64];
    field_of(&r, f, sizeof f);
    CHECK(r.status == status && strcmp(f, field) == 0, "%s: want %d naming %s, got %d %.300s",
          what, status, field, r.status, r.body ? r.body : "");
    free(r.body);
}

/* ---- item 4: vec * maxPhase in 64 bits ------------------------------------------ */

static void test_triton_products(void)
{
    /* vec 512 x maxPhase 2^24 overflowed an int (UBSan aborted the server) */
    struct api_response r = post("/api/layout",
        "{\"layout\": \"#ttg.swizzled_shared<{vec = 512, perPhase = 1, maxPhase = 16777216, "
        "order = [0, 1]}>\", \"shape\": [1024, 2]}");
    CHECK(r.status == 200 || r.status == 400, "huge vec x maxPhase: %d %.200s", r.status,
          r.body ? r.body : "");
    free(r.body);
    r = post("/api/layout",
             "{\"layout\": \"#ttg.swizzled_shared<{vec = 16777216, perPhase = 16777216, "
             "maxPhase = 16777216, order = [1, 0]}>\", \"shape\": [1024, 1024]}");
    CHECK(r.status == 200 || r.status == 400, "every attribute at 2^24: %d", r.status);
    free(r.body);
    r = post("/api/layout/access",
             "{\"layout\": \"#ttg.swizzled_shared<{vec = 512, perPhase = 1, maxPhase = 16777216, "
             "order = [0, 1]}>\", \"shape\": [1024, 2], \"atom\": \"row_walk_128\"}");
    CHECK(r.status == 200 || r.status == 400, "layout/access with them: %d", r.status);
    free(r.body);
}

/* ---- item 5: every answer is UTF-8 ---------------------------------------------------- */

static void utf8_answer(const char *what, struct api_response r)
{
    CHECK(r.body && r.status >= 400 && utf8_ok((const unsigned char *)r.body, r.len),
          "%s: %d, body not UTF-8: %.200s", what, r.status, r.body ? r.body : "");
    free(r.body);
}

static void test_utf8_echoes(void)
{
    /* raw bytes of a query (the daemon decodes %FF to 0xFF) */
    utf8_answer("offsets=\\xFF,...", client_api_call(
        "GET", "/api/access", "b=3&m=4&s=3&offsets=\xFF,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,"
        "0,0,0,0,0,0,0,0,0,0,0,0", NULL, NULL, 0));
    utf8_answer("space=\\xFF\\xFE", client_api_call(
        "GET", "/api/access", "b=3&m=4&s=3&space=\xFF\xFE&offsets=0,0,0,0,0,0,0,0,0,0,0,0,0,"
        "0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0", NULL, NULL, 0));
    /* a long lane echo, cut after 24 bytes in the middle of a character */
    utf8_answer("offsets cut in a character", client_api_call(
        "GET", "/api/access", "b=3&m=4&s=3&offsets=a\xC3\xA9\xC3\xA9\xC3\xA9\xC3\xA9\xC3\xA9"
        "\xC3\xA9\xC3\xA9\xC3\xA9\xC3\xA9\xC3\xA9\xC3\xA9\xC3\xA9\xC3\xA9\xC3\xA9,0,0,0,0,0,0,0,"
        "0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0", NULL, NULL, 0));
    /* valid UTF-8 in a JSON string, echoed by "%.40s": 1 + 2k bytes cut at 40 */
    utf8_answer("op cut in a character", post("/api/conflicts",
        "{\"op\":\"a\xC3\xA9\xC3\xA9\xC3\xA9\xC3\xA9\xC3\xA9\xC3\xA9\xC3\xA9\xC3\xA9\xC3\xA9"
        "\xC3\xA9\xC3\xA9\xC3\xA9\xC3\xA9\xC3\xA9\xC3\xA9\xC3\xA9\xC3\xA9\xC3\xA9\xC3\xA9\xC3\xA9"
        "\xC3\xA9\xC3\xA9\",\"offsets\":[0]}"));
    /* sz_echo: printable ASCII as is, the rest replaced, never cut in two */
    char e[8];
    CHECK(sz_echo(e, sizeof e, "ab\xC3\xA9\x01z", 6) == 6 && strcmp(e, "ab??\?z") == 0,
          "sz_echo: '%s'", e);
    CHECK(sz_echo(e, 4, "abcdef", 6) == 3 && strcmp(e, "abc") == 0, "sz_echo cuts: '%s'", e);
    struct sz_error err;
    sz_fail(&err, SZ_INVALID_ARGUMENT, "f\xFF", "x '%.2s' y \xED\xA0\x80 z", "\xC3\xA9\xC3\xA9");
    CHECK(utf8_ok((const unsigned char *)err.message, strlen(err.message)) &&
              utf8_ok((const unsigned char *)err.field, strlen(err.field)) &&
              strstr(err.message, " z") != NULL,
          "sz_fail scrubs: '%s' '%s'", err.field, err.message);
}

/* ---- item 6: JSON values counted before they are built ----------------------------------- */

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static void test_value_count(void)
{
    /* a million tiny values in 2 MiB: refused as too many, not built */
    size_t n = 1000000;
    char *b = malloc(2 * n + 16);
    size_t k = (size_t)sprintf(b, "{\"x\":[");
    for (size_t i = 0; i < n; i++) {
        b[k++] = '0';
        b[k++] = i + 1 < n ? ',' : ']';
    }
    b[k++] = '}';
    b[k] = '\0';
    double t0 = now_s();
    struct api_response r = client_api_call("POST", "/api/apply", NULL, "application/json", b,
                                            k);
    double dt = now_s() - t0;
    char f[64];
    field_of(&r, f, sizeof f);
    CHECK(r.status == 413 && strcmp(f, "body") == 0 && r.body &&
              strstr(r.body, "JSON values"),
          "a million values: %d %.200s", r.status, r.body ? r.body : "");
    free(r.body);
    printf("a million JSON values refused in %.1f ms\n", dt * 1000);
    /* nested empty arrays count too */
    k = (size_t)sprintf(b, "{\"x\":[");
    for (size_t i = 0; i < 200000; i++)
        k += (size_t)sprintf(b + k, "%s[]", i ? "," : "");
    k += (size_t)sprintf(b + k, "]}");
    r = client_api_call("POST", "/api/apply", NULL, "application/json", b, k);
    field_of(&r, f, sizeof f);
    CHECK(r.status == 413 && strcmp(f, "body") == 0, "200000 empty arrays: %d", r.status);
    free(r.body);
    /* the largest body a route needs is still answered: 65536 offsets */
    k = (size_t)sprintf(b, "{\"b\":3,\"m\":4,\"s\":3,\"offsets\":[");
    for (size_t i = 0; i < API_MAX_OFFSETS; i++)
        k += (size_t)sprintf(b + k, "%s%zu", i ? "," : "", i * 16);
    k += (size_t)sprintf(b + k, "]}");
    r = client_api_call("POST", "/api/apply", NULL, "application/json", b, k);
    CHECK(r.status == 200, "65536 offsets: %d %.200s", r.status, r.body ? r.body : "");
    free(r.body);
    /* commas and brackets inside strings are text, not values */
    k = (size_t)sprintf(b, "{\"b\":3,\"m\":4,\"s\":3,\"offsets\":[0],\"x\":\"");
    for (size_t i = 0; i < 300000; i++)
        b[k++] = i % 3 == 0 ? ',' : i % 3 == 1 ? '[' : '{';
    k += (size_t)sprintf(b + k, "\"}");
    r = client_api_call("POST", "/api/apply", NULL, "application/json", b, k);
    field_of(&r, f, sizeof f);
    CHECK(r.status == 400 && strcmp(f, "x") == 0, "commas in a string: %d %s", r.status, f);
    free(r.body);
    free(b);
}

/* ---- item 8: the README's contract, small breaks ------------------------------------------ */

static void test_contract_breaks(void)
{
    /* a descriptor above 2^64 was clamped to 0xFFFFFFFFFFFFFFFF */
    refused("descriptor 2^64", "/api/layout",
            "{\"layout\":\"(_8,_8):(_8,_1)\",\"descriptor\":\"0x10000000000000000\"}", 400,
            "descriptor");
    refused("descriptor 2^64 decimal", "/api/layout",
            "{\"layout\":\"(_8,_8):(_8,_1)\",\"descriptor\":\"18446744073709551616\"}", 400,
            "descriptor");
    struct api_response r = post("/api/layout", "{\"layout\":\"(_8,_8):(_8,_1)\","
                                                "\"descriptor\":\"0xFFFFFFFFFFFFFFFF\"}");
    char f[64];
    CHECK(r.status == 200 || strcmp(field_of(&r, f, sizeof f), "descriptor") == 0,
          "2^64-1 is still a descriptor: %d %.200s", r.status, r.body ? r.body : "");
    free(r.body);
    r = post("/api/layout", "{\"layout\":\"(_8,_8):(_8,_1)\",\"descriptor\":\"0x0000000000000000001\"}");
    CHECK(r.status == 200, "leading zeros are no overflow: %d %.200s", r.status,
          r.body ? r.body : "");
    free(r.body);
    /* text after an escaped NUL was silently dropped */
    refused("escaped NUL in the layout", "/api/layout",
            "{\"layout\":\"(_8,_8):(_8,_1)\\u0000 garbage\"}", 400, "layout");
    refused("escaped NUL in a member name", "/api/layout",
            "{\"layout\\u0000x\":\"(_8,_8):(_8,_1)\"}", 400, "layout");
    refused("escaped NUL in op", "/api/conflicts",
            "{\"op\":\"ld\\u0000st\",\"offsets\":[0,4,8,12,16,20,24,28,32,36,40,44,48,52,56,"
            "60,64,68,72,76,80,84,88,92,96,100,104,108,112,116,120,124]}", 400, "op");
    r = post("/api/layout", "{\"layout\":\"(_8,_8):(_8,_1)\",\"base\":0,\"element_bits\":16}");
    CHECK(r.status == 200, "\\\\u0000 as text is fine: %d", r.status);
    free(r.body);
    r = post("/api/conflicts", "{\"op\":\"ld\",\"offsets\":[0],\"name\":\"a\\\\u0000b\"}");
    CHECK(r.status != 400 || strcmp(field_of(&r, f, sizeof f), "name") == 0 ||
              strcmp(f, "body") != 0,
          "an escaped backslash before u0000 is no NUL: %d %.200s", r.status, r.body);
    free(r.body);
    /* a repeated Triton attribute was accepted, the last one winning */
    refused("vec twice", "/api/layout",
            "{\"layout\":\"#ttg.swizzled_shared<{vec = 8, vec = 1, perPhase = 1, maxPhase = 8, "
            "order = [1, 0]}>\",\"shape\":[64,64]}", 400, "layout");
    refused("order twice", "/api/layout",
            "{\"layout\":\"#ttg.swizzled_shared<{vec = 8, perPhase = 1, maxPhase = 8, "
            "order = [1, 0], order = [0, 1]}>\",\"shape\":[64,64]}", 400, "layout");
    refused("swizzlingByteWidth twice", "/api/layout",
            "{\"layout\":\"#ttg.nvmma_shared<{swizzlingByteWidth = 128, swizzlingByteWidth = 32, "
            "transposed = false, elementBitWidth = 16}>\",\"shape\":[64,64]}", 400, "layout");
    r = post("/api/layout", "{\"layout\":\"#ttg.swizzled_shared<{vec = 8, perPhase = 1, "
                            "maxPhase = 8, order = [1, 0]}>\",\"shape\":[64,64]}");
    CHECK(r.status == 200, "each attribute once: %d %.200s", r.status, r.body ? r.body : "");
    free(r.body);
}

/* fit=1 finds the nearest rows that fit however far away they are. */
static void test_fit_range(void)
{
    static const struct { const char *q; long want; } cases[] = {
        /* 8 units a row: at most 2^17 rows; asked 2^30 */
        {"b=3&m=4&s=3&rows=1073741824&fit=1", 131072},
        {"b=3&m=4&s=3&rows=1048576&fit=1", 131072},
        {"b=3&m=4&s=3&rows=131073&fit=1", 131072},
        /* within 2^16 the search is as before */
        {"b=3&m=4&s=3&rows=9&fit=1", 8},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        struct api_response r = client_api_call("GET", "/api/access", cases[i].q, NULL, NULL, 0);
        cJSON *j = r.body ? cJSON_Parse(r.body) : NULL;
        const cJSON *fix = cJSON_GetObjectItemCaseSensitive(j, "fix");
        const cJSON *fl = cJSON_GetObjectItemCaseSensitive(fix, "field");
        const cJSON *v = cJSON_GetObjectItemCaseSensitive(fix, "value");
        CHECK(r.status == 200 && cJSON_IsString(fl) && strcmp(fl->valuestring, "rows") == 0 &&
                  cJSON_IsNumber(v) && (long)v->valuedouble == cases[i].want,
              "%s: want rows %ld: %d %.300s", cases[i].q, cases[i].want, r.status,
              r.body ? r.body : "");
        cJSON_Delete(j);
        free(r.body);
    }
}

int main(void)
{
    test_triton_products();
    test_utf8_echoes();
    test_value_count();
    test_contract_breaks();
    test_fit_range();
    return check_summary("test_contract");
}
