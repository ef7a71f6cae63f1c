/* test_stream_answers.c - large answers stream: through api_handle, the
 * streamed bytes of a map equal the answer built whole, read in odd windows,
 * on every geometry that streams (their length counted without a pass), and
 * small answers do not stream.  No sockets: tests/net/test_stream.c takes the
 * stream through libmicrohttpd.  TEST_SMALL=1 (make test's sanitizer build)
 * sweeps B 0, 5 and 10 only; the plain build sweeps B 0..10. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "api/api.h"
#include "base/stream.h"
#include "check.h"

#define BIGGEST "b=10&m=0&s=10&rows=1024"

static int sweep_small;     /* TEST_SMALL: B 0, 5 and 10 of the length sweep */

/* api_handle on GET /api/swizzle?`query` ("k=v&k=v", no decoding), streaming allowed. */
static struct api_response get_map(const char *query, int may_stream)
{
    char q[256];
    struct api_arg args[16];
    int n = 0;
    snprintf(q, sizeof q, "%s", query);
    for (char *tok = strtok(q, "&"); tok && n < 16; tok = strtok(NULL, "&")) {
        char *eq = strchr(tok, '=');
        *eq = '\0';
        args[n].key = tok;
        args[n++].value = eq + 1;
    }
    struct api_request req = {.method = "GET", .path = "/api/swizzle", .args = args,
                              .nargs = n, .may_stream = may_stream};
    struct api_response resp = {0};
    api_handle(&req, &resp);
    return resp;
}

/* The stream read to its end in windows of `window` bytes (0: widths cycling
 * 1..61, so that elements and pieces straddle every boundary). */
static char *drain(struct stream *st, size_t len, size_t window, size_t *got)
{
    char *out = malloc(len + 64);
    size_t off = 0, w = 1, n;
    do {
        size_t want = window ? window : w;
        if (off + want > len + 64)
            want = len + 64 - off;
        n = stream_read(st, out + off, want);
        off += n;
        w = w % 61 + 1;
    } while (n > 0 && off < len + 64);
    *got = off;
    return out;
}

static void test_identical(void)
{
    static const struct {
        const char *query;
        size_t window;
    } maps[] = {
        {BIGGEST, 65536},
        {"b=3&m=4&s=3&rows=65536", 0},
        {"b=2&m=4&s=-5&rows=8192", 4093},
        {"b=9&m=1&s=-9&bank_bytes=8&banks=16", 0},
        {"b=4&m=0&s=4&banks=128&match_bank_row=1&rows=2048", 65536},
    };
    for (size_t i = 0; i < sizeof maps / sizeof maps[0]; i++) {
        struct api_response whole = get_map(maps[i].query, 0);
        struct api_response part = get_map(maps[i].query, 1);
        CHECK(whole.status == 200 && whole.stream == NULL && whole.body != NULL,
              "%s: built whole: %d %s", maps[i].query, whole.status,
              whole.body ? whole.body : "");
        CHECK(part.status == 200 && part.stream != NULL && part.body == NULL &&
              part.len == whole.len && whole.len > API_STREAM_MIN,
              "%s: streamed: %d, %zu bytes of %zu", maps[i].query, part.status, part.len,
              whole.len);
        if (part.stream && whole.body) {
            size_t got;
            char *bytes = drain(part.stream, part.len, maps[i].window, &got);
            CHECK(got == whole.len && memcmp(bytes, whole.body, got) == 0,
                  "%s: %zu streamed bytes differ from the %zu built", maps[i].query, got,
                  whole.len);
            free(bytes);
        }
        stream_free(part.stream);
        free(part.body);
        free(whole.body);
    }
    /* A small map does not stream; a bad request fails as it always did. */
    struct api_response small = get_map("b=3&m=4&s=3", 1);
    CHECK(small.status == 200 && small.stream == NULL && small.body != NULL,
          "small map: %d", small.status);
    free(small.body);
    struct api_response bad = get_map("b=11&m=0&s=11", 1);
    CHECK(bad.status == 400 && bad.stream == NULL && bad.body &&
              strstr(bad.body, "\"field\":\"b\""), "bad map: %d", bad.status);
    free(bad.body);
}

/* Issue 28: the maps' log_of and phys_of are streamed as permutations, their
 * length counted without a pass (stream_u32_perm).  Every geometry that
 * streams must give the built answer's length, and its bytes. */
static void test_perm_lengths(void)
{
    static const int banks[][2] = {{4, 32}, {8, 16}, {1, 128}, {32, 4}};
    int failures = 0, streamed = 0;
    char q[200];
    for (int b = 0; b <= 10; b += sweep_small ? 5 : 1)
        for (int k = 0; k < 6; k++) {
            int s = (k % 2 ? -1 : 1) * (b + k / 2 * 2 + (b == 0 && k < 2 ? 1 : 0));
            for (int m = 0; m <= 4; m += 4)
                for (int g = 0; g < 4; g++)
                    for (int match = 0; match < 2; match++) {
                        int as = s < 0 ? -s : s;
                        snprintf(q, sizeof q, "b=%d&m=%d&s=%d&bank_bytes=%d&banks=%d&"
                                 "match_bank_row=%d&rows=%d", b, m, s, banks[g][0], banks[g][1],
                                 match, as > 16 ? 8 : (1 << 16) >> as);
                        struct api_response part = get_map(q, 1);
                        if (part.status == 200 && part.stream != NULL) {
                            struct api_response whole = get_map(q, 0);
                            size_t got = 0;
                            char *bytes = drain(part.stream, part.len, 65536, &got);
                            CHECK_QUIET(failures, whole.status == 200 && part.len == whole.len &&
                                        got == whole.len &&
                                        memcmp(bytes, whole.body, got) == 0,
                                        "%s: streamed %zu bytes (%zu read), built %zu", q,
                                        part.len, got, whole.len);
                            free(bytes);
                            free(whole.body);
                            streamed++;
                        }
                        stream_free(part.stream);
                        free(part.body);
                    }
        }
    CHECK(failures == 0 && streamed > (sweep_small ? 40 : 100),
          "%d of %d streamed geometries differ", failures, streamed);
    printf("streamed lengths checked on %d geometries\n", streamed);
}

int main(void)
{
    sweep_small = check_small();
    test_identical();
    test_perm_lengths();
    return check_summary("test_stream_answers");
}
