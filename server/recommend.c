/* recommend.c - the swizzle recommender (recommend.h): candidate swizzles for
 * a view, both patterns costed on each through pattern.c and access.c, the
 * ranking, and the Triton form of a CuTe swizzle through linear_conv.c.
 * Pure core: no I/O, no allocation, no JSON; it invents no cost of its own. */
#include <stdio.h>
#include <string.h>

#include "linear_conv.h"
#include "pattern.h"
#include "presets.h"
#include "recommend.h"


static int add(struct rec_cand *out, int n, int b, int m, int s, const char *origin)
{
    struct swz z;
    if (n >= REC_MAX || swz_init(&z, b, m, s, NULL) < 0)
        return n;
    for (int i = 0; i < n; i++)
        if (out[i].b == b && out[i].m == m && out[i].s == s)
            return n;
    memset(&out[n], 0, sizeof out[n]);
    out[n].b = b, out[n].m = m, out[n].s = s, out[n].origin = origin;
    return n + 1;
}

int rec_candidates(const struct swz *z, struct rec_cand *out)
{
    int n = add(out, 0, z->b, z->m, z->s, "current");
    for (size_t i = 0; i < presets_count; i++)   /* GET /api/presets' table */
        n = add(out, n, presets[i].b, presets[i].m, presets[i].s, "preset");
    int as = z->s < 0 ? -z->s : z->s;
    for (int b = 0; b <= as && b <= 10; b++)
        n = add(out, n, b, z->m, z->s, "same M,S");
    return n;
}

static void cost_side(struct rec_side *sd, const struct swz *z, const struct swz_geom *g,
                      const char *name)
{
    struct sz_error e;
    uint32_t steps;
    memset(&sd->in, 0, sizeof sd->in);
    sd->in.bank_bytes = g->bank_bytes;
    sd->in.banks = g->banks;
    sd->ok = 0;
    if (pattern_fill(name, z, g->row_bytes, g->rows, 0, &sd->in, &steps, &e) < 0) {
        snprintf(sd->why, sizeof sd->why, "%s", e.message);
        return;
    }
    uint32_t w = instr_lane_bytes(&sd->in);
    if (z->b > 0 && g->unit_bytes < w) {
        snprintf(sd->why, sizeof sd->why, "its %u-byte units are narrower than the "
                 "%u-byte accesses", g->unit_bytes, w);
        return;
    }
    if (instr_check(&sd->in, &e) < 0) {
        snprintf(sd->why, sizeof sd->why, "%s", e.message);
        return;
    }
    acc_cost(&sd->in, &sd->r);
    sd->ok = 1;
}

void rec_cost(struct rec_cand *c, const struct swz_geom *g, const char *why,
              const char *const names[2])
{
    struct swz z;
    c->ok = 0;
    c->total = 0;
    if (g == NULL || swz_init(&z, c->b, c->m, c->s, NULL) < 0) {
        for (int k = 0; k < 2; k++) {
            c->side[k].ok = 0;
            snprintf(c->side[k].why, sizeof c->side[k].why, "%s", why ? why : "invalid");
        }
        return;
    }
    for (int k = 0; k < 2; k++)
        cost_side(&c->side[k], &z, g, names[k]);
    c->ok = c->side[0].ok && c->side[1].ok;
    if (c->ok)
        c->total = c->side[0].r.wavefronts + c->side[1].r.wavefronts;
}

int rec_best(const struct rec_cand *c, int n)
{
    int best = -1;
    for (int i = 0; i < n; i++) {
        if (!c[i].ok)
            continue;
        if (best < 0) { best = i; continue; }
        const struct rec_cand *a = &c[i], *w = &c[best];
        uint32_t ca = a->side[0].r.cycles + a->side[1].r.cycles;
        uint32_t cw = w->side[0].r.cycles + w->side[1].r.cycles;
        if (a->total < w->total || (a->total == w->total && a->b < w->b) ||
            (a->total == w->total && a->b == w->b && ca < cw))
            best = i;
    }
    /* The current swizzle (candidate 0) that ties the best stays: a tie is no
     * reason to make someone change their layout. */
    if (best > 0 && c[0].ok && c[0].total == c[best].total)
        best = 0;
    return best;
}

int rec_triton(int b, int m, int s, int bitwidth, int *vec, int *per_phase, int *max_phase,
               int order[2], int shape[2])
{
    int ebits = bitwidth == 8 ? 0 : bitwidth == 16 ? 1 : bitwidth == 32 ? 2 : bitwidth == 64 ? 3 : -1;
    int as = s < 0 ? -s : s;
    struct lin_tile t = {.bits0 = b, .bits1 = as + m - ebits};
    struct lin_mem mem;
    if (ebits < 0 || t.bits1 < 0 || t.bits0 + t.bits1 > LIN_MAX_BITS ||
        lin_from_cute(&t, bitwidth, b, m, s, &mem, NULL) < 0 ||
        !lin_to_triton(&t, &mem, vec, per_phase, max_phase, order))
        return 0;
    shape[0] = 1 << t.bits0;
    shape[1] = 1 << t.bits1;
    return 1;
}
