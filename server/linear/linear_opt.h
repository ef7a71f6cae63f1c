/* linear_opt.h - the optimal memory layout for a (store, load) pair
 * (linear_opt.c): the subspace construction of Linear Layouts, sec. 5.4.
 * Pure core: no I/O, no allocation, no JSON. */
#ifndef SZ_LINEAR_OPT_H
#define SZ_LINEAR_OPT_H

#include "base/error.h"
#include "linear.h"

/* The optimal memory layout and how it was built. */
struct lin_opt {
    struct lin_mem mem;
    int vec_bits, fill_bits, bank_bits, seg_bits;   /* offset bits, low to high */
    int n_shared, n_pairs, n_free, n_pad;           /* I, pairs e^f, C, padding used */
    int conflict_free;                              /* no padding was needed */
};

/* The construction of the issue (subspace form): vector = register spans'
 * intersection, word fill, protect shared lane directions, pair A-only with
 * B-only, complete with free directions, pad when needed, banks last. */
int lin_optimize(const struct lin_problem *p, struct lin_opt *out, struct sz_error *err);

#endif
