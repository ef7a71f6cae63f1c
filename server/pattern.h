/* pattern.h - named warp access patterns over a swizzled, row-major tile: the
 * 32 byte offsets (and the instruction) of register step r of R.
 *
 * Pure core: no I/O, no allocation.  Every pattern is written in logical
 * offsets (row * row_bytes + byte in row) and then passed through the swizzle,
 * exactly as a kernel computes its shared-memory addresses. */
#ifndef SZ_PATTERN_H
#define SZ_PATTERN_H

#include <stdint.h>

#include "access.h"
#include "error.h"
#include "swizzle.h"

struct pattern_info {
    const char *name;       /* wire name, e.g. "col_read" */
    const char *op;         /* "ld", "st", "ldmatrix" or "stmatrix" */
    const char *label;      /* one line for the page */
    const char *source;     /* where it comes from (seed, kernel idiom) */
};

/* The named patterns, in the order the page lists them; *n gets the count. */
const struct pattern_info *pattern_list(int *n);

/* Fill `in` (op, width, offsets; bank geometry left to the caller) for step
 * `step` of pattern `name` on a tile of `rows` rows of `row_bytes` bytes,
 * swizzled by `z`, and set *steps to R, the number of register steps.
 * Fails on "pattern" (unknown), "step" (outside 0..R-1), or "rows" when the
 * tile is too small for the pattern (e.g. a 16-row transpose on 8 rows). */
int pattern_fill(const char *name, const struct swz *z, uint32_t row_bytes, uint32_t rows,
                 uint32_t step, struct instr *in, uint32_t *steps,
                 struct sz_error *err);

#endif
