/* thread_cute.c - CuTe's thread-value prints as a row of the thread-form
 * table: print_latex(tiled_copy)'s `% Layout S TV:` / `% Layout D TV:` heads,
 * print_latex(tiled_mma)'s `% LayoutC:/A:/B:`, print(tiled_copy) (Tiler_MN,
 * TiledLayout_TV, the Copy_Atom's ThrID and ValLayoutSrc/Dst/Ref) and CuTe
 * DSL's print of a TiledCopy ("Tiled Copy / Tiler MN / TV Layout tiled").
 * It reads them into struct thr_tv and evaluates (thread, value) -> (m, n) as
 * CuTe's TiledCopy::tidfrg_S/D does; it costs nothing (api_tensor.c does).
 * Pure core: no I/O, no allocation; errors name the request's field, with
 * the line and column. */
#include <stdio.h>
#include <string.h>

#include "cute_text.h"
#include "thread.h"

/* ---- reading: cute_text.h's cursor, over lines -------------------------------- */

/* What a thread-value print admits of shape:stride: any rank, signed
 * strides, 2^30 at the most; the scaled basis only in print_latex's
 * ArithTuple heads (rules_basis). */
#define TV_INT (1 << 30)
static const struct cute_rules rules = {
    .leaves = CUTE_MAX_LEAVES, .depth = CUTE_MAX_DEPTH, .rank = 0,
    .shape_hi = TV_INT, .stride_lo = -TV_INT, .stride_hi = TV_INT, .basis = 0,
};
static const struct cute_rules rules_basis = {
    .leaves = CUTE_MAX_LEAVES, .depth = CUTE_MAX_DEPTH, .rank = 0,
    .shape_hi = TV_INT, .stride_lo = -TV_INT, .stride_hi = TV_INT, .basis = 1,
};

/* ---- CuTe layouts as (thread, value) maps ------------------------------------ */

static uint64_t mode_size(const struct cute_layout *L, int mode)
{
    uint64_t s = 1;
    for (int k = 0; k < L->n; k++)
        if (L->mode[k] == mode || L->modes == 0)
            s *= L->shape[k];
    return s;
}

/* Mode `mode` of L at index i, CuTe's way: colexicographic over its leaves,
 * the last leaf taking what is left.  acc[0], acc[1]: the @0, @1 parts;
 * acc[2]: the integer part. */
static void eval_mode(const struct cute_layout *L, int mode, uint64_t i, int64_t acc[3])
{
    int last = -1;
    for (int k = 0; k < L->n; k++)
        if (L->modes == 0 || L->mode[k] == mode)
            last = k;
    for (int k = 0; k <= last; k++) {
        if (L->modes != 0 && L->mode[k] != mode)
            continue;
        uint64_t x = k == last ? i : i % L->shape[k];
        i = k == last ? 0 : i / L->shape[k];
        acc[L->dim[k] < 0 ? 2 : L->dim[k]] += (int64_t)x * L->stride[k];
    }
}

/* A layout of integers at (thread, value) (two top-level modes). */
static int64_t eval2(const struct cute_layout *L, uint64_t t, uint64_t v)
{
    int64_t acc[3] = {0, 0, 0};
    eval_mode(L, 0, t, acc);
    eval_mode(L, 1, v, acc);
    return acc[2];
}

/* A layout of integers at a flat index: colexicographic over all leaves. */
static int64_t eval1(const struct cute_layout *L, uint64_t i)
{
    struct cute_layout flat = *L;
    flat.modes = 0;
    int64_t acc[3] = {0, 0, 0};
    eval_mode(&flat, 0, i, acc);
    return acc[2];
}

/* CuTe's right_inverse (layout.hpp): drop shape-1 leaves, sort by stride
 * (stable), and follow strides from 1: each leaf whose stride is the current
 * one joins with the prefix product of its position as its stride. */
static void right_inverse(const struct cute_layout *L, struct cute_layout *R)
{
    uint32_t shp[CUTE_MAX_LEAVES];
    int64_t str[CUTE_MAX_LEAVES], pre[CUTE_MAX_LEAVES];
    int n = 0;
    int64_t p = 1;
    for (int k = 0; k < L->n; k++)
        if (L->shape[k] != 1) {
            shp[n] = L->shape[k], str[n] = L->stride[k], pre[n] = p;
            p *= L->shape[k];
            n++;
        }
    int order[CUTE_MAX_LEAVES];
    for (int k = 0; k < n; k++)
        order[k] = k;
    for (int a = 1; a < n; a++)         /* insertion sort: stable */
        for (int b = a; b > 0 && str[order[b - 1]] > str[order[b]]; b--) {
            int x = order[b];
            order[b] = order[b - 1], order[b - 1] = x;
        }
    memset(R, 0, sizeof *R);
    int64_t curr = 1;
    for (int k = 0; k < n; k++) {
        int j = order[k];
        if (str[j] != curr)
            continue;
        R->shape[R->n] = shp[j];
        R->stride[R->n] = pre[j];
        R->dim[R->n] = -1;
        R->n++;
        curr = (int64_t)shp[j] * str[j];
    }
    if (R->n == 0) {                    /* nothing found: _1:_0 */
        R->shape[0] = 1;
        R->dim[0] = -1;
        R->n = 1;
    }
}

/* ---- (thread, value) -> (m, n) ------------------------------------------------ */

void thr_tv_coord(const struct thr_tv *tv, int side, uint32_t thread, uint32_t value,
                  int64_t *m, int64_t *n)
{
    if (tv->latex[side]) {
        int64_t acc[3] = {0, 0, 0};
        eval_mode(&tv->tv[side], 0, thread, acc);
        eval_mode(&tv->tv[side], 1, value, acc);
        *m = tv->origin[side][0] + acc[0];
        *n = tv->origin[side][1] + acc[1];
        return;
    }
    /* TiledCopy::tile2thrfrg(..., right_inverse(Ref).compose(Src or Dst)):
     * the thread splits as (atom thread, rest), the value as (atom value, rest);
     * the atom's (thread, value) goes through Ref's inverse to Ref's own
     * (thread, value), which indexes TiledLayout_TV; its index is colex (m, n). */
    const struct cute_layout *val = &tv->val[side];
    uint64_t ts = mode_size(val, 0), vs = mode_size(val, 1);
    uint64_t r = (uint64_t)eval1(&tv->ref_inv, (uint64_t)eval2(val, thread % ts, value % vs));
    uint64_t at = r % tv->atom_thr, av = r / tv->atom_thr;
    int64_t idx = eval2(&tv->tiled, at + tv->atom_thr * (thread / ts),
                        av + tv->atom_val * (value / vs));
    *m = idx % tv->tiler[0];
    *n = idx / tv->tiler[0];
}

/* ---- the print's lines --------------------------------------------------------- */

/* The labels each dialect prints (C++ CuTe, CuTe DSL), and what they set. */
enum what { W_S, W_D, W_MMA_C, W_MMA_A, W_MMA_B, W_COPY, W_TILER, W_TILED, W_ATOM, W_THRID,
            W_SRC, W_DST, W_REF, W_VALTYPE, W_MMA_PRINT };
static const struct { const char *label; enum what w; } labels[] = {
    {"% Layout S TV:", W_S}, {"% Layout D TV:", W_D},
    {"% LayoutC:", W_MMA_C}, {"% LayoutA:", W_MMA_A}, {"% LayoutB:", W_MMA_B},
    {"TiledCopy", W_COPY}, {"Tiled Copy", W_COPY},
    {"Tiler_MN:", W_TILER}, {"Tiler MN:", W_TILER},
    {"TiledLayout_TV:", W_TILED}, {"TV Layout tiled:", W_TILED},
    {"Copy_Atom", W_ATOM}, {"Copy Atom", W_ATOM},
    {"ThrID:", W_THRID},
    {"ValLayoutSrc:", W_SRC}, {"TV Layout Src:", W_SRC},
    {"ValLayoutDst:", W_DST}, {"TV Layout Dst:", W_DST},
    {"ValLayoutRef:", W_REF},
    {"ValueType:", W_VALTYPE}, {"Value type:", W_VALTYPE},
    {"TiledMMA", W_MMA_PRINT}, {"Tiled MMA", W_MMA_PRINT},
};

static int cute_match(const char *text)
{
    for (size_t k = 0; k < sizeof labels / sizeof labels[0]; k++)
        if (strstr(text, labels[k].label))
            return 1;
    return 0;
}

/* `ArithTuple(m0,n0) o L` of a print_latex head. */
static int latex_tv(struct cute_cur *c, struct thr_tv *tv, int side, const char *label)
{
    if (!cute_word(c, "ArithTuple"))
        return CUTE_AT(c, "expected ArithTuple(...) o, as print_latex prints the TV layout");
    if (cute_want(c, '(') < 0 || cute_int(c, -TV_INT, TV_INT, &tv->origin[side][0], NULL) < 0 ||
        cute_want(c, ',') < 0 || cute_int(c, -TV_INT, TV_INT, &tv->origin[side][1], NULL) < 0 ||
        cute_want(c, ')') < 0)
        return -1;
    if (!cute_word(c, "o"))
        return cute_fail(c, c->i, "%s", "expected 'o' after ArithTuple(...)");
    size_t at = c->i;
    if (cute_layout(c, &rules_basis, &tv->tv[side], NULL) < 0)
        return -1;
    if (tv->tv[side].modes != 2)
        return cute_fail(c, at, "%s", "a TV layout has two modes, (thread, value)");
    tv->latex[side] = tv->has[side] = 1;
    tv->label[side] = label;
    tv->threads[side] = (uint32_t)mode_size(&tv->tv[side], 0);
    tv->values[side] = (uint32_t)mode_size(&tv->tv[side], 1);
    return 0;
}

/* `16b` (C++) or `f16`, `bf16`, `Float32`, ... (CuTe DSL): the first digits. */
static int value_type(struct cute_cur *c, int *bits)
{
    cute_ws(c);
    size_t at = c->i;
    while (c->s[c->i] && c->s[c->i] != '\n' && (c->s[c->i] < '0' || c->s[c->i] > '9'))
        c->i++;
    int64_t v;
    if (c->s[c->i] < '0' || c->s[c->i] > '9' || cute_int(c, 0, TV_INT, &v, NULL) < 0)
        return cute_fail(c, at, "%s", "expected the value type's bits (16b, f16, Float32, ...)");
    if (c->s[c->i] == 'b')
        c->i++;
    while (c->s[c->i] && c->s[c->i] != '\n' && c->s[c->i] != ' ')
        c->i++;         /* the rest of a DSL type name: E4M3FN, ... */
    if (v != 8 && v != 16 && v != 32 && v != 64)
        return cute_fail(c, at, "%s", "value types of 8, 16, 32 or 64 bits are modelled");
    *bits = (int)v;
    return 0;
}

/* Whether each thread's values are consecutive elements from one start (a
 * 16-byte row per lane: the shared-memory side of ldmatrix/stmatrix), and
 * how many distinct starts the first 32 threads give. */
static int row_per_thread(const struct cute_layout *L, int bits, int *rows)
{
    uint64_t ts = mode_size(L, 0), vs = mode_size(L, 1);
    if (ts != 32 || vs * (uint64_t)bits != 128)
        return 0;
    int64_t start[32];
    *rows = 0;
    for (uint64_t t = 0; t < 32; t++) {
        start[t] = eval2(L, t, 0);
        for (uint64_t v = 1; v < vs; v++)
            if (eval2(L, t, v) != start[t] + (int64_t)v)
                return 0;
        int seen = 0;
        for (uint64_t u = 0; u < t; u++)
            seen |= start[u] == start[t];
        *rows += !seen;
    }
    return 1;
}

/* The register side of ldmatrix/stmatrix: thread t holds row t/4 of each
 * 8x8 matrix (non-transposed, PTX's fragment) or column t/4 (.trans). */
static int fragment_trans(const struct cute_layout *L, int bits, int *trans)
{
    int64_t epr = 128 / bits;           /* elements per 16-byte row */
    int n = 1, t_ok = bits == 16;
    for (int64_t t = 0; t < 32; t++) {
        int64_t e = eval2(L, (uint64_t)t, 0);
        n &= (e / epr) % 8 == t / 4;
        t_ok &= e % epr == t / 4;
    }
    *trans = !n && t_ok;
    return n || t_ok;
}

/* The Copy_Atom's instruction, from its layouts (the print names no atom). */
static int classify(struct cute_cur *c, struct thr_tv *tv, uint64_t thr_id, size_t at)
{
    int bits = tv->value_bits, rows;
    uint64_t vs = mode_size(&tv->val[0], 1), vd = mode_size(&tv->val[1], 1);
    if (thr_id == 1) {
        if (vs != vd)
            return cute_fail(c, at, "%s",
                             "a one-thread copy atom whose source and destination move "
                             "different values is not modelled");
        tv->atom = THR_ATOM_ONE_THREAD;
        tv->atom_bytes = (uint32_t)(vs * (uint64_t)bits / 8);
        return 0;
    }
    if (thr_id != 32)
        return cute_fail(c, at, "%s",
                         "copy atoms of 1 thread (UniversalCopy, cp.async) or 32 "
                         "(ldmatrix, stmatrix) are modelled");
    int src_row = row_per_thread(&tv->val[0], bits, &rows);
    int dst_row = !src_row && row_per_thread(&tv->val[1], bits, &rows);
    if (!src_row && !dst_row)
        return cute_fail(c, at, "%s",
                         "a 32-thread copy atom with no 16-byte row per thread on either "
                         "side is not ldmatrix or stmatrix: not modelled");
    const struct cute_layout *reg = src_row ? &tv->val[1] : &tv->val[0];
    if (rows != 8 && rows != 16 && rows != 32)
        return cute_fail(c, at, "%s", "ldmatrix/stmatrix address 8, 16 or 32 rows");
    if (!fragment_trans(reg, bits, &tv->trans))
        return cute_fail(c, at, "%s",
                         "the register side is neither ldmatrix's fragment nor its "
                         ".trans: not modelled");
    tv->atom = src_row ? THR_ATOM_LDSM : THR_ATOM_STSM;
    tv->matrices = rows / 8;
    tv->atom_bytes = 16;
    return 0;
}

static int cute_parse(const char *text, const struct thr_ctx *ctx, struct thr *t,
                      struct sz_error *err)
{
    struct cute_cur c = {text, 0, err, ctx->field, 1};
    struct thr_tv *tv = &t->tv;
    int seen[W_MMA_PRINT + 1] = {0}, has_ref = 0, mma = 0;
    int64_t thr_id = 0;
    size_t atom_at = 0;
    struct cute_layout ref, thr_layout;
    memset(tv, 0, sizeof *tv);
    while (text[c.i]) {
        cute_ws(&c);
        size_t bol = c.i;
        if (text[c.i] == '\n') {
            c.i++;
            continue;
        }
        size_t k = 0;
        for (; k < sizeof labels / sizeof labels[0]; k++)
            if (strncmp(text + c.i, labels[k].label, strlen(labels[k].label)) == 0)
                break;
        if (k == sizeof labels / sizeof labels[0]) {
            /* the rest of print_latex's output (the LaTeX picture) says nothing more */
            if (text[c.i] == '\\' || text[c.i] == '%' || text[c.i] == '}' || text[c.i] == '{') {
                while (text[c.i] && text[c.i] != '\n')
                    c.i++;
                continue;
            }
            return cute_fail(&c, bol, "%s",
                             "expected a CuTe print's line (% Layout S TV:, % LayoutA:, "
                             "Tiler_MN:, TiledLayout_TV:, ThrID:, ValLayoutSrc:, ...)");
        }
        enum what w = labels[k].w;
        if (seen[w]++)
            return cute_fail(&c, bol, "%s", "this line appears twice");
        c.i += strlen(labels[k].label);
        int rc = 0, side = w == W_D || w == W_DST;
        switch (w) {
        case W_S: case W_D:
            rc = latex_tv(&c, tv, side, side ? "Layout D TV" : "Layout S TV");
            break;
        case W_MMA_C: case W_MMA_A: case W_MMA_B:
            if (mma++)
                return cute_fail(&c, bol, "%s",
                                 "paste one of print_latex(tiled_mma)'s LayoutC, LayoutA "
                                 "and LayoutB lines: the one whose operand shared "
                                 "memory holds");
            rc = latex_tv(&c, tv, 0, w == W_MMA_C ? "LayoutC (m, n)" :
                          w == W_MMA_A ? "LayoutA (m, k)" : "LayoutB (n, k)");
            tv->atom = THR_ATOM_MMA;
            tv->coords = w == W_MMA_C ? "(m, n)" : w == W_MMA_A ? "(m, k)" : "(n, k)";
            if (rc == 0 && w != W_MMA_C) {
                /* every thread mode's stride 0: no thread owns an element, the
                 * warpgroup's descriptor names the tile (CuTe's GMMA::ABLayout,
                 * Stride<_0, ...>, for SS operands) */
                int none = tv->threads[0] % 128 == 0;
                for (int j = 0; j < tv->tv[0].n; j++)
                    none &= tv->tv[0].mode[j] != 0 || tv->tv[0].stride[j] == 0;
                tv->by_descriptor = none;
            }
            break;
        case W_MMA_PRINT:
            return cute_fail(&c, bol, "%s",
                             "print(tiled_mma) gives the atom, not each thread's "
                             "elements: paste print_latex(tiled_mma)'s % LayoutA / "
                             "% LayoutB / % LayoutC line");
        case W_COPY: case W_ATOM:
            break;
        case W_TILER: {
            struct cute_layout tl;
            size_t at = c.i;
            if (cute_shape(&c, &rules, &tl) < 0)
                return -1;
            if (tl.modes != 2 || tl.n != 2)
                return cute_fail(&c, at, "%s", "expected the tile's (M, N), as Tiler_MN prints it");
            tv->tiler[0] = tl.shape[0], tv->tiler[1] = tl.shape[1];
            break;
        }
        case W_TILED: case W_SRC: case W_DST: case W_REF: {
            size_t at = c.i;
            struct cute_layout *L = w == W_TILED ? &tv->tiled : w == W_REF ? &ref : &tv->val[side];
            if (cute_layout(&c, &rules, L, NULL) < 0)
                return -1;
            if (L->modes != 2)
                return cute_fail(&c, at, "%s", "expected a (thread, value) layout of two modes");
            has_ref |= w == W_REF;
            break;
        }
        case W_THRID:
            atom_at = c.i;
            if (cute_layout(&c, &rules, &thr_layout, NULL) < 0)
                return -1;
            thr_id = (int64_t)mode_size(&thr_layout, 0) * (thr_layout.modes > 1 ?
                                                           (int64_t)mode_size(&thr_layout, 1) : 1);
            break;
        case W_VALTYPE:
            rc = value_type(&c, &tv->value_bits);
            break;
        }
        if (rc < 0)
            return -1;
        cute_ws(&c);
        if (text[c.i] && text[c.i] != '\n')
            return cute_fail(&c, c.i, "%s", "unexpected text after the line's layout");
    }
    int print_lines = seen[W_TILER] + seen[W_TILED] + seen[W_THRID] + seen[W_SRC] + seen[W_DST] +
                      seen[W_REF] + seen[W_VALTYPE];
    if (mma && (seen[W_S] || seen[W_D] || print_lines))
        return sz_fail(err, SZ_INVALID_ARGUMENT, ctx->field,
                       "a tiled MMA's layout and a tiled copy's lines are two things: paste one");
    if (print_lines) {
        static const enum what need[] = {W_TILER, W_TILED, W_THRID, W_SRC, W_DST, W_VALTYPE};
        static const char *const names[] = {"Tiler_MN", "TiledLayout_TV", "ThrID",
                                            "ValLayoutSrc", "ValLayoutDst", "ValueType"};
        for (size_t k = 0; k < sizeof need / sizeof need[0]; k++)
            if (!seen[need[k]])
                return sz_fail(err, SZ_INVALID_ARGUMENT, ctx->field,
                               "print(tiled_copy) without its %s line: paste the whole print",
                               names[k]);
        if (!has_ref) {
            /* CuTe DSL prints no Ref: CuTe's Copy_Traits take the register side
             * (LDSM: Dst, STSM: Src; a one-thread atom's sides are alike) */
            int rows;
            ref = row_per_thread(&tv->val[0], tv->value_bits, &rows) ? tv->val[1] : tv->val[0];
        }
        if (classify(&c, tv, (uint64_t)thr_id, atom_at) < 0)
            return -1;
        right_inverse(&ref, &tv->ref_inv);
        tv->atom_thr = (uint32_t)mode_size(&ref, 0);
        tv->atom_val = (uint32_t)mode_size(&ref, 1);
        uint64_t tt = mode_size(&tv->tiled, 0), tvv = mode_size(&tv->tiled, 1);
        if (tv->atom_thr == 0 || tt % tv->atom_thr || tvv % tv->atom_val)
            return sz_fail(err, SZ_INVALID_ARGUMENT, ctx->field,
                           "TiledLayout_TV (%llu threads, %llu values) does not divide into "
                           "the atom's (%u, %u)", (unsigned long long)tt,
                           (unsigned long long)tvv, tv->atom_thr, tv->atom_val);
        for (int s = 0; s < 2; s++) {
            if (tv->latex[s])       /* print_latex's line says it directly */
                continue;
            tv->has[s] = 1;
            tv->label[s] = s ? "ValLayoutDst through TiledLayout_TV" :
                               "ValLayoutSrc through TiledLayout_TV";
            tv->threads[s] = (uint32_t)(mode_size(&tv->val[s], 0) * (tt / tv->atom_thr));
            tv->values[s] = (uint32_t)(mode_size(&tv->val[s], 1) * (tvv / tv->atom_val));
        }
    }
    if (!tv->has[0] && !tv->has[1])
        return sz_fail(err, SZ_INVALID_ARGUMENT, ctx->field,
                       "no thread-value layout in the text: paste print_latex's %% Layout S TV / "
                       "%% Layout D TV lines or print(tiled_copy)");
    for (int s = 0; s < 2; s++)
        if (tv->has[s] && (tv->threads[s] == 0 || tv->threads[s] > 4096 ||
                           (uint64_t)tv->threads[s] * tv->values[s] > (1u << 20)))
            return sz_fail(err, SZ_INVALID_ARGUMENT, ctx->field,
                           "%u threads x %u values: at most 4096 threads and 2^20 elements",
                           tv->threads[s], tv->values[s]);
    if (tv->coords == NULL)
        tv->coords = "(m, n)";
    t->kind = THR_TV;
    t->rank = ctx->rank;
    t->lanes = 32;
    tv->side = -1;
    if (tv->atom == THR_ATOM_LDSM || tv->atom == THR_ATOM_STSM) {
        t->has_instr = 1;
        t->op = tv->atom == THR_ATOM_LDSM ? INSTR_LDMATRIX : INSTR_STMATRIX;
        t->bytes = 16;
        t->matrices = (uint32_t)tv->matrices;
        t->trans = tv->trans;
        static const char *const names[2][3][2] = {
            {{"SM75_U32x1_LDSM_N", "SM75_U16x2_LDSM_T"}, {"SM75_U32x2_LDSM_N", "SM75_U16x4_LDSM_T"},
             {"SM75_U32x4_LDSM_N", "SM75_U16x8_LDSM_T"}},
            {{"SM90_U32x1_STSM_N", "SM90_U16x2_STSM_T"}, {"SM90_U32x2_STSM_N", "SM90_U16x4_STSM_T"},
             {"SM90_U32x4_STSM_N", "SM90_U16x8_STSM_T"}}};
        t->name = names[tv->atom == THR_ATOM_STSM][tv->matrices == 1 ? 0 : tv->matrices == 2 ? 1 : 2]
                       [tv->trans];
    }
    if (ctx->element_bits && tv->value_bits && tv->value_bits != ctx->element_bits)
        return sz_fail(err, SZ_INVALID_ARGUMENT, ctx->field,
                       "the copy's ValueType is %d bits but the layout's elements are %d",
                       tv->value_bits, ctx->element_bits);
    return 0;
}

int thr_tv_side(struct thr *t, enum instr_op op, uint32_t lane_bytes, int element_bits,
                const char *field, struct sz_error *err)
{
    struct thr_tv *tv = &t->tv;
    int side = op == INSTR_LD || op == INSTR_LDMATRIX ? 0 : 1;
    if (tv->atom == THR_ATOM_MMA)
        side = 0;
    else if (!tv->has[side])
        return sz_fail(err, SZ_INVALID_ARGUMENT, field,
                       "%s %s shared memory on the %s side, and the text has no %s line",
                       instr_op_name(op), side ? "writes" : "reads", side ? "D" : "S",
                       side ? "'% Layout D TV:'" : "'% Layout S TV:'");
    if (tv->atom == THR_ATOM_ONE_THREAD && lane_bytes != tv->atom_bytes)
        return sz_fail(err, SZ_INVALID_ARGUMENT, "bytes",
                       "the copy atom moves %u bytes per thread; omit bytes or give %u",
                       tv->atom_bytes, tv->atom_bytes);
    uint32_t eb = (uint32_t)element_bits / 8;
    if (eb == 0 || lane_bytes % eb)
        return sz_fail(err, SZ_INVALID_ARGUMENT, "bytes",
                       "%u bytes per lane do not hold whole %d-bit elements", lane_bytes,
                       element_bits);
    uint32_t g = lane_bytes / eb;
    if (tv->values[side] % g)
        return sz_fail(err, SZ_INVALID_ARGUMENT, field,
                       "each thread holds %u values, which do not split into instructions of %u "
                       "(%u bytes per lane)", tv->values[side], g, lane_bytes);
    tv->side = side;
    tv->group = (int)g;
    return 0;
}

const struct thr_form thr_form_cute_tv = {
    .name = "cute_tv",
    .match = cute_match,
    .parse = cute_parse,
};
