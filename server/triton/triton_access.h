/* triton_access.h - what one Triton shared-memory op costs: a distributed
 * layout (triton_dist.h) reading or writing a shared encoding
 * (triton_shared.h) of the same shape.  Three answers side by side: the
 * vector width Triton's lowering picks (largestVectorisation, at most 128
 * bits), the conflict count Gluon's bank_conflicts reports (the subspace
 * formula of lib/Tools/GenericSwizzling.cpp), and this tool's wavefronts per
 * instruction (linear.c's evaluation, or for padded layouts each instruction
 * simulated through access.c); the ldmatrix Triton emits where its layout
 * holds one (costed through access.c), and a convert_layout's store and load
 * through its scratch.  Pure core: no I/O, no allocation. */
#ifndef SZ_TRITON_ACCESS_H
#define SZ_TRITON_ACCESS_H

#include <stdint.h>

#include "base/error.h"
#include "linear/linear.h"
#include "linear/linear_opt.h"
#include "triton_dist.h"
#include "triton_shared.h"

#define TAC_SIM_MAX 256         /* padded layouts: instructions simulated */
/* linear layouts: instructions simulated per side (the first, the last, then a
 * spread; every instruction of a linear layout costs the same, and
 * wavefronts_min == wavefronts checks it on those simulated) */
#define TAC_LIN_SIM 8

struct tac_result {
    int vec_elems;              /* elements per lane per instruction (Triton's choice) */
    int triton_conflicts;       /* Gluon's bank_conflicts, -1 where it is not defined (padded) */
    int lanes;                  /* 32, or 64 for a wave */
    uint32_t wavefronts;        /* per instruction: the most over those simulated */
    uint32_t ideal;             /* per instruction with no conflict */
    uint32_t instructions;      /* linear: per CTA (each distinct warp's); padded: per warp */
    uint32_t per_warp;          /* instructions one warp issues */
    uint32_t bytes;             /* per lane per instruction */
    int linear;                 /* 1: from lin_evaluate (fields below set) */
    struct lin_problem prob;    /* the 2-D view: dims before the last flattened into rows */
    struct lin_mem mem;
    int vec_bits;
    struct lin_side side;       /* the op's side (store or load) */
};

/* Cost `is_load` (else a store) of d on s with elements of `bits` (8..64) on
 * `num_banks` 4-byte banks (32, or 64 for MI350-class LDS).  Fails naming
 * "shape" when the two shapes differ, "layout" for a warp that is neither 32
 * nor 64 lanes. */
int triton_access_cost(const struct td_layout *d, const struct tsh_layout *s, int bits,
                       int is_load, int num_banks, struct tac_result *out, struct sz_error *err);

/* The fix the optimizer proposes for a buffer that `writer` stores and
 * `reader` loads (the same op twice when the dump shows one side): the
 * optimal memory layout for the pair (linear.c), what each side costs on
 * it, and that layout as TTGIR text to paste back: a #ttg.swizzled_shared
 * where one equals it (rank 2), else a #ttg.shared_linear. */
struct tac_fix {
    struct lin_opt opt;
    struct lin_side store, load;
    int swizzled;               /* 1: text is a swizzled_shared */
    int rank;
    int32_t offset[LIN_MAX_BITS][TLL_MAX_RANK];     /* the fix's offset bases, N-D */
    char text[1536];
};
int triton_access_fix(const struct tac_result *writer, const struct tac_result *reader,
                      const int64_t *shape, int rank, struct tac_fix *out, struct sz_error *err);

/* A ttg.convert_layout from `src` to `dst` (same shape) that Triton lowers
 * through shared memory (issue 39 item 3): each warp stores its registers
 * (st.shared), a barrier, each loads the other layout (ld.shared), on the
 * scratch layout Triton's optimalSwizzling builds for the pair (the subspace
 * construction of GenericSwizzling.cpp, which lin_optimize is: vectors from
 * the registers both sides share, lanes' directions kept apart, banks
 * last).  A conversion whose data stays in each warp (registers and lanes
 * only) needs no shared memory: within = 1, nothing costed.  Fails as
 * triton_access_cost does. */
struct tac_convert {
    int within;                 /* 1: no warp's data moves to another warp */
    struct lin_problem prob;    /* a: src (the store), b: dst (the load) */
    struct lin_opt opt;         /* the scratch layout */
    struct lin_side store, load;
    uint32_t store_per_warp, load_per_warp;     /* instructions one warp issues */
    int rank;
    int32_t offset[LIN_MAX_BITS][TLL_MAX_RANK]; /* the scratch's offset bases, N-D */
};
int triton_access_convert(const struct td_layout *src, const struct td_layout *dst, int bits,
                          int num_banks, struct tac_convert *out, struct sz_error *err);

/* ldmatrix, as Triton's NVIDIA lowering emits it for a local_load (issue 39
 * item 1): the layout's registers, lanes and warps composed with the inverse
 * of the shared layout must hold ldmatrix's 8 x 16-byte tile.  Plain: a
 * register run of 4 bytes then lanes 0-1 across the 16-byte row (elements of
 * 8, 16 or 32 bits); .trans: 16-bit elements, lanes 2-4 the row's 8 elements.
 * Lanes 2-4 (plain) or register 0 and lanes 0-1 (.trans) pick the 8 rows, the
 * next one or two register bases the matrix (.x1/.x2/.x4); the rest index the
 * warp's instructions.  Triton tries plain, then .trans, then falls back to
 * ld.shared.  is_store: the same tile as stmatrix, which Triton's current
 * lowering emits for local_store and local_alloc on sm_90 and later.  Each
 * instruction's 32 row addresses are costed by acc_cost (the model
 * /api/conflicts uses); padded layouts never qualify. */
struct tac_ldsm {
    int ok;                     /* 1: ldmatrix; 0: why says why not */
    int trans;
    int matrices;               /* 1, 2 or 4 */
    uint32_t instructions;      /* linear: per CTA (each distinct warp's); padded: per warp */
    uint32_t per_warp;          /* instructions one warp issues */
    uint32_t wavefronts, ideal; /* per instruction: the most over those simulated */
    uint32_t row[3], mat[2];    /* the rows' and matrices' offset bases (elements) */
    uint32_t offsets[32];       /* the costliest instruction's lane byte offsets */
    int ninst;
    uint32_t inst[LIN_MAX_BASES];   /* the offset bases that index the warp's instructions */
    char why[160];
};
void triton_access_ldmatrix(const struct lin_problem *prob, const struct lin_mem *mem,
                            int is_store, struct tac_ldsm *out);

/* The ldmatrix of `ld` (ok, costed on `mem`) seen as one 16-byte ld.shared a
 * lane, for the optimizer (its rows are the lanes' vectors, its matrices the
 * phases of 8 lanes): register bases the row's elements then the
 * instructions', lane bases the rows' then the matrices' (zero to 5), the
 * warps as they are.  Into *view (element directions, as prob's; it may be
 * &prob->a). */
void triton_access_ldmatrix_view(const struct lin_problem *prob, const struct lin_mem *mem,
                                 const struct tac_ldsm *ld, struct lin_layout *view);

#endif
