/* pattern.h - named warp access patterns over a swizzled, row-major tile: the
 * 32 byte offsets (and the instruction) of register step r of R.  Each is one
 * row of data: its instruction, the steps a tile holds, and each lane's logical
 * offset (row * row_bytes + byte in row), then passed through the swizzle as a
 * kernel computes its shared-memory addresses.  Pure core: no I/O, no allocation. */
#ifndef SZ_PATTERN_H
#define SZ_PATTERN_H

#include <stdint.h>

#include "base/error.h"
#include "instr.h"
#include "swizzle.h"

/* The tile a pattern walks: `rows` rows of `row_bytes` bytes. */
struct pattern_tile {
    uint32_t row_bytes, rows;
};

struct pattern {
    const char *name;       /* wire name, e.g. "col_read" */
    enum instr_op op;
    uint32_t bytes;         /* per lane; 16 (one row) for the matrix ops */
    uint32_t matrices;      /* 1, or .x1/.x2/.x4 for the matrix ops */
    /* R, the register steps a tile of at least min_rows rows of min_row_bytes
     * holds (0: not one; pattern_fill refuses it). */
    uint32_t (*steps)(const struct pattern *p, const struct pattern_tile *tile);
    /* Logical byte offset of lane t at step r < R. */
    uint32_t (*offset)(const struct pattern *p, const struct pattern_tile *tile, uint32_t t,
                       uint32_t r);
    uint32_t min_rows, min_row_bytes;   /* the least tile the shape walks (0: any) */
    const char *needs;      /* the error when the tile is smaller, or NULL */
    const char *label;      /* one line for the page */
    const char *source;     /* where it comes from (seed, kernel idiom) */
    enum instr_func func;   /* atom/red: the operation and type; else add, u32 (unused) */
    enum instr_type type;
    uint32_t bins;          /* histograms: the number of 4-byte bins; else 0 */
    int adds_one;           /* atom/red: the operand is the constant 1 (a histogram's or a
                             * counter's atomicAdd(&h[b], 1)), else per lane: it picks
                             * the SASS (red of +1: ATOMS.POPC.INC, atomic_form.h) */
    int cg;                 /* cp.async: .cg (16 bytes, L2 only); 0: .ca, or not a copy */
    /* cp.async: lane t's global byte offset at step r (NULL: not a copy) */
    uint32_t (*global)(const struct pattern *p, const struct pattern_tile *tile, uint32_t t,
                       uint32_t r);
};

/* The named patterns, in the order the page lists them; *n gets the count. */
const struct pattern *pattern_list(int *n);

/* The pattern whose wire name is `name`, or NULL when there is none. */
const struct pattern *pattern_find(const char *name);

/* Fill every field of `in` but the bank geometry (bank_bytes and banks stay the
 * caller's; the rest are the kind's defaults, instr_defaults, where the
 * pattern does not set them) for step `step` of pattern `name` on a tile of `rows` rows of `row_bytes`
 * bytes, swizzled by `z`, and set *steps to R, the number of register steps.
 * Fails on "pattern" (unknown), "step" (outside 0..R-1), or "rows" when the
 * tile is too small for the pattern (e.g. a 16-row transpose on 8 rows). */
int pattern_fill(const char *name, const struct swz *z, uint32_t row_bytes, uint32_t rows,
                 uint32_t step, struct instr *in, uint32_t *steps,
                 struct sz_error *err);

#endif
