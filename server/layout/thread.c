/* thread.c - the thread-form table and what every thread layout shares:
 * reading a text with its row, enumerating the warp instructions of an F2
 * layout, placing explicit lanes at an origin.  The forms themselves live
 * with their data (named atoms: atoms.c).  Pure core: no I/O, no allocation. */
#include "thread.h"

#include <string.h>

/* Tried in order: the first row whose match says yes reads the text. */
static const struct thr_form *const forms[] = {
    &thr_form_atom,
    &thr_form_triton,
    &thr_form_cute_tv,
};

int thr_parse(const char *text, const struct thr_ctx *ctx, struct thr *t, struct sz_error *err)
{
    memset(t, 0, sizeof *t);
    for (size_t k = 0; k < sizeof forms / sizeof forms[0]; k++)
        if (forms[k]->match(text)) {
            t->form = forms[k];
            return forms[k]->parse(text, ctx, t, err);
        }
    return sz_fail(err, SZ_INVALID_ARGUMENT, ctx->field,
                   "unknown thread layout: a named atom (GET /api/atoms), a Triton "
                   "distributed encoding (#ttg.blocked<{...}>, ...) or a CuTe print "
                   "(print_latex's %% Layout S TV, print(tiled_copy))");
}

uint64_t thr_instructions(const struct thr *t, int vec_bits)
{
    if (t->kind == THR_LANES)
        return 1;
    if (t->kind == THR_TV) {        /* warps x instructions per thread, once a side is picked */
        const struct thr_tv *tv = &t->tv;
        if (tv->side < 0 || tv->group <= 0)
            return 0;
        return (uint64_t)((tv->threads[tv->side] + 31) / 32) *
               (tv->values[tv->side] / (uint32_t)tv->group);
    }
    int bits = t->n[THR_REGISTER] - vec_bits + t->n[THR_WARP] + t->n[THR_BLOCK];
    if (bits >= 64)
        return UINT64_MAX;      /* past any tile: a row bounds its bases before this */
    return (uint64_t)1 << (bits > 0 ? bits : 0);
}

/* XOR into c the bases of `in` selected by the bits of v. */
static void add_bases(const struct thr *t, enum thr_in in, int from, uint64_t v, int64_t *c)
{
    for (int i = from; i < t->n[in] && v; i++, v >>= 1)
        if (v & 1)
            for (int d = 0; d < t->rank; d++)
                c[d] ^= t->basis[in][i][d];
}

void thr_instr(const struct thr *t, int vec_bits, uint64_t k, int64_t c[][LAY_MAX_RANK])
{
    if (t->kind == THR_LANES) {
        memcpy(c, t->lane, (size_t)t->lanes * sizeof c[0]);
        return;
    }
    if (t->kind == THR_TV) {        /* k = value group + groups x warp; lane l = thread 32w + l */
        const struct thr_tv *tv = &t->tv;
        uint32_t groups = tv->values[tv->side] / (uint32_t)tv->group;
        uint64_t warp = k / groups, grp = k % groups;
        for (int l = 0; l < 32; l++) {
            uint64_t th = warp * 32 + (uint64_t)l;
            memset(c[l], 0, sizeof c[l]);
            if (th >= tv->threads[tv->side]) {
                c[l][0] = THR_IDLE;
                continue;
            }
            thr_tv_coord(tv, tv->side, (uint32_t)th, (uint32_t)(grp * (uint64_t)tv->group),
                         &c[l][0], &c[l][1]);
        }
        return;
    }
    int rb = t->n[THR_REGISTER] - vec_bits, wb = t->n[THR_WARP];
    uint64_t reg = k & ((1ull << rb) - 1), warp = k >> rb & ((1ull << wb) - 1);
    uint64_t block = k >> (rb + wb);
    int64_t base[LAY_MAX_RANK] = {0};
    add_bases(t, THR_REGISTER, vec_bits, reg, base);
    add_bases(t, THR_WARP, 0, warp, base);
    add_bases(t, THR_BLOCK, 0, block, base);
    for (int l = 0; l < t->lanes; l++) {
        memcpy(c[l], base, sizeof base);
        add_bases(t, THR_LANE, 0, (uint64_t)l, c[l]);
    }
}

int thr_place(struct thr *t, const int64_t *origin, const uint32_t *shape, int rank,
              struct sz_error *err)
{
    for (int l = 0; l < t->lanes; l++) {
        if (t->lane[l][0] == THR_IDLE)
            continue;
        for (int d = 0; d < rank; d++) {
            int64_t p = t->lane[l][d] + origin[d];
            if (p >= shape[d])
                return sz_fail(err, SZ_INVALID_ARGUMENT, "origin",
                               "lane %d of %s reaches coordinate %lld of dim %d, outside the "
                               "shape (%u)", l, t->name ? t->name : "the thread layout",
                               (long long)p, d, shape[d]);
            t->lane[l][d] = p;
        }
    }
    return 0;
}

void thr_extent(const struct thr *t, int64_t *ext)
{
    for (int d = 0; d < LAY_MAX_RANK; d++)
        ext[d] = 0;
    if (t->kind == THR_TV) {
        int side = t->tv.side >= 0 ? t->tv.side : t->tv.has[0] ? 0 : 1;
        for (uint32_t th = 0; th < t->tv.threads[side]; th++)
            for (uint32_t v = 0; v < t->tv.values[side]; v++) {
                int64_t m, n;
                thr_tv_coord(&t->tv, side, th, v, &m, &n);
                ext[0] = m + 1 > ext[0] ? m + 1 : ext[0];
                ext[1] = n + 1 > ext[1] ? n + 1 : ext[1];
            }
        return;
    }
    for (int l = 0; l < t->lanes && t->kind == THR_LANES; l++)
        for (int d = 0; d < t->rank && t->lane[l][0] != THR_IDLE; d++)
            ext[d] = t->lane[l][d] + 1 > ext[d] ? t->lane[l][d] + 1 : ext[d];
}
