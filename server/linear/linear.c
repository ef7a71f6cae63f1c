/* linear.c - the F2 view of a (store, load) pair on shared memory: validity,
 * the wavefronts of each side by the subspace formula (Linear Layouts, Zhou et
 * al., arXiv 2505.23819, Lemma 9.4) and by running every instruction through
 * the wavefront model (access.c); for the bank view, the memory by bank and the
 * very instruction a side was costed by.  The optimal layout is linear_opt.c's,
 * built on the geometry and phases this file counts with.  Pure: no I/O, no
 * allocation; it knows the hardware only through access.c and linear_hw.c. */
#include "linear.h"

#include <string.h>

#include "base/bits.h"
#include "f2.h"

static int tile_bits(const struct lin_tile *t) { return t->bits0 + t->bits1; }

uint32_t lin_elem(const struct lin_tile *t, uint32_t c0, uint32_t c1)
{
    return c0 << t->bits1 | c1;
}

void lin_coords(const struct lin_tile *t, uint32_t e, uint32_t *c0, uint32_t *c1)
{
    *c0 = e >> t->bits1;
    *c1 = e & ((1u << t->bits1) - 1);
}

static uint32_t layout_apply(const struct lin_layout *l, enum lin_in in, uint32_t x)
{
    uint32_t e = 0;
    for (int i = 0; i < l->n[in]; i++)
        if (x >> i & 1)
            e ^= l->basis[in][i];
    return e;
}

int lin_layout_check(const struct lin_tile *t, const struct lin_layout *l, int lane_bits,
                     const char *name, struct sz_error *err)
{
    static const char *const dims[LIN_NIN] = {"register", "lane", "warp"};
    uint32_t limit = 1u << tile_bits(t);
    struct f2_span s;
    f2_span_clear(&s);
    for (int in = 0; in < LIN_NIN; in++)
        for (int i = 0; i < l->n[in]; i++) {
            if (l->basis[in][i] >= limit)
                return sz_fail(err, SZ_INVALID_ARGUMENT, name, "%s.%s[%d] is outside the tile",
                               name, dims[in], i);
            f2_span_add(&s, l->basis[in][i]);
        }
    if (l->n[LIN_LANE] != lane_bits)
        return sz_fail(err, SZ_INVALID_ARGUMENT, name,
                       "%s.lane must have %d bases (%s of %d lanes), got %d", name, lane_bits,
                       lane_bits == 6 ? "a wave" : "a warp", 1 << lane_bits, l->n[LIN_LANE]);
    if (s.n != tile_bits(t))
        return sz_fail(err, SZ_INVALID_ARGUMENT, name,
                       "%s reaches 2^%d of the tile's 2^%d elements: every element must be "
                       "held by some register, lane and warp", name, s.n, tile_bits(t));
    return 0;
}

static void mem_matrix(const struct lin_tile *t, const struct lin_mem *m, struct f2_mat *out)
{
    out->rows = out->cols = tile_bits(t);
    for (int k = 0; k < out->cols; k++)
        out->col[k] = m->basis[k];
}

int lin_mem_check(const struct lin_tile *t, const struct lin_mem *m, const char *field,
                  struct sz_error *err)
{
    int d = tile_bits(t);
    if (m->n != d)
        return sz_fail(err, SZ_INVALID_ARGUMENT, field,
                       "needs one basis per offset bit: %d for a tile of 2^%d elements, got %d",
                       d, d, m->n);
    for (int k = 0; k < d; k++)
        if (m->basis[k] >> d)
            return sz_fail(err, SZ_INVALID_ARGUMENT, field, "%s[%d] is outside the tile", field,
                           k);
    struct f2_mat mat;
    mem_matrix(t, m, &mat);
    int r = f2_mat_rank(&mat);
    if (r != d)
        return sz_fail(err, SZ_INVALID_ARGUMENT, field,
                       "is not a bijection: its bases span 2^%d of 2^%d elements (two offsets "
                       "hold the same element)", r, d);
    return 0;
}

/* The hardware: a 32-lane warp on any bank count, or a 64-lane wave on the
 * LDS bank counts AMD publishes rules for (32: MI300, 64: MI350). */
static int lin_check_hw(const struct lin_problem *p, struct sz_error *err)
{
    if (p->lanes != 0 && p->lanes != 32 && p->lanes != 64)
        return sz_fail(err, SZ_INVALID_ARGUMENT, "lanes_per_wavefront",
                       "must be 32 (NVIDIA warps) or 64 (AMD waves), got %d", p->lanes);
    if (p->lanes == 64 && p->num_banks != 32 && p->num_banks != 64)
        return sz_fail(err, SZ_INVALID_ARGUMENT, "num_banks",
                       "64-lane waves are modelled on 32 banks (MI300) or 64 banks (MI350), "
                       "the LDS whose phase rules are published; got %d", p->num_banks);
    return 0;
}

int lin_problem_check(const struct lin_problem *p, struct sz_error *err)
{
    if (lin_check_hw(p, err) < 0 ||
        lin_layout_check(&p->tile, &p->a, lin_lane_bits(p->lanes), "A", err) < 0 ||
        lin_layout_check(&p->tile, &p->b, lin_lane_bits(p->lanes), "B", err) < 0)
        return -1;
    return 0;
}

/* ---- evaluation ---------------------------------------------------------- */

/* The geometry one side's accesses see.  Offsets are counted in elements; the
 * low `unit` offset bits stay inside one access unit (the vector, or the 32-bit
 * word when the vector is narrower), the next `bank` bits pick its banks and
 * the rest, the segment, are what collide:
 *
 *   offset bit:  d-1 .. unit+bank | unit+bank-1 .. unit | unit-1 .. vec | vec-1 .. 0
 *                segment          | bank                | word fill     | vector    */
struct geom {
    int d, vec, unit, bank;
    uint32_t bytes;             /* per lane access */
    uint32_t lpp;               /* lanes per phase before pairing */
};

static void side_geom(const struct lin_problem *p, int vec_bits, struct geom *g)
{
    int w = p->bitwidth;
    g->d = tile_bits(&p->tile);
    g->vec = vec_bits;
    g->unit = vec_bits;
    if (w < 32 && g->unit < bits_log2_ceil((uint32_t)(32 / w)))
        g->unit = bits_log2_ceil((uint32_t)(32 / w));
    if (g->unit > g->d)
        g->unit = g->d;
    g->bytes = (uint32_t)((w << vec_bits) / 8);
    uint32_t unit_bytes = (uint32_t)((w << g->unit) / 8), row = 4u * (uint32_t)p->num_banks;
    g->bank = bits_log2_ceil(row / (unit_bytes ? unit_bytes : 1));
    if (g->bank > g->d - g->unit)
        g->bank = g->d - g->unit;
    uint32_t lpp = row / (g->bytes ? g->bytes : 1);
    g->lpp = lpp == 0 ? 1 : lpp > INSTR_LANES ? INSTR_LANES : lpp;
}

/* The lanes of one phase, as lane-index vectors, for one side: the rule of
 * linear_hw.c, plus, on NVIDIA, access.c rule 3: 8- and 16-byte loads whose
 * lanes t, t^1 (or t, t^2) all share an address are served in half the
 * phases (the next lane bit joins phase 0).  `paired` says whether it did. */
static void side_phase(const struct lin_problem *p, const struct lin_layout *l, int is_load,
                       const struct f2_span *vec, const struct geom *g, struct lin_phase *ph,
                       int *paired)
{
    lin_phase_rule(p->lanes, p->num_banks, g->bytes, is_load, ph);
    *paired = 0;
    if (p->lanes != 64 && is_load && g->bytes >= 8 && g->lpp < INSTR_LANES &&
        (f2_in_span(vec, l->basis[LIN_LANE][0]) || f2_in_span(vec, l->basis[LIN_LANE][1]))) {
        ph->lane[ph->n] = 1u << ph->n;
        ph->n++;
        *paired = 1;
    }
}

/* The optimizer (linear_opt.c) builds its layout on the same geometry and
 * phases the evaluation counts with: these two expose them. */
int lin_bank_bits(const struct lin_problem *p, int vec_bits)
{
    struct geom g;
    side_geom(p, vec_bits, &g);
    return g.bank;
}

int lin_phase_dirs(const struct lin_problem *p, const struct lin_layout *l, int is_load,
                   const struct f2_span *vec, int vec_bits, uint32_t *dirs)
{
    struct geom g;
    struct lin_phase ph;
    int paired;
    side_geom(p, vec_bits, &g);
    side_phase(p, l, is_load, vec, &g, &ph, &paired);
    for (int i = 0; i < ph.n; i++)
        dirs[i] = layout_apply(l, LIN_LANE, ph.lane[i]);
    return ph.n;
}

/* The formula for one side.  A phase's lanes form a subspace T (phase 0;
 * the others are its cosets and cost the same); the words it touches are T's
 * image in the offset space with the unit bits dropped, and a bank holds 2^k
 * distinct words where k is the dimension of that image's intersection with
 * the segment bits (seed 001 sec. 05). */
static void side_formula(const struct lin_problem *p, const struct lin_layout *l, int is_load,
                         const struct f2_mat *mem, const struct f2_mat *inv,
                         const struct geom *g, struct lin_side *s)
{
    uint32_t t[LIN_MAX_BASES], low[LIN_MAX_BASES], seg[LIN_MAX_BITS], tr[LIN_MAX_BASES];
    struct f2_span vec;
    f2_span_clear(&vec);
    for (int k = 0; k < g->vec; k++)
        f2_span_add(&vec, mem->col[k]);
    side_phase(p, l, is_load, &vec, g, &s->phase, &s->paired);
    int pb = s->phase.n;
    s->bytes = g->bytes;
    s->lanes_per_phase = 1u << pb;
    s->phases = (1u << s->phase.lane_bits) >> pb;
    s->lower_bound = s->phases;
    uint32_t bank_mask = (1u << g->bank) - 1;
    for (int i = 0; i < pb; i++) {
        tr[i] = layout_apply(l, LIN_LANE, s->phase.lane[i]);
        t[i] = f2_apply(inv, tr[i]) >> g->unit;
        low[i] = t[i] & bank_mask;
    }
    s->conflict_dim = f2_rank(t, pb) - f2_rank(low, pb);
    s->formula = s->phases << s->conflict_dim;
    int hs = g->d - g->unit - g->bank;
    for (int j = 0; j < hs; j++)
        low[j] = 1u << (g->bank + j);
    uint32_t inter[F2_MAX];
    s->n_conflict = f2_intersect(t, pb, low, hs, inter);
    for (int i = 0; i < s->n_conflict; i++)
        s->conflict[i] = f2_apply(mem, inter[i] << g->unit);
    /* Lemma 9.4 as the paper states it, on element space: exact when no lane
     * direction mixes unit bits with segment bits (seed 001's 32-bit case). */
    for (int j = 0; j < hs; j++)
        seg[j] = s->seg[j] = mem->col[g->unit + g->bank + j];
    s->n_seg = hs;
    s->n_thr = pb;
    memcpy(s->thr, tr, sizeof tr[0] * (size_t)pb);
    s->lemma_dim = f2_intersect(tr, pb, seg, hs, inter);
    s->lemma = s->phases << s->lemma_dim;
}

/* The instructions of a side: one per coset of the vector in the register
 * span, times one per warp.  Index bits beyond the vector registers and the
 * distinct warp bases; broadcast (zero or repeated) bases add none. */
static int instr_bases(const struct lin_layout *l, const struct f2_mat *mem, int vec,
                       uint32_t *out)
{
    struct f2_span s;
    int n = 0;
    f2_span_clear(&s);
    for (int k = 0; k < vec; k++)
        f2_span_add(&s, mem->col[k]);
    for (int i = 0; i < l->n[LIN_REGISTER]; i++)
        if (f2_span_add(&s, l->basis[LIN_REGISTER][i]))
            out[n++] = l->basis[LIN_REGISTER][i];
    struct f2_span w;
    f2_span_clear(&w);
    for (int i = 0; i < l->n[LIN_WARP]; i++)
        if (f2_span_add(&w, l->basis[LIN_WARP][i]))
            out[n++] = l->basis[LIN_WARP][i];
    return n;
}

/* Lane t's byte address in instruction `idx` of a side: the element its
 * registers 0..2^vec-1 hold there, e0 ^ lane(t), through the inverse memory
 * map, rounded down to its vector (one access moves the whole vector). */
static void side_addrs(const struct lin_problem *p, const struct lin_layout *l,
                       const struct f2_mat *inv, const struct geom *g, const uint32_t *ib, int ni,
                       uint64_t idx, uint32_t nlanes, uint32_t *addr)
{
    uint32_t e0 = 0;
    for (int i = 0; i < ni; i++)
        if (idx >> i & 1)
            e0 ^= ib[i];
    for (uint32_t t = 0; t < nlanes; t++) {
        uint32_t o = f2_apply(inv, e0 ^ layout_apply(l, LIN_LANE, t));
        addr[t] = (uint32_t)((uint64_t)(o >> g->vec << g->vec) * (uint64_t)p->bitwidth / 8);
    }
}

/* The ld or st of `bytes` per lane on p's banks: what acc_cost is asked. */
static void side_instr(const struct lin_problem *p, int is_load, const struct geom *g,
                       const uint32_t *addr, struct instr *in)
{
    instr_defaults(in, is_load ? INSTR_LD : INSTR_ST);
    in->bytes = g->bytes;
    in->banks = (uint32_t)p->num_banks;
    memcpy(in->offsets, addr, sizeof in->offsets);
}

static void side_simulate(const struct lin_problem *p, const struct lin_layout *l, int is_load,
                          const struct f2_mat *inv, const struct f2_mat *mem,
                          const struct geom *g, uint32_t sim_max, struct lin_side *s)
{
    uint32_t ib[2 * LIN_MAX_BASES];
    int ni = instr_bases(l, mem, g->vec, ib);
    uint64_t count = (uint64_t)1 << ni;
    s->instructions = count > UINT32_MAX ? UINT32_MAX : (uint32_t)count;
    s->simulated = 0;
    s->wavefronts = 0;
    s->wavefronts_min = UINT32_MAX;
    s->worst = 0;
    uint64_t lcg = 0x2545F4914F6CDD1Dull;
    for (uint64_t k = 0; k < count && s->simulated < sim_max; k++) {
        /* past sim_max, a deterministic spread: the first, the last, then random */
        uint64_t idx = k;
        if (count > sim_max) {
            lcg = lcg * 6364136223846793005ull + 1442695040888963407ull;
            idx = k == 0 ? 0 : k == 1 ? count - 1 : (lcg >> 11) % count;
        }
        uint32_t addr[64], wf;
        side_addrs(p, l, inv, g, ib, ni, idx, 1u << s->phase.lane_bits, addr);
        if (s->phase.published) {
            /* a 64-lane wave: the published phase tables (linear_hw.c) */
            wf = lin_sim_published(&s->phase, p->num_banks, addr, g->bytes);
        } else {
            struct instr in;
            struct acc_result r;
            side_instr(p, is_load, g, addr, &in);
            acc_cost(&in, &r);
            wf = r.wavefronts;
        }
        if (wf > s->wavefronts || s->simulated == 0)
            s->worst = idx;
        if (wf > s->wavefronts)
            s->wavefronts = wf;
        if (wf < s->wavefronts_min)
            s->wavefronts_min = wf;
        s->simulated++;
    }
    s->undercounts = s->lemma < s->wavefronts;
}

int lin_evaluate(const struct lin_problem *p, const struct lin_mem *m, int vec_bits,
                 uint32_t sim_max, struct lin_side *store, struct lin_side *load,
                 struct sz_error *err)
{
    struct f2_mat mem, inv;
    int w = p->bitwidth;
    if (lin_problem_check(p, err) < 0)
        return -1;
    if (lin_mem_check(&p->tile, m, "swizzle_offset_bases", err) < 0)
        return -1;
    if (vec_bits < 0 || (w << vec_bits) > (int)SZ_MAX_LANE_BYTES * 8 || (w << vec_bits) < 8)
        return sz_fail(err, SZ_INVALID_ARGUMENT, "vec",
                       "vec x bitwidth must be 8..128 bits (an access of 1..16 bytes), got "
                       "%d x %d", 1 << (vec_bits < 0 ? 0 : vec_bits), w);
    if (vec_bits > m->n)
        return sz_fail(err, SZ_INVALID_ARGUMENT, "vec", "is larger than the tile");
    mem_matrix(&p->tile, m, &mem);
    f2_inverse(&mem, &inv);
    const struct lin_layout *side[2] = {&p->a, &p->b};
    for (int k = 0; k < 2; k++) {
        struct f2_span regs;
        f2_span_of(&regs, side[k]->basis[LIN_REGISTER], side[k]->n[LIN_REGISTER]);
        for (int j = 0; j < vec_bits; j++)
            if (!f2_in_span(&regs, mem.col[j]))
                return sz_fail(err, SZ_INVALID_ARGUMENT, "vec",
                               "%s's registers do not hold offset bit %d of the vector: a "
                               "lane's 2^%d elements must be contiguous in memory", k ? "B" : "A",
                               j, vec_bits);
    }
    struct geom g;
    side_geom(p, vec_bits, &g);
    struct lin_side *out[2] = {store, load};
    for (int k = 0; k < 2; k++) {
        memset(out[k], 0, sizeof *out[k]);
        side_formula(p, side[k], k, &mem, &inv, &g, out[k]);
        side_simulate(p, side[k], k, &inv, &mem, &g, sim_max, out[k]);
    }
    return 0;
}

/* ---- the bank view ------------------------------------------------------- */

/* Offsets count elements; a bank word is 32 bits:
 *
 *   byte(p) = p * bitwidth / 8      bank(p) = byte(p) / 4 mod num_banks
 *
 * so a bank row holds num_banks * 32 / bitwidth elements. */
void lin_bank_geom(const struct lin_problem *p, struct lin_banks *b)
{
    uint32_t w = (uint32_t)p->bitwidth, nb = (uint32_t)p->num_banks;
    uint64_t bits = ((uint64_t)1 << tile_bits(&p->tile)) * w, row = 32ull * nb;
    b->per_bank = w < 32 ? 32 / w : 1;
    b->spanned = w > 32 ? w / 32 : 1;
    b->per_row = nb * 32 / w;
    b->rows = (uint32_t)((bits + row - 1) / row);
}

uint32_t lin_elem_at(const struct lin_tile *t, const struct lin_mem *m, uint32_t offset)
{
    uint32_t e = 0;
    for (int k = 0; k < m->n && k < tile_bits(t); k++)
        if (offset >> k & 1)
            e ^= m->basis[k];
    return e;
}

uint32_t lin_bank_of(const struct lin_problem *p, uint32_t offset)
{
    uint64_t byte = (uint64_t)offset * (uint64_t)p->bitwidth / 8;
    return (uint32_t)(byte / 4 % (uint64_t)p->num_banks);
}

uint32_t lin_side_addrs(const struct lin_problem *p, const struct lin_mem *m, int vec_bits,
                        int is_load, uint64_t idx, uint32_t *addr, uint32_t *bytes)
{
    struct f2_mat mem, inv;
    struct geom g;
    uint32_t ib[2 * LIN_MAX_BASES], n = 1u << lin_lane_bits(p->lanes);
    const struct lin_layout *l = is_load ? &p->b : &p->a;
    mem_matrix(&p->tile, m, &mem);
    f2_inverse(&mem, &inv);
    side_geom(p, vec_bits, &g);
    int ni = instr_bases(l, &mem, g.vec, ib);
    side_addrs(p, l, &inv, &g, ib, ni, idx, n, addr);
    *bytes = g.bytes;
    return n;
}

int lin_side_instr(const struct lin_problem *p, const struct lin_mem *m, int vec_bits,
                   int is_load, uint64_t idx, struct instr *in, struct sz_error *err)
{
    if (lin_lane_bits(p->lanes) != 5)
        return sz_fail(err, SZ_INVALID_ARGUMENT, "lanes_per_wavefront",
                       "access.c models 32-lane NVIDIA warps; a 64-lane wave follows the "
                       "published tables (lin_published_detail)");
    uint32_t addr[64];
    struct geom g;
    side_geom(p, vec_bits, &g);
    lin_side_addrs(p, m, vec_bits, is_load, idx, addr, &g.bytes);
    side_instr(p, is_load, &g, addr, in);
    return 0;
}

uint32_t lin_touched(const struct lin_problem *p, const struct lin_mem *m, const uint32_t *addr,
                     uint32_t nlanes, uint32_t bytes, const int *lane_phase,
                     struct lin_touch *out)
{
    uint32_t n = 0, per = bytes * 8 / (uint32_t)p->bitwidth;
    for (uint32_t t = 0; t < nlanes; t++) {
        if (lane_phase[t] < 0 || addr[t] == INSTR_INACTIVE)
            continue;
        uint32_t first = (uint32_t)((uint64_t)addr[t] * 8 / (uint64_t)p->bitwidth);
        for (uint32_t k = 0; k < per; k++) {
            uint32_t o = first + k, i = 0;
            /* lanes sharing a vector meet on the same slots: at most 2048
             * slots, so a linear look-up costs less than sorting them */
            while (i < n && out[i].offset != o)
                i++;
            if (i == n && n < LIN_TOUCH_MAX) {
                out[n].offset = o;
                out[n].elem = lin_elem_at(&p->tile, m, o);
                out[n].phase = lane_phase[t];
                out[n].lanes = 0;
                n++;
            }
            if (i < n)
                out[i].lanes |= 1ull << t;
        }
    }
    return n;
}

void lin_plain_view(const struct lin_problem *p, uint32_t bytes, struct lin_plain *v)
{
    struct lin_banks bk;
    uint32_t row = 4u * (uint32_t)p->num_banks, units = row / (bytes ? bytes : 1);
    lin_bank_geom(p, &bk);
    v->b = 0;
    v->m = bits_log2_ceil(bytes);
    v->s = 3;
    v->rows = bk.rows ? bk.rows : 1;
    if ((uint64_t)v->rows * units > (1u << 20))
        v->rows = (1u << 20) / units;
}
