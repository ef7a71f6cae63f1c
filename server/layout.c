/* layout.c - build and evaluate parsed layouts (layout_text.c reads the text):
 * coordinate -> byte offset, colexicographic.  Triton's and NVMMA's formulas
 * are linear_conv.c's (issue 16), reached through lin_from_*; the swizzle is
 * swizzle.h's.  This file writes no second copy of either.
 * Pure core: no I/O, no allocation; the caller owns every array. */
#include "layout.h"

#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "f2.h"

int lay_log2(uint32_t x)
{
    int k = 0;
    while ((1u << k) < x)
        k++;
    return k;
}

#define log2u lay_log2

static int pow2(uint32_t x) { return x && !(x & (x - 1)); }

const char *lay_form_name(enum lay_form f)
{
    static const char *const names[] = {"cute", "triton_swizzled", "triton_nvmma", "tma"};
    return (unsigned)f < 4 ? names[f] : "?";
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
    return 0;
}

/* Errors of linear_conv.c name its own fields; here they are the text's. */
static int relabel(struct sz_error *err, const char *what)
{
    char msg[sizeof err->message];
    snprintf(msg, sizeof msg, "%s %.24s: %.100s", what, err->field, err->message);
    return sz_fail(err, SZ_INVALID_ARGUMENT, "layout", "%s", msg);
}

static int build_triton(struct lay *l, struct sz_error *err)
{
    for (int d = 0; d < l->rank; d++)
        if (!pow2(l->shape[d]))
            return sz_fail(err, SZ_INVALID_ARGUMENT, "shape",
                           "Triton tensors have power-of-two shapes; shape[%d] is %u", d,
                           l->shape[d]);
    if (l->form == LAY_TRITON_SWIZZLED) {
        int seen = 0;
        for (int k = 0; k < l->rank; k++) {
            if (l->order[k] < 0 || l->order[k] >= l->rank || (seen >> l->order[k] & 1))
                return sz_fail(err, SZ_INVALID_ARGUMENT, "layout",
                               "order must be a permutation of 0..%d", l->rank - 1);
            seen |= 1 << l->order[k];
        }
        if (l->rank == 1) {
            l->row_dim = -1, l->col_dim = 0;
            return 0;
        }
        l->col_dim = l->order[0], l->row_dim = l->order[1];
        uint32_t cols = l->shape[l->col_dim];
        /* Triton takes the phase's column mod numCols (LinearLayoutConversions.cpp,
         * sharedToLinearLayoutNoLeadingOffset): for powers of two that is a
         * maxPhase of at most numCols / vec. */
        int mp = l->max_phase, vec = l->vec;
        if ((uint32_t)vec >= cols)
            mp = 1;
        else if ((uint64_t)vec * (uint64_t)mp > cols)   /* both up to 2^24: 64 bits */
            mp = (int)(cols / (uint32_t)vec);
        if (mp == 1)
            vec = 1;
        l->tile = (struct lin_tile){log2u(l->shape[l->row_dim]), log2u(cols)};
        l->lin_base[l->col_dim] = 0;
        l->lin_base[l->row_dim] = l->tile.bits1;
        if (l->rank == 3)
            l->lin_base[l->order[2]] = -1;      /* past the tile, dense */
        static const int lin_order[2] = {1, 0};     /* lin's dim1 is the column */
        struct lin_mem m;
        if (lin_from_triton(&l->tile, vec, l->per_phase, mp, lin_order, &m, err) < 0)
            return relabel(err, "swizzled_shared");
        return tile_forward(l, &m);
    }
    /* NVMMA: rows are every dim but the contiguous one (collapsed, Triton's
     * nvmmaSharedToLinearLayout); transposed makes dim0 contiguous (rank 2). */
    if (l->rank == 1)
        return sz_fail(err, SZ_INVALID_ARGUMENT, "shape", "nvmma_shared needs rank 2 or 3");
    if (l->transposed && l->rank != 2)
        return sz_fail(err, SZ_INVALID_ARGUMENT, "shape",
                       "transposed nvmma_shared is modelled for rank 2 only");
    l->col_dim = l->transposed ? 0 : l->rank - 1;
    l->row_dim = l->transposed ? 1 : l->rank - 2;
    uint32_t rows = l->size / l->shape[l->col_dim];
    if (l->swizzle_bytes == 0)
        return 0;   /* no swizzle: plain row-major, built by the caller */
    l->tile = l->transposed ? (struct lin_tile){log2u(l->shape[0]), log2u(l->shape[1])}
                            : (struct lin_tile){log2u(rows), log2u(l->shape[l->col_dim])};
    /* lin's element is row << bits1 | column; transposed, lin's row is dim0 */
    l->lin_base[l->col_dim] = l->transposed ? l->tile.bits1 : 0;
    l->lin_base[l->row_dim] = l->transposed ? 0 : l->tile.bits1;
    if (l->rank == 3)   /* the outer dim stacks under the rows (collapsed) */
        l->lin_base[0] = l->tile.bits1 + log2u(l->shape[1]);
    struct lin_mem m;
    if (lin_from_nvmma(&l->tile, l->element_bits, l->swizzle_bytes, l->transposed, &m, err) < 0)
        return relabel(err, "nvmma_shared");
    return tile_forward(l, &m);
}


/* Dense strides (first coordinate fastest, or the last for a Triton row-major
 * fallback) as CuTe leaves, so one evaluator serves CuTe, TMA and plain forms. */
static void dense(struct lay *l, int last_fastest)
{
    uint32_t s = 1;
    l->nleaves = l->rank;
    for (int k = 0; k < l->rank; k++) {
        int d = last_fastest ? l->rank - 1 - k : k;
        l->leaf_shape[d] = l->shape[d];
        l->leaf_stride[d] = s;
        s *= l->shape[d];
    }
}

int lay_build(struct lay *l, struct sz_error *err)
{
    if (l->form == LAY_TMA) {
        dense(l, 0);
        if (l->swizzle_bytes) {
            /* 32B, 64B, 128B = Swizzle<1|2|3,4,3> on the shared-memory address
             * (CuTe mma_traits_sm90_gmma.hpp, Layout_*_SW*_Atom_Bits) */
            swz_init(&l->z, log2u((uint32_t)l->swizzle_bytes / 16), 4, 3, NULL);
            l->domain = LAY_SWZ_BYTES;
        }
        return 0;
    }
    if (build_triton(l, err) < 0)
        return -1;
    if ((l->form == LAY_TRITON_NVMMA && l->swizzle_bytes == 0) || l->rank == 1)
        dense(l, 1);
    return 0;
}

/* ---- evaluation ----------------------------------------------------------------- */

static int linear_form(const struct lay *l) { return l->nleaves == 0; }

/* The element offset of coordinate bit j of dim d, for the F2 forms. */
static uint32_t basis_of(const struct lay *l, int d, int j)
{
    if (l->lin_base[d] < 0)
        return (1u << (l->tile.bits0 + l->tile.bits1)) << j;
    return l->fwd[l->lin_base[d] + j];
}

static uint32_t finish(const struct lay *l, uint32_t e, uint32_t eb)
{
    switch (l->domain) {
    case LAY_SWZ_ELEMENTS:
        return swz_apply(&l->z, e) * eb;
    case LAY_SWZ_BYTES:
        return swz_apply(&l->z, e * eb);
    default:
        return e * eb;
    }
}

void lay_eval(const struct lay *l, uint32_t *out)
{
    uint32_t eb = (uint32_t)l->element_bits / 8;
    if (!linear_form(l)) {
        /* an odometer over the flattened modes: colexicographic order */
        uint32_t idx[LAY_MAX_LEAVES] = {0}, off = l->offset;
        for (uint32_t i = 0; i < l->size; i++) {
            out[i] = finish(l, off, eb);
            for (int k = 0; k < l->nleaves; k++) {
                off += l->leaf_stride[k];
                if (++idx[k] < l->leaf_shape[k])
                    break;
                off -= l->leaf_stride[k] * l->leaf_shape[k];
                idx[k] = 0;
            }
        }
        return;
    }
    /* F2-linear forms: flipping coordinate bits flips their basis offsets */
    uint32_t c[LAY_MAX_RANK] = {0}, e = 0, g[LAY_MAX_RANK][21];
    for (int d = 0; d < l->rank; d++)
        for (int j = 0; j < 21; j++)
            g[d][j] = (1u << j) < l->shape[d] ? basis_of(l, d, j) : 0;
    for (uint32_t i = 0; i < l->size; i++) {
        out[i] = e * eb;
        for (int d = 0; d < l->rank; d++) {
            uint32_t nc = c[d] + 1 < l->shape[d] ? c[d] + 1 : 0, flip = c[d] ^ nc;
            while (flip) {
                int j = __builtin_ctz(flip);
                e ^= g[d][j];
                flip &= flip - 1;
            }
            c[d] = nc;
            if (nc)
                break;
        }
    }
}

uint32_t lay_index(const struct lay *l, const uint32_t *c)
{
    uint32_t i = 0;
    for (int d = l->rank - 1; d >= 0; d--)
        i = i * l->shape[d] + c[d];
    return i;
}

void lay_coords(const struct lay *l, uint32_t i, uint32_t *c)
{
    for (int d = 0; d < l->rank; d++) {
        c[d] = i % l->shape[d];
        i /= l->shape[d];
    }
}

int lay_swizzles(const struct lay *l, struct swz *bytes, struct swz *elems, int *elements_ok)
{
    int eb_log = log2u((uint32_t)l->element_bits / 8), b = 0, m = 4, s = 3;
    if (l->form == LAY_TRITON_SWIZZLED)
        return 0;
    if (l->form == LAY_TRITON_NVMMA) {
        b = l->swizzle_bytes ? log2u((uint32_t)l->swizzle_bytes / 16) : 0;
    } else if (l->domain != LAY_SWZ_NONE) {
        b = l->z.b, m = l->z.m, s = l->z.s;
        if (l->domain == LAY_SWZ_ELEMENTS)
            m += eb_log;
    }
    if (b == 0)
        m = 4, s = 3;
    swz_init(bytes, b, m, s, NULL);
    *elements_ok = m >= eb_log;
    swz_init(elems, b, *elements_ok ? m - eb_log : 0, s, NULL);
    return 1;
}

/* ---- sorted offsets ------------------------------------------------------------- */

void lay_sort(const uint32_t *in, uint32_t n, uint32_t *sorted, uint32_t *tmp)
{
    /* three 11-bit passes cover offsets below 2^33; the count table fits the stack */
    const uint32_t *src = in;
    for (int pass = 0; pass < 3; pass++) {
        uint32_t count[2049] = {0};
        int sh = 11 * pass;
        uint32_t *dst = pass == 1 ? tmp : sorted;   /* in -> sorted -> tmp -> sorted */
        for (uint32_t i = 0; i < n; i++)
            count[(src[i] >> sh & 2047) + 1]++;
        for (int k = 0; k < 2048; k++)
            count[k + 1] += count[k];
        for (uint32_t i = 0; i < n; i++)
            dst[count[src[i] >> sh & 2047]++] = src[i];
        src = dst;
    }
}

uint32_t lay_collisions(const uint32_t *sorted, uint32_t n, uint32_t *dup)
{
    uint32_t k = 0;
    *dup = UINT32_MAX;
    for (uint32_t i = 1; i < n; i++)
        if (sorted[i] == sorted[i - 1]) {
            if (k++ == 0)
                *dup = sorted[i];
        }
    return k;
}

int lay_has_offset(const uint32_t *sorted, uint32_t n, uint32_t off)
{
    uint32_t lo = 0, hi = n;
    while (lo < hi) {
        uint32_t mid = lo + (hi - lo) / 2;
        if (sorted[mid] < off)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < n && sorted[lo] == off;
}

