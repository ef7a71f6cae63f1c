/* triton_access.h - what one Triton shared-memory op costs: a distributed
 * layout (triton_dist.h) reading or writing a shared encoding
 * (triton_shared.h) of the same shape.  Three answers side by side: the
 * vector width Triton's lowering picks (largestVectorisation, at most 128
 * bits), the conflict count Gluon's bank_conflicts reports (the subspace
 * formula of lib/Tools/GenericSwizzling.cpp), and this tool's wavefronts per
 * instruction (linear.c's evaluation, or for padded layouts each instruction
 * simulated through access.c).  Pure core: no I/O, no allocation. */
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
    uint32_t instructions;      /* per warp */
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

#endif
