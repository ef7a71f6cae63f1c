/* footprint.c - the slots a warp instruction touches on a grid, lane by lane.
 * Pure: no I/O, no allocation.  Phases come from the cost (access.c) and the
 * logical unit of a slot from the swizzle, so the marks the page draws agree
 * with both by construction. */
#include "footprint.h"

void footprint_of(const struct instr *in, const struct acc_result *r, const struct swz *z,
                  const struct swz_geom *g, struct footprint *fp)
{
    uint32_t w = instr_lane_bytes(in), unit = g->unit_bytes;
    fp->nslots = 0;
    fp->outside = 0;
    for (uint32_t t = 0; t < INSTR_LANES; t++) {
        if (r->lane_phase[t] < 0)
            continue;
        uint64_t o = in->offsets[t];
        uint64_t p0 = o / unit, p1 = (o + w - 1) / unit;
        if (p0 >= g->cells) {
            fp->outside++;
            continue;
        }
        if (p1 >= g->cells)
            p1 = g->cells - 1;
        for (uint32_t p = (uint32_t)p0; p <= (uint32_t)p1; p++) {
            uint32_t i = 0;
            while (i < fp->nslots && fp->slot[i].slot != p)
                i++;
            if (i == fp->nslots) {
                struct footprint_slot *s = &fp->slot[fp->nslots++];
                s->slot = p;
                /* apply is an involution on whole units: log_of[p] = phys_of[p] */
                s->logical = swz_apply(z, p << z->m) >> z->m;
                s->phase = r->lane_phase[t];
                s->lanes = 0;
            }
            fp->slot[i].lanes |= 1u << t;
        }
    }
}
