/* recommend.c - the layout recommender (recommend.h): both patterns' logical
 * offsets step by step, every distinct valid swizzle of the tile costed over
 * every step through access.c, the ranking, the F2 optimizer's layout for the
 * pair (linear.c) costed the same way, and the padding and lane-schedule fixes.
 * Pure core: no I/O, no allocation, no JSON; it invents no cost of its own. */
#include <stdio.h>
#include <string.h>

#include "base/bits.h"
#include "linear/f2.h"
#include "linear/linear_conv.h"
#include "linear/linear_opt.h"
#include "model/pattern.h"
#include "model/presets.h"
#include "recommend.h"




uint32_t rec_apply(const struct rec_layout *l, uint32_t o)
{
    uint32_t p = 0;
    switch (l->kind) {
    case REC_SWIZZLE:
        return swz_apply(&l->z, o);
    case REC_PADDED:
        return o + o / l->interval * l->pad;
    case REC_LINEAR:
        for (int k = 0; k < l->nbits; k++)
            if (o >> k & 1)
                p ^= l->img[k];
        return p;
    }
    return o;
}

/* ---- the patterns, once ------------------------------------------------- */

int rec_default_elem(const char *const names[2])
{
    int bits = 32;
    for (int k = 0; k < 2; k++) {
        int n;
        const struct pattern *p = pattern_list(&n);
        for (int i = 0; i < n; i++)
            if (strcmp(p[i].name, names[k]) == 0) {
                if (instr_is_matrix(p[i].op))
                    return 16;
                if (p[i].bytes < 4 && (int)p[i].bytes * 8 < bits)
                    bits = (int)p[i].bytes * 8;
            }
    }
    return bits;
}

/* A TMA load writes the tile through the async proxy, not through warp
 * instructions: access.c has no cost for it (not measured here), so the
 * write side of a TMA producer counts no LSU wavefronts and only the
 * layouts TMA itself can write are candidates (swizzle_ok). */
static int is_tma(const struct rec_work *w) { return strcmp(w->names[0], REC_TMA) == 0; }

int rec_plan(struct rec_work *w, struct sz_error *err)
{
    struct swz id;
    swz_init(&id, 0, 0, 0, NULL);
    for (int k = 0; k < 2; k++) {
        struct sz_error e;
        uint32_t R;
        w->side_ok[k] = 0;
        w->steps[k] = 0;
        w->access_bytes[k] = 0;     /* a side that does not fit has no width */
        w->side_why[k][0] = 0;
        memset(&w->shape[k], 0, sizeof w->shape[k]);
        if (k == 0 && is_tma(w)) {
            w->side_ok[0] = 1;
            w->access_bytes[0] = 16;
            continue;
        }
        if (pattern_fill(w->names[k], &id, w->row_bytes, w->rows, 0, &w->shape[k], &R, &e) < 0) {
            snprintf(w->side_why[k], sizeof w->side_why[k], "%s", e.message);
            continue;
        }
        if (R > REC_MAX_STEPS)
            return sz_fail(err, SZ_INVALID_ARGUMENT, "rows",
                           "%s takes %u steps on this tile; the recommender costs every step "
                           "of both patterns, at most %d: use fewer rows", w->names[k], R,
                           REC_MAX_STEPS);
        w->shape[k].bank_bytes = w->bank_bytes;
        w->shape[k].banks = w->banks;
        w->access_bytes[k] = instr_lane_bytes(&w->shape[k]);
        for (uint32_t r = 0; r < R; r++) {
            struct instr in;
            pattern_fill(w->names[k], &id, w->row_bytes, w->rows, r, &in, &R, NULL);
            memcpy(&w->offs[k][r * INSTR_LANES], in.offsets, sizeof in.offsets);
        }
        w->steps[k] = R;
        w->side_ok[k] = 1;
        /* step r is step 0 moved by d_r = offs[r][0] ^ offs[0][0] on every lane */
        const uint32_t *o = w->offs[k];
        int tr = 1;
        for (uint32_t r = 0; r < R && tr; r++)
            for (uint32_t t = 0; t < INSTR_LANES && tr; t++)
                tr = o[r * INSTR_LANES + t] != INSTR_INACTIVE &&
                     (o[r * INSTR_LANES + t] ^ o[t]) == (o[r * INSTR_LANES] ^ o[0]);
        w->translate[k] = tr;
    }
    return 0;
}

/* ---- one side over the tile --------------------------------------------- */

static uint32_t sched_step(int sched, int shift, uint32_t r, uint32_t t, uint32_t R)
{
    uint32_t d = t >> shift;
    if (sched == 1)
        return (r + d) % R;
    if (sched == 2)
        return (r ^ d) % R;
    return r;
}

static uint32_t parts(const struct rec_work *w, int k, const struct rec_how *how)
{
    return how && how->split && how->split < w->access_bytes[k] ? w->access_bytes[k] / how->split
                                                                 : 1;
}

void rec_side_instr(const struct rec_work *w, int k, const struct rec_layout *l,
                    const struct rec_how *how, uint32_t idx, struct instr *in)
{
    static const struct rec_how plain = {0, 0, 0};
    uint32_t np = parts(w, k, how), r = idx / np, j = idx % np;
    how = how ? how : &plain;
    *in = w->shape[k];
    if (np > 1) {
        /* a piece of every lane's access: ld/st of `split` bytes */
        enum instr_op op = w->shape[k].op == INSTR_LDMATRIX ? INSTR_LD
                           : w->shape[k].op == INSTR_STMATRIX ? INSTR_ST : w->shape[k].op;
        instr_defaults(in, op);
        in->bytes = how->split;
        in->bank_bytes = w->bank_bytes;
        in->banks = w->banks;
    }
    uint32_t used = np > 1 ? INSTR_LANES : instr_used_lanes(&w->shape[k]);
    for (uint32_t t = 0; t < INSTR_LANES; t++) {
        uint32_t o = w->offs[k][sched_step(how->sched, how->shift, r, t, w->steps[k]) *
                                INSTR_LANES + t];
        in->offsets[t] = o == INSTR_INACTIVE || t >= used ? INSTR_INACTIVE
                                                         : rec_apply(l, o + j * how->split);
    }
}

/* Whether l keeps an access of `bytes` at logical offset o whole: its bytes
 * consecutive and aligned, as one vector instruction needs. */
static int whole(const struct rec_layout *l, uint32_t o, uint32_t bytes)
{
    uint32_t p = rec_apply(l, o);
    if (p % bytes)
        return 0;
    for (uint32_t i = 1; i < bytes; i *= 2)
        if (rec_apply(l, o + i) != p + i)
            return 0;
    return 1;
}

void rec_side_total(const struct rec_work *w, int k, const struct rec_layout *l,
                    const struct rec_how *how, struct rec_total *t)
{
    memset(t, 0, sizeof *t);
    if (how)
        t->how = *how;
    if (!w->side_ok[k]) {
        snprintf(t->why, sizeof t->why, "%s", w->side_why[k]);
        return;
    }
    if (k == 0 && is_tma(w)) {
        t->ok = 1;      /* no warp instruction: see is_tma */
        return;
    }
    uint32_t np = parts(w, k, how), piece = w->access_bytes[k] / np;
    t->steps = w->steps[k] * np;
    /* access.c's cost sees banks and words only through XOR-able bits
     * (word = offset >> log2(bank bytes), bank = its low bits, same-address
     * tests): XORing every lane's offset by one constant permutes words and
     * banks alike and costs the same.  A translating walk under a linear
     * layout (a swizzle, the optimizer's map) moves step 0 by L(d_r) at step
     * r, so step 0's pieces stand for every step; the others are checked
     * whole but not costed again (test_recommend compares with exhaustive). */
    int fast = !w->exhaustive && w->translate[k] && l->kind != REC_PADDED && t->how.sched == 0;
    uint32_t n = fast ? np : t->steps;
    /* Charged before the work, whole: a search stops at the same instruction
     * on every run, so an answer never depends on the machine's speed. */
    if (w->meter) {
        uint64_t units = n + (fast ? ((uint64_t)t->steps + 31) / 32 : 0);
        if (w->meter->over || w->meter->spent + units > w->meter->budget) {
            w->meter->over = 1;
            snprintf(t->why, sizeof t->why, "over the search's work budget");
            return;
        }
        w->meter->spent += units;
    }
    if (fast)
        for (uint32_t r = 0; r < w->steps[k]; r++)
            for (uint32_t j = 0; j < np; j++)
                if (!whole(l, w->offs[k][r * INSTR_LANES] + j * piece, piece)) {
                    snprintf(t->why, sizeof t->why, "the layout splits a %u-byte access: its "
                             "bytes are no longer consecutive", piece);
                    return;
                }
    for (uint32_t i = 0; i < n; i++) {
        struct instr in;
        struct acc_result res;
        struct sz_error e;
        rec_side_instr(w, k, l, how, i, &in);
        if (i == 0 || l->kind != REC_SWIZZLE)
            for (uint32_t u = 0; u < INSTR_LANES; u++) {
                uint32_t o = w->offs[k][sched_step(t->how.sched, t->how.shift, i / np, u,
                                                   w->steps[k]) * INSTR_LANES + u];
                if (o != INSTR_INACTIVE && !whole(l, o + i % np * piece, piece)) {
                    snprintf(t->why, sizeof t->why, "the layout splits a %u-byte access: its "
                             "bytes are no longer consecutive", piece);
                    return;
                }
            }
        if (instr_check(&in, &e) < 0) {
            snprintf(t->why, sizeof t->why, "%s", e.message);
            return;
        }
        acc_cost(&in, &res);
        uint64_t times = fast ? w->steps[k] : 1;
        t->wavefronts += res.wavefronts * times;
        t->ideal += res.ideal_wavefronts * times;
        t->cycles += res.cycles * times;
        if (res.wavefronts > t->worst || i == 0)
            t->worst = res.wavefronts, t->worst_step = i;
    }
    t->ok = 1;
}

static void cand_cost(const struct rec_work *w, struct rec_cand *c, const struct rec_how *how)
{
    c->ok = 1;
    c->total = c->cycles = 0;
    for (int k = 0; k < 2; k++) {
        rec_side_total(w, k, &c->lay, how ? &how[k] : NULL, &c->side[k]);
        c->ok &= c->side[k].ok;
        c->total += c->side[k].wavefronts;
        c->cycles += c->side[k].cycles;
    }
}

/* ---- the swizzles of the tile ------------------------------------------- */

/* Why Swizzle<b,m,s> cannot hold this problem's data, or NULL: it must map
 * the tile onto itself (*match: the match_bank_row of a view of the same
 * tile that draws it, or -1 when none does: a layout to paste, not to
 * show), its units must hold whole accesses and elements, and a TMA producer
 * writes only its own modes. */
static const char *swizzle_bad(const struct rec_work *w, const struct swz *z, int *match)
{
    struct swz_geom g;
    int ok = 0;
    for (int i = 0; i < 2 && !ok; i++) {
        int mt = i ? !w->cur_match : w->cur_match;
        if (swz_geom_init(&g, z, w->bank_bytes, w->banks, w->rows, mt, NULL) == 0 &&
            g.row_bytes == w->row_bytes && g.rows == w->rows)
            ok = 1, *match = mt;
    }
    if (!ok) {
        /* a power-of-two tile that every byte bit's image stays in */
        uint64_t tile = (uint64_t)w->rows * w->row_bytes;
        if (!bits_is_pow2(tile))
            return "no view of this tile draws it, and the tile is no power of two";
        for (int k = 0; ((uint64_t)1 << k) < tile; k++)
            if (swz_apply(z, 1u << k) >= tile)
                return "it moves bytes out of the tile";
        *match = -1;
    }
    if (z->b > 0) {
        uint32_t unit = 1u << z->m;
        if (unit < w->access_bytes[0] || unit < w->access_bytes[1])
            return "its units are narrower than the accesses";
        if (unit * 8 < (uint32_t)w->elem_bits)
            return "its units split an element";
        if (is_tma(w) && !(z->m == 4 && z->s == 3 && z->b <= 3) &&
            !(z->b == 2 && z->m == 5 && z->s == 2))
            return "TMA writes only Swizzle<0..3,4,3> and <2,5,2>";
    }
    return NULL;
}

/* The map of the tile a swizzle makes, as images of its byte bits: two
 * swizzles with the same images hold every byte of the tile in the same place. */
static void signature(const struct rec_work *w, const struct swz *z, uint32_t *sig, int *n)
{
    *n = bits_log2_ceil(w->rows * w->row_bytes);
    for (int k = 0; k < *n; k++)
        sig[k] = swz_apply(z, 1u << k);
}

static int add_swizzle(struct rec_work *w, int b, int m, int s, const char *origin)
{
    uint32_t (*sigs)[32] = w->sig;
    struct rec_cand *c = &w->c[w->n];
    struct swz z;
    int match = 0, n;
    if (w->n >= REC_MAX_CANDS || swz_init(&z, b, m, s, NULL) < 0 || swizzle_bad(w, &z, &match))
        return 0;
    w->tried++;
    uint32_t sig[32];
    signature(w, &z, sig, &n);
    for (int i = 0; i < w->n; i++)
        if (memcmp(sigs[i], sig, sizeof sig[0] * (size_t)n) == 0)
            return 0;
    memcpy(sigs[w->n], sig, sizeof sig);
    memset(c, 0, sizeof *c);
    c->lay.kind = REC_SWIZZLE;
    c->lay.b = b, c->lay.m = m, c->lay.s = s, c->lay.match = match, c->lay.z = z;
    c->origin = origin;
    w->n++;
    return 1;
}

/* Fewest wavefronts over the tile, then fewest cycles, then one a view of
 * the tile draws, then fewest swizzle bits; the current layout (candidate 0) when it ties on wavefronts: a tie is
 * no reason to make someone change their layout. */
static int better(const struct rec_cand *a, const struct rec_cand *b)
{
    if (a->total != b->total)
        return a->total < b->total;
    if (a->cycles != b->cycles)
        return a->cycles < b->cycles;
    if ((a->lay.match >= 0) != (b->lay.match >= 0))
        return a->lay.match >= 0;       /* one the page can show and Apply */
    return a->lay.b < b->lay.b;
}

/* ---- the F2 view --------------------------------------------------------- */

int rec_tile(const struct rec_work *w, struct lin_tile *t)
{
    uint32_t eb = (uint32_t)w->elem_bits / 8;
    if (!bits_is_pow2(w->rows) || !bits_is_pow2(w->row_bytes) || w->row_bytes < eb)
        return 0;
    t->bits0 = bits_log2_ceil(w->rows);
    t->bits1 = bits_log2_ceil(w->row_bytes / eb);
    return t->bits0 + t->bits1 <= LIN_MAX_BITS;
}

int rec_mem(const struct rec_work *w, const struct rec_layout *l, struct lin_mem *m)
{
    struct lin_tile t;
    if (l->kind == REC_PADDED || !rec_tile(w, &t))
        return 0;
    int le = bits_log2_ceil((uint32_t)w->elem_bits / 8), d = t.bits0 + t.bits1;
    struct f2_mat fwd, inv;
    /* element e sits at element offset P(e); the memory map is P's inverse */
    fwd.rows = fwd.cols = d;
    for (int k = 0; k < d; k++) {
        uint32_t p = rec_apply(l, 1u << (k + le));
        if (p & ((1u << le) - 1) || p >> (d + le))
            return 0;
        fwd.col[k] = p >> le;
    }
    for (int k = 0; k < le; k++)
        if (rec_apply(l, 1u << k) != 1u << k)
            return 0;
    if (f2_inverse(&fwd, &inv) < 0)
        return 0;
    m->n = d;
    for (int k = 0; k < d; k++)
        m->basis[k] = inv.col[k];
    return 1;
}

/* Bases of one side as elements: lane bit i, step bit j; checked on every
 * (step, lane) so that only a true linear map passes. */
static int express_side(const struct rec_work *w, int k, int le, int bits1,
                        struct lin_layout *l, char *why, size_t cap)
{
    const char *who = k ? "the read" : "the write";
    uint32_t R = w->steps[k], a = w->access_bytes[k], eb = 1u << le;
    const uint32_t *o = w->offs[k];
    if (!bits_is_pow2(R)) {
        snprintf(why, cap, "%s takes %u steps, not a power of two", who, R);
        return 0;
    }
    if (a < eb) {
        snprintf(why, cap, "%s moves %u bytes a lane, less than one %d-bit element", who, a,
                 w->elem_bits);
        return 0;
    }
    memset(l, 0, sizeof *l);
    uint32_t lane[5], step[32];
    int ns = bits_log2_ceil(R);
    for (int i = 0; i < 5; i++)
        lane[i] = o[1u << i] ^ o[0];
    for (int j = 0; j < ns; j++)
        step[j] = o[(1u << j) * INSTR_LANES] ^ o[0];
    for (uint32_t r = 0; r < R; r++)
        for (uint32_t t = 0; t < INSTR_LANES; t++) {
            uint32_t want = o[0];
            for (int i = 0; i < 5; i++)
                if (t >> i & 1)
                    want ^= lane[i];
            for (int j = 0; j < ns; j++)
                if (r >> j & 1)
                    want ^= step[j];
            if (o[r * INSTR_LANES + t] != want || o[0] != 0) {
                snprintf(why, cap, "%s is not a linear map of (step, lane): lane %u of step "
                         "%u is not the XOR of its bits' offsets", who, t, r);
                return 0;
            }
        }
    /* the vector: the access's own elements, register bits; steps are
     * instructions (warp bits), so the optimizer vectorizes no wider than the
     * patterns do */
    int v = bits_log2_ceil(a / eb);
    for (int i = 0; i < v; i++)
        l->basis[LIN_REGISTER][i] = 1u << i;
    l->n[LIN_REGISTER] = v;
    (void)bits1;
    for (int i = 0; i < 5; i++)
        l->basis[LIN_LANE][i] = lane[i] >> le;
    l->n[LIN_LANE] = 5;
    struct f2_span sp;
    f2_span_clear(&sp);
    for (int j = 0; j < ns; j++) {
        if (!f2_span_add(&sp, step[j] >> le)) {
            snprintf(why, cap, "%s's steps revisit elements (step bit %d adds none)", who, j);
            return 0;
        }
        l->basis[LIN_WARP][j] = step[j] >> le;
    }
    l->n[LIN_WARP] = ns;
    return 1;
}

int rec_express(const struct rec_work *w, struct lin_problem *p, char *why, size_t cap)
{
    memset(p, 0, sizeof *p);
    if (is_tma(w)) {
        snprintf(why, cap, "a TMA write is no warp access: the optimizer needs both sides' "
                 "lanes");
        return 0;
    }
    for (int k = 0; k < 2; k++)
        if (!w->side_ok[k]) {
            snprintf(why, cap, "%s", w->side_why[k]);
            return 0;
        }
    if (w->bank_bytes != 4) {
        snprintf(why, cap, "the optimizer models 4-byte banks; this view has %u-byte banks",
                 w->bank_bytes);
        return 0;
    }
    if (!rec_tile(w, &p->tile)) {
        snprintf(why, cap, "the tile (%u rows of %u bytes) is not a power-of-two tile of "
                 "%d-bit elements", w->rows, w->row_bytes, w->elem_bits);
        return 0;
    }
    for (int k = 0; k < 2; k++)
        if (instr_is_atomic(w->shape[k].op)) {
            snprintf(why, cap, "%s is an atomic: the optimizer costs loads and stores",
                     w->names[k]);
            return 0;
        }
    p->bitwidth = w->elem_bits;
    p->num_banks = (int)w->banks;
    p->lanes = 32;
    int le = bits_log2_ceil((uint32_t)w->elem_bits / 8);
    struct sz_error e;
    for (int k = 0; k < 2; k++) {
        struct lin_layout *l = k ? &p->b : &p->a;
        if (!express_side(w, k, le, p->tile.bits1, l, why, cap))
            return 0;
        if (lin_layout_check(&p->tile, l, 5, k ? "B" : "A", &e) < 0) {
            snprintf(why, cap, "%s: %s", k ? "the read" : "the write", e.message);
            return 0;
        }
    }
    return 1;
}

static void bound(struct rec_work *w)
{
    struct rec_bound *b = &w->bound;
    struct sz_error e;
    memset(b, 0, sizeof *b);
    memset(&w->opt, 0, sizeof w->opt);
    if (!rec_express(w, &b->p, b->why, sizeof b->why))
        return;
    if (lin_optimize(&b->p, &b->o, &e) < 0 ||
        lin_evaluate(&b->p, &b->o.mem, b->o.vec_bits, LIN_SIM_MAX, &b->sd[0], &b->sd[1], &e) < 0) {
        snprintf(b->why, sizeof b->why, "the optimizer: %s", e.message);
        return;
    }
    b->expressible = 1;
    for (int k = 0; k < 2; k++) {
        b->total[k] = (uint64_t)b->sd[k].wavefronts * b->sd[k].instructions;
        b->ideal[k] = (uint64_t)b->sd[k].lower_bound * b->sd[k].instructions;
    }
    /* its layout, costed through the patterns like every candidate */
    struct rec_layout *l = &w->opt.lay;
    struct f2_mat mem, inv;
    int le = bits_log2_ceil((uint32_t)w->elem_bits / 8), d = b->o.mem.n;
    mem.rows = mem.cols = d;
    memcpy(mem.col, b->o.mem.basis, sizeof mem.col[0] * (size_t)d);
    f2_inverse(&mem, &inv);
    l->kind = REC_LINEAR;
    l->nbits = d + le;
    for (int k = 0; k < le; k++)
        l->img[k] = 1u << k;
    for (int k = 0; k < d; k++)
        l->img[k + le] = inv.col[k] << le;
    w->opt.origin = "optimizer";
    /* a side whose accesses are wider than the optimizer's vector moves them
     * in vector-sized pieces, as the optimizer counted them */
    struct rec_how how[2];
    memset(how, 0, sizeof how);
    for (int k = 0; k < 2; k++)
        how[k].split = b->sd[k].bytes;
    cand_cost(w, &w->opt, how);
    b->usable = w->opt.ok;
}

/* ---- the other two fixes ------------------------------------------------- */

/* +pad bytes every interval bytes on the unswizzled tile: intervals from the
 * widest access to the tile, pads powers of two from a word (and the widest
 * access, so vectors stay aligned) to 128 bytes. */
static void padding(struct rec_work *w)
{
    uint32_t a = w->access_bytes[0] > w->access_bytes[1] ? w->access_bytes[0] : w->access_bytes[1];
    uint32_t eb = (uint32_t)w->elem_bits / 8, lo = a > 4 ? a : 4;
    uint64_t tile = (uint64_t)w->rows * w->row_bytes;
    struct rec_cand c;
    memset(&w->pad, 0, sizeof w->pad);
    w->npads = 0;
    if (is_tma(w))
        return;     /* TMA writes no padded layout */
    /* A side whose pattern does not fit the view has no access width (a == 0
     * would make the interval loop divide the tile by zero: issue 36), and no
     * padded layout could run it anyway: every candidate needs both sides. */
    if (!w->side_ok[0] || !w->side_ok[1] || a == 0)
        return;
    lo = lo > eb ? lo : eb;
    for (uint64_t iv = a; iv < tile && w->npads < REC_MAX_PADS; iv *= 2)
        for (uint32_t pad = lo; pad <= 128 && w->npads < REC_MAX_PADS; pad *= 2) {
            memset(&c, 0, sizeof c);
            c.lay.kind = REC_PADDED;
            c.lay.interval = (uint32_t)iv;
            c.lay.pad = pad;
            c.origin = "padding";
            c.extra_bytes = (tile / iv - 1) * pad;
            if (tile + c.extra_bytes > INSTR_SMEM_HARD_LIMIT)
                continue;
            cand_cost(w, &c, NULL);
            if (w->meter && w->meter->over)
                return;
            w->npads++;
            if (c.ok && (!w->pad.ok || c.total < w->pad.total ||
                         (c.total == w->pad.total && c.extra_bytes < w->pad.extra_bytes)))
                w->pad = c;
        }
}

/* On the current layout, lane t does step (r + (t >> k)) % R, or r ^ (t >> k)
 * when R is a power of two: every lane still moves each of its elements once,
 * in another order (the staggered schedule of JAX's Mosaic GPU).  Matrix ops
 * hand rows to fixed lanes, so they keep theirs. */
static void schedules(struct rec_work *w, const struct rec_layout *cur)
{
    for (int k = 0; k < 2; k++) {
        struct rec_total *best = &w->sched[k], t;
        rec_side_total(w, k, cur, NULL, best);
        if (!best->ok || instr_is_matrix(w->shape[k].op) || (k == 0 && is_tma(w)))
            continue;
        for (int sched = 1; sched <= 2; sched++)
            for (int shift = 0; shift < 5; shift++) {
                if (sched == 2 && !bits_is_pow2(w->steps[k]))
                    continue;
                if ((INSTR_LANES - 1) >> shift == 0)
                    continue;
                struct rec_how how = {sched, shift, 0};
                rec_side_total(w, k, cur, &how, &t);
                if (t.ok && (t.wavefronts < best->wavefronts ||
                             (t.wavefronts == best->wavefronts && t.cycles < best->cycles &&
                              best->how.sched)))
                    *best = t;
            }
    }
}

/* ---- the search ------------------------------------------------------------ */

void rec_search(struct rec_work *w)
{
    int tile_bits = bits_log2_ceil(w->rows * w->row_bytes);
    w->n = w->tried = 0;
    int mt = w->cur_match;
    memset(&w->cur_lay, 0, sizeof w->cur_lay);
    w->cur_lay.kind = REC_SWIZZLE;
    w->cur_lay.b = w->cur.b, w->cur_lay.m = w->cur.m, w->cur_lay.s = w->cur.s;
    w->cur_lay.z = w->cur, w->cur_lay.match = mt;
    w->cur_why = swizzle_bad(w, &w->cur, &mt);
    w->cur_index = add_swizzle(w, w->cur.b, w->cur.m, w->cur.s, "current") ? 0 : -1;
    for (size_t i = 0; i < presets_count; i++)   /* GET /api/presets' table */
        add_swizzle(w, presets[i].b, presets[i].m, presets[i].s, "preset");
    /* every (B,M,S) a view of the tile can draw: bits past the tile repeat a
     * smaller swizzle, so M + |S| + B stops at the tile's bits */
    for (int b = 0; b <= 10; b++)
        for (int m = 0; m + b <= tile_bits && m <= 30; m++)
            for (int as = b; m + as + b <= tile_bits; as++)
                for (int sg = 1; sg >= -1; sg -= 2) {
                    if (as == 0 && sg < 0)
                        continue;
                    if (as > 30)
                        break;
                    add_swizzle(w, b, m, sg * as, "search");
                }
    w->best = -1;
    for (int i = 0; i < w->n; i++) {
        cand_cost(w, &w->c[i], NULL);
        if (w->meter && w->meter->over)
            return;     /* partial: the caller refuses it */
        if (w->c[i].ok && (w->best < 0 || better(&w->c[i], &w->c[w->best])))
            w->best = i;
    }
    if (w->best > 0 && w->cur_index == 0 && w->c[0].ok && w->c[0].total == w->c[w->best].total)
        w->best = 0;
    bound(w);
    padding(w);
    schedules(w, &w->cur_lay);
    if (w->meter && w->meter->over)
        return;

    /* the recommendation: the best swizzle, or the optimizer's layout when it
     * costs less and keeps every access whole */
    const struct rec_cand *sw = w->best >= 0 ? &w->c[w->best] : NULL;
    const struct rec_bound *b = &w->bound;
    uint64_t bt = b->expressible ? b->total[0] + b->total[1] : 0;
    w->pick_opt = b->expressible && b->usable && (!sw || w->opt.total < sw->total);
    const struct rec_cand *r = w->pick_opt ? &w->opt : sw;
    w->reaches = r && b->expressible && r->total <= bt;
    if (!r)
        snprintf(w->verdict, sizeof w->verdict, "no layout runs both patterns on this tile");
    else if (!b->expressible)
        snprintf(w->verdict, sizeof w->verdict, "the optimizer cannot take this pair (%s): the "
                 "best of %d swizzles", b->why, w->n);
    else if (!w->pick_opt && w->reaches)
        snprintf(w->verdict, sizeof w->verdict, "a swizzle reaches the optimizer's bound of %llu "
                 "wavefronts%s", (unsigned long long)bt,
                 b->o.conflict_free ? "" : " (the bound itself is above the ideal: see bound.why)");
    else if (w->pick_opt)
        snprintf(w->verdict, sizeof w->verdict, "no Swizzle<B,M,S> that a view of this tile draws "
                 "reaches the bound (the best costs %llu, the optimizer's layout %llu): the "
                 "optimizer's layout is recommended, as offset bases", sw ?
                 (unsigned long long)sw->total : 0ull, (unsigned long long)w->opt.total);
    else
        snprintf(w->verdict, sizeof w->verdict, "nothing reaches the optimizer's bound of %llu "
                 "wavefronts: its layout %s, and the best swizzle costs %llu",
                 (unsigned long long)bt, b->usable ? "costs more through these instructions"
                 : "splits the patterns' vector accesses", (unsigned long long)r->total);
    for (int k = 0; w->pick_opt && k < 2; k++)
        if (b->sd[k].bytes < w->access_bytes[k]) {
            size_t n = strlen(w->verdict);
            snprintf(w->verdict + n, sizeof w->verdict - n, "; %s moves its %u-byte accesses "
                     "as %u-byte %s (%ux the instructions, the same bytes)", w->names[k],
                     w->access_bytes[k], b->sd[k].bytes, k ? "loads" : "stores",
                     w->access_bytes[k] / b->sd[k].bytes);
        }
    if (b->expressible && !b->o.conflict_free) {
        size_t n = strlen(w->verdict);
        snprintf(w->verdict + n, sizeof w->verdict - n, "; no layout is conflict-free: the two "
                 "sides' lane directions leave too few segment directions (Lemma 9.5), so the "
                 "optimizer took %d that conflict", b->o.n_pad);
    }
}
