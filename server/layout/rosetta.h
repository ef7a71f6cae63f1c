/* rosetta.h - one layout in every ecosystem's words: the CuTe swizzle on bytes
 * and on elements, the TMA enum, the GMMA (sm90) and UMMA (sm100) descriptor
 * layout types, the Triton encodings, the base alignment; a decoded 64-bit
 * shared-memory descriptor; the validators that flag what will go wrong.
 * Pure core: no I/O, no allocation, no JSON. */
#ifndef SZ_ROSETTA_H
#define SZ_ROSETTA_H

#include <stdint.h>

#include "base/error.h"
#include "layout.h"

struct ros_equiv {
    int has_swizzle;                /* a Swizzle<B,M,S> form exists (not Triton swizzled) */
    struct swz bytes, elems;        /* that swizzle on bytes and on elements */
    int elements_ok;                /* 0: the byte swizzle splits an element */
    int tma;                        /* CU_TENSOR_MAP_SWIZZLE_ bytes 0/32/64/128, or -1 */
    const char *tma_enum;           /* the CUtensorMapSwizzle name (a 128B_ATOM_* mode
                                     * too), NULL: no TMA mode is this map */
    const char *tma_status;         /* presets.c's word on that mode, NULL with tma_enum */
    int gmma, umma;                 /* descriptor layout_type values, or -1 */
    uint32_t alignment;             /* bytes the buffer base needs */
    /* from the F2 view (2D power-of-two one-to-one linear layouts only) */
    int linear;                     /* the conversions below were tried */
    int contiguous_dim;             /* the dim whose step is one element, or -1 */
    int cute, cb, cm, cs;           /* Swizzle<cb,cm,cs> on bytes of the tile, contiguous dim fastest */
    int triton, vec, per_phase, max_phase, order[2];
    int nvmma, nvmma_bytes, nvmma_transposed;
};

/* Every equivalent of `l`, whose byte offsets are `bytes` (l->size of them);
 * `one_to_one` as lay_collisions found it.  Never fails. */
void ros_equivalents(const struct lay *l, const uint32_t *bytes, int one_to_one,
                     struct ros_equiv *q);

/* The names, from presets.c's table: "CU_TENSOR_MAP_SWIZZLE_128B", "B128"
 * (GMMA LayoutType, CuTe arch/mma_sm90_desc.hpp), "SWIZZLE_128B" (UMMA,
 * arch/mma_sm100_desc.hpp); NULL when out of range. */
const char *ros_tma_name(int swizzle_bytes);
const char *ros_gmma_name(int type);
const char *ros_umma_name(int type);

/* A shared-memory matrix descriptor, decoded (CuTe GmmaDescriptor for sm90,
 * UMMA SmemDescriptor for sm100: address fields in 16-byte units). */
struct ros_desc {
    int sm100;
    uint32_t start, lbo, sbo;       /* bytes */
    int base_offset, layout_type, version, lbo_mode;
    int swizzle_bytes;              /* 0, 32, 64, 128; -1 for an invalid type */
    uint32_t pattern;               /* bytes after which the swizzle repeats (16 if none) */
};

/* Decode `d`; fails on "descriptor" for a reserved layout type or, on sm100,
 * a version other than 1. */
int ros_desc_decode(uint64_t d, int sm100, struct ros_desc *out, struct sz_error *err);

#define ROS_MAX_FLAGS 8
#define ROS_MAX_CELLS 8
struct ros_cell {
    uint32_t index, expected, actual;   /* byte offsets from the buffer base */
};
struct ros_flags {
    int n;
    struct {
        const char *code;               /* "box_exceeds_span", ... */
        const char *severity;           /* "error", "warning" */
        char message[200];
    } flag[ROS_MAX_FLAGS];
    /* base misalignment: cells whose data lands elsewhere than the layout says */
    uint32_t moved;
    int ncells;
    struct ros_cell cells[ROS_MAX_CELLS];
};

/* Run the validators: TMA box limits, the base alignment (`base` bytes; cells
 * moved when a hardware swizzle sees the absolute address), the descriptor
 * (may be NULL) against the layout.  `actual` (may be NULL) receives, per
 * index, where the data really lands relative to the base. */
void ros_validate(const struct lay *l, const uint32_t *bytes, const struct ros_equiv *q,
                  uint32_t base, const struct ros_desc *desc, uint32_t collisions,
                  struct ros_flags *f, uint32_t *actual);

#endif
