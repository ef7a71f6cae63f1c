/* swizzle.h - CuTe's Swizzle<BBits, MBase, SShift> on byte offsets, and the
 * tile / grid / bank geometry drawn from it.
 *
 * Pure core: no I/O, no allocation; callers own every buffer.  The address
 * formula lives here once, as a static inline usable from C and from CUDA
 * (cuda/ includes this header), so the server and the GPU agree by construction. */
#ifndef SZ_SWIZZLE_H
#define SZ_SWIZZLE_H

#include <stdint.h>

#include "base/bits.h"
#include "base/error.h"

#if defined(__CUDACC__)
#define SWZ_INLINE static inline __host__ __device__
#else
#define SWZ_INLINE static inline
#endif

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
    int yyy_lo, zzz_lo;     /* lowest bit of each field; each is B bits wide */
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

/* The same swizzle over element indices instead of byte offsets, for elements
 * of 2^elem_log bytes: Swizzle<B, M - elem_log, S> into *e.  Fails on "m" when
 * a unit (2^M bytes) splits an element (M < elem_log): no element form. */
int swz_on_elements(const struct swz *z, int elem_log, struct swz *e, struct sz_error *err);

/* The bank geometry and grid a map is drawn on.  Every count the page shows
 * about the grid is here, so that the page computes none of them. */
struct swz_geom {
    uint32_t bank_bytes;    /* 1..32, power of two */
    uint32_t banks;         /* 1..SZ_MAX_BANKS, power of two */
    uint32_t unit_bytes;    /* 2^M */
    uint32_t rows, cols;    /* grid shape in units; cols is a power of two */
    uint32_t cells;         /* rows * cols <= SWZ_MAX_CELLS */
    uint32_t tile;          /* 2^B: the tile is tile x tile units */
    uint64_t tile_bytes;    /* tile * tile * unit_bytes */
    int match_bank_row;     /* cols = bank row / unit instead of 2^|S| */
    uint32_t row_bytes;     /* cols * unit_bytes */
    uint32_t bytes;         /* rows * row_bytes, at most 2^31 */
    uint32_t tiles_per_row; /* whole tiles across a row; 1 when a row is narrower */
    uint32_t tile_rows;     /* tile heights down the grid, the last one partial */
    uint32_t bank_row_bytes;        /* banks * bank_bytes */
    uint32_t bank_rows;             /* bank rows the grid fills, the last one partial */
    uint32_t units_per_bank_row;    /* 0 when a unit is wider than a bank row */
    uint32_t bank_rows_per_unit;    /* 0 when a unit fits in a bank row */
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

/* The banks slot p's bytes [p*unit, (p+1)*unit) fall in, from its first bank
 * on, wrapping at g->banks: out[0..n) with n = swz_unit_banks(g) returned.
 * `out` holds SZ_MAX_BANKS. */
uint32_t swz_slot_banks(const struct swz_geom *g, uint32_t slot, uint32_t *out);

/* Fill the grid maps, each `g->cells` long, any of them may be NULL:
 * log_of[p] = logical unit (row*cols+col) stored at physical slot p,
 * phys_of[l] = physical slot of logical unit l, bank_of[p] = first bank of slot p. */
void swz_grid_maps(const struct swz *z, const struct swz_geom *g, uint32_t *log_of,
                   uint32_t *phys_of, uint32_t *bank_of);

/* The single tile, 2^B x 2^B units, in swizzle space (rows of 2^|S| units):
 * log_of[r'*T+c'] = r*T+c of the logical unit at tile position (r', c');
 * phys_of is its inverse.  Each is (2^B)^2 long; either may be NULL. */
void swz_tile_maps(const struct swz *z, uint32_t *log_of, uint32_t *phys_of);

/* Elements [from, from+n) of the maps swz_grid_maps and swz_tile_maps fill
 * (from + n <= g->cells, resp. (2^B)^2), into out[0..n) of each non-NULL
 * array: a map written in windows, for an answer streamed to the socket.
 * Equal element for element to the whole maps (tests/unit/test_swizzle.c). */
void swz_grid_range(const struct swz *z, const struct swz_geom *g, uint32_t from,
                    uint32_t n, uint32_t *log_of, uint32_t *phys_of, uint32_t *bank_of);
void swz_tile_range(const struct swz *z, uint32_t from, uint32_t n, uint32_t *log_of,
                    uint32_t *phys_of);

/* How many low address bits the inspector shows: every bit the swizzle
 * touches and every bit a grid address uses (31 at most, 1 at least). */
int swz_addr_bits(const struct swz *z, const struct swz_geom *g);

/* How the swizzle moves units on this grid, as the page may explain it:
 *   IDENTITY     B = 0: nothing moves
 *   COL_XOR_ROW  each unit stays in its row and tile; physical col_in_tile =
 *                col_in_tile ^ (row mod 2^B): YYY is the row's low B bits and
 *                ZZZ the column's (S > 0 and a row of exactly 2^S units)
 *   ROW_XOR_COL  each unit stays in its column; physical row_in_tile =
 *                row_in_tile ^ (col mod 2^B) (S < 0, a row of 2^|S| units)
 *   GENERAL      neither: address bits [zzz_lo, +B) ^= bits [yyy_lo, +B) */
enum swz_slot_rule {
    SWZ_RULE_IDENTITY,
    SWZ_RULE_COL_XOR_ROW,
    SWZ_RULE_ROW_XOR_COL,
    SWZ_RULE_GENERAL
};
enum swz_slot_rule swz_slot_rule(const struct swz *z, const struct swz_geom *g);

/* The wire name of a rule: "identity", "col_xor_row", "row_xor_col", "general". */
const char *swz_slot_rule_name(enum swz_slot_rule r);

/* One unit's address: its index (row * cols + col), grid row and column, byte address. */
struct swz_addr {
    uint32_t unit, row, col, addr;
};

/* Everything the inspector shows about one logical cell.  Every field is read
 * off the logical address or the physical one (its swizzle), never off a
 * formula that holds for some swizzles only. */
struct swz_cell {
    struct swz_addr logical, physical;
    int bits;                               /* swz_addr_bits */
    uint32_t tile_row, tile_col;            /* tile holding the logical cell */
    uint32_t row_in_tile, col_in_tile;      /* logical position inside it */
    uint32_t row_mod;                       /* logical row mod 2^B */
    uint32_t phys_row_in_tile, phys_col_in_tile;  /* physical position, mod 2^B */
    uint32_t slot;                          /* phys_col_in_tile */
    uint32_t yyy, zzz;                      /* YYY and ZZZ of the logical address */
    uint32_t zzz_swizzled;                  /* ZZZ of the physical address */
    uint32_t nbanks;                        /* banks of the physical slot, */
    uint32_t bank[SZ_MAX_BANKS];           /* bank[0..nbanks) (swz_slot_banks) */
};

/* Inspect logical cell (row, col), row < g->rows and col < g->cols. */
void swz_inspect(const struct swz *z, const struct swz_geom *g, uint32_t row, uint32_t col,
                 struct swz_cell *c);

/* One bank cell of an inspected unit (issue 27.8: a click on a bank map): the
 * bytes of the unit that one bank word holds, i.e. bank `bank` of bank row
 * `bank_row` as the plain (unswizzled) map or the swizzled map places the unit.
 * Ranges are [lo, hi).  The swizzle moves whole units (every bit it touches is
 * >= M), so the bytes keep their place in the unit; their bank, bank row and,
 * for a unit narrower than a bank word, their place in the word move with it. */
struct swz_byte_place {
    uint32_t bank, bank_row;
    uint32_t word_lo, word_hi;      /* within the bank's bank_bytes-wide word */
};
struct swz_byte {
    struct swz_byte_place plain, swizzled;
    uint32_t unit_lo, unit_hi;      /* within the unit */
    uint32_t phys_lo, logical_lo;   /* byte address of the first, swizzled and not */
    uint32_t elem_bytes;            /* 0: no element type asked for */
    uint32_t elem_first, elem_last; /* elements of the logical row the bytes lie in */
    uint32_t elem_byte_lo;          /* where the bytes start in elem_first */
};

/* The bytes of cell c's unit in bank `bank` (< g->banks) of bank row `bank_row`
 * (< 0: the first bank row in which that bank holds some of the unit), placed as
 * the swizzled map draws the unit, or the plain map when `plain`; for
 * elem_bytes > 0 (a power of two), the elements of c's logical row they belong
 * to.  Fails on "bank" (no byte of the unit is in that bank) or "bank_row" (none
 * in that bank row). */
int swz_inspect_byte(const struct swz_geom *g, const struct swz_cell *c, uint32_t bank,
                     long bank_row, int plain, uint32_t elem_bytes, struct swz_byte *out,
                     struct sz_error *err);

/* The bank word holding byte `byte` (< g->unit_bytes) of cell c's unit on the
 * plain (`plain`) or swizzled map: its bank and bank row, as swz_inspect_byte
 * takes them (a keyboard steps through a unit's words by its bytes). */
void swz_unit_byte_word(const struct swz_geom *g, const struct swz_cell *c, uint32_t byte,
                        int plain, uint32_t *bank, uint32_t *bank_row);

#endif
