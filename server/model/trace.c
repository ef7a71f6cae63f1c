/* trace.c - one logical column down the grid, before and after the swizzle,
 * and the one-lane-per-row read of it both ways.  Pure: no I/O, no
 * allocation; every slot comes from swz_apply and every bank from
 * swz_slot_banks, so the trace cannot disagree with the maps. */
#include "trace.h"

static void unit_at(const struct swz_geom *g, uint32_t slot, struct trace_unit *u)
{
    u->slot = slot;
    u->row = slot / g->cols;
    u->col = slot % g->cols;
    u->nbanks = swz_slot_banks(g, slot, u->bank);
}

void trace_column(const struct swz *z, const struct swz_geom *g, uint32_t col,
                  struct trace *tr)
{
    /* Every row the grid draws (up to a warp), not one tile: at B = 0 a tile is
     * one row, and a one-row trace would call a column conflict-free beside a
     * map that puts every row on the same banks (issue 27.1). */
    tr->col = col;
    tr->rows = g->rows < INSTR_LANES ? g->rows : INSTR_LANES;
    /* The widest access a unit holds whole, so that a lane reads its own unit. */
    tr->bytes = 16;
    while (tr->bytes > g->unit_bytes)
        tr->bytes /= 2;
    tr->per_bank = swz_units_per_bank(g);
    instr_defaults(&tr->plain, INSTR_LD);
    tr->plain.bytes = tr->bytes;
    tr->plain.bank_bytes = g->bank_bytes;
    tr->plain.banks = g->banks;
    tr->swizzled = tr->plain;
    for (uint32_t r = 0; r < tr->rows; r++) {
        uint32_t l = r * g->cols + col;
        uint32_t p = swz_apply(z, l << z->m) >> z->m;
        tr->row[r].row = r;
        unit_at(g, l, &tr->row[r].plain);
        unit_at(g, p, &tr->row[r].swizzled);
        tr->plain.offsets[r] = l << z->m;
        tr->swizzled.offsets[r] = p << z->m;
    }
}
