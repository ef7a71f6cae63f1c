/* test_api.c - the JSON API through api_handle, without sockets: a table of
 * good and malformed requests, each with its status and a piece of the body it
 * must contain; and the map routes cross-checked against the core. */
#include <cjson/cJSON.h>
#include <stdlib.h>
#include <string.h>

#include "../server/api.h"
#include "../server/swizzle.h"
#include "check.h"

/* Split "a=1&b=2" into api_args (in place, in a copy owned by the caller). */
static int split_query(char *q, struct api_arg *args, int max)
{
    int n = 0;
    for (char *tok = strtok(q, "&"); tok && n < max; tok = strtok(NULL, "&")) {
        char *eq = strchr(tok, '=');
        if (eq)
            *eq = '\0';
        args[n].key = tok;
        args[n].value = eq ? eq + 1 : "";
        n++;
    }
    return n;
}

static struct api_response call(const char *method, const char *path, const char *query,
                                const char *ctype, const char *body, size_t body_len)
{
    char qbuf[512];
    struct api_arg args[32];
    snprintf(qbuf, sizeof qbuf, "%s", query ? query : "");
    struct api_request req = {
        .method = method,
        .path = path,
        .args = args,
        .nargs = split_query(qbuf, args, 32),
        .content_type = ctype,
        .body = body,
        .body_len = body ? (body_len ? body_len : strlen(body)) : 0,
    };
    struct api_response resp = {0};
    api_handle(&req, &resp);
    return resp;
}

#define JSON "application/json"

static const struct api_case {
    const char *method, *path, *query, *ctype, *body;
    int status;
    const char *want;   /* substring of the body */
} cases[] = {
    /* good requests */
    {"GET", "/api/health", "", NULL, NULL, 200, "\"ok\":true"},
    {"HEAD", "/api/health", "", NULL, NULL, 200, "\"ok\":true"},
    {"GET", "/api/presets", "", NULL, NULL, 200, "\"128B-32Bunit\""},
    {"GET", "/api/presets", "", NULL, NULL, 200, "\"b\":2,\"m\":5,\"s\":2"},
    {"GET", "/api/swizzle", "b=3&m=4&s=3", NULL, NULL, 200, "\"name\":\"Swizzle<3,4,3>\""},
    {"GET", "/api/swizzle", "b=3&m=4&s=3", NULL, NULL, 200, "\"yyy\":896,\"zzz\":112"},
    {"GET", "/api/swizzle", "b=0&m=4&s=3&rows=2", NULL, NULL, 200,
     "\"log_of\":[0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15]"},
    {"GET", "/api/swizzle", "b=2&m=4&s=-3&rows=4", NULL, NULL, 200, "\"s\":-3"},
    {"GET", "/api/swizzle", "b=2&m=5&s=2&match_bank_row=1&rows=4", NULL, NULL, 200,
     "\"cols\":4"},
    {"GET", "/api/swizzle", "b=1&m=1&s=2&bank_bytes=8&banks=16&rows=2", NULL, NULL, 200,
     "\"per_bank\":4"},
    {"GET", "/api/inspect", "b=3&m=4&s=3&rows=8&row=1&col=2", NULL, NULL, 200,
     "\"physical\":{\"row\":1,\"col\":3,\"unit\":11,\"addr\":176,\"hex\":\"0xb0\""},
    {"GET", "/api/inspect", "b=3&m=4&s=3&rows=8&row=1&col=2", NULL, NULL, 200,
     "\"list\":[12,13,14,15]"},
    {"POST", "/api/apply", "", "application/json; charset=utf-8",
     "{\"b\":3,\"m\":4,\"s\":3,\"offsets\":[0,128,1023]}", 200, "\"swizzled\":[0,144,911]"},
    {"POST", "/api/apply", "", "application/json",
     "{\"b\":2,\"m\":4,\"s\":-3,\"offsets\":[16,48]}", 200, "\"swizzled\":[144,432]"},
    {"POST", "/api/apply", "", "application/json",
     "{\"offsets\":[],\"b\":0,\"m\":0,\"s\":0}", 200, "\"swizzled\":[]"},
    {"POST", "/api/apply", "", "application/json",
     " {\"b\":1,\"m\":4,\"s\":3,\"offsets\":[1e2, 128.0, 2147483647]} \n", 200,
     "\"swizzled\":[100,144,2147483631]"},
    /* 2147483647 has bit 7 set, so <1,4,3> flips bit 4: 2^31 - 1 - 16 */

    /* access patterns on a layout.  Seed 001's transpose read (4-byte elements,
     * 128-byte rows): n ^ m is Swizzle<4,2,5> (row bits 7..10 into word bits
     * 2..5), n ^ 2m is Swizzle<4,3,4> (into bits 3..6): 16, 2 and 1 wavefronts. */
    {"GET", "/api/access", "b=0&m=2&s=5&rows=16&pattern=transpose_read&step=3", NULL, NULL,
     200, "\"wavefronts\":16,"},
    {"GET", "/api/access", "b=4&m=2&s=5&rows=16&pattern=transpose_read&step=3", NULL, NULL,
     200, "\"wavefronts\":2,"},
    {"GET", "/api/access", "b=4&m=3&s=4&rows=16&pattern=transpose_read&step=3", NULL, NULL,
     200, "\"wavefronts\":1,"},
    /* seed 004: ldmatrix.x4 on 128-byte rows, 32 unswizzled, 4 with <3,4,3> */
    {"GET", "/api/access", "b=0&m=4&s=3&rows=8&pattern=ldmatrix_x4", NULL, NULL, 200,
     "\"wavefronts\":32,"},
    {"GET", "/api/access", "b=3&m=4&s=3&rows=8&pattern=ldmatrix_x4&step=1", NULL, NULL, 200,
     "\"wavefronts\":4,"},
    {"GET", "/api/access", "b=3&m=4&s=3&rows=8&pattern=row_store&step=7", NULL, NULL, 200,
     "\"steps\":8,"},
    {"GET", "/api/patterns", "", NULL, NULL, 200, "\"name\":\"transpose_read\""},
    {"GET", "/api/access", "b=3&m=4&s=3", NULL, NULL, 400, "\"field\":\"pattern\""},
    {"GET", "/api/access", "b=3&m=4&s=3&pattern=zigzag", NULL, NULL, 400,
     "\"field\":\"pattern\""},
    {"GET", "/api/access", "b=3&m=4&s=3&rows=8&pattern=row_store&step=8", NULL, NULL, 400,
     "must be in 0..7"},
    {"GET", "/api/access", "b=3&m=4&s=3&rows=8&pattern=transpose_read", NULL, NULL, 400,
     "at least 16 grid rows"},
    {"GET", "/api/access", "b=3&m=2&s=3&rows=64&pattern=row_load_128", NULL, NULL, 400,
     "Use M >= 4"},

    /* routes and methods */
    {"GET", "/api/nope", "", NULL, NULL, 404, "\"code\":\"not_found\""},
    {"GET", "/api/", "", NULL, NULL, 404, "\"field\":\"path\""},
    {"GET", "/api/health/", "", NULL, NULL, 404, "not_found"},
    {"GET", "/api/HEALTH", "", NULL, NULL, 404, "not_found"},
    {"POST", "/api/health", "", JSON, "{}", 405, "method_not_allowed"},
    {"DELETE", "/api/swizzle", "b=3&m=4&s=3", NULL, NULL, 405, "answers GET only"},
    {"PUT", "/api/apply", "", JSON, "{}", 405, "answers POST only"},
    {"GET", "/api/apply", "", NULL, NULL, 405, "method_not_allowed"},
    {"OPTIONS", "/api/presets", "", NULL, NULL, 405, "method_not_allowed"},

    /* query arguments */
    {"GET", "/api/swizzle", "m=4&s=3", NULL, NULL, 400, "\"field\":\"b\""},
    {"GET", "/api/swizzle", "b=3&s=3", NULL, NULL, 400, "\"field\":\"m\""},
    {"GET", "/api/swizzle", "b=3&m=4", NULL, NULL, 400, "\"field\":\"s\""},
    {"GET", "/api/swizzle", "b=7&m=4&s=6", NULL, NULL, 400, "\"field\":\"s\""},
    {"GET", "/api/swizzle", "b=16&m=4&s=3", NULL, NULL, 400, "must be in 0..15, got 16"},
    {"GET", "/api/swizzle", "b=-1&m=4&s=3", NULL, NULL, 400, "\"field\":\"b\""},
    {"GET", "/api/swizzle", "b=3&m=4&s=1", NULL, NULL, 400, "|SShift| must be >= BBits"},
    {"GET", "/api/swizzle", "b=1&m=4&s=0", NULL, NULL, 400, "\"field\":\"s\""},
    {"GET", "/api/swizzle", "b=3.5&m=4&s=3", NULL, NULL, 400, "must be an integer"},
    {"GET", "/api/swizzle", "b=&m=4&s=3", NULL, NULL, 400, "\"field\":\"b\""},
    {"GET", "/api/swizzle", "b=+3&m=4&s=3", NULL, NULL, 400, "must be an integer"},
    {"GET", "/api/swizzle", "b=0x3&m=4&s=3", NULL, NULL, 400, "must be an integer"},
    {"GET", "/api/swizzle", "b= 3&m=4&s=3", NULL, NULL, 400, "must be an integer"},
    {"GET", "/api/swizzle", "b=3&m=4&s=3&b=2", NULL, NULL, 400, "more than once"},
    {"GET", "/api/swizzle", "b=3&m=4&s=3&bankbytes=8", NULL, NULL, 400,
     "\"field\":\"bankbytes\""},
    {"GET", "/api/swizzle", "b=3&m=99999999999&s=3", NULL, NULL, 400, "\"field\":\"m\""},
    {"GET", "/api/swizzle", "b=3&m=-99999999999&s=3", NULL, NULL, 400, "\"field\":\"m\""},
    {"GET", "/api/swizzle", "b=3&m=4&s=3&bank_bytes=3", NULL, NULL, 400,
     "\"field\":\"bank_bytes\""},
    {"GET", "/api/swizzle", "b=3&m=4&s=3&bank_bytes=64", NULL, NULL, 400,
     "\"field\":\"bank_bytes\""},
    {"GET", "/api/swizzle", "b=3&m=4&s=3&banks=48", NULL, NULL, 400, "\"field\":\"banks\""},
    {"GET", "/api/swizzle", "b=3&m=4&s=3&banks=0", NULL, NULL, 400, "\"field\":\"banks\""},
    {"GET", "/api/swizzle", "b=3&m=4&s=3&rows=0", NULL, NULL, 400, "\"field\":\"rows\""},
    {"GET", "/api/swizzle", "b=3&m=4&s=3&rows=1048576", NULL, NULL, 400,
     "\"field\":\"rows\""},
    {"GET", "/api/swizzle", "b=2&m=4&s=-3&rows=3", NULL, NULL, 400, "multiple of 4"},
    {"GET", "/api/swizzle", "b=3&m=4&s=3&match_bank_row=yes", NULL, NULL, 400,
     "\"field\":\"match_bank_row\""},
    {"GET", "/api/swizzle", "b=0&m=9&s=0&match_bank_row=1", NULL, NULL, 400,
     "wider than the bank row"},
    {"GET", "/api/swizzle", "b=11&m=0&s=11", NULL, NULL, 400, "B in 0..10 here"},
    {"GET", "/api/inspect", "b=3&m=4&s=3&rows=8&row=8&col=0", NULL, NULL, 400,
     "\"field\":\"row\""},
    {"GET", "/api/inspect", "b=3&m=4&s=3&rows=8&row=0", NULL, NULL, 400,
     "\"field\":\"col\""},
    {"GET", "/api/inspect", "b=3&m=4&s=3&rows=8&row=0&col=-1", NULL, NULL, 400,
     "must be in 0..7"},
    {"GET", "/api/health", "x=1", NULL, NULL, 400, "\"field\":\"x\""},

    /* bodies */
    {"POST", "/api/apply", "", NULL, "{}", 415, "unsupported_media_type"},
    {"POST", "/api/apply", "", "text/plain", "{}", 415, "Content-Type"},
    {"POST", "/api/apply", "", "application/jsonx", "{}", 415, "Content-Type"},
    {"POST", "/api/apply", "", JSON, NULL, 400, "empty body"},
    {"POST", "/api/apply", "", JSON, "", 400, "bad_json"},
    {"POST", "/api/apply", "", JSON, "{", 400, "invalid JSON"},
    {"POST", "/api/apply", "", JSON, "{\"b\":3,}", 400, "bad_json"},
    {"POST", "/api/apply", "", JSON, "{} {}", 400, "trailing data"},
    {"POST", "/api/apply", "", JSON, "{}x", 400, "trailing data"},
    {"POST", "/api/apply", "", JSON, "[1,2]", 400, "must be a JSON object"},
    {"POST", "/api/apply", "", JSON, "null", 400, "must be a JSON object"},
    {"POST", "/api/apply", "", JSON, "\"str\"", 400, "must be a JSON object"},
    {"POST", "/api/apply", "", JSON, "{\"b\":3,\"m\":4,\"s\":3}", 400, "\"field\":\"offsets\""},
    {"POST", "/api/apply", "", JSON, "{\"m\":4,\"s\":3,\"offsets\":[]}", 400,
     "\"field\":\"b\""},
    {"POST", "/api/apply", "", JSON, "{\"b\":\"3\",\"m\":4,\"s\":3,\"offsets\":[]}", 400,
     "\"field\":\"b\""},
    {"POST", "/api/apply", "", JSON, "{\"b\":true,\"m\":4,\"s\":3,\"offsets\":[]}", 400,
     "\"field\":\"b\""},
    {"POST", "/api/apply", "", JSON, "{\"b\":null,\"m\":4,\"s\":3,\"offsets\":[]}", 400,
     "\"field\":\"b\""},
    {"POST", "/api/apply", "", JSON, "{\"b\":3.5,\"m\":4,\"s\":3,\"offsets\":[]}", 400,
     "fraction"},
    {"POST", "/api/apply", "", JSON, "{\"b\":1e400,\"m\":4,\"s\":3,\"offsets\":[]}", 400,
     "\"field\":\"b\""},
    {"POST", "/api/apply", "", JSON, "{\"b\":-1e400,\"m\":4,\"s\":3,\"offsets\":[]}", 400,
     "\"field\":\"b\""},
    {"POST", "/api/apply", "", JSON, "{\"b\":NaN,\"m\":4,\"s\":3,\"offsets\":[]}", 400,
     "bad_json"},
    {"POST", "/api/apply", "", JSON, "{\"b\":3,\"m\":4,\"s\":1,\"offsets\":[]}", 400,
     "\"field\":\"s\""},
    {"POST", "/api/apply", "", JSON, "{\"b\":3,\"m\":4,\"s\":3,\"offsets\":{}}", 400,
     "\"field\":\"offsets\""},
    {"POST", "/api/apply", "", JSON, "{\"b\":3,\"m\":4,\"s\":3,\"offsets\":[1,-1]}", 400,
     "\"field\":\"offsets[1]\""},
    {"POST", "/api/apply", "", JSON, "{\"b\":3,\"m\":4,\"s\":3,\"offsets\":[2147483648]}",
     400, "\"field\":\"offsets[0]\""},
    {"POST", "/api/apply", "", JSON, "{\"b\":3,\"m\":4,\"s\":3,\"offsets\":[0.5]}", 400,
     "\"field\":\"offsets[0]\""},
    {"POST", "/api/apply", "", JSON, "{\"b\":3,\"m\":4,\"s\":3,\"offsets\":[null]}", 400,
     "\"field\":\"offsets[0]\""},
    {"POST", "/api/apply", "", JSON, "{\"b\":3,\"m\":4,\"s\":3,\"offsets\":[[1]]}", 400,
     "\"field\":\"offsets[0]\""},
    {"POST", "/api/apply", "", JSON, "{\"b\":3,\"m\":4,\"s\":3,\"offsets\":[],\"x\":1}", 400,
     "\"field\":\"x\""},
    {"POST", "/api/apply", "", JSON, "{\"b\":3,\"b\":2,\"m\":4,\"s\":3,\"offsets\":[]}", 400,
     "more than once"},
    {"POST", "/api/apply", "", JSON, "{\"B\":3,\"m\":4,\"s\":3,\"offsets\":[]}", 400,
     "\"field\":\"B\""},
    {"POST", "/api/apply", "", JSON, "{\"b\":3,\"m\":4,\"s\":3,\"offsets\":[1,]}", 400,
     "bad_json"},
    {"POST", "/api/apply", "", JSON, "{\"b\":3,\"m\":4,\"s\":3,\"offsets\":[01]}", 400,
     "bad_json"},
    {"POST", "/api/apply", "", JSON, "{\"b\":\"\xff\",\"m\":4,\"s\":3,\"offsets\":[]}", 400,
     "not valid UTF-8"},
    {"POST", "/api/apply", "", JSON, "{\"b\":\"\xc0\xaf\"}", 400, "not valid UTF-8"},
    {"POST", "/api/apply", "", JSON, "{\"b\":\"\xed\xa0\x80\"}", 400, "not valid UTF-8"},
    {"POST", "/api/apply", "", JSON, "{\"\xc3\xa9\":1}", 400, "unknown field"},
    {"POST", "/api/apply", "", JSON, "{\"b\":3,\"m\":4,\"s\":3,\"offsets\":[1]}garbage", 400,
     "trailing data"},
};

static void test_table(void)
{
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        const struct api_case *c = &cases[i];
        struct api_response r = call(c->method, c->path, c->query, c->ctype, c->body, 0);
        CHECK(r.status == c->status, "case %zu %s %s?%s: status %d, want %d: %.200s", i,
              c->method, c->path, c->query, r.status, c->status, r.body ? r.body : "");
        CHECK(r.body && strstr(r.body, c->want), "case %zu %s %s?%s: body lacks '%s': %.200s",
              i, c->method, c->path, c->query, c->want, r.body ? r.body : "(null)");
        /* Every body is one valid JSON object; errors have the three fields. */
        cJSON *j = r.body ? cJSON_ParseWithLength(r.body, r.len) : NULL;
        CHECK(cJSON_IsObject(j), "case %zu: body is not a JSON object", i);
        if (r.status >= 400) {
            const cJSON *e = cJSON_GetObjectItemCaseSensitive(j, "error");
            CHECK(cJSON_IsString(cJSON_GetObjectItemCaseSensitive(e, "code")) &&
                  cJSON_IsString(cJSON_GetObjectItemCaseSensitive(e, "field")) &&
                  cJSON_IsString(cJSON_GetObjectItemCaseSensitive(e, "message")),
                  "case %zu: error body lacks code/field/message", i);
        }
        CHECK(r.status < 500, "case %zu: a 5xx for client input", i);
        cJSON_Delete(j);
        free(r.body);
    }
    printf("api table: %zu requests\n", sizeof cases / sizeof cases[0]);
}

/* The maps the page draws must be exactly the core's, for every preset. */
static void test_maps_match_core(void)
{
    static const int presets[][3] = {{0, 4, 3}, {1, 4, 3}, {2, 4, 3}, {3, 4, 3}, {2, 5, 2},
                                     {2, 4, -3}};
    for (size_t k = 0; k < sizeof presets / sizeof presets[0]; k++) {
        char q[128];
        snprintf(q, sizeof q, "b=%d&m=%d&s=%d&rows=64", presets[k][0], presets[k][1],
                 presets[k][2]);
        struct api_response r = call("GET", "/api/swizzle", q, NULL, NULL, 0);
        CHECK(r.status == 200, "%s: %d", q, r.status);
        cJSON *j = cJSON_ParseWithLength(r.body, r.len);
        const cJSON *grid = cJSON_GetObjectItemCaseSensitive(j, "grid");
        const cJSON *log_of = cJSON_GetObjectItemCaseSensitive(grid, "log_of");
        const cJSON *bank_of = cJSON_GetObjectItemCaseSensitive(grid, "bank_of");
        int cols = cJSON_GetObjectItemCaseSensitive(grid, "cols")->valueint;
        struct swz z;
        swz_init(&z, presets[k][0], presets[k][1], presets[k][2], NULL);
        int n = cJSON_GetArraySize(log_of), bad = 0;
        CHECK(n == 64 * cols, "%s: %d cells", q, n);
        for (int p = 0; p < n; p++) {
            uint32_t l = (uint32_t)cJSON_GetArrayItem(log_of, p)->valuedouble;
            uint32_t want_p = swz_apply(&z, l << z.m) >> z.m;
            uint32_t bank = (uint32_t)cJSON_GetArrayItem(bank_of, p)->valuedouble;
            if (want_p != (uint32_t)p || bank != ((uint32_t)p << z.m) / 4 % 32)
                bad++;
        }
        CHECK(bad == 0, "%s: %d cells disagree with the core", q, bad);
        cJSON_Delete(j);
        free(r.body);
    }
}

/* Limits: 65536 offsets pass, 65537 are refused with 413. */
static void test_apply_limits(void)
{
    for (int n = 65536; n <= 65537; n++) {
        size_t cap = (size_t)n * 8 + 64;
        char *body = malloc(cap);
        size_t len = (size_t)snprintf(body, cap, "{\"b\":3,\"m\":4,\"s\":3,\"offsets\":[");
        for (int i = 0; i < n; i++)
            len += (size_t)snprintf(body + len, cap - len, i ? ",%d" : "%d", i * 16);
        len += (size_t)snprintf(body + len, cap - len, "]}");
        struct api_response r = call("POST", "/api/apply", "", JSON, body, len);
        if (n == 65536) {
            cJSON *j = cJSON_ParseWithLength(r.body, r.len);
            const cJSON *sw = cJSON_GetObjectItemCaseSensitive(j, "swizzled");
            CHECK(r.status == 200 && cJSON_GetArraySize(sw) == n, "65536 offsets: %d",
                  r.status);
            /* offset 16*i: i = 8 is offset 128 -> 144 */
            CHECK(cJSON_GetArrayItem(sw, 8)->valueint == 144, "offset 128 -> 144");
            cJSON_Delete(j);
        } else {
            CHECK(r.status == 413 && strstr(r.body, "at most 65536"), "65537 offsets: %d",
                  r.status);
        }
        free(r.body);
        free(body);
    }
}

int main(void)
{
    test_table();
    test_maps_match_core();
    test_apply_limits();
    return check_summary("test_api");
}
