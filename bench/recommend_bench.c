/* recommend_bench.c - how long one recommendation takes (issue 26's target:
 * under 50 ms for a 32-row view): rec_plan + rec_search, every valid
 * Swizzle<B,M,S> of the tile, every step of both patterns, the F2 optimizer,
 * padding and lane schedules, as GET /api/recommend runs them, without HTTP
 * or JSON.  Prints the median and max of RUNS runs per view.  Run by
 * bench/recommend.sh; not a test (a time on this VM is no pass/fail). */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "recommend/recommend.h"

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static int cmp(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

int main(int argc, char **argv)
{
    static const struct { const char *name, *w, *r; int b, m, s, match, elem; uint32_t rows; } views[] = {
        {"32-row col read, 128B", "row_store", "col_read", 3, 4, 3, 0, 32, 32},
        {"16x32 fp32 transpose", "row_store", "transpose_read", 0, 2, 5, 0, 32, 16},
        {"32-row transpose, 128B", "row_store", "transpose_read", 3, 4, 3, 0, 32, 32},
        {"ldmatrix feed, 32 rows", "row_store_128", "ldmatrix_x4", 0, 4, 3, 0, 16, 32},
        {"32-row 16B col read", "row_store_128", "col_read_128", 3, 4, 3, 0, 32, 32},
    };
    int runs = argc > 1 ? atoi(argv[1]) : 30;
    if (runs < 1 || runs > 10000)
        runs = 30;
    struct rec_work *w = malloc(sizeof *w);
    double *t = malloc(sizeof *t * (size_t)runs), worst = 0;
    if (!w || !t)
        return 1;
    printf("%-26s %8s %8s %6s\n", "view", "median", "max", "swz");
    for (size_t v = 0; v < sizeof views / sizeof views[0]; v++) {
        for (int i = 0; i < runs; i++) {
            struct sz_error e;
            struct swz_geom g;
            memset(w, 0, sizeof *w);
            w->names[0] = views[v].w, w->names[1] = views[v].r;
            swz_init(&w->cur, views[v].b, views[v].m, views[v].s, NULL);
            swz_geom_init(&g, &w->cur, 4, 32, views[v].rows, views[v].match, NULL);
            w->rows = g.rows, w->row_bytes = g.row_bytes, w->bank_bytes = 4, w->banks = 32;
            w->elem_bits = views[v].elem, w->cur_match = views[v].match;
            double t0 = now();
            if (rec_plan(w, &e) < 0) {
                fprintf(stderr, "%s: %s\n", views[v].name, e.message);
                return 1;
            }
            rec_search(w);
            t[i] = (now() - t0) * 1e3;
        }
        qsort(t, (size_t)runs, sizeof *t, cmp);
        printf("%-26s %6.2fms %6.2fms %6d\n", views[v].name, t[runs / 2], t[runs - 1], w->n);
        if (t[runs / 2] > worst)
            worst = t[runs / 2];
    }
    printf("slowest median: %.2f ms (target: under 50 ms for a 32-row view)\n", worst);
    free(w);
    free(t);
    return 0;
}
