/* rec_match.c - a kernel's warp accesses recognised as the recommender's
 * named patterns (rec_match.h).  Every (pattern, rows, step) is tried; the
 * base is what lane offsets minus the step's offsets leave, and must be one
 * number for every active lane, row-aligned.  Candidates are few (a dozen
 * patterns, six tile heights, their steps), so no cleverness: exact match. */
#include "rec_match.h"

#include "model/pattern.h"

static const uint32_t heights[] = {8, 16, 32, 64, 128, 256};

/* Whether `p` may stand for `in`: the same instruction form. */
static int same_form(const struct pattern *p, const struct instr *in)
{
    if (instr_is_atomic(p->op) || instr_is_copy(p->op) || p->op != in->op)
        return 0;
    if (p->op == INSTR_LDMATRIX || p->op == INSTR_STMATRIX)
        return p->matrices == in->matrices && !in->trans;
    return p->bytes == instr_lane_bytes(in);
}

/* The base at which step r of p on tile t gives in's offsets, or -1. */
static int64_t base_of(const struct pattern *p, const struct pattern_tile *t, uint32_t r,
                       const struct instr *in)
{
    int64_t base = -1;
    for (uint32_t l = 0; l < INSTR_LANES; l++) {
        uint32_t o = p->offset(p, t, l, r);
        if ((o == INSTR_INACTIVE) != (in->offsets[l] == INSTR_INACTIVE))
            return -1;
        if (o == INSTR_INACTIVE)
            continue;
        int64_t b = (int64_t)in->offsets[l] - (int64_t)o;
        if (b < 0 || (base >= 0 && b != base))
            return -1;
        base = b;
    }
    return base >= 0 && base % t->row_bytes == 0 ? base : -1;
}

/* The first step of pattern p on t that is `in` at `base` (any base when
 * base < 0), with the base it is at; -1 when none. */
static int64_t find_step(const struct pattern *p, const struct pattern_tile *t,
                         const struct instr *in, int64_t base, int64_t *at)
{
    if (t->rows < p->min_rows || t->row_bytes < p->min_row_bytes)
        return -1;
    uint32_t R = p->steps(p, t);
    for (uint32_t r = 0; r < R; r++) {
        int64_t b = base_of(p, t, r, in);
        if (b >= 0 && (base < 0 || b == base)) {
            *at = b;
            return r;
        }
    }
    return -1;
}

int rec_match_pair(const struct instr *w, const struct instr *r, uint32_t row_bytes,
                   struct rec_pair *out)
{
    int n;
    const struct pattern *ps = pattern_list(&n);
    if (instr_is_load(w->op) || !instr_is_load(r->op))
        return 0;
    for (size_t h = 0; h < sizeof heights / sizeof heights[0]; h++) {
        struct pattern_tile t = {row_bytes, heights[h]};
        for (int i = 0; i < n; i++) {
            if (!same_form(&ps[i], r))
                continue;
            int64_t base, wbase;
            /* every placement of the read; the write at the same base */
            for (uint32_t rs = 0, R = ps[i].steps(&ps[i], &t); rs < R; rs++) {
                base = base_of(&ps[i], &t, rs, r);
                if (base < 0)
                    continue;
                for (int j = 0; j < n; j++) {
                    int64_t ws;
                    if (!same_form(&ps[j], w) ||
                        (ws = find_step(&ps[j], &t, w, base, &wbase)) < 0)
                        continue;
                    *out = (struct rec_pair){ps[j].name, ps[i].name, heights[h], row_bytes,
                                             (uint32_t)base, (uint32_t)ws, rs};
                    return 1;
                }
            }
        }
    }
    return 0;
}
