/* linear_conv.c - the memory layouts people write, to offset bases and back:
 * CuTe Swizzle<B,M,S> on the bytes of a row-major tile, Triton's
 * swizzled_shared (vec, perPhase, maxPhase, order) and the NVMMA / TMA 32B,
 * 64B and 128B modes.  Each is a map element -> offset that is linear over F2;
 * its inverse is the offset bases.  Pure: no I/O, no allocation. */
#include "linear_conv.h"

#include <stddef.h>

#include "base/bits.h"
#include "f2.h"
#include "model/swizzle.h"

/* A forward map, element -> offset, given by parameters. */
enum form { CUTE, TRITON, NVMMA };
struct params {
    enum form form;
    int bitwidth;
    struct swz z;                           /* CUTE, NVMMA */
    int vec, per_phase, max_phase, fast;    /* TRITON: fast = the order[0] dim */
    int rows_bits, transposed;              /* NVMMA: log2 elements per swizzle row */
};

/* A swizzle on bytes, applied to an element offset: the bits below a byte
 * (4-bit elements) ride along untouched.
 *
 *   bit offset = element * bitwidth:  | byte offset ... | 2..0 |
 *                                       swizzled          kept      */
static uint32_t swz_elems(const struct swz *z, int bitwidth, uint32_t elem)
{
    uint64_t bits = (uint64_t)elem * (uint64_t)bitwidth;
    uint64_t byte = swz_apply(z, (uint32_t)(bits >> 3));
    return (uint32_t)(((byte << 3) | (bits & 7)) / (uint64_t)bitwidth);
}

static uint32_t forward(const struct lin_tile *t, const struct params *q, uint32_t e)
{
    uint32_t c0, c1;
    lin_coords(t, e, &c0, &c1);
    switch (q->form) {
    case CUTE:
        return swz_elems(&q->z, q->bitwidth, e);
    case TRITON: {
        /* fast dim index x, the other y: x' = ((x / vec) ^ phase) * vec + x % vec */
        uint32_t x = q->fast ? c1 : c0, y = q->fast ? c0 : c1;
        int xb = q->fast ? t->bits1 : t->bits0;
        uint32_t phase = (y / (uint32_t)q->per_phase) % (uint32_t)q->max_phase;
        uint32_t xs = (((x / (uint32_t)q->vec) ^ phase) * (uint32_t)q->vec) |
                      (x % (uint32_t)q->vec);
        return y << xb | xs;
    }
    case NVMMA: {
        /* swizzle rows of 2^rows_bits elements along the contiguous dim x,
         * every row of the tile, then the next block of x: */
        uint32_t x = q->transposed ? c0 : c1, y = q->transposed ? c1 : c0;
        int yb = q->transposed ? t->bits1 : t->bits0, rb = q->rows_bits;
        uint32_t lin = ((x >> rb) << yb | y) << rb | (x & ((1u << rb) - 1));
        return swz_elems(&q->z, q->bitwidth, lin);
    }
    }
    return 0;
}

/* The offset bases of q, or the reason it is no layout of this tile. */
static int build(const struct lin_tile *t, const struct params *q, const char *field,
                 struct lin_mem *out, struct sz_error *err)
{
    int d = t->bits0 + t->bits1;
    struct f2_mat fwd = {.rows = d, .cols = d}, inv;
    for (int j = 0; j < d; j++) {
        fwd.col[j] = forward(t, q, 1u << j);
        if (fwd.col[j] >> d)
            return sz_fail(err, SZ_INVALID_ARGUMENT, field,
                           "moves element %u to offset %u, outside the tile of %u elements",
                           1u << j, fwd.col[j], 1u << d);
    }
    if (f2_inverse(&fwd, &inv) < 0)
        return sz_fail(err, SZ_INVALID_ARGUMENT, field, "is not a bijection on this tile");
    out->n = d;
    for (int k = 0; k < d; k++)
        out->basis[k] = inv.col[k];
    return 0;
}

/* Does q give m?  Compares forward maps (m inverted once by the caller). */
static int same(const struct lin_tile *t, const struct params *q, const struct f2_mat *fwd)
{
    for (int j = 0; j < fwd->cols; j++)
        if (forward(t, q, 1u << j) != fwd->col[j])
            return 0;
    return 1;
}

static int mem_forward(const struct lin_tile *t, const struct lin_mem *m, struct f2_mat *fwd)
{
    struct f2_mat mm = {.rows = t->bits0 + t->bits1, .cols = t->bits0 + t->bits1};
    if (m->n != mm.cols)
        return -1;
    for (int k = 0; k < mm.cols; k++)
        mm.col[k] = m->basis[k];
    return f2_inverse(&mm, fwd);
}

static int bitwidth_ok(int w, struct sz_error *err)
{
    if (w != 4 && w != 8 && w != 16 && w != 32 && w != 64)
        return sz_fail(err, SZ_INVALID_ARGUMENT, "bitwidth", "must be 4, 8, 16, 32 or 64");
    return 0;
}

/* A swizzle may not move bytes inside one element. */
static int whole_elements(const struct swz *z, int w)
{
    uint32_t inside = w > 8 ? (uint32_t)(w / 8 - 1) : 0;
    return ((z->yyy_msk | z->zzz_msk) & inside) == 0;
}

int lin_from_cute(const struct lin_tile *t, int bitwidth, int b, int m, int s,
                  struct lin_mem *out, struct sz_error *err)
{
    struct params q = {.form = CUTE, .bitwidth = bitwidth};
    if (bitwidth_ok(bitwidth, err) < 0 || swz_init(&q.z, b, m, s, err) < 0)
        return -1;
    if (!whole_elements(&q.z, bitwidth))
        return sz_fail(err, SZ_INVALID_ARGUMENT, "m",
                       "Swizzle<%d,%d,%d> moves bytes inside a %d-bit element", b, m, s,
                       bitwidth);
    return build(t, &q, "swizzle", out, err);
}

int lin_to_cute(const struct lin_tile *t, int bitwidth, const struct lin_mem *m, int *b,
                int *mb, int *s)
{
    struct f2_mat fwd;
    struct params q = {.form = CUTE, .bitwidth = bitwidth};
    if (mem_forward(t, m, &fwd) < 0)
        return 0;
    /* swizzles touching bits past the tile's bytes either leave it or repeat
     * a smaller one, so the search stops at the tile's byte bits */
    int bytes_bits = t->bits0 + t->bits1 + bits_log2_ceil((uint32_t)bitwidth) - 3;
    for (int bb = 0; bb <= 10; bb++)
        for (int mm = 0; mm + bb <= bytes_bits || (bb == 0 && mm == 0); mm++)
            for (int k = 0; k <= 60; k++) {
                int ss = k <= 30 ? k : 30 - k;
                int as = ss < 0 ? -ss : ss;
                if (mm + as + bb > bytes_bits && !(bb == 0 && mm == 0 && ss == 0))
                    continue;
                if (swz_init(&q.z, bb, mm, ss, NULL) < 0 || !whole_elements(&q.z, bitwidth))
                    continue;
                if (same(t, &q, &fwd)) {
                    *b = bb, *mb = mm, *s = ss;
                    return 1;
                }
            }
    return 0;
}

static int triton_params(const struct lin_tile *t, int vec, int per_phase, int max_phase,
                         const int order[2], struct params *q, struct sz_error *err)
{
    if ((order[0] != 0 || order[1] != 1) && (order[0] != 1 || order[1] != 0))
        return sz_fail(err, SZ_INVALID_ARGUMENT, "order", "must be [1,0] or [0,1]");
    q->form = TRITON;
    q->fast = order[0];
    int xb = q->fast ? t->bits1 : t->bits0;
    const int v[3] = {vec, per_phase, max_phase};
    static const char *const names[3] = {"vec", "per_phase", "max_phase"};
    for (int i = 0; i < 3; i++)
        if (v[i] < 1 || (v[i] & (v[i] - 1)) || v[i] > (1 << LIN_MAX_BITS))
            return sz_fail(err, SZ_INVALID_ARGUMENT, names[i], "must be a power of two");
    if ((int64_t)vec * max_phase > (1 << xb))
        return sz_fail(err, SZ_INVALID_ARGUMENT, "max_phase",
                       "vec x max_phase = %lld exceeds the fastest dimension's %d elements",
                       (long long)vec * max_phase, 1 << xb);
    q->vec = vec, q->per_phase = per_phase, q->max_phase = max_phase;
    return 0;
}

int lin_from_triton(const struct lin_tile *t, int vec, int per_phase, int max_phase,
                    const int order[2], struct lin_mem *out, struct sz_error *err)
{
    struct params q = {0};
    if (triton_params(t, vec, per_phase, max_phase, order, &q, err) < 0)
        return -1;
    return build(t, &q, "swizzled_shared", out, err);
}

int lin_to_triton(const struct lin_tile *t, const struct lin_mem *m, int *vec,
                  int *per_phase, int *max_phase, int order[2])
{
    struct f2_mat fwd;
    if (mem_forward(t, m, &fwd) < 0)
        return 0;
    for (int mp = 1; mp <= (1 << LIN_MAX_BITS); mp *= 2)
        for (int fast = 1; fast >= 0; fast--) {
            int o[2] = {fast, 1 - fast};
            int xb = fast ? t->bits1 : t->bits0, yb = fast ? t->bits0 : t->bits1;
            if (mp > (1 << xb))
                continue;
            for (int v = 1; v * mp <= (1 << xb); v *= 2)
                for (int pp = 1; pp <= (1 << yb); pp *= 2) {
                    struct params q = {0};
                    if (triton_params(t, v, pp, mp, o, &q, NULL) < 0 || !same(t, &q, &fwd))
                        continue;
                    *vec = v, *per_phase = pp, *max_phase = mp;
                    order[0] = o[0], order[1] = o[1];
                    return 1;
                }
        }
    return 0;
}

static int nvmma_params(const struct lin_tile *t, int bitwidth, int swizzle_bytes,
                        int transposed, struct params *q, struct sz_error *err)
{
    if (bitwidth_ok(bitwidth, err) < 0)
        return -1;
    if (swizzle_bytes != 32 && swizzle_bytes != 64 && swizzle_bytes != 128)
        return sz_fail(err, SZ_INVALID_ARGUMENT, "swizzle_bytes", "must be 32, 64 or 128");
    q->form = NVMMA;
    q->bitwidth = bitwidth;
    q->transposed = transposed;
    q->rows_bits = bits_log2_ceil((uint32_t)(swizzle_bytes * 8 / bitwidth));
    int xb = transposed ? t->bits0 : t->bits1;
    if (xb < q->rows_bits)
        return sz_fail(err, SZ_INVALID_ARGUMENT, "swizzle_bytes",
                       "the contiguous dimension holds %d elements, fewer than one %d-byte "
                       "swizzle row (%d)", 1 << xb, swizzle_bytes, 1 << q->rows_bits);
    /* TMA / WGMMA: 32B = Swizzle<1,4,3>, 64B = <2,4,3>, 128B = <3,4,3> (CuTe,
     * cute/atom/mma_traits_sm90_gmma.hpp, Layout_K_SW*_Atom) */
    return swz_init(&q->z, bits_log2_ceil((uint32_t)swizzle_bytes / 16), 4, 3, err);
}

int lin_from_nvmma(const struct lin_tile *t, int bitwidth, int swizzle_bytes, int transposed,
                   struct lin_mem *out, struct sz_error *err)
{
    struct params q = {0};
    if (nvmma_params(t, bitwidth, swizzle_bytes, transposed, &q, err) < 0)
        return -1;
    return build(t, &q, "nvmma", out, err);
}

int lin_to_nvmma(const struct lin_tile *t, int bitwidth, const struct lin_mem *m,
                 int *swizzle_bytes, int *transposed)
{
    struct f2_mat fwd;
    if (mem_forward(t, m, &fwd) < 0)
        return 0;
    for (int tr = 0; tr < 2; tr++)
        for (int sw = 32; sw <= 128; sw *= 2) {
            struct params q = {0};
            if (nvmma_params(t, bitwidth, sw, tr, &q, NULL) < 0 || !same(t, &q, &fwd))
                continue;
            *swizzle_bytes = sw, *transposed = tr;
            return 1;
        }
    return 0;
}
