/* layout_triton.c - the Triton shared-encoding rows of the layout form table:
 * #ttg.swizzled_shared<{vec, perPhase, maxPhase, order}>,
 * #ttg.nvmma_shared<{swizzlingByteWidth, transposed, elementBitWidth}>,
 * #ttg.shared_linear<{offset = [[...]]}, alignment = N>,
 * #ttg.padded_shared<[interval:+pad, ...] {...}> and #ttg.amd_rotating_shared
 * over the request's shape (the last three read and checked by triton_shared.c).  Their formulas are linear_conv.c's (issue 16),
 * reached through lin_from_*: this file reads the attributes and orients the
 * tile, and writes no second copy of either.  Pure core: no I/O, no allocation. */
#include <stdio.h>
#include <string.h>

#include "base/bits.h"
#include "linear/f2.h"
#include "layout_text.h"
#include "linear/linear_conv.h"
#include "triton/triton_shared.h"



/* ---- the text ---------------------------------------------------------------- */

static int attr_int(struct lay_cur *c, uint32_t *v) { return lay_int(c, 1u << 24, v); }

static int swizzled_attr(struct lay_cur *c, struct lay *l, size_t at)
{
    struct lay_swizzled *a = &l->a.swizzled;
    uint32_t v;
    int *slot = lay_key(c, "vec", at) ? &a->vec
              : lay_key(c, "perPhase", at) ? &a->per_phase
              : lay_key(c, "maxPhase", at) ? &a->max_phase : NULL;
    if (slot) {
        if (attr_int(c, &v) < 0)
            return -1;
        *slot = (int)v;
        return 1;
    }
    if (!lay_key(c, "order", at))
        return 0;
    if (lay_list(c, a->order, &a->norder) < 0)
        return -1;
    return 1;
}

static int parse_swizzled(struct lay_cur *c, struct lay *l)
{
    const struct lay_swizzled *a = &l->a.swizzled;
    if (lay_attrs(c, l, swizzled_attr, "vec, perPhase, maxPhase or order") < 0)
        return -1;
    if (a->norder == 0 || a->vec == 0 || a->per_phase == 0 || a->max_phase == 0)
        return LAY_AT(c, "vec, perPhase, maxPhase and order are all required");
    if (a->norder != l->rank)
        return sz_fail(c->err, SZ_INVALID_ARGUMENT, "shape",
                       "has rank %d but the encoding's order has %d entries", l->rank,
                       a->norder);
    return 0;
}

static int nvmma_attr(struct lay_cur *c, struct lay *l, size_t at)
{
    struct lay_nvmma *a = &l->a.nvmma;
    uint32_t v;
    int b;
    if (lay_key(c, "swizzlingByteWidth", at)) {
        if (attr_int(c, &v) < 0)
            return -1;
        if (v != 0 && v != 32 && v != 64 && v != 128)
            return lay_at(c, at, "swizzlingByteWidth must be 0, 32, 64 or 128", NULL);
        a->swizzle_bytes = (int)v;
        a->seen_swizzle = 1;
    } else if (lay_key(c, "transposed", at)) {
        if (lay_bool(c, &a->transposed) < 0)
            return -1;
    } else if (lay_key(c, "elementBitWidth", at)) {
        if (attr_int(c, &v) < 0)
            return -1;
        if (v != 8 && v != 16 && v != 32 && v != 64)
            return lay_at(c, at, "elementBitWidth must be 8, 16, 32 or 64", NULL);
        a->element_bits = (int)v;
    } else if (lay_key(c, "fp4Padded", at)) {
        if (lay_bool(c, &b) < 0)
            return -1;
        if (b)
            return lay_at(c, at, "fp4Padded layouts are not modelled", NULL);
    } else {
        return 0;
    }
    return 1;
}

static int parse_nvmma(struct lay_cur *c, struct lay *l)
{
    const struct lay_nvmma *a = &l->a.nvmma;
    if (lay_attrs(c, l, nvmma_attr, "swizzlingByteWidth, transposed or elementBitWidth") < 0)
        return -1;
    if (!a->seen_swizzle)
        return LAY_AT(c, "swizzlingByteWidth is required");
    if (a->element_bits && l->element_bits && a->element_bits != l->element_bits)
        return sz_fail(c->err, SZ_INVALID_ARGUMENT, "element_bits",
                       "is %d but the encoding's elementBitWidth is %d", l->element_bits,
                       a->element_bits);
    if (a->element_bits)
        l->element_bits = a->element_bits;
    return 0;
}

/* ---- building the evaluator --------------------------------------------------- */

static int tile_forward(struct lay *l, const struct lin_mem *m)
{
    struct f2_mat mm = {.rows = m->n, .cols = m->n}, fwd;
    for (int k = 0; k < m->n; k++)
        mm.col[k] = m->basis[k];
    if (f2_inverse(&mm, &fwd) < 0)
        return -1;
    for (int j = 0; j < m->n; j++)
        l->fwd[j] = fwd.col[j];
    l->kind = LAY_LINEAR;
    return 0;
}

/* Errors of linear_conv.c name its own fields; here they are the text's. */
static int relabel(struct sz_error *err, const char *what)
{
    char msg[sizeof err->message];
    snprintf(msg, sizeof msg, "%s %.24s: %.100s", what, err->field, err->message);
    return sz_fail(err, SZ_INVALID_ARGUMENT, "layout", "%s", msg);
}

static int pow2_shape(const struct lay *l, struct sz_error *err)
{
    for (int d = 0; d < l->rank; d++)
        if (!bits_is_pow2(l->shape[d]))
            return sz_fail(err, SZ_INVALID_ARGUMENT, "shape",
                           "Triton tensors have power-of-two shapes; shape[%d] is %u", d,
                           l->shape[d]);
    return 0;
}

static int build_swizzled(struct lay *l, struct sz_error *err)
{
    const struct lay_swizzled *a = &l->a.swizzled;
    if (pow2_shape(l, err) < 0)
        return -1;
    int seen = 0;
    for (int k = 0; k < l->rank; k++) {
        if (a->order[k] < 0 || a->order[k] >= l->rank || (seen >> a->order[k] & 1))
            return sz_fail(err, SZ_INVALID_ARGUMENT, "layout",
                           "order must be a permutation of 0..%d", l->rank - 1);
        seen |= 1 << a->order[k];
    }
    if (l->rank == 1) {
        lay_dense(l, 1);
        return 0;
    }
    int col_dim = a->order[0], row_dim = a->order[1];
    uint32_t cols = l->shape[col_dim];
    /* Triton takes the phase's column mod numCols (LinearLayoutConversions.cpp,
     * sharedToLinearLayoutNoLeadingOffset): for powers of two that is a
     * maxPhase of at most numCols / vec. */
    int mp = a->max_phase, vec = a->vec;
    if ((uint32_t)vec >= cols)
        mp = 1;
    else if ((uint64_t)vec * (uint64_t)mp > cols)   /* both up to 2^24: 64 bits */
        mp = (int)(cols / (uint32_t)vec);
    if (mp == 1)
        vec = 1;
    l->tile = (struct lin_tile){bits_log2_ceil(l->shape[row_dim]), bits_log2_ceil(cols)};
    l->lin_base[col_dim] = 0;
    l->lin_base[row_dim] = l->tile.bits1;
    if (l->rank == 3)
        l->lin_base[a->order[2]] = -1;      /* past the tile, dense */
    static const int lin_order[2] = {1, 0};     /* lin's dim1 is the column */
    struct lin_mem m;
    if (lin_from_triton(&l->tile, vec, a->per_phase, mp, lin_order, &m, err) < 0)
        return relabel(err, "swizzled_shared");
    return tile_forward(l, &m);
}

/* NVMMA: rows are every dim but the contiguous one (collapsed, Triton's
 * nvmmaSharedToLinearLayout); transposed makes dim0 contiguous (rank 2). */
static int build_nvmma(struct lay *l, struct sz_error *err)
{
    const struct lay_nvmma *a = &l->a.nvmma;
    if (pow2_shape(l, err) < 0)
        return -1;
    if (l->rank == 1)
        return sz_fail(err, SZ_INVALID_ARGUMENT, "shape", "nvmma_shared needs rank 2 or 3");
    if (a->transposed && l->rank != 2)
        return sz_fail(err, SZ_INVALID_ARGUMENT, "shape",
                       "transposed nvmma_shared is modelled for rank 2 only");
    int col_dim = a->transposed ? 0 : l->rank - 1;
    uint32_t rows = l->size / l->shape[col_dim];
    if (a->swizzle_bytes == 0) {
        lay_dense(l, 1);    /* no swizzle: plain row-major */
        return 0;
    }
    l->tile = a->transposed ? (struct lin_tile){bits_log2_ceil(l->shape[0]), bits_log2_ceil(l->shape[1])}
                            : (struct lin_tile){bits_log2_ceil(rows), bits_log2_ceil(l->shape[col_dim])};
    /* lin's element is row << bits1 | column; transposed, lin's row is dim0 */
    int row_dim = a->transposed ? 1 : l->rank - 2;
    l->lin_base[col_dim] = a->transposed ? l->tile.bits1 : 0;
    l->lin_base[row_dim] = a->transposed ? 0 : l->tile.bits1;
    if (l->rank == 3)   /* the outer dim stacks under the rows (collapsed) */
        l->lin_base[0] = l->tile.bits1 + bits_log2_ceil(l->shape[1]);
    struct lin_mem m;
    if (lin_from_nvmma(&l->tile, l->element_bits, a->swizzle_bytes, a->transposed, &m, err) < 0)
        return relabel(err, "nvmma_shared");
    return tile_forward(l, &m);
}

/* NVMMA's modes are Swizzle<1|2|3,4,3> on bytes (none for 0). */
static int nvmma_swizzle(const struct lay *l, struct swz *bytes)
{
    int sw = l->a.nvmma.swizzle_bytes;
    swz_init(bytes, sw ? bits_log2_ceil((uint32_t)sw / 16) : 0, 4, 3, NULL);
    return 1;
}

/* ---- the rows ------------------------------------------------------------------- */

/* swizzled_shared has no Swizzle<B,M,S> form of its own (rosetta.c finds
 * the NVMMA mode it may equal). */
const struct lay_form lay_form_triton_swizzled = {
    .name = "triton_swizzled", .label = "Triton swizzled_shared",
    .opener = "#ttg.swizzled_shared", .shaped = 1,
    .parse = parse_swizzled, .build = build_swizzled, .swizzle = NULL,
};

const struct lay_form lay_form_triton_nvmma = {
    .name = "triton_nvmma", .label = "Triton nvmma_shared",
    .opener = "#ttg.nvmma_shared", .shaped = 1,
    .parse = parse_nvmma, .build = build_nvmma, .swizzle = nvmma_swizzle,
};

/* ---- shared_linear and padded_shared: offset bases as written ------------------ */

#define TLIN_NODES 640          /* values in LAY_MAX_TEXT bytes of `[[0, 1], ...]` */

/* The whole text (from its first byte: an alias line's `#x =` included) read
 * by ttgir_attr.c and checked by triton_shared.c on the request's shape. */
static int parse_tlinear(struct lay_cur *c, struct lay *l)
{
    struct ta_node nodes[TLIN_NODES];
    struct ta_parser p;
    struct tsh_layout sh;
    int64_t shape[LAY_MAX_RANK];
    int node;
    for (int d = 0; d < l->rank; d++)
        shape[d] = l->shape[d];
    ta_use(&p, nodes, TLIN_NODES, NULL, 0);
    if (ta_init(&p, c->s, "layout", NULL, NULL, c->err) < 0 ||
        ta_parse(&p, 0, 0, 1, 1, &node, c->err) < 0 ||
        triton_shared_build(&p, node, shape, l->rank, l->element_bits, &sh, c->err) < 0)
        return -1;
    if (sh.n > LIN_MAX_BITS)
        return sz_fail(c->err, SZ_INVALID_ARGUMENT, "shape", "at most 2^%d elements",
                       LIN_MAX_BITS);
    l->a.tlinear.n = sh.n;
    for (int k = 0; k < sh.n; k++)
        for (int d = 0; d < l->rank; d++)
            l->a.tlinear.b[k][d] = sh.b[k][d];
    l->npad = sh.npad;
    for (int k = 0; k < sh.npad; k++) {
        l->pad_every[k] = (uint32_t)sh.interval[k];
        l->pad_by[k] = (uint32_t)sh.pad[k];
    }
    return 0;
}

/* The evaluator: the tile is the shape flattened row-major (the last dim
 * fastest); fwd inverts the offset bases. */
static int build_tlinear(struct lay *l, struct sz_error *err)
{
    const struct lay_tlinear *a = &l->a.tlinear;
    int base = 0;
    for (int d = l->rank - 1; d >= 0; d--) {
        l->lin_base[d] = base;
        base += bits_log2_ceil(l->shape[d]);
    }
    l->tile = (struct lin_tile){base - bits_log2_ceil(l->shape[l->rank - 1]),
                                bits_log2_ceil(l->shape[l->rank - 1])};
    struct lin_mem m = {.n = a->n};
    for (int k = 0; k < a->n; k++) {
        uint32_t e = 0;
        for (int d = 0; d < l->rank; d++)
            e |= (uint32_t)a->b[k][d] << l->lin_base[d];
        m.basis[k] = e;
    }
    if (tile_forward(l, &m) < 0)
        return sz_fail(err, SZ_INVALID_ARGUMENT, "layout", "the offset bases are not one to one");
    return 0;
}

const struct lay_form lay_form_triton_linear = {
    .name = "triton_shared_linear", .label = "Triton shared_linear",
    .opener = "#ttg.shared_linear", .shaped = 1,
    .parse = parse_tlinear, .build = build_tlinear, .swizzle = NULL,
};

const struct lay_form lay_form_triton_padded = {
    .name = "triton_padded", .label = "Triton padded_shared",
    .opener = "#ttg.padded_shared", .shaped = 1,
    .parse = parse_tlinear, .build = build_tlinear, .swizzle = NULL,
};

/* amd_rotating_shared: no Swizzle<B,M,S> of its own (rosetta.c finds one if
 * the rotation happens to be one) */
const struct lay_form lay_form_triton_rotating = {
    .name = "triton_amd_rotating", .label = "Triton amd_rotating_shared",
    .opener = "#ttg.amd_rotating_shared", .shaped = 1,
    .parse = parse_tlinear, .build = build_tlinear, .swizzle = NULL,
};
