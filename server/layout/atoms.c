/* atoms.c - the named atoms, one row each, with the lane -> coordinate map of
 * its source (PTX ISA fragment layouts, CUTLASS/CuTe copy and MMA traits).
 * Coordinates are in elements; a 16-byte matrix row holds 16/eb of them.
 * The atoms are the first row of the thread-form table (thread.h).
 * Pure data and arithmetic: no I/O, no allocation. */
#include "atoms.h"

#include <stdio.h>
#include <string.h>

#include "thread.h"

/* ldmatrix/stmatrix .x4 over a 16x16 tile, rows contiguous: lane t gives row
 * t%8 of matrix t/8 (PTX ldmatrix); matrix j is register j, and registers
 * 0..3 of the mma.m16n8k16 A fragment are (rows 0-7, k 0-7), (rows 8-15,
 * k 0-7), (rows 0-7, k 8-15), (rows 8-15, k 8-15): lane t -> (t%16, 8*(t/16)). */
static void x4_16x16(int t, uint32_t eb, int32_t *c0, int32_t *c1)
{
    *c0 = t % 16;
    *c1 = (t / 16) * (int32_t)(16 / eb);
}

/* ldmatrix.x2 of B stored (n, k), k contiguous: matrix j is k 8j..8j+7 (the B
 * fragment's b0,b1 then b2,b3); lanes 16-31 give no address. */
static void x2_nk(int t, uint32_t eb, int32_t *c0, int32_t *c1)
{
    *c0 = t < 16 ? t % 8 : ATOM_INACTIVE;
    *c1 = (t / 8) * (int32_t)(16 / eb);
}

/* ldmatrix.x2.trans of B stored (k, n), n contiguous: lane t < 16 gives row k = t. */
static void x2_kn(int t, uint32_t eb, int32_t *c0, int32_t *c1)
{
    (void)eb;
    *c0 = t < 16 ? t : ATOM_INACTIVE;
    *c1 = 0;
}

/* The same in CuTe's order, B as (n, k) (make_tiled_copy_B, sB): lane t < 16
 * gives row k = t at n = 0, n contiguous. */
static void x2_nk_trans(int t, uint32_t eb, int32_t *c0, int32_t *c1)
{
    (void)eb;
    *c0 = t < 16 ? 0 : ATOM_INACTIVE;
    *c1 = t % 16;
}

/* 128-bit cp.async (or st.shared.v4) of a row-major tile by 8 lanes per
 * 128-byte row: lane t -> (t/8, 16 bytes * (t%8)). */
static void cp_rows(int t, uint32_t eb, int32_t *c0, int32_t *c1)
{
    *c0 = t / 8;
    *c1 = (t % 8) * (int32_t)(16 / eb);
}

/* Walks: lanes along a row (bytes/eb elements each) or down a column. */
static void row4(int t, uint32_t eb, int32_t *c0, int32_t *c1) { *c0 = 0, *c1 = t * (int32_t)(4 / eb); }
static void row8(int t, uint32_t eb, int32_t *c0, int32_t *c1) { *c0 = 0, *c1 = t * (int32_t)(8 / eb); }
static void row16(int t, uint32_t eb, int32_t *c0, int32_t *c1) { *c0 = 0, *c1 = t * (int32_t)(16 / eb); }
static void col(int t, uint32_t eb, int32_t *c0, int32_t *c1) { (void)eb, *c0 = t, *c1 = 0; }

#define PTX_MMA "PTX ISA, 'Matrix Fragments for mma.m16n8k16 with floating point type'"
#define PTX_LDSM "PTX ISA, ldmatrix: lane t addresses row t%8 of matrix t/8"

static const struct atom atoms[] = {
    {"mma_m16n8k16_a_ldmatrix_x4", "mma.m16n8k16 A (16x16, k contiguous) by ldmatrix.x4", "(m, k)",
     PTX_MMA " (A: a0..a7); " PTX_LDSM "; CuTe MMA_Traits<SM80_16x8x16_F16F16F16F16_TN>::ALayout"
     " and Copy_Traits<SM75_U32x4_LDSM_N> (cute/atom/mma_traits_sm80.hpp, copy_traits_sm75.hpp)",
     INSTR_LDMATRIX, 16, 4, 0, x4_16x16},
    {"mma_m16n8k16_b_ldmatrix_x2", "mma.m16n8k16 B (8x16 as n, k; k contiguous) by ldmatrix.x2",
     "(n, k)",
     PTX_MMA " (B: b0..b3); " PTX_LDSM "; CuTe MMA_Traits<SM80_16x8x16_F16F16F16F16_TN>::BLayout"
     " and Copy_Traits<SM75_U32x2_LDSM_N>",
     INSTR_LDMATRIX, 16, 2, 0, x2_nk},
    {"mma_m16n8k16_b_ldmatrix_x2_trans",
     "mma.m16n8k16 B (16x8 as k, n; n contiguous) by ldmatrix.x2.trans", "(k, n)",
     PTX_MMA " (B); " PTX_LDSM ", .trans delivers columns; CuTe Copy_Traits<SM75_U16x4_LDSM_T>",
     INSTR_LDMATRIX, 16, 2, 1, x2_kn},
    {"mma_m16n8k16_b_ldmatrix_x2_trans_nk",
     "mma.m16n8k16 B (8x16 as n, k in CuTe's order; n contiguous) by ldmatrix.x2.trans", "(n, k)",
     PTX_MMA " (B); " PTX_LDSM ", .trans delivers columns; CuTe stores B as (N, K): "
     "make_tiled_copy_B(Copy_Atom<SM75_U16x4_LDSM_T>) lanes 0-15 at (0, k) (its print_latex)",
     INSTR_LDMATRIX, 16, 2, 1, x2_nk_trans},
    {"sm90_epilogue_stmatrix_x4", "SM90 epilogue: accumulators (16x16 of m, n) by stmatrix.x4",
     "(m, n)",
     PTX_MMA " (C/D: c0..c3 of two n8 tiles); PTX ISA stmatrix (lane t addresses row t%8 of "
     "matrix t/8); CuTe Copy_Traits<SM90_U32x4_STSM_N> (cute/atom/copy_traits_sm90.hpp)",
     INSTR_STMATRIX, 16, 4, 0, x4_16x16},
    {"cp_async_128_rows", "128-bit cp.async tile write, 8 lanes per 128-byte row", "(row, col)",
     "PTX ISA cp.async (cp-size 16); CUTLASS sm80 examples: Copy_Atom<SM80_CP_ASYNC_CACHEGLOBAL"
     "<uint128_t>> with thread layout (rows, 8):(8, 1) (cute/tutorial sgemm_sm80.cu)",
     INSTR_ST, 16, 1, 0, cp_rows},
    /* plain walks: ld.shared of 4, 8 or 16 bytes (.b32, .v2.b32, .v4.b32) */
#define WALK(n, what, by, fn) {n, #by "-byte loads " what, "(row, col)", "plain ld.shared: " what, \
                               INSTR_LD, by, 1, 0, fn}
    WALK("row_walk_32", "along a row, lane t at column t", 4, row4),
    WALK("row_walk_64", "along a row, lane t at byte 8t", 8, row8),
    WALK("row_walk_128", "along a row, lane t at byte 16t", 16, row16),
    WALK("col_walk_32", "down a column, lane t at row t", 4, col),
    WALK("col_walk_64", "down a column, lane t at row t", 8, col),
    WALK("col_walk_128", "down a column, lane t at row t", 16, col),
#undef WALK
};

const struct atom *atom_list(int *n)
{
    *n = (int)(sizeof atoms / sizeof atoms[0]);
    return atoms;
}

const struct atom *atom_find(const char *name)
{
    for (size_t i = 0; i < sizeof atoms / sizeof atoms[0]; i++)
        if (strcmp(atoms[i].name, name) == 0)
            return &atoms[i];
    return NULL;
}

int atom_lanes(const struct atom *a, int element_bits, int32_t c[INSTR_LANES][2],
               struct sz_error *err)
{
    uint32_t eb = (uint32_t)element_bits / 8;
    if (eb == 0 || eb > a->bytes)
        return sz_fail(err, SZ_INVALID_ARGUMENT, "atom",
                       "%s moves %u bytes per lane: %d-bit elements do not fit", a->name,
                       a->bytes, element_bits);
    for (int t = 0; t < INSTR_LANES; t++)
        a->lane(t, eb, &c[t][0], &c[t][1]);
    return 0;
}

/* ---- the thread-form row: a named atom is one warp instruction's lanes ---- */

static int atom_match(const char *text) { return atom_find(text) != NULL; }

static int atom_parse(const char *text, const struct thr_ctx *ctx, struct thr *t,
                      struct sz_error *err)
{
    const struct atom *a = atom_find(text);
    if (a == NULL)
        return sz_fail(err, SZ_INVALID_ARGUMENT, ctx->field, "unknown atom (see GET /api/atoms)");
    if (ctx->rank < 2)
        return sz_fail(err, SZ_INVALID_ARGUMENT, ctx->field,
                       "atoms need a layout of rank 2 or 3");
    int32_t ac[INSTR_LANES][2];
    if (atom_lanes(a, ctx->element_bits, ac, err) < 0) {
        snprintf(err->field, sizeof err->field, "%s", ctx->field);
        return -1;
    }
    t->kind = THR_LANES;
    t->rank = ctx->rank;
    t->lanes = INSTR_LANES;
    for (int l = 0; l < INSTR_LANES; l++) {
        t->lane[l][0] = ac[l][0] == ATOM_INACTIVE ? THR_IDLE : ac[l][0];
        t->lane[l][1] = ac[l][1];
        t->lane[l][2] = 0;
    }
    t->has_instr = 1;
    t->op = a->op;
    t->bytes = a->bytes;
    t->matrices = a->matrices;
    t->trans = a->trans;
    t->name = a->name;
    return 0;
}

const struct thr_form thr_form_atom = {
    .name = "atom",
    .match = atom_match,
    .parse = atom_parse,
};
