/* trace.h - the column trace: one logical column followed down the grid, each
 * row's unit without and with the swizzle (slot, grid position, banks), and
 * the two warp reads of that column, one lane per row.
 *
 * Pure core: no I/O, no allocation, no cost (access.c costs the two
 * instructions); the caller owns the result. */
#ifndef SZ_TRACE_H
#define SZ_TRACE_H

#include <stdint.h>

#include "instr.h"
#include "swizzle.h"

/* Where one unit lies: physical slot (row * cols + col), its grid position,
 * and every bank its bytes touch (swz_slot_banks). */
struct trace_unit {
    uint32_t slot, row, col;
    uint32_t nbanks, bank[SZ_MAX_BANKS];
};

struct trace_row {
    uint32_t row;                       /* logical row */
    struct trace_unit plain, swizzled;  /* unit (row, col) before and after the swizzle */
};

struct trace {
    uint32_t col;           /* the logical column traced */
    uint32_t rows;          /* R = min(grid rows, 32) */
    uint32_t bytes;         /* each lane's read: the largest of 16, 8, 4, 2, 1 <= unit */
    uint32_t per_bank;      /* units sharing a bank word (swz_units_per_bank) */
    struct trace_row row[INSTR_LANES];
    /* lane r < R reads the first `bytes` of row r's unit; lanes R..31 idle */
    struct instr plain, swizzled;
};

/* Trace logical column `col` (< g->cols) of the grid `g` swizzled by `z`.
 * Both instructions pass instr_check (units are aligned to their size). */
void trace_column(const struct swz *z, const struct swz_geom *g, uint32_t col,
                  struct trace *tr);

#endif
