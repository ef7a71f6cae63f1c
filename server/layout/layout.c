/* layout.c - evaluate a parsed layout, whatever its form: coordinate -> byte
 * offset, colexicographic, through the evaluator its row built (strided or
 * F2-linear, layout.h); the swizzle is swizzle.h's.  It knows no form: the
 * rows (layout_cute.c, layout_triton.c, layout_tma.c) read and build.
 * Pure core: no I/O, no allocation; the caller owns every array. */
#include "layout.h"

#include <stddef.h>
#include <string.h>

#include "base/bits.h"

/* Dense strides (first coordinate fastest, or the last for a Triton row-major
 * fallback) as CuTe leaves, so one evaluator serves CuTe, TMA and plain forms. */
void lay_dense(struct lay *l, int last_fastest)
{
    uint32_t s = 1;
    l->kind = LAY_STRIDED;
    l->nleaves = l->rank;
    for (int k = 0; k < l->rank; k++) {
        int d = last_fastest ? l->rank - 1 - k : k;
        l->leaf_shape[d] = l->shape[d];
        l->leaf_stride[d] = s;
        s *= l->shape[d];
    }
}

/* ---- evaluation ----------------------------------------------------------------- */

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
    case LAY_SWZ_BYTES:     /* on the full address: the parse checked >= addr */
        return swz_apply(&l->z, l->addr + e * eb) - l->addr;
    default:
        return e * eb;
    }
}

void lay_eval(const struct lay *l, uint32_t *out)
{
    uint32_t eb = (uint32_t)l->element_bits / 8;
    if (l->kind == LAY_STRIDED) {
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
        uint32_t pe = e;
        for (int k = 0; k < l->npad; k++)
            pe += (e / l->pad_every[k]) * l->pad_by[k];
        out[i] = pe * eb;
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

int lay_strided_swizzle(const struct lay *l, struct swz *bytes)
{
    int eb_log = bits_log2_ceil((uint32_t)l->element_bits / 8);
    if (l->domain == LAY_SWZ_NONE || l->z.b == 0)
        swz_init(bytes, 0, 4, 3, NULL);
    else    /* on elements, the mask moves up by the element's bytes */
        swz_init(bytes, l->z.b, l->z.m + (l->domain == LAY_SWZ_ELEMENTS ? eb_log : 0), l->z.s,
                 NULL);
    return 1;
}

int lay_swizzles(const struct lay *l, struct swz *bytes, struct swz *elems, int *elements_ok)
{
    if (l->form->swizzle == NULL || l->form->swizzle(l, bytes) == 0)
        return 0;
    /* the element form is swizzle.c's; where a unit splits an element there
     * is none, and *elems keeps B and S with M 0, as before */
    *elements_ok = swz_on_elements(bytes, bits_log2_ceil((uint32_t)l->element_bits / 8), elems,
                                   NULL) == 0;
    if (!*elements_ok)
        swz_init(elems, bytes->b, 0, bytes->s, NULL);
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

