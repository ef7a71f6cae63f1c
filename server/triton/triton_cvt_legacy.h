/* triton_cvt_legacy.h - a Triton 3.0/3.1 convert_layout between distributed
 * layouts as that era lowered it: every warp stores its registers into a
 * padded row-major scratch, a barrier, every warp loads the other layout, in
 * repetitions when the scratch holds less than the tensor (Allocation.cpp's
 * getRepShapeForCvt / getScratchConfigForCvt, ConvertLayoutOpToLLVM.cpp's
 * lowerDistributedToDistributed / processReplica).  Each warp instruction's
 * 32 addresses costed by acc_cost.  Blocked, slice and NVIDIA MMA (v2, v3)
 * layouts; anything else is refused with the reason.  Pure core: no I/O, no
 * allocation, no JSON. */
#ifndef SZ_TRITON_CVT_LEGACY_H
#define SZ_TRITON_CVT_LEGACY_H

#include <stdint.h>

#include "base/error.h"
#include "triton_dist.h"
#include "ttgir_attr.h"

/* One side (the store of src's registers, or the load of dst's). */
struct tcl_side {
    int vec;                    /* inVec / outVec: elements Triton moves per vector */
    uint32_t bytes;             /* per lane per instruction (a vector past 16 bytes is split) */
    uint32_t per_warp;          /* instructions one warp issues, all repetitions */
    uint32_t wavefronts_max, ideal_max;     /* the costliest instruction */
    uint64_t wavefronts_cta, ideal_cta;     /* summed over every warp's instructions */
};

struct tcl_result {
    int shared;                 /* 0: no scratch (why says how Triton moves it) */
    char why[200];
    int rank;
    int64_t rep[TLL_MAX_RANK], padded[TLL_MAX_RANK];
    int order[TLL_MAX_RANK];    /* the scratch's order (outOrd), fastest first */
    int pad_dim, pad;
    uint32_t reps;              /* repetitions, a barrier between */
    int warps;
    struct tcl_side store, load;
};

/* Cost the conversion from layout node `src_node` (built as *src) to
 * `dst_node` (*dst, same shape) with elements of `bits` (1..64; sub-byte
 * stored as bytes, as Triton's i1 -> i8) on 32 four-byte banks.  Fails naming
 * "text" for an encoding this era's scratch path does not take (dot_op, AMD,
 * linear) or a warp of other than 32 lanes. */
int triton_cvt_legacy(struct ta_parser *p, int src_node, const struct td_layout *src,
                      int dst_node, const struct td_layout *dst, int bits,
                      struct tcl_result *out, struct sz_error *err);

#endif
