/* swizzle.h - CuTe's Swizzle<BBits, MBase, SShift> on byte offsets, and the
 * tile / grid / bank geometry drawn from it.
 *
 * Pure core: no I/O, no allocation; callers own every buffer.  The address
 * formula lives here once, as a static inline usable from C and from CUDA
 * (cuda/ includes this header), so the server and the GPU agree by construction. */
#ifndef SZ_SWIZZLE_H
#define SZ_SWIZZLE_H

#include <stdint.h>

#include "error.h"

#if defined(__CUDACC__)
#define SWZ_INLINE static inline __host__ __device__
#else
#define SWZ_INLINE static inline
#endif

/* Offsets are byte offsets in [0, 2^31); no swizzle may touch bit 31. */
#define SWZ_OFFSET_LIMIT 0x80000000u
/* Maps are drawn in a browser; DESIGN.md sec. 5 holds the API linear in cells
 * up to a million, so that is the most cells one map may have. */
#define SWZ_MAX_CELLS (1u << 20)

/* Swizzle<B,M,S>, S > 0 (CuTe, swizzle.hpp):
 *
 *   bit:  ... | M+S+B-1 .. M+S | ... | M+B-1 .. M | M-1 .. 0
 *             |     YYY        |     |    ZZZ     |  unit
 *
 *   yyy_msk = (2^B - 1) << (M + max(0,S))
 *   zzz_msk = (2^B - 1) << (M - min(0,S))
 *   apply(o) = o ^ shiftr(o & yyy_msk, S)      (S < 0 shifts left)
 *
 * For S < 0 the roles swap places: YYY sits at [M, M+B) and is XORed into
 * ZZZ at [M+|S|, M+|S|+B).  apply is an involution: apply(apply(o)) == o. */
struct swz {
    int b, m, s;
    uint32_t yyy_msk, zzz_msk;
};

SWZ_INLINE uint32_t swz_apply_masked(uint32_t off, uint32_t yyy_msk, int s)
{
    uint32_t y = off & yyy_msk;
    return off ^ (s >= 0 ? y >> s : y << -s);
}

SWZ_INLINE uint32_t swz_apply(const struct swz *z, uint32_t off)
{
    return swz_apply_masked(off, z->yyy_msk, z->s);
}

/* Validate B, M, S and fill `z`.  Valid iff B >= 0, M >= 0, |S| >= B,
 * S == 0 only with B == 0, and M + |S| + B <= 31 (every touched bit below 31).
 * On failure names the first offending field ("b", "m" or "s") and its range. */
int swz_init(struct swz *z, int b, int m, int s, struct sz_error *err);

/* The lowest bit above every bit the swizzle moves: ZZZ's top for B > 0, else M.
 * apply maps every aligned block of 2^swz_period_bits(z) bytes onto itself. */
int swz_period_bits(const struct swz *z);

/* The bank geometry and grid a map is drawn on. */
struct swz_geom {
    uint32_t bank_bytes;    /* 1..32, power of two */
    uint32_t banks;         /* 1..128, power of two */
    uint32_t unit_bytes;    /* 2^M */
    uint32_t rows, cols;    /* grid shape in units */
    uint32_t cells;         /* rows * cols <= SWZ_MAX_CELLS */
    uint32_t tile;          /* 2^B: the tile is tile x tile units */
    int match_bank_row;     /* cols = bank row / unit instead of 2^|S| */
};

/* Validate the bank geometry and grid for `z` and fill `g`.  `rows` == 0 picks the
 * default, one tile height (2^B).  Fails on "bank_bytes", "banks", "rows" or
 * "match_bank_row" when a value is out of range, the grid exceeds SWZ_MAX_CELLS
 * or 2^31 bytes, or the grid is not a whole number of swizzle periods (so that
 * apply permutes the grid onto itself). */
int swz_geom_init(struct swz_geom *g, const struct swz *z, uint32_t bank_bytes,
                  uint32_t banks, uint32_t rows, int match_bank_row,
                  struct sz_error *err);

SWZ_INLINE uint32_t swz_bank_of(uint32_t byte, uint32_t bank_bytes, uint32_t banks)
{
    return (byte / bank_bytes) % banks;
}

/* How many banks one unit touches (at most `banks`) and how many units share
 * one bank word (> 1 only when a unit is narrower than a bank). */
uint32_t swz_unit_banks(const struct swz_geom *g);
uint32_t swz_units_per_bank(const struct swz_geom *g);

/* Fill the grid maps, each `g->cells` long, any of them may be NULL:
 * log_of[p] = logical unit (row*cols+col) stored at physical slot p,
 * phys_of[l] = physical slot of logical unit l, bank_of[p] = first bank of slot p. */
void swz_grid_maps(const struct swz *z, const struct swz_geom *g, uint32_t *log_of,
                   uint32_t *phys_of, uint32_t *bank_of);

/* The single tile, 2^B x 2^B units, in swizzle space (rows of 2^|S| units):
 * log_of[r'*T+c'] = r*T+c of the logical unit at tile position (r', c');
 * phys_of is its inverse.  Each is (2^B)^2 long; either may be NULL. */
void swz_tile_maps(const struct swz *z, uint32_t *log_of, uint32_t *phys_of);

#endif
