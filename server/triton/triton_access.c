/* triton_access.c - one Triton shared-memory op's cost (triton_access.h).
 * Elements are flattened row-major (the last dim fastest) into linear.c's
 * 2-D tile; both layouts are flattened the same way, so every span and
 * intersection below is Triton's.  Triton's choices are reproduced from
 * their definitions (LayoutUtils.cpp largestVectorisation, GenericSwizzling.cpp
 * bankConflicts), not copied.  Pure: no I/O, no allocation. */
#include "triton_access.h"

#include <stdio.h>
#include <string.h>

#include "model/access.h"
#include "base/bits.h"
#include "linear/f2.h"
#include "model/instr.h"
#include "linear/linear_conv.h"

static int span_rank(const uint32_t *b, int n);

/* Row-major index of a coordinate. */
static uint32_t flat(const int32_t *c, const int64_t *shape, int rank)
{
    uint32_t v = 0;
    int sh = 0;
    for (int d = rank - 1; d >= 0; d--) {
        v |= (uint32_t)c[d] << sh;
        sh += bits_log2_ceil((uint32_t)shape[d]);
    }
    return v;
}

/* The XOR of cols[j] over the set bits j of x: a linear map applied. */
static uint32_t xor_cols(const uint32_t *cols, uint32_t x)
{
    uint32_t o = 0;
    for (int j = 0; x; j++, x >>= 1)
        if (x & 1)
            o ^= cols[j];
    return o;
}

/* off(e): the offset holding element e, through the inverse of the offset bases. */
static uint32_t off_of(const struct f2_mat *inv, uint32_t e)
{
    return xor_cols(inv->col, e);
}

/* Triton's largestVectorisation: the largest v <= 128 bits of elements whose
 * offsets 1, 2, ... v/2 are register bases (each used once), while no other
 * basis touches those low offset bits. */
static int vectorisation(const uint32_t *reg, int nreg, const uint32_t *other, int nother,
                         int bits, int64_t cap, int *used_out)
{
    for (int v = 128 / bits; v >= 1; v /= 2) {
        if (v > cap)
            continue;
        int lv = bits_log2_ceil((uint32_t)v), used[LIN_MAX_BASES] = {0}, ok = 1;
        for (int i = 0; i < lv && ok; i++) {
            ok = 0;
            for (int j = 0; j < nreg && !ok; j++)
                if (!used[j] && reg[j] == (1u << i))
                    used[j] = 1, ok = 1;
        }
        for (int j = 0; j < nreg && ok; j++)
            if (!used[j] && (reg[j] & (uint32_t)(v - 1)))
                ok = 0;
        for (int j = 0; j < nother && ok; j++)
            if (other[j] & (uint32_t)(v - 1))
                ok = 0;
        if (ok) {
            memcpy(used_out, used, sizeof used);
            return v;
        }
    }
    return 1;
}

/* Gluon's bank_conflicts: 2^dim(segment span ∩ first-phase lane span) - 1. */
static int gluon_conflicts(const struct lin_mem *m, const uint32_t *lane, int nlane, int vec,
                           int bits, int num_banks)
{
    int64_t total = (int64_t)1 << m->n;
    int64_t bank = (int64_t)num_banks * 32 / ((int64_t)vec * bits);
    if (bank > total)
        bank = total;
    if (bank < 1)
        bank = 1;
    int start = bits_log2_ceil((uint32_t)vec) + bits_log2_ceil((uint32_t)bank);
    uint32_t seg[LIN_MAX_BITS], both[LIN_MAX_BITS];
    int nseg = 0;
    for (int k = start; k < m->n; k++)
        seg[nseg++] = m->basis[k];
    int vbits = (int)((int64_t)vec * bits / 32);
    int log2vec = bits_log2_ceil(vbits > 1 ? (uint32_t)vbits : 1u);
    int phase = log2vec + nlane - bits_log2_ceil((uint32_t)num_banks);
    if (phase < 0)
        phase = 0;
    int ntile = nlane - phase > 0 ? nlane - phase : 0;
    return (1 << f2_intersect(seg, nseg, lane, ntile, both)) - 1;
}

/* d's 2-D view for linear.c: its dims before the last flattened into rows,
 * its bases as row-major element indices (p->a; p->b the same). */
static int problem(const struct td_layout *d, int bits, int num_banks, struct lin_problem *p,
                   struct sz_error *err)
{
    int rank = d->rank;
    memset(p, 0, sizeof *p);
    p->tile.bits1 = bits_log2_ceil((uint32_t)d->shape[rank - 1]);
    p->tile.bits0 = 0;
    for (int i = 0; i + 1 < rank; i++)
        p->tile.bits0 += bits_log2_ceil((uint32_t)d->shape[i]);
    if (p->tile.bits0 + p->tile.bits1 > LIN_MAX_BITS)
        return sz_fail(err, SZ_INVALID_ARGUMENT, "shape", "at most 2^%d elements", LIN_MAX_BITS);
    if (d->n[TLL_LANE] != 5 && d->n[TLL_LANE] != 6)
        return sz_fail(err, SZ_INVALID_ARGUMENT, "layout",
                       "a warp of %d lanes is not modelled (32, or 64 for an AMD wave)",
                       d->lanes);
    for (int in = 0; in < LIN_NIN; in++)
        if (d->n[in] > LIN_MAX_BASES)
            return sz_fail(err, SZ_INVALID_ARGUMENT, "layout", "more than %d bases",
                           LIN_MAX_BASES);
    p->bitwidth = bits;
    p->num_banks = num_banks;
    p->lanes = d->n[TLL_LANE] == 6 ? 64 : 32;
    for (int in = 0; in < LIN_NIN; in++) {
        p->a.n[in] = d->n[in];
        for (int i = 0; i < d->n[in]; i++)
            p->a.basis[in][i] = flat(d->b[in][i], d->shape, rank);
    }
    p->b = p->a;
    return 0;
}

int triton_access_cost(const struct td_layout *d, const struct tsh_layout *s, int bits,
                       int is_load, int num_banks, struct tac_result *out, struct sz_error *err)
{
    memset(out, 0, sizeof *out);
    if (d->rank != s->rank || memcmp(d->shape, s->shape, sizeof(int64_t) * (size_t)d->rank))
        return sz_fail(err, SZ_INVALID_ARGUMENT, "shape",
                       "the tensor and the shared buffer have different shapes");
    if (bits != 8 && bits != 16 && bits != 32 && bits != 64)
        return sz_fail(err, SZ_INVALID_ARGUMENT, "element_bits", "must be 8, 16, 32 or 64, got %d",
                       bits);
    int rank = d->rank;
    struct lin_problem *p = &out->prob;
    if (problem(d, bits, num_banks, p, err) < 0)
        return -1;
    out->lanes = p->lanes;
    p->b = p->a;
    struct lin_mem *m = &out->mem;
    m->n = s->n;
    for (int k = 0; k < s->n; k++)
        m->basis[k] = flat(s->b[k], s->shape, rank);
    struct f2_mat fwd = {.rows = m->n, .cols = m->n}, inv;
    for (int k = 0; k < m->n; k++)
        fwd.col[k] = m->basis[k];
    if (f2_inverse(&fwd, &inv) < 0)
        return sz_fail(err, SZ_INVALID_ARGUMENT, "shared", "the shared layout is not one to one");
    /* offsets of the non-broadcast registers, and of everything else */
    uint32_t reg[LIN_MAX_BASES], other[3 * LIN_MAX_BASES];
    int nreg = 0, nother = 0;
    for (int i = 0; i < p->a.n[LIN_REGISTER]; i++)
        if (p->a.basis[LIN_REGISTER][i])
            reg[nreg++] = off_of(&inv, p->a.basis[LIN_REGISTER][i]);
    for (int in = LIN_LANE; in < LIN_NIN; in++)
        for (int i = 0; i < p->a.n[in]; i++)
            other[nother++] = off_of(&inv, p->a.basis[in][i]);
    /* padded: a vector may not cross a padding, nor lose its alignment to one */
    int64_t cap = INT64_MAX;
    for (int i = 0; i < s->npad; i++) {
        if (s->interval[i] < cap)
            cap = s->interval[i];
        if (s->pad[i] < cap)
            cap = s->pad[i];
    }
    int used[LIN_MAX_BASES];
    out->vec_elems = vectorisation(reg, nreg, other, nother, bits, cap, used);
    out->vec_bits = bits_log2_ceil((uint32_t)out->vec_elems);
    out->bytes = (uint32_t)(out->vec_elems * bits / 8);
    out->triton_conflicts =
        s->npad ? -1
                : gluon_conflicts(m, p->a.basis[LIN_LANE], p->a.n[LIN_LANE], out->vec_elems, bits,
                                  num_banks);
    if (!s->npad) {
        struct lin_side st, ld;
        if (lin_evaluate(p, m, out->vec_bits, TAC_LIN_SIM, &st, &ld, err) < 0)
            return -1;
        out->side = is_load ? ld : st;
        out->linear = 1;
        out->wavefronts = out->side.wavefronts;
        out->ideal = out->side.lower_bound;
        out->instructions = out->side.instructions;
        /* lin_evaluate counts one per register coset per distinct warp: a
         * warp issues the register cosets (issue 39 item 2) */
        out->per_warp = out->instructions >> span_rank(p->a.basis[LIN_WARP], p->a.n[LIN_WARP]);
        return 0;
    }
    /* padded: each instruction simulated, one register group of the vector
     * at a time, lane t at its element's padded offset */
    if (p->lanes != 32)
        return sz_fail(err, SZ_INVALID_ARGUMENT, "layout",
                       "padded layouts are costed for 32-lane warps only");
    uint32_t rest[LIN_MAX_BASES];
    int nrest = 0;
    for (int j = 0; j < nreg; j++)
        if (!used[j])
            rest[nrest++] = reg[j];
    out->instructions = 1u << nrest;
    out->per_warp = out->instructions;
    uint32_t sim = out->instructions < TAC_SIM_MAX ? out->instructions : TAC_SIM_MAX;
    for (uint32_t idx = 0; idx < sim; idx++) {
        uint32_t base = 0;
        for (int j = 0; j < nrest; j++)
            if (idx >> j & 1)
                base ^= rest[j];
        struct instr in = {.op = is_load ? INSTR_LD : INSTR_ST, .bytes = out->bytes,
                           .matrices = 1, .bank_bytes = 4, .banks = (uint32_t)num_banks};
        for (uint32_t t = 0; t < 32; t++) {
            uint32_t o = base;
            for (int i = 0; i < 5; i++)
                if (t >> i & 1)
                    o ^= off_of(&inv, p->a.basis[LIN_LANE][i]);
            in.offsets[t] = (uint32_t)(triton_shared_padded(s, o) * bits / 8);
        }
        struct acc_result r;
        acc_cost(&in, &r);
        if (r.wavefronts > out->wavefronts)
            out->wavefronts = r.wavefronts, out->ideal = r.ideal_wavefronts;
    }
    return 0;
}

/* Row-major index -> coordinate. */
static void unflat(uint32_t e, const int64_t *shape, int rank, int32_t *c)
{
    for (int d = rank - 1; d >= 0; d--) {
        c[d] = (int32_t)(e & (uint32_t)(shape[d] - 1));
        e >>= bits_log2_ceil((uint32_t)shape[d]);
    }
}

int triton_access_fix(const struct tac_result *writer, const struct tac_result *reader,
                      const int64_t *shape, int rank, struct tac_fix *out, struct sz_error *err)
{
    struct lin_problem p = writer->prob;
    memset(out, 0, sizeof *out);
    if (memcmp(&p.tile, &reader->prob.tile, sizeof p.tile) || p.bitwidth != reader->prob.bitwidth ||
        p.lanes != reader->prob.lanes)
        return sz_fail(err, SZ_INVALID_ARGUMENT, "text",
                       "the buffer's writer and reader differ in shape, element or warp");
    p.b = reader->prob.a;
    if (lin_optimize(&p, &out->opt, err) < 0 ||
        lin_evaluate(&p, &out->opt.mem, out->opt.vec_bits, TAC_LIN_SIM, &out->store, &out->load,
                     err) < 0)
        return -1;
    out->rank = rank;
    for (int k = 0; k < out->opt.mem.n; k++)
        unflat(out->opt.mem.basis[k], shape, rank, out->offset[k]);
    int vec, pp, mp, order[2];
    if (rank == 2 && lin_to_triton(&p.tile, &out->opt.mem, &vec, &pp, &mp, order)) {
        out->swizzled = 1;
        snprintf(out->text, sizeof out->text, "#ttg.swizzled_shared<{vec = %d, perPhase = %d, "
                 "maxPhase = %d, order = [%d, %d]}>", vec, pp, mp, order[0], order[1]);
        return 0;
    }
    size_t n = (size_t)snprintf(out->text, sizeof out->text, "#ttg.shared_linear<{offset = [");
    for (int k = 0; k < out->opt.mem.n && n < sizeof out->text; k++) {
        n += (size_t)snprintf(out->text + n, sizeof out->text - n, "%s[", k ? ", " : "");
        for (int d = 0; d < rank && n < sizeof out->text; d++)
            n += (size_t)snprintf(out->text + n, sizeof out->text - n, "%s%d", d ? ", " : "",
                                  out->offset[k][d]);
        if (n < sizeof out->text)
            n += (size_t)snprintf(out->text + n, sizeof out->text - n, "]");
    }
    if (n < sizeof out->text)
        snprintf(out->text + n, sizeof out->text - n, "]}, alignment = 16>");
    return 0;
}

/* ---- ldmatrix (triton_access.h) -------------------------------------------
 *
 * The composed map, element offsets (o = off(layout(x))):
 *
 *   plain, 16-bit:   reg r0 -> o 1 | lane 0 -> o 2, lane 1 -> o 4 | the rest: o & 7 == 0
 *                    (4 lanes x 4 bytes = one 16-byte row; t = log2(32 / bits) registers)
 *   .trans, 16-bit:  lanes 2, 3, 4 -> o 1, 2, 4 | the rest: o & 7 == 0
 *
 * then ldmatrix lane l (row l % 8 of matrix l / 8) addresses
 * rows(l & 7) ^ mats(l >> 3) ^ (the instruction's register bits). */

static void ldsm_no(struct tac_ldsm *o, const char *why)
{
    snprintf(o->why, sizeof o->why, "%s", why);
}

/* Try one form (trans 0: plain, 1: .trans) on the composed bases; 1 when it fits. */
static int ldsm_fit(int bits, const uint32_t *reg, int nreg, const uint32_t *lane,
                    const uint32_t *warp, int nwarp, int trans, uint32_t *row, uint32_t *mat,
                    int *nmat, uint32_t *inst, int *ninst, struct tac_ldsm *o)
{
    uint32_t low;
    int used[LIN_MAX_BASES] = {0}, rest[LIN_MAX_BASES], nrest = 0;
    if (!trans) {
        if (bits > 32)
            return ldsm_no(o, "elements wider than 32 bits"), 0;
        int t = bits_log2_ceil((uint32_t)(32 / bits));
        for (int b = 0; b < t; b++) {
            int j = 0;
            while (j < nreg && (used[j] || reg[j] != 1u << b))
                j++;
            if (j == nreg)
                return ldsm_no(o, "no register run of 4 bytes in shared memory"), 0;
            used[j] = 1;
        }
        if (lane[0] != 1u << t || lane[1] != 1u << (t + 1))
            return ldsm_no(o, "lanes 0-1 do not span a 16-byte row"), 0;
        low = (1u << (t + 2)) - 1;
        for (int i = 2; i < 5; i++)
            row[i - 2] = lane[i];
        for (int j = 0; j < nreg; j++)
            if (!used[j])
                rest[nrest++] = j;
    } else {
        if (bits != 16)
            return ldsm_no(o, ".trans takes 16-bit elements only"), 0;
        if (nreg < 1)
            return ldsm_no(o, "no register to transpose"), 0;
        if (lane[2] != 1 || lane[3] != 2 || lane[4] != 4)
            return ldsm_no(o, "lanes 2-4 do not run along a 16-byte row"), 0;
        low = 7;
        row[0] = reg[0], row[1] = lane[0], row[2] = lane[1];
        used[0] = 1;
        if (reg[0] & low || lane[0] & low || lane[1] & low)
            return ldsm_no(o, "a row is not 16-byte aligned"), 0;
        for (int j = 1; j < nreg; j++)
            rest[nrest++] = j;
    }
    for (int i = 0; i < 3; i++)
        if (row[i] & low)
            return ldsm_no(o, "a row is not 16-byte aligned"), 0;
    for (int j = 0; j < nrest; j++)
        if (reg[rest[j]] & low)
            return ldsm_no(o, "a register crosses the 16-byte row"), 0;
    for (int w = 0; w < nwarp; w++)
        if (warp[w] & low)
            return ldsm_no(o, "a warp's tile is not 16-byte aligned"), 0;
    *nmat = nrest < 2 ? nrest : 2;
    for (int j = 0; j < *nmat; j++)
        mat[j] = reg[rest[j]];
    *ninst = 0;
    for (int j = *nmat; j < nrest; j++)
        inst[(*ninst)++] = reg[rest[j]];
    return 1;
}

void triton_access_ldmatrix(const struct lin_problem *prob, const struct lin_mem *mem,
                            int is_store, struct tac_ldsm *out)
{
    memset(out, 0, sizeof *out);
    if (prob->lanes != 32 || prob->a.n[LIN_LANE] != 5) {
        ldsm_no(out, "not a 32-lane warp");
        return;
    }
    struct f2_mat fwd = {.rows = mem->n, .cols = mem->n}, inv;
    for (int k = 0; k < mem->n; k++)
        fwd.col[k] = mem->basis[k];
    if (f2_inverse(&fwd, &inv) < 0) {
        ldsm_no(out, "the shared layout is not one to one");
        return;
    }
    /* registers with broadcast (zero) bases dropped, as Triton drops them first */
    uint32_t reg[LIN_MAX_BASES], lane[5], warp[LIN_MAX_BASES];
    int nreg = 0, nwarp = 0;
    for (int i = 0; i < prob->a.n[LIN_REGISTER]; i++)
        if (prob->a.basis[LIN_REGISTER][i])
            reg[nreg++] = off_of(&inv, prob->a.basis[LIN_REGISTER][i]);
    for (int i = 0; i < 5; i++)
        lane[i] = off_of(&inv, prob->a.basis[LIN_LANE][i]);
    for (int i = 0; i < prob->a.n[LIN_WARP]; i++)
        warp[nwarp++] = off_of(&inv, prob->a.basis[LIN_WARP][i]);
    uint32_t row[3], mat[2], inst[LIN_MAX_BASES];
    int nmat = 0, ninst = 0, trans = 0;
    struct tac_ldsm plain = {0};
    if (!ldsm_fit(prob->bitwidth, reg, nreg, lane, warp, nwarp, 0, row, mat, &nmat, inst, &ninst,
                  &plain)) {
        trans = 1;
        if (!ldsm_fit(prob->bitwidth, reg, nreg, lane, warp, nwarp, 1, row, mat, &nmat, inst,
                      &ninst, out)) {
            char t[sizeof out->why];
            snprintf(t, sizeof t, "%s", out->why);
            snprintf(out->why, sizeof out->why, "plain: %.70s; .trans: %.70s", plain.why, t);
            return;
        }
    }
    out->ok = 1;
    out->trans = trans;
    out->matrices = 1 << nmat;
    out->instructions = 1u << ninst;
    out->ninst = ninst;
    memcpy(out->inst, inst, sizeof(uint32_t) * (size_t)ninst);
    memcpy(out->row, row, sizeof row);
    memcpy(out->mat, mat, sizeof(uint32_t) * (size_t)nmat);
    uint32_t sim = out->instructions < TAC_SIM_MAX ? out->instructions : TAC_SIM_MAX;
    for (uint32_t idx = 0; idx < sim; idx++) {
        /* past TAC_SIM_MAX the last ones: each instruction XORs one constant
         * into every address, which permutes banks and keeps the cost */
        uint32_t pick = out->instructions > TAC_SIM_MAX && idx >= TAC_SIM_MAX / 2
                            ? out->instructions - TAC_SIM_MAX + idx : idx;
        uint32_t base = 0;
        for (int j = 0; j < ninst; j++)
            if (pick >> j & 1)
                base ^= inst[j];
        struct instr in;
        instr_defaults(&in, is_store ? INSTR_STMATRIX : INSTR_LDMATRIX);
        in.matrices = (uint32_t)out->matrices;
        in.trans = trans;
        in.banks = (uint32_t)prob->num_banks;
        for (uint32_t l = 0; l < 32; l++) {
            uint32_t o = base;
            for (int b = 0; b < 3; b++)
                if (l >> b & 1)
                    o ^= row[b];
            for (int b = 0; b < nmat; b++)
                if (l >> (3 + b) & 1)
                    o ^= mat[b];
            in.offsets[l] = l < 8u * in.matrices ? o * (uint32_t)prob->bitwidth / 8
                                                 : INSTR_INACTIVE;
        }
        struct acc_result r;
        acc_cost(&in, &r);
        if (r.wavefronts > out->wavefronts) {
            out->wavefronts = r.wavefronts, out->ideal = r.ideal_wavefronts;
            memcpy(out->offsets, in.offsets, sizeof out->offsets);
        }
    }
}

/* The element at offset o of mem. */
static uint32_t elem_of(const struct lin_mem *mem, uint32_t o)
{
    return xor_cols(mem->basis, o);
}

void triton_access_ldmatrix_view(const struct lin_problem *prob, const struct lin_mem *mem,
                                 const struct tac_ldsm *ld, struct lin_layout *view)
{
    struct lin_layout tmp, *out = &tmp;     /* view may be prob's own layout */
    memset(out, 0, sizeof *out);
    /* the 16-byte row: offsets 1, 2, ... below 16 bytes hold its elements */
    int vbits = bits_log2_ceil((uint32_t)(128 / prob->bitwidth)), n = 0;
    for (int b = 0; b < vbits; b++)
        out->basis[LIN_REGISTER][n++] = mem->basis[b];
    for (int j = 0; j < ld->ninst; j++)
        out->basis[LIN_REGISTER][n++] = elem_of(mem, ld->inst[j]);
    out->n[LIN_REGISTER] = n;
    int nmat = ld->matrices == 4 ? 2 : ld->matrices == 2 ? 1 : 0;
    for (int l = 0; l < 5; l++)
        out->basis[LIN_LANE][l] = l < 3 ? elem_of(mem, ld->row[l])
                                 : l - 3 < nmat ? elem_of(mem, ld->mat[l - 3]) : 0;
    out->n[LIN_LANE] = 5;
    out->n[LIN_WARP] = prob->a.n[LIN_WARP];
    memcpy(out->basis[LIN_WARP], prob->a.basis[LIN_WARP], sizeof out->basis[LIN_WARP]);
    *view = tmp;
}

/* Independent bases of a warp's span. */
static int span_rank(const uint32_t *b, int n)
{
    struct f2_span s;
    int r = 0;
    f2_span_clear(&s);
    for (int i = 0; i < n; i++)
        r += f2_span_add(&s, b[i]) != 0;
    return r;
}

/* Does every warp of dst hold only what the same warp of src holds?  The
 * register and lane span of dst must lie in src's, and each warp basis of
 * dst differ from src's by a register/lane direction (Triton's
 * minimalCvtLayout then has no warp dimension: register moves or shuffles). */
static int within_warps(const struct lin_layout *s, const struct lin_layout *d)
{
    struct f2_span rl;
    f2_span_clear(&rl);
    for (int in = LIN_REGISTER; in <= LIN_LANE; in++)
        for (int i = 0; i < s->n[in]; i++)
            f2_span_add(&rl, s->basis[in][i]);
    if (s->n[LIN_WARP] != d->n[LIN_WARP])
        return 0;
    for (int in = LIN_REGISTER; in <= LIN_WARP; in++)
        for (int i = 0; i < d->n[in]; i++) {
            struct f2_span t = rl;
            uint32_t v = d->basis[in][i] ^ (in == LIN_WARP ? s->basis[LIN_WARP][i] : 0);
            if (f2_span_add(&t, v))
                return 0;
        }
    return 1;
}

int triton_access_convert(const struct td_layout *src, const struct td_layout *dst, int bits,
                          int num_banks, struct tac_convert *out, struct sz_error *err)
{
    memset(out, 0, sizeof *out);
    if (src->rank != dst->rank ||
        memcmp(src->shape, dst->shape, sizeof(int64_t) * (size_t)src->rank))
        return sz_fail(err, SZ_INVALID_ARGUMENT, "shape",
                       "the two tensors of a convert_layout have different shapes");
    if (bits != 8 && bits != 16 && bits != 32 && bits != 64)
        return sz_fail(err, SZ_INVALID_ARGUMENT, "element_bits", "must be 8, 16, 32 or 64, got %d",
                       bits);
    struct lin_problem d;
    if (problem(src, bits, num_banks, &out->prob, err) < 0 ||
        problem(dst, bits, num_banks, &d, err) < 0)
        return -1;
    if (d.lanes != out->prob.lanes)
        return sz_fail(err, SZ_INVALID_ARGUMENT, "layout", "the two layouts' warps differ");
    out->prob.b = d.a;
    out->within = within_warps(&out->prob.a, &out->prob.b);
    if (out->within)
        return 0;
    if (lin_optimize(&out->prob, &out->opt, err) < 0 ||
        lin_evaluate(&out->prob, &out->opt.mem, out->opt.vec_bits, TAC_LIN_SIM, &out->store,
                     &out->load, err) < 0)
        return -1;
    out->store_per_warp = out->store.instructions >>
                          span_rank(out->prob.a.basis[LIN_WARP], out->prob.a.n[LIN_WARP]);
    out->load_per_warp = out->load.instructions >>
                         span_rank(out->prob.b.basis[LIN_WARP], out->prob.b.n[LIN_WARP]);
    out->rank = src->rank;
    for (int k = 0; k < out->opt.mem.n; k++)
        unflat(out->opt.mem.basis[k], src->shape, src->rank, out->offset[k]);
    return 0;
}
