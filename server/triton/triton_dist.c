/* triton_dist.c - each distributed encoding's toLinearLayout, as Triton
 * defines it (lib/Dialect/TritonGPU/IR/LinearLayoutConversions.cpp, read for
 * its facts, not copied): a per-CTA layout built from the encoding's
 * parameters with triton_ll.c's algebra, then fitted to the shape (grown with
 * registers in the layout's output order, bases past the shape zeroed).  The
 * attribute readers check every parameter and point at it when it is wrong.
 * Pure: no I/O, no allocation. */
#include "triton_dist.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "base/bits.h"

#define CGA_KEYS "CGALayout", "CTAsPerCGA", "CTASplitNum", "CTAOrder"

/* A permutation of 0..n-1. */
static int order_ok(const struct ta_parser *p, int attr, const char *key, const int64_t *o,
                    int n, struct sz_error *err)
{
    int seen = 0;
    for (int i = 0; i < n; i++) {
        if (o[i] >= n || (seen >> o[i] & 1))
            return ta_fail(p, ta_get(p, attr, key), err, "%s must be a permutation of 0..%d",
                           key, n - 1);
        seen |= 1 << o[i];
    }
    return 0;
}

/* ---- building blocks ------------------------------------------------------- */

/* identityStandardND: sizes laid out dim order[0] first. */
static void id_nd(struct tll *l, enum tll_in in, const int64_t *size, const int *order, int n)
{
    tll_empty(l);
    for (int i = 0; i < n; i++)
        tll_mul_id(l, size[order[i]], in, order[i]);
}

/* broadcastedDotOperandLayout: identity along every dim but k, zeros along k. */
static void bcast_dot(struct tll *l, enum tll_in in, const int64_t *size, const int *order, int n,
                      int kdim)
{
    tll_empty(l);
    for (int i = 0; i < n; i++) {
        struct tll t;
        if (order[i] == kdim)
            tll_zeros(&t, size[order[i]], in, order[i]);
        else
            tll_identity(&t, size[order[i]], in, order[i]);
        tll_mul(l, &t);
    }
}

/* *a = *a * b, b's output order first set to a's (Triton's *= x.transposeOuts(a's)). */
static void mul_as(struct tll *a, struct tll *b)
{
    tll_transpose(b, a->out, a->nout);
    tll_mul(a, b);
}

/* getMatrixOrder: [rank-1, ..., 0], its first two swapped when column-major. */
static void matrix_order(int rank, int row_major, int *o)
{
    for (int i = 0; i < rank; i++)
        o[i] = rank - 1 - i;
    if (rank >= 2 && !row_major)
        o[0] = rank - 2, o[1] = rank - 1;
}

/* combineCtaCgaWithShape for one CTA. */
static void fit(struct tll *l, const int64_t *shape)
{
    tll_not_smaller(l, shape);
    tll_not_larger(l, shape, 1);
}

/* ---- the encodings --------------------------------------------------------- */

static int build(struct ta_parser *p, int node, const int64_t *shape, int rank, struct tll *out,
                 const char **enc, int depth, struct sz_error *err);

struct blocked {
    int64_t spt[TLL_MAX_RANK], tpw[TLL_MAX_RANK], wpc[TLL_MAX_RANK], ord[TLL_MAX_RANK];
    int order[TLL_MAX_RANK], rank;
};

static int read_blocked(const struct ta_parser *p, int a, int rank, struct blocked *b,
                        struct sz_error *err)
{
    static const char *const keys[] = {"sizePerThread", "threadsPerWarp", "warpsPerCTA", "order",
                                       CGA_KEYS, NULL};
    int n[4];
    if (ta_check_keys(p, a, keys, "blocked", err) < 0 || ta_single_cta(p, a, err) < 0 ||
        ta_ints(p, a, "sizePerThread", "blocked", 1, TD_MAX_PARAM, 1, b->spt, TLL_MAX_RANK, &n[0],
             err) < 0 ||
        ta_ints(p, a, "threadsPerWarp", "blocked", 1, 64, 1, b->tpw, TLL_MAX_RANK, &n[1], err) < 0 ||
        ta_ints(p, a, "warpsPerCTA", "blocked", 1, TD_MAX_PARAM, 1, b->wpc, TLL_MAX_RANK, &n[2],
             err) < 0 ||
        ta_ints(p, a, "order", "blocked", 0, TLL_MAX_RANK - 1, 0, b->ord, TLL_MAX_RANK, &n[3], err) < 0)
        return -1;
    for (int i = 1; i < 4; i++)
        if (n[i] != n[0])
            return ta_fail(p, a, err, "sizePerThread, threadsPerWarp, warpsPerCTA and order "
                           "must have one entry per dimension (%d, %d, %d, %d)",
                           n[0], n[1], n[2], n[3]);
    if (order_ok(p, a, "order", b->ord, n[3], err) < 0 ||
        ta_same_rank(p, a, n[0], rank, "blocked", err) < 0)
        return -1;
    int64_t lanes = 1;
    for (int i = 0; i < n[0]; i++)
        b->order[i] = (int)b->ord[i], lanes *= b->tpw[i];
    if (lanes > 64)
        return ta_fail(p, ta_get(p, a, "threadsPerWarp"), err,
                       "threadsPerWarp multiplies to %lld lanes; a warp has at most 64",
                       (long long)lanes);
    b->rank = n[0];
    return 0;
}

static int blocked(struct ta_parser *p, int a, const int64_t *shape, int rank, struct tll *out,
                   struct sz_error *err)
{
    struct blocked b;
    struct tll t;
    if (read_blocked(p, a, rank, &b, err) < 0)
        return -1;
    id_nd(out, TLL_REGISTER, b.spt, b.order, rank);
    id_nd(&t, TLL_LANE, b.tpw, b.order, rank);
    tll_mul(out, &t);
    id_nd(&t, TLL_WARP, b.wpc, b.order, rank);
    tll_mul(out, &t);
    fit(out, shape);
    return 0;
}

struct mma {
    int major;
    int64_t wpc[TLL_MAX_RANK], instr[TLL_MAX_RANK];
    int ninstr;
};

static int read_mma(const struct ta_parser *p, int a, int rank, struct mma *m,
                    struct sz_error *err)
{
    static const char *const keys[] = {"versionMajor", "versionMinor", "warpsPerCTA",
                                       "instrShape", CGA_KEYS, NULL};
    int64_t major, minor;
    int nw;
    if (ta_check_keys(p, a, keys, "nvidia_mma", err) < 0 || ta_single_cta(p, a, err) < 0 ||
        ta_int(p, a, "versionMajor", "nvidia_mma", 1, 0, 1, 5, &major, err) < 0 ||
        ta_int(p, a, "versionMinor", "nvidia_mma", 0, 0, 0, 9, &minor, err) < 0 ||
        ta_ints(p, a, "warpsPerCTA", "nvidia_mma", 1, TD_MAX_PARAM, 1, m->wpc, TLL_MAX_RANK, &nw,
             err) < 0 ||
        ta_ints(p, a, "instrShape", "nvidia_mma", 1, 256, 0, m->instr, TLL_MAX_RANK, &m->ninstr,
             err) < 0)
        return -1;
    if (major != 2 && major != 3)
        return ta_fail(p, ta_get(p, a, "versionMajor"), err,
                       "versionMajor %lld is not modelled: 2 (Ampere mma) or 3 (Hopper wgmma)",
                       (long long)major);
    if (ta_same_rank(p, a, nw, rank, "nvidia_mma", err) < 0)
        return -1;
    if (rank < 2)
        return ta_shape_fail(p, a, err, "#ttg.nvidia_mma is 2-D or 3-D");
    m->major = (int)major;
    if (major == 2 && m->ninstr != rank)
        return ta_fail(p, ta_get(p, a, "instrShape"), err,
                       "an MMA v2 instrShape has one entry per dimension (%d)", rank);
    if (major == 3 && (m->ninstr != 3 || rank != 2))
        return ta_fail(p, ta_get(p, a, "instrShape"), err,
                       "an MMA v3 encoding is 2-D with instrShape = [M, N, K]");
    return 0;
}

/* nvidiaMmaTile: kWidth registers and 4 lanes along the inner dim, 8 lanes
 * along the outer, then the rest of the tile in registers. */
static int mma_tile(const struct ta_parser *p, int a, struct tll *l, const int64_t *tile,
                    int kwidth, const int *order, const int *rep, int rank, struct sz_error *err)
{
    int64_t ones[TLL_MAX_RANK] = {1, 1, 1, 1};
    int inner = order[0], outer = order[1];
    int64_t m = tile[outer], n = tile[inner];
    if (m % 8 || n % ((int64_t)kwidth * 4) || !bits_is_pow2((uint64_t)m / 8) || !bits_is_pow2((uint64_t)n / (kwidth * 4)))
        return ta_fail(p, a, err, "an MMA tile of %lld x %lld does not hold 8 rows of "
                       "4 lanes x kWidth %d", (long long)m, (long long)n, kwidth);
    id_nd(l, TLL_REGISTER, ones, rep, rank);
    tll_mul_id(l, kwidth, TLL_REGISTER, inner);
    tll_mul_id(l, 4, TLL_LANE, inner);
    tll_mul_id(l, 8, TLL_LANE, outer);
    tll_mul_id(l, m / 8, TLL_REGISTER, outer);
    tll_mul_id(l, n / (kwidth * 4), TLL_REGISTER, inner);
    return 0;
}

static int nvidia_mma(struct ta_parser *p, int a, const int64_t *shape, int rank,
                      struct tll *out, struct sz_error *err)
{
    struct mma m;
    int order[TLL_MAX_RANK] = {0}, worder[TLL_MAX_RANK] = {0};
    int64_t tile[TLL_MAX_RANK];
    struct tll w;
    if (read_mma(p, a, rank, &m, err) < 0)
        return -1;
    for (int i = 0; i < rank; i++)
        tile[i] = m.instr[i];
    if (m.major == 3)
        tile[0] = m.instr[0], tile[1] = m.instr[1];
    matrix_order(rank, 1, order);
    if (mma_tile(p, a, out, tile, 2, order, order, rank, err) < 0)
        return -1;
    matrix_order(rank, m.major != 3, worder);
    id_nd(&w, TLL_WARP, m.wpc, worder, rank);
    mul_as(out, &w);
    fit(out, shape);
    return 0;
}

struct mfma {
    int64_t version, wpc[TLL_MAX_RANK], instr[3], tpw[TLL_MAX_RANK], ebw;
    int trans, ninstr;
};

static int read_mfma(const struct ta_parser *p, int a, int rank, struct mfma *f,
                     struct sz_error *err)
{
    static const char *const keys[] = {"version", "versionMajor", "versionMinor", "warpsPerCTA",
                                       "instrShape", "isTransposed", "tilesPerWarp",
                                       "elementBitWidth", CGA_KEYS, NULL};
    int nw, nt = 0;
    int64_t minor;
    if (ta_check_keys(p, a, keys, "amd_mfma", err) < 0 || ta_single_cta(p, a, err) < 0)
        return -1;
    /* Triton >= 3.5 prints `version`, earlier ones versionMajor/versionMinor */
    if (ta_get(p, a, "version") >= 0 || ta_get(p, a, "versionMajor") < 0) {
        if (ta_int(p, a, "version", "amd_mfma", 1, 0, 0, 4, &f->version, err) < 0)
            return -1;
    } else if (ta_int(p, a, "versionMajor", "amd_mfma", 1, 0, 0, 4, &f->version, err) < 0 ||
               ta_int(p, a, "versionMinor", "amd_mfma", 0, 0, 0, 9, &minor, err) < 0) {
        return -1;
    }
    if (ta_ints(p, a, "warpsPerCTA", "amd_mfma", 1, TD_MAX_PARAM, 1, f->wpc, TLL_MAX_RANK, &nw,
             err) < 0 ||
        ta_ints(p, a, "instrShape", "amd_mfma", 1, 256, 0, f->instr, 3, &f->ninstr, err) < 0 ||
        ta_bool(p, a, "isTransposed", &f->trans, err) < 0 ||
        ta_int(p, a, "elementBitWidth", "amd_mfma", 0, 32, 32, 64, &f->ebw, err) < 0)
        return -1;
    if (ta_get(p, a, "tilesPerWarp") >= 0 &&
        ta_ints(p, a, "tilesPerWarp", "amd_mfma", 1, TD_MAX_PARAM, 1, f->tpw, TLL_MAX_RANK, &nt,
             err) < 0)
        return -1;
    if (ta_same_rank(p, a, nw, rank, "amd_mfma", err) < 0)
        return -1;
    if (rank < 2)
        return ta_shape_fail(p, a, err, "#ttg.amd_mfma is 2-D or 3-D");
    if (nt == 0)
        for (int i = 0; i < rank; i++)
            f->tpw[i] = 1;
    else if (nt != rank)
        return ta_fail(p, ta_get(p, a, "tilesPerWarp"), err,
                       "tilesPerWarp has one entry per dimension (%d)", rank);
    if (f->ebw != 32 && f->ebw != 64)
        return ta_fail(p, ta_get(p, a, "elementBitWidth"), err, "elementBitWidth must be 32 or 64");
    int64_t m = f->ninstr >= 2 ? f->instr[0] : 0, n = f->ninstr >= 2 ? f->instr[1] : 0;
    if (!((m == 32 && n == 32) || (m == 16 && n == 16) || (m == 64 && n == 4) ||
          (m == 4 && n == 64)))
        return ta_fail(p, ta_get(p, a, "instrShape"), err,
                       "instrShape must start [32, 32], [16, 16], [64, 4] or [4, 64]");
    if (m == 64 && n == 4 && !f->trans)
        return ta_fail(p, a, err, "a 64x4 MFMA must be transposed (isTransposed = true)");
    return 0;
}

static int amd_mfma(struct ta_parser *p, int a, const int64_t *shape, int rank, struct tll *out,
                    struct sz_error *err)
{
    struct mfma f;
    int order[TLL_MAX_RANK] = {0};
    struct tll t;
    if (read_mfma(p, a, rank, &f, err) < 0)
        return -1;
    int batch = rank == 3, mi = batch, ni = 1 + batch;
    matrix_order(rank, 1, order);
    int dm = order[1], dn = order[0];
    int64_t m = f.instr[0], n = f.instr[1], height = f.ebw == 64 ? 1 : 4;
    int64_t tiles = m * n / (64 * height);
    /* one instruction's tile: height registers, then lanes, along M (or N
     * when transposed) */
    int reg_dim = f.trans ? dn : dm, lane1 = f.trans ? dm : dn, lane2 = f.trans ? dn : dm;
    int64_t first = f.trans ? m : n;
    tll_identity(out, height, TLL_REGISTER, reg_dim);
    tll_identity(&t, first, TLL_LANE, lane1);
    tll_mul_id(&t, 64 / first, TLL_LANE, lane2);
    tll_mul(out, &t);
    if (tiles > 0)
        tll_mul_id(out, tiles, TLL_REGISTER, reg_dim);
    int tr[2] = {dn, dm};
    tll_transpose(out, tr, 2);
    /* N first (tiles per warp, warps, repeats across the tensor), then M */
    tll_mul_id(out, f.tpw[ni], TLL_REGISTER, dn);
    tll_mul_id(out, f.wpc[ni], TLL_WARP, dn);
    tll_mul_id(out, shape[ni] / (n * f.wpc[ni] * f.tpw[ni]), TLL_REGISTER, dn);
    tll_mul_id(out, f.tpw[mi], TLL_REGISTER, dm);
    tll_mul_id(out, f.wpc[mi], TLL_WARP, dm);
    if (batch) {
        tll_mul_id(out, 1, TLL_REGISTER, order[2]);
        tll_mul_id(out, 1, TLL_LANE, order[2]);
        tll_mul_id(out, f.wpc[0], TLL_WARP, order[2]);
    }
    fit(out, shape);
    return 0;
}

/* getOrderForDotOperand with k contiguous. */
static void dot_order(int op, int rank, int *o) { matrix_order(rank, op == 0, o); }

static int dot_mma(struct ta_parser *p, int a, int parent, int op, int kwidth,
                   const int64_t *shape, int rank, struct tll *out, struct sz_error *err)
{
    struct mma m;
    int order[TLL_MAX_RANK] = {0}, worder[TLL_MAX_RANK] = {0};
    int64_t tile[TLL_MAX_RANK];
    struct tll w;
    if (read_mma(p, parent, rank, &m, err) < 0)
        return -1;
    if (m.major == 3 && op == 1)
        return ta_fail(p, a, err, "MMA v3 (wgmma) reads operand B from shared memory: "
                       "no dot_op with opIdx = 1 exists for it");
    int64_t instr_m = m.instr[rank - 2], mult = instr_m == 8 ? 4 : 8;
    for (int i = 0; i < rank; i++)
        tile[i] = 1;
    if (op == 0)
        tile[rank - 2] = instr_m, tile[rank - 1] = kwidth * mult;
    else
        tile[rank - 2] = kwidth * mult, tile[rank - 1] = 8;
    dot_order(op, rank, order);
    if (mma_tile(p, a, out, tile, kwidth, order, order, rank, err) < 0)
        return -1;
    matrix_order(rank, m.major != 3, worder);
    bcast_dot(&w, TLL_WARP, m.wpc, worder, rank, op == 0 ? rank - 1 : rank - 2);
    mul_as(out, &w);
    fit(out, shape);
    return 0;
}

static int dot_mfma(struct ta_parser *p, int parent, int op, int kwidth, const int64_t *shape,
                    int rank, struct tll *out, struct sz_error *err)
{
    struct mfma f;
    int order[TLL_MAX_RANK] = {0}, worder[TLL_MAX_RANK] = {0};
    struct tll t;
    if (read_mfma(p, parent, rank, &f, err) < 0)
        return -1;
    int nonk_idx = op == 0 ? rank - 2 : rank - 1, k_idx = op == 0 ? rank - 1 : rank - 2;
    int64_t m = f.instr[0], n = f.instr[1], nonk = op == 0 ? m : n, ksize = shape[k_idx];
    dot_order(op, rank, order);
    int dk = order[0], dnk = order[1];
    matrix_order(rank, 1, worder);
    tll_identity(out, kwidth, TLL_REGISTER, dk);
    tll_identity(&t, nonk, TLL_LANE, dnk);
    tll_mul_id(&t, 64 / nonk, TLL_LANE, dk);
    tll_mul(out, &t);
    int64_t ktile = 64 / nonk * kwidth;
    if ((m == 64 && n == 4 && op == 0) || (m == 4 && n == 64 && op == 1)) {
        tll_mul_id(out, 16, TLL_REGISTER, dk);
        ktile *= 16;
    }
    if (ksize > ktile)
        tll_mul_id(out, ksize / ktile, TLL_REGISTER, dk);
    tll_mul_id(out, f.tpw[nonk_idx], TLL_REGISTER, dnk);
    int tr[2] = {dk, dnk};
    tll_transpose(out, tr, 2);
    if (rank == 3) {
        tll_mul_id(out, 1, TLL_REGISTER, order[2]);
        tll_mul_id(out, 1, TLL_LANE, order[2]);
    }
    id_nd(&t, TLL_WARP, f.wpc, worder, rank);
    tll_mul(out, &t);
    fit(out, shape);
    return 0;
}

/* An FMA dot's operand: the blocked parent's registers hold all of K. */
static int dot_blocked(struct ta_parser *p, int parent, int op, const int64_t *shape, int rank,
                       struct tll *out, struct sz_error *err)
{
    struct blocked b;
    struct tll t;
    if (read_blocked(p, parent, rank, &b, err) < 0)
        return -1;
    if (rank < 2)
        return ta_shape_fail(p, parent, err, "a dot operand is 2-D or 3-D");
    int kdim = op == 0 ? rank - 1 : rank - 2;
    int64_t size[TLL_MAX_RANK];
    for (int i = 0; i < rank; i++)
        size[i] = b.spt[i];
    size[kdim] = shape[kdim];
    id_nd(out, TLL_REGISTER, size, b.order, rank);
    bcast_dot(&t, TLL_LANE, b.tpw, b.order, rank, kdim);
    tll_mul(out, &t);
    bcast_dot(&t, TLL_WARP, b.wpc, b.order, rank, kdim);
    tll_mul(out, &t);
    fit(out, shape);
    return 0;
}

static int dot_op(struct ta_parser *p, int a, const int64_t *shape, int rank, struct tll *out,
                  int depth, struct sz_error *err)
{
    static const char *const keys[] = {"opIdx", "parent", "kWidth", NULL};
    int64_t op, kw;
    int par = ta_get(p, a, "parent");
    if (ta_check_keys(p, a, keys, "dot_op", err) < 0 ||
        ta_int(p, a, "opIdx", "dot_op", 1, 0, 0, 1, &op, err) < 0 ||
        ta_int(p, a, "kWidth", "dot_op", 0, 0, 0, 64, &kw, err) < 0)
        return -1;
    if (par < 0)
        return ta_fail(p, a, err, "#ttg.dot_op needs parent");
    int ref = par;
    if (ta_resolve(p, ref, &par, err) < 0)
        return -1;
    if (p->node[par].busy)
        return ta_fail(p, ref, err, "alias loop: #%.*s contains itself", p->node[ref].name_len,
                       p->node[ref].name);
    (void)depth;
    if (ta_is(p, par, "blocked"))
        return dot_blocked(p, par, (int)op, shape, rank, out, err);
    int mma = ta_is(p, par, "nvidia_mma"), mfma = ta_is(p, par, "amd_mfma");
    if (!mma && !mfma)
        return ta_fail(p, par, err, "a dot_op's parent must be #ttg.nvidia_mma, #ttg.amd_mfma "
                       "or #ttg.blocked");
    if (!bits_is_pow2((uint64_t)kw))
        return ta_fail(p, ta_get(p, a, "kWidth") >= 0 ? ta_get(p, a, "kWidth") : a, err,
                       "kWidth must be a power of two for an MMA parent (elements per lane "
                       "along K), got %lld", (long long)kw);
    if (rank < 2)
        return ta_shape_fail(p, a, err, "a dot operand is 2-D or 3-D");
    return mma ? dot_mma(p, a, par, (int)op, (int)kw, shape, rank, out, err)
               : dot_mfma(p, par, (int)op, (int)kw, shape, rank, out, err);
}

static int slice(struct ta_parser *p, int a, const int64_t *shape, int rank, struct tll *out,
                 int depth, struct sz_error *err)
{
    static const char *const keys[] = {"dim", "parent", NULL};
    int64_t dim, pshape[TLL_MAX_RANK];
    const char *penc;
    int par = ta_get(p, a, "parent");
    if (ta_check_keys(p, a, keys, "slice", err) < 0 ||
        ta_int(p, a, "dim", "slice", 1, 0, 0, TLL_MAX_RANK - 1, &dim, err) < 0)
        return -1;
    if (par < 0)
        return ta_fail(p, a, err, "#ttg.slice needs parent");
    if (rank + 1 > TLL_MAX_RANK)
        return ta_shape_fail(p, a, err, "a slice of a rank-%d parent is not modelled", rank + 1);
    if (dim > rank)
        return ta_fail(p, ta_get(p, a, "dim"), err, "dim %lld is past the parent's rank %d",
                       (long long)dim, rank + 1);
    for (int i = 0, j = 0; i <= rank; i++)
        pshape[i] = i == dim ? 1 : shape[j++];
    if (build(p, par, pshape, rank + 1, out, &penc, depth + 1, err) < 0)
        return -1;
    tll_remove_dim(out, (int)dim);
    tll_remove_zero_bases(out, TLL_REGISTER);
    return 0;
}

/* A linear layout on `shape`, as Triton's LinearEncodingTrait::toLinearLayout
 * fits one: output dims in getOrder's order (dims as register bases first
 * move along them, then the rest from the last), grown with registers,
 * shrunk with register broadcasts dropped. */
static void fit_linear(struct tll *out, const int64_t *shape, int rank)
{
    int order[TLL_MAX_RANK], n = 0;
    for (int i = 0; i < out->n[TLL_REGISTER]; i++)
        for (int d = 0; d < rank; d++)
            if (out->b[TLL_REGISTER][i][d]) {
                int seen = 0;
                for (int k = 0; k < n; k++)
                    seen |= order[k] == d;
                if (!seen)
                    order[n++] = d;
            }
    for (int d = rank - 1; d >= 0; d--) {
        int seen = 0;
        for (int k = 0; k < n; k++)
            seen |= order[k] == d;
        if (!seen)
            order[n++] = d;
    }
    tll_transpose(out, order, rank);
    tll_not_smaller(out, shape);
    tll_not_larger(out, shape, 0);
}

/* #ttg.linear<{register = [[...]], lane = ..., warp = ..., block = []}>, or
 * Gluon's print DistributedLinearLayout(reg_bases=..., lane_bases=...,
 * warp_bases=..., block_bases=..., shape=[...]) (gluon set). */
static int linear(const struct ta_parser *p, int a, const int64_t *shape, int rank,
                  struct tll *out, int gluon, struct sz_error *err)
{
    static const char *const ttg[] = {"register", "lane", "warp", "block", NULL};
    static const char *const gl[] = {"reg_bases", "lane_bases", "warp_bases", "block_bases",
                                     "shape", NULL};
    const char *const *names = gluon ? gl : ttg;
    const char *what = gluon ? "DistributedLinearLayout" : "linear";
    int r = 0;
    if (ta_check_keys(p, a, names, what, err) < 0)
        return -1;
    tll_empty(out);
    for (int in = 0; in < TLL_NIN; in++) {
        int v = ta_get(p, a, names[in]);
        if (v < 0)
            return ta_fail(p, a, err, "%s needs %s = [[...], ...]", what, names[in]);
        if (p->node[v].kind != TA_ARRAY)
            return ta_fail(p, v, err, "%s must be a list of bases", names[in]);
        if (in == TLL_BLOCK && p->node[v].first >= 0)
            return ta_fail(p, v, err, "multi-CTA (CGA) layouts are not modelled: %s must "
                           "be []", names[in]);
        for (int b = p->node[v].first; b >= 0; b = p->node[b].next) {
            int k = 0;
            if (out->n[in] >= TLL_MAX_BASES)
                return ta_fail(p, b, err, "more than %d %s bases", TLL_MAX_BASES, names[in]);
            if (p->node[b].kind != TA_ARRAY)
                return ta_fail(p, b, err, "a basis is a list [dim0, dim1, ...]");
            int nz = 0;
            for (int c = p->node[b].first; c >= 0; c = p->node[c].next, k++) {
                if (k >= TLL_MAX_RANK || p->node[c].kind != TA_INT || p->node[c].v < 0 ||
                    p->node[c].v >= ((int64_t)1 << TLL_MAX_LOG2))
                    return ta_fail(p, c, err, "a basis holds at most %d integers in 0..2^%d",
                                   TLL_MAX_RANK, TLL_MAX_LOG2);
                int32_t x = (int32_t)p->node[c].v;
                out->b[in][out->n[in]][k] = x;
                if (x) {
                    /* Triton: a permutation matrix once broadcasts are removed */
                    if (!bits_is_pow2((uint64_t)x) || nz++)
                        return ta_fail(p, b, err, "a basis of a linear layout moves along one "
                                       "dimension by a power of two");
                    int lg = 0;
                    while (((int64_t)1 << lg) <= x)
                        lg++;
                    if (lg > out->lg[k])
                        out->lg[k] = lg;
                }
            }
            if (r == 0)
                r = k;
            else if (k != r)
                return ta_fail(p, b, err, "every basis has the same length (%d)", r);
            out->n[in]++;
        }
    }
    if (gluon) {
        /* the layout's own shape sets its dims' sizes */
        int64_t own[TLL_MAX_RANK];
        int n;
        if (ta_ints(p, a, "shape", what, 1, 1 << 30, 1, own, TLL_MAX_RANK, &n, err) < 0)
            return -1;
        if (r && n != r)
            return ta_fail(p, ta_get(p, a, "shape"), err, "shape has %d entries, the bases %d",
                           n, r);
        r = n;
        for (int d = 0; d < n; d++) {
            int lg = 0;
            while (((int64_t)1 << lg) < own[d])
                lg++;
            if (out->lg[d] > lg)
                return ta_fail(p, ta_get(p, a, "shape"), err, "a basis reaches past shape[%d]",
                               d);
            out->lg[d] = lg;
        }
    }
    if (r == 0)
        return ta_fail(p, a, err, "an empty linear layout has no rank");
    if (ta_same_rank(p, a, r, rank, what, err) < 0)
        return -1;
    fit_linear(out, shape, rank);
    return 0;
}

static int build_one(struct ta_parser *p, int a, const int64_t *shape, int rank,
                     struct tll *out, const char **enc, int depth, struct sz_error *err);

/* Resolve node's aliases, refuse an encoding that contains itself, build it. */
static int build(struct ta_parser *p, int node, const int64_t *shape, int rank, struct tll *out,
                 const char **enc, int depth, struct sz_error *err)
{
    int a;
    if (ta_resolve(p, node, &a, err) < 0)
        return -1;
    if (p->node[a].busy)
        return ta_fail(p, node, err, "alias loop: #%.*s contains itself",
                       p->node[node].name_len, p->node[node].name);
    if (depth > TA_MAX_DEPTH)
        return ta_fail(p, a, err, "encodings nested too deep");
    p->node[a].busy = 1;
    int rc = build_one(p, a, shape, rank, out, enc, depth, err);
    p->node[a].busy = 0;
    return rc;
}

static int build_one(struct ta_parser *p, int a, const int64_t *shape, int rank,
                     struct tll *out, const char **enc, int depth, struct sz_error *err)
{
    if (p->node[a].kind != TA_ATTR)
        return ta_fail(p, a, err, "expected a distributed encoding (#ttg.blocked, #ttg.slice, "
                       "#ttg.nvidia_mma, #ttg.dot_op, #ttg.amd_mfma or #ttg.linear)");
    static const char *const names[] = {"blocked", "slice", "nvidia_mma", "dot_op", "amd_mfma",
                                        "linear"};
    for (int i = 0; i < 6; i++)
        if (ta_is(p, a, names[i]))
            *enc = names[i];
    if (ta_is(p, a, "blocked"))
        return blocked(p, a, shape, rank, out, err);
    if (ta_is(p, a, "slice"))
        return slice(p, a, shape, rank, out, depth, err);
    if (ta_is(p, a, "nvidia_mma"))
        return nvidia_mma(p, a, shape, rank, out, err);
    if (ta_is(p, a, "dot_op"))
        return dot_op(p, a, shape, rank, out, depth, err);
    if (ta_is(p, a, "amd_mfma"))
        return amd_mfma(p, a, shape, rank, out, err);
    if (ta_is(p, a, "linear"))
        return linear(p, a, shape, rank, out, 0, err);
    if (p->node[a].name_len == 23 && !memcmp(p->node[a].name, "DistributedLinearLayout", 23)) {
        *enc = "linear";
        return linear(p, a, shape, rank, out, 1, err);
    }
    return ta_fail(p, a, err, "#%.*s is not a distributed encoding this tool models "
                   "(#ttg.blocked, #ttg.slice, #ttg.nvidia_mma, #ttg.dot_op, #ttg.amd_mfma, "
                   "#ttg.linear)", p->node[a].name_len, p->node[a].name);
}

/* The answer: the layout's bases on `shape`. */
static void to_td(const struct tll *l, const int64_t *shape, int rank, struct td_layout *out)
{
    out->rank = rank;
    memcpy(out->shape, shape, sizeof(int64_t) * (size_t)rank);
    memcpy(out->n, l->n, sizeof out->n);
    memcpy(out->b, l->b, sizeof out->b);
    out->lanes = 1 << l->n[TLL_LANE];
    out->warps = 1 << l->n[TLL_WARP];
}

int triton_dist_build(struct ta_parser *p, int attr, const int64_t *shape, int rank,
                      struct td_layout *out, struct sz_error *err)
{
    struct tll l;
    if (tll_check_shape(shape, rank, TLL_MAX_LOG2, err) < 0)
        return -1;
    memset(out, 0, sizeof *out);
    out->encoding = "";
    if (build(p, attr, shape, rank, &l, &out->encoding, 0, err) < 0)
        return -1;
    if (l.over)
        return ta_fail(p, attr, err, "the layout needs more than %d bases per input or 2^%d "
                       "elements per dimension", TLL_MAX_BASES, TLL_MAX_LOG2);
    to_td(&l, shape, rank, out);
    return 0;
}

/* ---- LinearLayout::toString text ------------------------------------------------ */

struct ts_cur {
    const struct ta_parser *p;
    size_t i;
};

static int ts_fail(const struct ts_cur *c, struct sz_error *err, const char *msg)
{
    int line, col;
    ta_line_col(c->p, 0, (int)c->i, &line, &col);
    sz_fail(err, SZ_INVALID_ARGUMENT, c->p->field[0], "line %d, column %d: %s", line, col, msg);
    return ta_fail_pos(c->p, 0, (int)c->i, err);
}

static char ts_ch(const struct ts_cur *c) { return c->i < c->p->len[0] ? c->p->text[0][c->i] : 0; }

static void ts_ws(struct ts_cur *c)
{
    while (ts_ch(c) == ' ' || ts_ch(c) == '\t' || ts_ch(c) == '\r' || ts_ch(c) == '\n')
        c->i++;
}

static int ts_word(struct ts_cur *c, const char *w)
{
    size_t n = strlen(w);
    if (c->i + n > c->p->len[0] || memcmp(c->p->text[0] + c->i, w, n))
        return 0;
    c->i += n;
    return 1;
}

static int ts_int(struct ts_cur *c, int64_t *v)
{
    ts_ws(c);
    if (ts_ch(c) < '0' || ts_ch(c) > '9')
        return -1;
    *v = 0;
    while (ts_ch(c) >= '0' && ts_ch(c) <= '9' && *v < ((int64_t)1 << 40))
        *v = *v * 10 + (ts_ch(c) - '0'), c->i++;
    return 0;
}

/* " - register=1 -> (0, 1)\n   register=2 -> (8, 0)\n - lane=1 -> ...
 *  - block is a size 1 dimension\nwhere out dims are: [dim0 (size 16), ...]" */
static int tostring(const struct ta_parser *p, struct tll *out, int *rank, struct sz_error *err)
{
    static const char *const names[TLL_NIN] = {"register", "lane", "warp", "block"};
    struct ts_cur c = {p, 0};
    int r = -1;
    tll_empty(out);
    for (;;) {
        ts_ws(&c);
        if (ts_word(&c, "where out dims are:"))
            break;
        if (ts_ch(&c) == '-')
            c.i++, ts_ws(&c);
        int in = -1;
        for (int k = 0; k < TLL_NIN && in < 0; k++)
            if (ts_word(&c, names[k]))
                in = k;
        if (in < 0)
            return ts_fail(&c, err, "expected register, lane, warp or block (LinearLayout::"
                           "toString's lines), or 'where out dims are:'");
        if (ts_word(&c, " is a size 1 dimension"))
            continue;
        int64_t v;
        if (!ts_word(&c, "=") || ts_int(&c, &v) < 0 || v != ((int64_t)1 << out->n[in]))
            return ts_fail(&c, err, "expected `=2^k` with k the basis's index");
        ts_ws(&c);
        if (!ts_word(&c, "->") || (ts_ws(&c), !ts_word(&c, "(")))
            return ts_fail(&c, err, "expected '-> (' and the basis");
        if (out->n[in] >= TLL_MAX_BASES)
            return ts_fail(&c, err, "too many bases");
        int k = 0;
        do {
            if (k >= TLL_MAX_RANK || ts_int(&c, &v) < 0 || v >= ((int64_t)1 << TLL_MAX_LOG2))
                return ts_fail(&c, err, "expected a coordinate: at most 4 non-negative integers");
            out->b[in][out->n[in]][k++] = (int32_t)v;
            ts_ws(&c);
        } while (ts_word(&c, ","));
        if (!ts_word(&c, ")"))
            return ts_fail(&c, err, "expected ')'");
        if (r >= 0 && k != r)
            return ts_fail(&c, err, "every basis has the same length");
        r = k;
        if (in == TLL_BLOCK)
            return ts_fail(&c, err, "multi-CTA (CGA) layouts are not modelled: block must be a "
                           "size 1 dimension");
        out->n[in]++;
    }
    ts_ws(&c);
    if (!ts_word(&c, "["))
        return ts_fail(&c, err, "expected '[' and the out dims");
    int d = 0;
    do {
        int64_t idx, size;
        ts_ws(&c);
        if (d >= TLL_MAX_RANK || !ts_word(&c, "dim") || ts_int(&c, &idx) < 0 || idx != d ||
            (ts_ws(&c), !ts_word(&c, "(size")) || ts_int(&c, &size) < 0 || !bits_is_pow2((uint64_t)size) ||
            size > ((int64_t)1 << TLL_MAX_LOG2) || !ts_word(&c, ")"))
            return ts_fail(&c, err, "expected `dimN (size S)`, S a power of two, N in order");
        int lg = 0;
        while (((int64_t)1 << lg) < size)
            lg++;
        out->lg[d] = lg;
        out->out[d] = d;
        d++;
        ts_ws(&c);
    } while (ts_word(&c, ","));
    if (!ts_word(&c, "]"))
        return ts_fail(&c, err, "expected ']'");
    if (r >= 0 && r != d)
        return ts_fail(&c, err, "the bases and the out dims have different ranks");
    for (int in = 0; in < TLL_NIN; in++)
        for (int i = 0; i < out->n[in]; i++)
            for (int k = 0; k < d; k++)
                if (out->b[in][i][k] >= ((int64_t)1 << out->lg[k]))
                    return ts_fail(&c, err, "a basis reaches past its out dim's size");
    out->nout = d;
    *rank = d;
    return 0;
}

int triton_dist_layout(struct ta_parser *p, const char *text, const char *aliases,
                       const int64_t *shape, int rank, struct td_layout *out,
                       struct sz_error *err)
{
    int node;
    if (ta_init(p, text, "layout", aliases, "aliases", err) < 0)
        return -1;
    if (strstr(text, "where out dims are:")) {
        /* LinearLayout::toString: fitted to the shape as a #ttg.linear */
        struct tll l;
        int r = 0;
        if (tostring(p, &l, &r, err) < 0)
            return -1;
        if (r != rank)
            return sz_fail(err, SZ_INVALID_ARGUMENT, "shape",
                           "the layout has %d out dims, the shape has rank %d", r, rank);
        for (int i = 0; i < rank; i++)
            if (!bits_is_pow2((uint64_t)shape[i]))
                return sz_fail(err, SZ_INVALID_ARGUMENT, "shape",
                               "shape[%d] must be a power of two, got %lld", i,
                               (long long)shape[i]);
        fit_linear(&l, shape, rank);
        memset(out, 0, sizeof *out);
        out->encoding = "linear";
        to_td(&l, shape, rank, out);
        return 0;
    }
    if (ta_parse(p, 0, 0, 1, 1, &node, err) < 0)
        return -1;
    return triton_dist_build(p, node, shape, rank, out, err);
}
