/* recommend.h - the swizzle recommender: for one write and one read pattern
 * on a view's geometry, cost a fixed list of candidate Swizzle<B,M,S> (the
 * current one, the presets, every valid B for the current M and S) and pick
 * the fewest total wavefronts.  Pure core: no I/O, no JSON; the caller owns
 * the candidate array (it is large: two acc_results each). */
#ifndef SZ_RECOMMEND_H
#define SZ_RECOMMEND_H

#include "access.h"
#include "instr.h"
#include "swizzle.h"

#define REC_MAX 24      /* 1 current + 5 presets + at most 16 B values, deduplicated */

/* One side (0 write, 1 read) of one candidate: ok, or why it cannot run. */
struct rec_side {
    int ok;
    struct instr in;
    struct acc_result r;
    char why[200];
};

struct rec_cand {
    int b, m, s;
    const char *origin;     /* "current", "preset" or "same M,S" */
    int ok;                 /* both sides ok */
    uint32_t total;         /* write + read wavefronts when ok */
    struct rec_side side[2];
};

/* The candidates for the current swizzle z, in order and without repeats:
 * z itself, the presets, then Swizzle<B, z.m, z.s> for every valid B.
 * Returns how many (at most REC_MAX); fills b, m, s, origin only. */
int rec_candidates(const struct swz *z, struct rec_cand *out);

/* Cost step 0 of patterns names[0] (write) and names[1] (read) on candidate c
 * over grid g (the caller builds it for c's swizzle as the view's would be), as
 * /api/access with that swizzle would.  g NULL: neither side runs, `why` says so. */
void rec_cost(struct rec_cand *c, const struct swz_geom *g, const char *why,
              const char *const names[2]);

/* The index of the best ok candidate: fewest total wavefronts, then fewest
 * swizzle bits (B), then fewest total cycles, then the first; but candidate
 * 0 (the current swizzle) when it ties on wavefronts; -1 if none. */
int rec_best(const struct rec_cand *c, int n);

/* Triton swizzled_shared (vec, per_phase, max_phase, order) equal to
 * Swizzle<b,m,s> on a row-major tile of `bitwidth`-bit elements whose rows are
 * 2^|s| units of 2^m bytes, 2^b rows (computed through linear_conv.c).
 * Returns 1 and fills the outputs (tile shape in elements too) when one exists. */
int rec_triton(int b, int m, int s, int bitwidth, int *vec, int *per_phase, int *max_phase,
               int order[2], int shape[2]);

#endif
