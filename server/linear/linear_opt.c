/* linear_opt.c - the optimal memory layout for a (store, load) pair: the
 * construction of Linear Layouts (Zhou et al., arXiv 2505.23819, sec. 5.4 and
 * Lemmas 9.4-9.5; Triton lib/Tools/GenericSwizzling.cpp) in subspace form.  It
 * costs nothing itself: the geometry and phases are linear.c's, and the API
 * costs the layout it builds with lin_evaluate.  Pure: no I/O, no allocation. */
#include "linear_opt.h"

#include <string.h>

#include "base/bits.h"
#include "f2.h"

/* Add the candidates v[0..n) to `s` in order while fewer than `want` were
 * taken; the taken ones go to out. */
static int take(struct f2_span *s, const uint32_t *v, int n, int want, uint32_t *out)
{
    int k = 0;
    for (int i = 0; i < n && k < want; i++)
        if (f2_span_add(s, v[i]))
            out[k++] = v[i];
    return k;
}

int lin_optimize(const struct lin_problem *p, struct lin_opt *o, struct sz_error *err)
{
    const struct lin_layout *A = &p->a, *B = &p->b;
    int d = p->tile.bits0 + p->tile.bits1, w = p->bitwidth;
    uint32_t v0[F2_MAX], tmp[F2_MAX];
    struct f2_span s, v0s;
    memset(o, 0, sizeof *o);
    if (lin_problem_check(p, err) < 0)
        return -1;

    /* 1. Vector: only directions both sides hold in registers, as wide as a
     *    16-byte access allows; A's register order first (fewest permutes). */
    int nv0 = f2_intersect(A->basis[LIN_REGISTER], A->n[LIN_REGISTER], B->basis[LIN_REGISTER],
                           B->n[LIN_REGISTER], v0);
    f2_span_of(&v0s, v0, nv0);
    int vmax = bits_log2_ceil((uint32_t)(SZ_MAX_LANE_BYTES * 8 / w));
    uint32_t *basis = o->mem.basis;
    int nb = 0;
    f2_span_clear(&s);
    for (int k = 0; k < 3 && nb < vmax; k++) {
        const uint32_t *c = k == 0 ? A->basis[LIN_REGISTER] : k == 1 ? B->basis[LIN_REGISTER] : v0;
        int n = k == 0 ? A->n[LIN_REGISTER] : k == 1 ? B->n[LIN_REGISTER] : nv0;
        for (int i = 0; i < n && nb < vmax; i++)
            if (f2_in_span(&v0s, c[i]) && f2_span_add(&s, c[i]))
                basis[nb++] = c[i];
    }
    o->vec_bits = nb;
    if ((w << nb) < 8)
        return sz_fail(err, SZ_INVALID_ARGUMENT, "bitwidth",
                       "%d-bit elements need a register direction that A and B share: shared "
                       "memory has no access narrower than a byte", w);
    struct f2_span vec = s;

    /* 2. Sub-word elements: fill the 32-bit word, registers first (a side
     *    holding them stores whole words; the other reads them as broadcast). */
    int fill = (w << nb) < 32 ? bits_log2_ceil((uint32_t)(32 / (w << nb))) : 0;
    if (fill > d - nb)
        fill = d - nb;
    const struct lin_layout *both[2] = {A, B};
    for (int in = 0; in < LIN_NIN && o->fill_bits < fill; in++)
        for (int k = 0; k < 2; k++)
            o->fill_bits += take(&s, both[k]->basis[in], both[k]->n[in], fill - o->fill_bits,
                                 basis + nb + o->fill_bits);
    for (int b = 0; b < d && o->fill_bits < fill; b++)
        o->fill_bits += take(&s, &(uint32_t){1u << b}, 1, 1, basis + nb + o->fill_bits);
    nb += o->fill_bits;
    struct f2_span unit = s;        /* U: vector + fill, the directions inside a unit */

    /* 3. Budgets: bank bits fill one bank row, the rest are segment bits. */
    o->bank_bits = lin_bank_bits(p, o->vec_bits);
    o->seg_bits = d - nb - o->bank_bits;

    /* 4. The lane directions of one phase, modulo U, for each side. */
    uint32_t da[8], db[8];
    int pa = lin_phase_dirs(p, A, 0, &vec, o->vec_bits, da);
    int pbl = lin_phase_dirs(p, B, 1, &vec, o->vec_bits, db);
    struct f2_span sa = unit, sb = unit;
    for (int i = 0; i < pa; i++)
        f2_span_add(&sa, da[i]);
    for (int i = 0; i < pbl; i++)
        f2_span_add(&sb, db[i]);
    uint32_t ib[F2_MAX], e[F2_MAX], f[F2_MAX], c[F2_MAX], seg[F2_MAX];
    int ni = f2_intersect(sa.v, sa.n, sb.v, sb.n, ib);
    o->n_shared = ni - unit.n;      /* I: lane directions of both, protected */
    struct f2_span si;
    f2_span_of(&si, ib, ni);
    struct f2_span t = si;
    int ne = take(&t, da, pa, F2_MAX, e);   /* E: A-only */
    t = si;
    int nf = take(&t, db, pbl, F2_MAX, f);  /* F: B-only */
    struct f2_span all = sa;
    for (int i = 0; i < sb.n; i++)
        f2_span_add(&all, sb.v[i]);
    int order[F2_MAX];
    for (int b = 0; b < d; b++)
        order[b] = d - 1 - b;       /* free directions: the highest (row) bits first */
    int nc = f2_complement(&all, d, order, c);

    /* 5. Segment: free directions, then pairs e ^ f (each changes A's and B's
     *    lane at once, so neither side sees two lanes in one bank), then, when
     *    that is not enough, unpaired lane directions (the fewest conflicts). */
    struct f2_span ss = unit;
    int ns = 0, want = o->seg_bits;
    o->n_free = take(&ss, c, nc, want, seg);
    ns = o->n_free;
    int np = ne < nf ? ne : nf;
    for (int i = 0; i < np && ns < want; i++)
        if (f2_span_add(&ss, e[i] ^ f[i])) {
            seg[ns++] = e[i] ^ f[i];
            o->n_pairs++;
        }
    int before = ns;
    ns += take(&ss, ne > nf ? e + np : f + np, ne > nf ? ne - np : nf - np, want - ns, seg + ns);
    for (int b = d - 1; b >= 0 && ns < want; b--)
        ns += take(&ss, &(uint32_t){1u << b}, 1, 1, seg + ns);
    o->n_pad = ns - before;
    o->conflict_free = o->n_pad == 0;
    struct f2_span segs;
    f2_span_of(&segs, seg, ns);
    f2_span_canon(&segs);

    /* 6. Banks last: any completion costs nothing (only the segment is in the
     *    lemma); unit vectors from the lowest bit keep it close to row-major. */
    s = unit;
    for (int i = 0; i < segs.n; i++)
        f2_span_add(&s, segs.v[i]);
    int nbk = f2_complement(&s, d, NULL, tmp);
    memcpy(basis + nb, tmp, sizeof tmp[0] * (size_t)nbk);
    memcpy(basis + nb + nbk, segs.v, sizeof segs.v[0] * (size_t)segs.n);
    o->mem.n = nb + nbk + segs.n;
    return 0;
}
