/* rec_match.h - which of the recommender's named patterns (model/pattern.c) a
 * kernel's warp accesses are: a tile's writer and reader found among a PTX
 * analysis's worst accesses (issue 38.4: "the fix where the access is a 2-D
 * tile the recommender can take").  An access is a pattern's step only when
 * all 32 lanes (active set included) sit where that step puts them, on a
 * tile of rows x row_bytes at a row-aligned base: exact or nothing.  Pure:
 * no I/O, no allocation; it costs nothing (the recommender does). */
#ifndef SZ_REC_MATCH_H
#define SZ_REC_MATCH_H

#include <stdint.h>

#include "model/instr.h"

/* A tile's writer and reader, as GET /api/recommend takes them. */
struct rec_pair {
    const char *write, *read;   /* pattern names */
    uint32_t rows, row_bytes;   /* the tile: the fewest rows (8 .. 256) both fit */
    uint32_t base;              /* where the tile starts among the accesses' offsets */
    uint32_t write_step, read_step;
};

/* Whether `w` (a store) and `r` (a load) are the write and read of one tile:
 * a write pattern's step and a read pattern's step on the same tile at the
 * same base, rows of `row_bytes` (the bank row: 128).  1 with *out, or 0. */
int rec_match_pair(const struct instr *w, const struct instr *r, uint32_t row_bytes,
                   struct rec_pair *out);

#endif
