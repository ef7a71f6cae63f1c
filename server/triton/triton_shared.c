/* triton_shared.c - each shared encoding's offset -> element bases, as
 * Triton's toLinearLayout defines them (LinearLayoutConversions.cpp,
 * Dialect.cpp; read for the facts, not copied): swizzled_shared's XOR of the
 * row's phase into the column's vectors (amd_rotating_shared's rotated by the
 * row's block), nvmma_shared's 8-row core matrices
 * tiled over the TMA box (padded past it in the tensor's dim order),
 * shared_linear's bases as written, padded_shared's linear component plus its
 * intervals.  Pure: no I/O, no allocation. */
#include "triton_shared.h"

#include <string.h>

#include "base/bits.h"

/* Offset bases being built: each dim's size so far (log2). */
struct acc {
    int rank, n, lg[TLL_MAX_RANK];
    int32_t b[TLL_MAX_BASES][TLL_MAX_RANK];
    int over;
};

static void push(struct acc *a, const int32_t *v)
{
    if (a->n >= TLL_MAX_BASES) {
        a->over = 1;
        return;
    }
    memcpy(a->b[a->n++], v, sizeof a->b[0]);
}

/* identity1D(size, offset, dim) appended. */
static void grow_id(struct acc *a, int d, int64_t size)
{
    for (int64_t s = 1; s < size; s *= 2) {
        int32_t v[TLL_MAX_RANK] = {0};
        v[d] = (int32_t)(s << a->lg[d]);
        push(a, v);
    }
    a->lg[d] += bits_log2_ceil((uint32_t)size);
}

/* ensureLayoutNotSmallerThan over dims in `order`. */
static void not_smaller(struct acc *a, const int *order, int n, const int64_t *shape)
{
    for (int k = 0; k < n; k++) {
        int d = order[k];
        if (shape[d] > ((int64_t)1 << a->lg[d]))
            grow_id(a, d, shape[d] >> a->lg[d]);
    }
}

/* The output size LinearLayout infers from bases: past the largest value. */
static void infer_sizes(struct acc *a)
{
    for (int d = 0; d < a->rank; d++) {
        int lg = 0;
        for (int i = 0; i < a->n; i++)
            while (((int64_t)1 << lg) <= a->b[i][d])
                lg++;
        a->lg[d] = lg;
    }
}

static int finish(const struct ta_parser *p, int attr, const struct acc *a, const int64_t *shape,
                  int rank, struct tsh_layout *out, struct sz_error *err)
{
    int want = 0;
    for (int d = 0; d < rank; d++)
        want += bits_log2_ceil((uint32_t)shape[d]);
    if (a->over)
        return ta_fail(p, attr, err, "more than %d offset bits", TLL_MAX_BASES);
    /* a bijection offset -> element: as many bases as element bits, full rank */
    uint64_t span[64] = {0};
    int rk = 0;
    for (int i = 0; i < a->n; i++) {
        uint64_t v = 0;
        int sh = 0;
        for (int d = rank - 1; d >= 0; d--) {
            if (a->b[i][d] < 0 || a->b[i][d] >= shape[d])
                return ta_shape_fail(p, attr, err, "offset bit %d reaches past the shape in dim %d",
                                     i, d);
            v |= (uint64_t)a->b[i][d] << sh;
            sh += bits_log2_ceil((uint32_t)shape[d]);
        }
        for (int k = 63; k >= 0 && v; k--)
            if (v >> k & 1) {
                if (span[k])
                    v ^= span[k];
                else {
                    span[k] = v, rk++;
                    break;
                }
            }
    }
    if (a->n != want || rk != want)
        return ta_shape_fail(p, attr, err, "the encoding's %d offset bits (rank %d) do not place "
                             "the shape's 2^%d elements one to one", a->n, rk, want);
    out->rank = rank;
    out->n = a->n;
    memcpy(out->shape, shape, sizeof(int64_t) * (size_t)rank);
    memcpy(out->b, a->b, sizeof a->b);
    return 0;
}

static int order_of(const struct ta_parser *p, int attr, const char *what, int rank, int *order,
                    struct sz_error *err)
{
    int64_t o[TLL_MAX_RANK];
    int n, seen = 0;
    if (ta_ints(p, attr, "order", what, 0, TLL_MAX_RANK - 1, 0, o, TLL_MAX_RANK, &n, err) < 0 ||
        ta_same_rank(p, attr, n, rank, what, err) < 0)
        return -1;
    for (int i = 0; i < n; i++) {
        if (o[i] >= n || (seen >> o[i] & 1))
            return ta_fail(p, ta_get(p, attr, "order"), err, "order must be a permutation of "
                           "0..%d", n - 1);
        seen |= 1 << o[i];
        order[i] = (int)o[i];
    }
    return 0;
}

#define CGA_KEYS "CGALayout", "CTAsPerCGA", "CTASplitNum", "CTAOrder"

static int swizzled_rows(const struct ta_parser *p, int attr, const int64_t *shape, int rank,
                         int rotating, const char *what, struct acc *a, struct sz_error *err);
static int nvmma_tiles(const struct ta_parser *p, int attr, const int64_t *shape, int rank,
                       int64_t swz, int tr, int64_t ebw, struct acc *a, struct sz_error *err);

/* swizzled_shared: row r XORs its column by vec x ((r / perPhase) % maxPhase);
 * amd_rotating_shared (rotating) also XORs the phase with the block of
 * maxPhase x perPhase rows it sits in. */
static int swizzled(const struct ta_parser *p, int attr, const int64_t *shape, int rank,
                    int rotating, struct acc *a, struct sz_error *err)
{
    static const char *const keys[] = {"vec", "perPhase", "maxPhase", "order", CGA_KEYS, NULL};
    const char *what = rotating ? "amd_rotating_shared" : "swizzled_shared";
    if (ta_check_keys(p, attr, keys, what, err) < 0)
        return -1;
    return swizzled_rows(p, attr, shape, rank, rotating, what, a, err);
}

/* swizzled's work once the keys are known to be its own. */
static int swizzled_rows(const struct ta_parser *p, int attr, const int64_t *shape, int rank,
                         int rotating, const char *what, struct acc *a, struct sz_error *err)
{
    int64_t vec, pp, mp;
    int order[TLL_MAX_RANK];
    if (ta_single_cta(p, attr, err) < 0 ||
        ta_int(p, attr, "vec", what, 1, 0, 1, 1 << 16, &vec, err) < 0 ||
        ta_int(p, attr, "perPhase", what, 1, 0, 1, 1 << 16, &pp, err) < 0 ||
        ta_int(p, attr, "maxPhase", what, 1, 0, 1, 1 << 16, &mp, err) < 0 ||
        order_of(p, attr, what, rank, order, err) < 0)
        return -1;
    if (rank == 1) {
        grow_id(a, 0, shape[0]);
        return 0;
    }
    int col = order[0], row = order[1];
    grow_id(a, col, shape[col]);
    for (int64_t r = 1; r < shape[row]; r *= 2) {
        int32_t v[TLL_MAX_RANK] = {0};
        v[row] = (int32_t)r;
        int64_t phase = (r / pp) % mp;
        if (rotating)
            phase ^= r / mp / pp % mp;
        v[col] = (int32_t)((vec * phase) % shape[col]);
        push(a, v);
    }
    a->lg[row] = bits_log2_ceil((uint32_t)shape[row]);
    for (int i = 2; i < rank; i++)
        grow_id(a, order[i], shape[order[i]]);
    return 0;
}

/* Reshape bases over dims sizes `from` (rank nf) to `to` (rank nt), both
 * row-major (the last dim fastest), as Triton's reshapeLayout does. */
static void reshape(struct acc *a, const int64_t *from, int nf, const int64_t *to, int nt)
{
    for (int i = 0; i < a->n; i++) {
        uint64_t flat = 0;
        int sh = 0;
        for (int d = nf - 1; d >= 0; d--) {
            flat |= (uint64_t)a->b[i][d] << sh;
            sh += bits_log2_ceil((uint32_t)from[d]);
        }
        for (int d = nt - 1; d >= 0; d--) {
            a->b[i][d] = (int32_t)(flat & (uint64_t)(to[d] - 1));
            flat >>= bits_log2_ceil((uint32_t)to[d]);
        }
        for (int d = nt; d < TLL_MAX_RANK; d++)
            a->b[i][d] = 0;
    }
    a->rank = nt;
    for (int d = 0; d < nt; d++)
        a->lg[d] = bits_log2_ceil((uint32_t)to[d]);
}

/* transposeLinearLayout: component j takes the old component order[j]. */
static void permute(struct acc *a, const int *order, int rank)
{
    for (int i = 0; i < a->n; i++) {
        int32_t old[TLL_MAX_RANK];
        memcpy(old, a->b[i], sizeof old);
        for (int j = 0; j < rank; j++)
            a->b[i][j] = old[order[j]];
    }
    infer_sizes(a);
}

static int nvmma(const struct ta_parser *p, int attr, const int64_t *shape, int rank, int bits,
                 struct acc *a, struct sz_error *err)
{
    static const char *const keys[] = {"swizzlingByteWidth", "transposed", "elementBitWidth",
                                       "fp4Padded", "rank", CGA_KEYS, NULL};
    int64_t swz, ebw, r;
    int tr, fp4;
    /* `rank`: Triton prints it when it is not 2 and reads 2 without it; here
     * a text without it takes the tensor's rank, so that a hand-written 3-D
     * text (which /api/layout has always taken) reads the same on both routes */
    if (ta_check_keys(p, attr, keys, "nvmma_shared", err) < 0 ||
        ta_single_cta(p, attr, err) < 0 ||
        ta_int(p, attr, "swizzlingByteWidth", "nvmma_shared", 1, 0, 0, 128, &swz, err) < 0 ||
        ta_bool(p, attr, "transposed", &tr, err) < 0 ||
        ta_int(p, attr, "elementBitWidth", "nvmma_shared", 0, bits, 1, 64, &ebw, err) < 0 ||
        ta_bool(p, attr, "fp4Padded", &fp4, err) < 0 ||
        ta_int(p, attr, "rank", "nvmma_shared", 0, rank, 1, 5, &r, err) < 0)
        return -1;
    if (swz != 0 && swz != 32 && swz != 64 && swz != 128)
        return ta_fail(p, ta_get(p, attr, "swizzlingByteWidth"), err,
                       "swizzlingByteWidth must be 0, 32, 64 or 128");
    if (fp4)
        return ta_fail(p, ta_get(p, attr, "fp4Padded"), err, "fp4Padded layouts are not modelled");
    if (ebw != 8 && ebw != 16 && ebw != 32 && ebw != 64)
        return ta_fail(p, attr, err, "elementBitWidth must be 8, 16, 32 or 64");
    if (ta_same_rank(p, attr, (int)r, rank, "nvmma_shared", err) < 0)
        return -1;
    if (bits && bits != ebw)
        return ta_fail(p, attr, err, "elementBitWidth %lld, but the tensor's elements have %d "
                       "bits", (long long)ebw, bits);
    return nvmma_tiles(p, attr, shape, rank, swz, tr, ebw, a, err);
}

/* nvmma_shared's layout: 8-row core matrices of swz bytes, TMA boxes (Triton's
 * nvmmaSharedToLinearLayout); tr: the outer dim is the contiguous one. */
static int nvmma_tiles(const struct ta_parser *p, int attr, const int64_t *shape, int rank,
                       int64_t swz, int tr, int64_t ebw, struct acc *a, struct sz_error *err)
{
    int order_std[TLL_MAX_RANK], rot[TLL_MAX_RANK];
    for (int i = 0; i < rank; i++)
        order_std[i] = i;
    /* the TMA box: every dim at most 256, the contiguous one one swizzle row */
    int64_t tma[TLL_MAX_RANK] = {0}, mt[TLL_MAX_RANK] = {0};   /* (gcc -O2 cannot see rank <= TLL_MAX_RANK) */
    int contig = tr ? 0 : rank - 1;
    for (int i = 0; i < rank; i++)
        tma[i] = shape[i] < 256 ? shape[i] : 256;
    if (swz) {
        int64_t cd = 8 * swz / ebw;
        if (tma[contig] < cd)
            return ta_shape_fail(p, attr, err, "the contiguous dim holds %lld elements, fewer "
                                 "than one %lld-byte swizzle row (%lld)", (long long)tma[contig],
                                 (long long)swz, (long long)cd);
        tma[contig] = cd;
    }
    /* transposed: the outer dim moves inside (std::rotate left by one) */
    for (int i = 0; i < rank; i++)
        mt[i] = tr ? tma[(i + 1) % rank] : tma[i];
    rot[0] = rank - 1;
    for (int i = 1; i < rank; i++)
        rot[i] = i - 1;
    a->rank = rank;
    if (swz == 0) {
        /* no swizzle: the box row-major whatever `transposed` says (Triton's
         * nvmmaSharedToLinearLayout returns before it transposes) */
        for (int d = rank - 1; d >= 0; d--)
            grow_id(a, d, tma[d]);
    } else {
        if (rank < 2)
            return ta_shape_fail(p, attr, err, "a swizzled nvmma_shared layout is 2-D or more");
        int64_t coll[2] = {1, tma[rank - 1]};
        for (int i = 0; i + 1 < rank; i++)
            coll[0] *= tma[i];
        if (tr) {
            int64_t t = coll[0];
            coll[0] = coll[1], coll[1] = t;
        }
        /* one core matrix: 8 rows of max(16, swz) bytes */
        int64_t vec = 128 / ebw, pp = 128 / swz, mp = swz / 16;
        int64_t cols = 8 * (swz > 16 ? swz : 16) / ebw;
        if (coll[1] < cols || coll[0] < 8)
            return ta_shape_fail(p, attr, err, "the tile is smaller than one core matrix of 8 x "
                                 "%lld elements", (long long)cols);
        a->rank = 2;
        grow_id(a, 1, cols);
        for (int row = 1; row < 8; row *= 2) {
            int32_t v[TLL_MAX_RANK] = {0};
            v[0] = row;
            v[1] = (int32_t)(vec * ((row / pp) % mp));
            push(a, v);
        }
        a->lg[0] = 3;
        int o2[2] = {0, 1};
        not_smaller(a, o2, 2, coll);
        int64_t prod = 1;
        for (int i = 0; i < rank; i++)
            prod *= mt[i];
        if (prod != coll[0] * coll[1])
            return ta_shape_fail(p, attr, err, "the TMA box does not reshape to the tile");
        reshape(a, coll, 2, mt, rank);
    }
    if (tr && swz)
        permute(a, rot, rank);
    not_smaller(a, order_std, rank, shape);
    return 0;
}

/* `offset = [[...]], block = []`: bases as written (shared_linear, padded_shared). */
static int bases(const struct ta_parser *p, int attr, const char *what, int rank, struct acc *a,
                 struct sz_error *err)
{
    int v = ta_get(p, attr, "offset"), blk = ta_get(p, attr, "block");
    if (v < 0 || p->node[v].kind != TA_ARRAY)
        return ta_fail(p, attr, err, "#ttg.%s needs offset = [[...], ...]", what);
    if (blk >= 0 && (p->node[blk].kind != TA_ARRAY || p->node[blk].first >= 0))
        return ta_fail(p, blk, err, "multi-CTA (CGA) layouts are not modelled: block must be []");
    for (int b = p->node[v].first; b >= 0; b = p->node[b].next) {
        int32_t x[TLL_MAX_RANK] = {0};
        int k = 0;
        if (p->node[b].kind != TA_ARRAY)
            return ta_fail(p, b, err, "an offset basis is a list [dim0, ...]");
        for (int c = p->node[b].first; c >= 0; c = p->node[c].next, k++) {
            if (k >= rank || p->node[c].kind != TA_INT || p->node[c].v < 0 ||
                p->node[c].v >= ((int64_t)1 << TLL_MAX_LOG2))
                return ta_fail(p, c, err, "an offset basis holds %d non-negative integers", rank);
            x[k] = (int32_t)p->node[c].v;
        }
        if (k != rank)
            return ta_shape_fail(p, b, err, "an offset basis of rank %d, the shape has rank %d",
                                 k, rank);
        push(a, x);
    }
    return 0;
}

static int shared_linear(const struct ta_parser *p, int attr, int rank, struct acc *a,
                         struct sz_error *err)
{
    static const char *const keys[] = {"offset", "block", "alignment", NULL};
    return ta_check_keys(p, attr, keys, "shared_linear", err) < 0 ? -1
                                                                  : bases(p, attr, "shared_linear",
                                                                          rank, a, err);
}

static int padded(const struct ta_parser *p, int attr, const int64_t *shape, int rank,
                  struct acc *a, struct tsh_layout *out, struct sz_error *err)
{
    static const char *const keys[] = {"offset", "block", "order", "shape", NULL};
    int pad = p->node[attr].pad;
    if (ta_check_keys(p, attr, keys, "padded_shared", err) < 0)
        return -1;
    if (pad < 0 || p->node[pad].first < 0)
        return ta_fail(p, attr, err, "#ttg.padded_shared needs [interval:+padding, ...]");
    for (int q = p->node[pad].first; q >= 0; q = p->node[q].next) {
        int x = p->node[q].first, y = p->node[x].next;
        if (out->npad >= TSH_MAX_PADS)
            return ta_fail(p, q, err, "at most %d interval:+padding pairs", TSH_MAX_PADS);
        if (!bits_is_pow2((uint64_t)p->node[x].v) || !bits_is_pow2((uint64_t)p->node[y].v) || p->node[x].v > (1 << 24) ||
            p->node[y].v > (1 << 24))
            return ta_fail(p, q, err, "intervals and paddings are powers of two up to 2^24");
        out->interval[out->npad] = p->node[x].v;
        out->pad[out->npad++] = p->node[y].v;
    }
    if (ta_get(p, attr, "offset") >= 0 || ta_get(p, attr, "block") >= 0)
        return bases(p, attr, "padded_shared", rank, a, err);
    /* `order = [...], shape = [...]`: the identity in that order on that shape */
    int order[TLL_MAX_RANK], n;
    int64_t s[TLL_MAX_RANK];
    if (order_of(p, attr, "padded_shared", rank, order, err) < 0 ||
        ta_ints(p, attr, "shape", "padded_shared", 1, 1 << 30, 1, s, TLL_MAX_RANK, &n, err) < 0)
        return -1;
    for (int i = 0; i < rank; i++)
        if (i >= n || s[i] != shape[i])
            return ta_shape_fail(p, ta_get(p, attr, "shape"), err, "the padded layout's shape "
                                 "is not the tensor's");
    for (int i = 0; i < rank; i++)
        grow_id(a, order[i], shape[order[i]]);
    return 0;
}

/* Triton 3.0/3.1's #triton_gpu.shared<{vec, perPhase, maxPhase, order,
 * hasLeadingOffset}>: without a leading offset it is the swizzled layout
 * (3.3 renamed it swizzled_shared); with one it is the MMAv3 layout that
 * became nvmma_shared, its swizzle width read from (perPhase, maxPhase) as
 * 3.1's sharedToLinearLayoutLeadingOffset reads it: (4, 2) 32 bytes, (2, 4)
 * 64, (1, 8) 128; the contiguous dim order[0] (the outer one: transposed). */
static int old_shared(const struct ta_parser *p, int attr, const int64_t *shape, int rank,
                      int bits, struct acc *a, struct sz_error *err)
{
    static const char *const keys[] = {"vec", "perPhase", "maxPhase", "order",
                                       "hasLeadingOffset", CGA_KEYS, NULL};
    int lead;
    if (ta_check_keys(p, attr, keys, "shared", err) < 0 ||
        ta_bool(p, attr, "hasLeadingOffset", &lead, err) < 0)
        return -1;
    if (!lead)
        return swizzled_rows(p, attr, shape, rank, 0, "shared", a, err);
    int64_t pp, mp;
    int order[TLL_MAX_RANK];
    if (ta_single_cta(p, attr, err) < 0 ||
        ta_int(p, attr, "perPhase", "shared", 1, 0, 1, 1 << 16, &pp, err) < 0 ||
        ta_int(p, attr, "maxPhase", "shared", 1, 0, 1, 1 << 16, &mp, err) < 0 ||
        order_of(p, attr, "shared", rank, order, err) < 0)
        return -1;
    int64_t swz = pp == 4 && mp == 2 ? 32 : pp == 2 && mp == 4 ? 64 : pp == 1 && mp == 8 ? 128 : 0;
    if (!swz)
        return ta_fail(p, attr, err, "hasLeadingOffset takes perPhase/maxPhase 4/2, 2/4 or 1/8 "
                       "(32-, 64- or 128-byte swizzle), got %lld/%lld", (long long)pp,
                       (long long)mp);
    if (rank < 2)
        return ta_shape_fail(p, attr, err, "a layout with a leading offset is 2-D or more");
    if (!bits)
        return ta_fail(p, attr, err, "a layout with a leading offset needs the element type");
    return nvmma_tiles(p, attr, shape, rank, swz, order[0] != rank - 1, bits, a, err);
}

int triton_shared_is(const struct ta_parser *p, int attr)
{
    return ta_is(p, attr, "swizzled_shared") || ta_is(p, attr, "amd_rotating_shared") ||
           ta_is(p, attr, "nvmma_shared") ||
           ta_is(p, attr, "shared_linear") || ta_is(p, attr, "padded_shared") ||
           ta_is(p, attr, "shared");
}

int triton_shared_build(struct ta_parser *p, int attr, const int64_t *shape, int rank,
                        int element_bits, struct tsh_layout *out, struct sz_error *err)
{
    struct acc a;
    if (ta_resolve(p, attr, &attr, err) < 0 || tll_check_shape(shape, rank, 24, err) < 0)
        return -1;
    memset(out, 0, sizeof *out);
    memset(&a, 0, sizeof a);
    a.rank = rank;
    int rc;
    if (ta_is(p, attr, "swizzled_shared"))
        out->encoding = "swizzled_shared", rc = swizzled(p, attr, shape, rank, 0, &a, err);
    else if (ta_is(p, attr, "amd_rotating_shared"))
        out->encoding = "amd_rotating_shared", rc = swizzled(p, attr, shape, rank, 1, &a, err);
    else if (ta_is(p, attr, "nvmma_shared"))
        out->encoding = "nvmma_shared", rc = nvmma(p, attr, shape, rank, element_bits, &a, err);
    else if (ta_is(p, attr, "shared_linear"))
        out->encoding = "shared_linear", rc = shared_linear(p, attr, rank, &a, err);
    else if (ta_is(p, attr, "padded_shared"))
        out->encoding = "padded_shared", rc = padded(p, attr, shape, rank, &a, out, err);
    else if (ta_is(p, attr, "shared"))
        out->encoding = "shared", rc = old_shared(p, attr, shape, rank, element_bits, &a, err);
    else
        return ta_fail(p, attr, err, "expected a shared encoding (#ttg.swizzled_shared, "
                       "#ttg.amd_rotating_shared, #ttg.nvmma_shared, #ttg.shared_linear, "
                       "#ttg.padded_shared, or Triton 3.0/3.1's #triton_gpu.shared)");
    if (rc < 0)
        return -1;
    out->element_bits = element_bits;
    return finish(p, attr, &a, shape, rank, out, err);
}

int64_t triton_shared_padded(const struct tsh_layout *l, int64_t x)
{
    int64_t y = x;
    for (int i = 0; i < l->npad; i++)
        y += (x / l->interval[i]) * l->pad[i];
    return y;
}
