/* test_census.c - GET /api/recommend over every (named write pattern, named
 * read pattern) pair, on views that break the patterns as well as views they
 * fit (issue 36: one such GET killed the server with a division by zero).
 * Every answer must be a 200 or a 4xx with the JSON error body, never a 5xx,
 * and the process must live to print its summary (ASan/UBSan abort on any
 * memory error or undefined operation).
 *
 * The whole census is 5,544 views (B 0..5, M 0..6, S -5..5, four row counts,
 * three bank geometries; invalid ones included, they must be a 4xx) times
 * 702 pairs: too many for `make test`.  It runs every pair on the eight views
 * below (the ones issue 36 named among them) and, for each pair, views picked
 * by a stride through the whole sweep: CENSUS_VIEWS per pair (default 2).
 * CENSUS_FIXED (default 8) takes only the first fixed views: `make test` runs
 * the census on the plain build (build/plain/test_census) and only the first
 * view, issue 36's crash, under the sanitizers.  Prints the count per status. */
#include <cjson/cJSON.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "api/api.h"
#include "check.h"
#include "client.h"

#define MAX_NAMES 64

static char writes[MAX_NAMES][64], reads[MAX_NAMES][64];
static int nwrites, nreads;
static long by_status[600];

/* The pattern names and the producers (write side only) of GET /api/patterns. */
static void names(void)
{
    struct api_response r = client_api_call("GET", "/api/patterns", NULL, NULL, NULL, 0);
    cJSON *d = cJSON_Parse(r.body);
    CHECK(r.status == 200 && d != NULL, "GET /api/patterns: %d", r.status);
    static const char *const lists[] = {"patterns", "producers"};
    for (int l = 0; l < 2; l++) {
        const cJSON *p;
        cJSON_ArrayForEach(p, cJSON_GetObjectItemCaseSensitive(d, lists[l])) {
            const cJSON *n = cJSON_GetObjectItemCaseSensitive(p, "name");
            if (!cJSON_IsString(n) || nwrites >= MAX_NAMES)
                continue;
            snprintf(writes[nwrites++], sizeof writes[0], "%s", n->valuestring);
            if (l == 0)
                snprintf(reads[nreads++], sizeof reads[0], "%s", n->valuestring);
        }
    }
    cJSON_Delete(d);
    free(r.body);
}

struct view {
    int b, m, s, rows, bank_bytes, banks;   /* rows 0: the route's default */
};

/* One request; a 5xx or a body that is not JSON fails the check. */
static void ask(const struct view *v, const char *w, const char *rd, int *failures)
{
    char q[256];
    int n = snprintf(q, sizeof q, "b=%d&m=%d&s=%d&bank_bytes=%d&banks=%d&write=%s&read=%s",
                     v->b, v->m, v->s, v->bank_bytes, v->banks, w, rd);
    if (v->rows)
        snprintf(q + n, sizeof q - (size_t)n, "&rows=%d", v->rows);
    struct api_response r = client_api_call("GET", "/api/recommend", q, NULL, NULL, 0);
    cJSON *d = r.body ? cJSON_Parse(r.body) : NULL;
    int ok = (r.status == 200 || (r.status >= 400 && r.status < 500)) && d != NULL &&
             (r.status == 200) == (cJSON_GetObjectItemCaseSensitive(d, "error") == NULL);
    CHECK_QUIET(*failures, ok, "%s: status %d, body %.200s", q, r.status,
                r.body ? r.body : "(null)");
    if (r.status >= 0 && r.status < 600)
        by_status[r.status]++;
    cJSON_Delete(d);
    free(r.body);
}

int main(void)
{
    /* the eight: issue 36's crash (a pattern that fits neither side), the
     * page's /?b=0&m=0&s=0, one row, 8-byte and 64 banks, negative S, the
     * 128B preset at 32 rows, a view too small for the matrix patterns */
    static const struct view fixed[] = {
        {3, 4, 3, 0, 4, 32}, {0, 0, 0, 0, 4, 32}, {0, 0, 0, 1, 4, 32}, {3, 4, 3, 8, 8, 32},
        {2, 4, 3, 16, 4, 64}, {3, 4, -3, 0, 4, 32}, {3, 4, 3, 32, 4, 32}, {1, 0, 1, 2, 1, 8}};
    static const int rows[] = {0, 1, 8, 32};
    static const int banks[][2] = {{4, 32}, {8, 32}, {4, 64}};
    names();
    CHECK(nwrites > nreads && nreads >= 20, "%d write and %d read names", nwrites, nreads);

    int failures = 0;
    long asked = 0;
    const char *f = getenv("CENSUS_FIXED");
    size_t nfixed = sizeof fixed / sizeof fixed[0];
    if (f && (size_t)atoi(f) < nfixed)
        nfixed = (size_t)atoi(f);
    for (size_t v = 0; v < nfixed; v++)
        for (int i = 0; i < nwrites; i++)
            for (int j = 0; j < nreads; j++, asked++)
                ask(&fixed[v], writes[i], reads[j], &failures);

    /* the sweep, strided: pair p gets views (p * 7 + k * 5 ... ) spread over all */
    const char *e = getenv("CENSUS_VIEWS");
    int per = e ? atoi(e) : 2;
    int nviews = 6 * 7 * 11 * 4 * 3;
    for (int i = 0; i < nwrites; i++)
        for (int j = 0; j < nreads; j++)
            for (int k = 0; k < per; k++, asked++) {
                long p = (long)i * nreads + j;
                int x = (int)((p * 2311 + (long)k * (nviews / (per ? per : 1) + 1)) % nviews);
                struct view v;
                v.b = x % 6, x /= 6;
                v.m = x % 7, x /= 7;
                v.s = x % 11 - 5, x /= 11;
                v.rows = rows[x % 4], x /= 4;
                v.bank_bytes = banks[x % 3][0], v.banks = banks[x % 3][1];
                ask(&v, writes[i], reads[j], &failures);
            }
    CHECK(failures == 0, "%d of %ld requests answered neither 200 nor a 4xx", failures, asked);
    printf("census: %ld requests (%d write x %d read names; %zu fixed views, %d swept per pair):",
           asked, nwrites, nreads, nfixed, per);
    for (int s = 0; s < 600; s++)
        if (by_status[s])
            printf(" %d x%ld", s, by_status[s]);
    printf("\n");
    return check_summary("test_census");
}
