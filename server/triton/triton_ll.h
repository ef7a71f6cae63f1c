/* triton_ll.h - the part of Triton's LinearLayout algebra that its
 * toLinearLayout conversions use, over the input dims register, lane, warp,
 * block and the output dims dim0..dim3: identity and zero 1-D layouts, the
 * product (outer dims shifted past inner ones, output dims in their
 * supremum order), transposing the output order, growing or shrinking to a
 * shape, dropping a dimension.  Bases are stored by dimension index; the
 * output order is kept because it decides where growth goes.  Written from
 * Triton's documented semantics (lib/Tools/LinearLayout.cpp, LayoutUtils.cpp),
 * not copied.  Pure: no I/O, no allocation. */
#ifndef SZ_TRITON_LL_H
#define SZ_TRITON_LL_H

#include <stdint.h>

#include "base/error.h"

#define TLL_MAX_RANK 4          /* a slice of a rank-3 tensor has a rank-4 parent */
#define TLL_MAX_BASES 32        /* bases per input dimension */
#define TLL_MAX_LOG2 30         /* an output dimension holds at most 2^30 */

enum tll_in { TLL_REGISTER, TLL_LANE, TLL_WARP, TLL_BLOCK, TLL_NIN };

struct tll {
    int nout;                   /* output dims present, in order */
    int out[TLL_MAX_RANK];      /* their indices (dim0 = 0, ...) */
    int lg[TLL_MAX_RANK];       /* log2 of each dim's size, by index (0 if absent) */
    int n[TLL_NIN];
    int32_t b[TLL_NIN][TLL_MAX_BASES][TLL_MAX_RANK];
    int over;                   /* a product went past TLL_MAX_BASES or TLL_MAX_LOG2 */
};

/* A tensor shape the algebra takes: rank 1..TLL_MAX_RANK, powers of two, at
 * most 2^max_log2 elements; fails naming "shape". */
int tll_check_shape(const int64_t *shape, int rank, int max_log2, struct sz_error *err);

/* The layout with no dims. */
void tll_empty(struct tll *l);

/* identity1D(size, in, dim): bases 1, 2, ... size/2 along dim; size 0 is
 * the empty layout (as Triton's); size must be 0 or a power of two. */
void tll_identity(struct tll *l, int64_t size, enum tll_in in, int dim);

/* zeros1D(size, in, dim): log2(size) zero bases, dim of size 1. */
void tll_zeros(struct tll *l, int64_t size, enum tll_in in, int dim);

/* *a = *a * b: b's bases after a's, shifted by a's size along each dim. */
void tll_mul(struct tll *a, const struct tll *b);

/* *a = *a * identity1D(size, in, dim), and the same with zeros1D. */
void tll_mul_id(struct tll *a, int64_t size, enum tll_in in, int dim);

/* Set the output order (the same set of dims). */
void tll_transpose(struct tll *l, const int *order, int n);

/* ensureLayoutNotSmallerThan: grow each dim (in output order) to shape[d]
 * with register bases.  shape by dim index, powers of two. */
void tll_not_smaller(struct tll *l, const int64_t *shape);

/* ensureLayoutNotLargerThan: bases past shape[d] become 0; without
 * broadcast_registers, register bases made 0 by this are dropped. */
void tll_not_larger(struct tll *l, const int64_t *shape, int broadcast_registers);

/* Drop output dim d (its components), renumbering the dims above it. */
void tll_remove_dim(struct tll *l, int d);

/* Drop the all-zero bases of one input dim. */
void tll_remove_zero_bases(struct tll *l, enum tll_in in);

#endif
