/* triton_shared.h - Triton's shared-memory encodings as TTGIR prints them
 * (#ttg.swizzled_shared, #ttg.amd_rotating_shared, #ttg.nvmma_shared,
 * #ttg.shared_linear, #ttg.padded_shared) on a tensor shape -> the element each offset bit
 * reaches (Triton's toLinearLayout: offset -> [dim0, ...]), and for padded
 * layouts the padding intervals.  Single CTA only.  Pure core: no I/O, no
 * allocation, no JSON. */
#ifndef SZ_TRITON_SHARED_H
#define SZ_TRITON_SHARED_H

#include <stdint.h>

#include "base/error.h"
#include "triton_ll.h"
#include "ttgir_attr.h"

#define TSH_MAX_PADS 4

struct tsh_layout {
    const char *encoding;       /* "swizzled_shared", "amd_rotating_shared", "nvmma_shared", ... */
    int rank;
    int64_t shape[TLL_MAX_RANK];
    int n;                      /* offset bits: log2 of the elements */
    int32_t b[TLL_MAX_BASES][TLL_MAX_RANK];     /* the element at offset 2^k */
    int npad;                   /* padded_shared: after every interval[i] elements, pad[i] more */
    int64_t interval[TSH_MAX_PADS], pad[TSH_MAX_PADS];
    int element_bits;           /* nvmma_shared's elementBitWidth; else 0 */
};

/* The shared encoding node `attr` (aliases resolved through p) on `shape`
 * (rank 1..4, powers of two; the routes allow 3) for elements of element_bits -> *out.  Text
 * errors name the node's line and column; a shape the encoding cannot take
 * names "shape". */
int triton_shared_build(struct ta_parser *p, int attr, const int64_t *shape, int rank,
                        int element_bits, struct tsh_layout *out, struct sz_error *err);

/* Is `attr` (resolved) one of the shared encodings above? */
int triton_shared_is(const struct ta_parser *p, int attr);

/* The physical offset (elements, padding included) of linear offset x. */
int64_t triton_shared_padded(const struct tsh_layout *l, int64_t x);

#endif
