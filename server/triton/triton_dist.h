/* triton_dist.h - Triton's distributed encodings as TTGIR prints them
 * (#ttg.blocked, #ttg.slice, #ttg.nvidia_mma v2/v3, #ttg.dot_op over MMA v2/v3,
 * MFMA or blocked parents, #ttg.amd_mfma, #ttg.linear; also Gluon's print
 * DistributedLinearLayout(...) and LinearLayout::toString's text) on a tensor shape of
 * rank 1-3 -> the register / lane / warp / block bases Triton's
 * toLinearLayout gives (zero bases kept where Triton keeps them).  Single-CTA
 * only: a multi-CTA (CGA) encoding is refused.  Pure core: no I/O, no
 * allocation (the caller owns the parser), no JSON. */
#ifndef SZ_TRITON_DIST_H
#define SZ_TRITON_DIST_H

#include <stdint.h>

#include "base/error.h"
#include "triton_ll.h"
#include "ttgir_attr.h"

#define TD_MAX_RANK 3           /* tensors; a slice's parent may have one more */
#define TD_MAX_PARAM (1 << 16)  /* any one count in an encoding */

/* The layout: bases by input dim, each a coordinate [dim0, ..., dim(rank-1)]. */
struct td_layout {
    int rank;
    int64_t shape[TLL_MAX_RANK];
    int n[TLL_NIN];
    int32_t b[TLL_NIN][TLL_MAX_BASES][TLL_MAX_RANK];
    const char *encoding;       /* "blocked", "slice", "nvidia_mma", "dot_op", "amd_mfma", "linear" */
    int lanes;                  /* lanes per warp: 2^n[lane] (32, or 64 for MFMA) */
    int warps;                  /* 2^n[warp] */
};

/* The encoding node `attr` of parser p (its aliases resolved through p) on
 * `shape` (rank 1..TLL_MAX_RANK, powers of two, at most 2^TLL_MAX_LOG2
 * elements) -> *out.  Text errors name the node's line and column; a
 * shape that does not fit the encoding names "shape". */
int triton_dist_build(struct ta_parser *p, int attr, const int64_t *shape, int rank,
                      struct td_layout *out, struct sz_error *err);

/* The whole route's work: parse `text` (an encoding, an alias, or a line
 * `#name = ...`), resolving aliases in `aliases` (may be NULL), and build it
 * on `shape`.  p is scratch the caller owns. */
int triton_dist_layout(struct ta_parser *p, const char *text, const char *aliases,
                       const int64_t *shape, int rank, struct td_layout *out,
                       struct sz_error *err);

#endif
