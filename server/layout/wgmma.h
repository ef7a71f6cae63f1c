/* wgmma.h - what a warpgroup wgmma costs in shared memory on a layout, and
 * which elements it reads when its descriptor's swizzle disagrees with the
 * layout.  The cost is the measured rule of tests/data/wgmma_reads_*.json
 * (issue 23 part 4); the misread follows the descriptor's swizzle, not a
 * measurement.  Pure core: no I/O, no allocation, no JSON. */
#ifndef SZ_WGMMA_H
#define SZ_WGMMA_H

#include <stdint.h>

#include "layout.h"
#include "rosetta.h"

/* The read rule, measured on an H100 and an H200 (208 rows each: every
 * layout type, K- and MN-major, 16-bit, tf32, 8-bit, N 8..256, A from
 * registers or shared memory, valid and mismatched LBO/SBO/base offset):
 * wgmma reads its shared operands in (A bytes + B bytes) / 128 wavefronts
 * per warpgroup instruction, with 0 bank conflicts and 0 arbitration. */
#define WGMMA_BYTES_PER_WAVEFRONT 128u
#define WGMMA_DATA "tests/data/wgmma_reads_h100-80gb-hbm3.json, tests/data/wgmma_reads_h200.json"

/* Wavefronts a warpgroup spends reading `operand_bytes` of shared operands
 * (rounded up to whole wavefronts).  Never fails. */
uint32_t wgmma_wavefronts(uint32_t operand_bytes);

#define WGMMA_MAX_CELLS 8
struct wgmma_misread {
    int applies;                    /* 1: the descriptor's swizzle differs from the layout's */
    uint32_t wrong;                 /* elements whose read address is not theirs */
    int ncells;
    struct {
        uint32_t index, expected, read;     /* element, its byte offset, the offset read */
        uint32_t read_index;                /* the element at `read`, or UINT32_MAX */
    } cell[WGMMA_MAX_CELLS];
};

/* Which element wgmma reads for each element of `l` (byte offsets `bytes`,
 * equivalents `q`, buffer `base`) through descriptor `d`.  The layout keeps
 * the data where its swizzle put it (dense offset Z_L(bytes[i])); the
 * descriptor's mode swizzles that dense offset with its own Z_D on the
 * absolute address, so element i is read at Z_D(base + Z_L(bytes[i])) - base.
 * Applies only when the layout is a hardware swizzle mode (q->tma >= 0 with
 * has_swizzle) and d->swizzle_bytes differs from it; otherwise m->applies = 0.
 * Assumes the descriptor's LBO/SBO walk the same core-matrix grid (the
 * validators flag SBO separately).  Never fails. */
void wgmma_misread(const struct lay *l, const uint32_t *bytes, const struct ros_equiv *q,
                   uint32_t base, const struct ros_desc *d, struct wgmma_misread *m);

#endif
