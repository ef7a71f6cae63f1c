/* test_cache.c - the response cache: hits return exactly what was stored,
 * keys never alias, size limits hold, concurrent use is safe, and through the
 * API a cached answer is byte for byte the computed one. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "api/api.h"
#include "base/buf.h"
#include "base/cache.h"
#include "check.h"

static void hits_misses_replacements_and_no_cross_answers(void)
{
    char *b;
    size_t n;
    cache_clear();
    CHECK(cache_get("k1", &b, &n) == 0, "empty cache misses");
    cache_put("k1", "hello", 5);
    CHECK(cache_get("k1", &b, &n) == 1 && n == 5 && memcmp(b, "hello", 6) == 0, "hit");
    free(b);
    CHECK(cache_get("k2", &b, &n) == 0, "other key misses");
    cache_put("k1", "bye", 3);
    CHECK(cache_get("k1", &b, &n) == 1 && n == 3 && strcmp(b, "bye") == 0, "replaced");
    free(b);
    /* Many keys: every hit must return its own body (slots collide, keys may
     * evict each other, but never answer for each other). */
    int wrong = 0, hits = 0;
    for (int i = 0; i < 5000; i++) {
        char k[32], v[32];
        snprintf(k, sizeof k, "key%d", i);
        snprintf(v, sizeof v, "value%d", i);
        cache_put(k, v, strlen(v));
    }
    for (int i = 0; i < 5000; i++) {
        char k[32], v[32];
        snprintf(k, sizeof k, "key%d", i);
        snprintf(v, sizeof v, "value%d", i);
        if (cache_get(k, &b, &n)) {
            hits++;
            wrong += strcmp(b, v) != 0;
            free(b);
        }
    }
    CHECK(wrong == 0 && hits > 0 && hits <= CACHE_SLOTS, "%d wrong of %d hits", wrong, hits);
    char *big = calloc(1, CACHE_MAX_BODY + 2);
    memset(big, 'x', CACHE_MAX_BODY + 1);
    cache_put("big", big, CACHE_MAX_BODY + 1);
    CHECK(cache_get("big", &b, &n) == 0, "a body over the limit is not stored");
    cache_put("big", big, CACHE_MAX_BODY);
    CHECK(cache_get("big", &b, &n) == 1 && n == CACHE_MAX_BODY, "a body at the limit is");
    free(b);
    free(big);
    cache_clear();
    CHECK(cache_get("k1", &b, &n) == 0, "cleared");
}

/* The total stays under CACHE_MAX_BYTES however many large bodies arrive. */
static void test_total_cap(void)
{
    cache_clear();
    size_t len = CACHE_MAX_BODY, stored = 0;
    char *body = malloc(len);
    memset(body, 'y', len);
    for (int i = 0; i < 400; i++) {
        char k[32];
        snprintf(k, sizeof k, "big%d", i);
        cache_put(k, body, len);
    }
    for (int i = 0; i < 400; i++) {
        char k[32], *b;
        size_t n;
        snprintf(k, sizeof k, "big%d", i);
        if (cache_get(k, &b, &n)) {
            stored += n;
            free(b);
        }
    }
    CHECK(stored <= CACHE_MAX_BYTES && stored > 0, "%zu bytes held, cap %u", stored,
          CACHE_MAX_BYTES);
    free(body);
    cache_clear();
}

static void *hammer(void *arg)
{
    int id = *(int *)arg, *wrong = (int *)arg + 1;
    for (int i = 0; i < 20000; i++) {
        char k[32], v[64], *b;
        size_t n;
        int x = (i * 7 + id) % 700;
        snprintf(k, sizeof k, "h%d", x);
        snprintf(v, sizeof v, "body of %d", x);
        if (i % 3 == 0)
            cache_put(k, v, strlen(v));
        else if (cache_get(k, &b, &n)) {
            *wrong += strcmp(b, v) != 0;
            free(b);
        }
    }
    return NULL;
}

static void test_threads(void)
{
    pthread_t th[4];
    int args[4][2];
    for (int i = 0; i < 4; i++) {
        args[i][0] = i;
        args[i][1] = 0;
        pthread_create(&th[i], NULL, hammer, args[i]);
    }
    int wrong = 0;
    for (int i = 0; i < 4; i++) {
        pthread_join(th[i], NULL);
        wrong += args[i][1];
    }
    CHECK(wrong == 0, "%d wrong bodies under concurrent use", wrong);
    cache_clear();
}

static struct api_response get(const char *path, struct api_arg *args, int n)
{
    struct api_request req = {.method = "GET", .path = path, .args = args, .nargs = n};
    struct api_response r = {0};
    api_handle(&req, &r);
    return r;
}

/* Through the API: the second answer (from cache) equals the first (computed),
 * and argument lists that differ only in how '&'/'=' split never alias. */
static void test_api_cached(void)
{
    cache_clear();
    struct api_arg a[] = {{"b", "3"}, {"m", "4"}, {"s", "3"}, {"rows", "16"}};
    struct api_response r1 = get("/api/swizzle", a, 4), r2 = get("/api/swizzle", a, 4);
    CHECK(r1.status == 200 && r2.status == 200 && r1.len == r2.len &&
          memcmp(r1.body, r2.body, r1.len) == 0, "cached answer equals computed");
    free(r1.body);
    free(r2.body);
    struct api_arg b2[] = {{"b", "2"}, {"m", "4"}, {"s", "3"}, {"rows", "16"}};
    r1 = get("/api/swizzle", b2, 4);
    CHECK(r1.status == 200 && strstr(r1.body, "Swizzle<2,4,3>"), "b=2 is not b=3's answer");
    free(r1.body);
    struct api_arg odd1[] = {{"pattern", "row_store&step=1"}, {"b", "3"}, {"m", "4"},
                             {"s", "3"}};
    struct api_arg odd2[] = {{"pattern", "row_store"}, {"step", "1"}, {"b", "3"}, {"m", "4"},
                             {"s", "3"}};
    r2 = get("/api/access", odd2, 5);
    r1 = get("/api/access", odd1, 4);
    CHECK(r2.status == 200 && r1.status == 400, "embedded '&' is not an argument: %d %d",
          r1.status, r2.status);
    free(r1.body);
    free(r2.body);
    /* errors are not cached: the same bad request fails the same way twice */
    struct api_arg bad[] = {{"b", "9"}, {"m", "4"}, {"s", "3"}};
    r1 = get("/api/swizzle", bad, 3);
    r2 = get("/api/swizzle", bad, 3);
    CHECK(r1.status == 400 && r2.status == 400 && strcmp(r1.body, r2.body) == 0,
          "errors repeat");
    free(r1.body);
    free(r2.body);
    cache_clear();
}

/* The key does not depend on the arguments' order (issue 36: a client that
 * shuffled its query missed the cache every time, and each miss of
 * /api/recommend was a full search): an answer stored under one order is
 * served to every other.  A sentinel stored under the sorted key shows the
 * shuffled request was a hit, not a recomputation. */
static void test_key_ignores_order(void)
{
    cache_clear();
    struct api_arg sorted[] = {{"b", "3"}, {"m", "4"}, {"rows", "16"}, {"s", "3"}};
    struct api_arg shuffled[][4] = {
        {{"s", "3"}, {"rows", "16"}, {"m", "4"}, {"b", "3"}},
        {{"rows", "16"}, {"b", "3"}, {"s", "3"}, {"m", "4"}},
        {{"m", "4"}, {"s", "3"}, {"b", "3"}, {"rows", "16"}},
    };
    struct api_request req = {.method = "GET", .path = "/api/swizzle", .args = sorted, .nargs = 4};
    struct buf k0 = {0};
    api_cache_key(&req, &k0);
    CHECK(k0.p && strcmp(k0.p, "/api/swizzle|1:b|1:3|1:m|1:4|4:rows|2:16|1:s|1:3") == 0,
          "the key lists the arguments sorted by key: %s", k0.p ? k0.p : "(null)");
    static const char sentinel[] = "{\"sentinel\":true}";
    cache_put(k0.p, sentinel, sizeof sentinel - 1);
    for (size_t i = 0; i < sizeof shuffled / sizeof shuffled[0]; i++) {
        struct buf k = {0};
        req.args = shuffled[i];
        api_cache_key(&req, &k);
        CHECK(k.p && strcmp(k.p, k0.p) == 0, "order %zu has the sorted order's key", i);
        buf_free(&k);
        struct api_response r = get("/api/swizzle", shuffled[i], 4);
        CHECK(r.status == 200 && r.len == sizeof sentinel - 1 &&
              memcmp(r.body, sentinel, r.len) == 0, "order %zu is a cache hit", i);
        free(r.body);
    }
    /* same keys, values swapped between them: a different key */
    struct api_arg swapped[] = {{"b", "4"}, {"m", "3"}, {"rows", "16"}, {"s", "3"}};
    struct buf k = {0};
    req.args = swapped;
    api_cache_key(&req, &k);
    CHECK(k.p && strcmp(k.p, k0.p) != 0, "values stay with their keys");
    buf_free(&k);
    buf_free(&k0);
    cache_clear();
}

int main(void)
{
    hits_misses_replacements_and_no_cross_answers();
    test_total_cap();
    test_threads();
    test_api_cached();
    test_key_ignores_order();
    return check_summary("test_cache");
}
