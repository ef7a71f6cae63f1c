/* rosetta.c - a layout's equivalents across CuTe, TMA, GMMA/UMMA and Triton,
 * the shared-memory descriptor decoder and the validators.  The Triton and
 * CuTe searches are linear_conv.c's (lin_to_*); this file only orients the
 * layout for them and names what they find.
 * Pure core: no I/O, no allocation. */
#include "rosetta.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "base/bits.h"
#include "linear/f2.h"
#include "linear/linear_conv.h"
#include "model/presets.h"

/* The names are presets.c's table (its sources are cited there). */
const char *ros_tma_name(int b)
{
    const struct preset *p = presets_tma(b);
    return p ? p->tma : NULL;
}

const char *ros_gmma_name(int t)
{
    const struct preset *p = presets_gmma(t);
    return p ? p->gmma_name : NULL;
}

const char *ros_umma_name(int t)
{
    const struct preset *p = presets_umma(t);
    return p ? p->umma_name : NULL;
}

/* The hardware modes of a byte swizzle: presets.c's table (its sources are
 * cited there).  tma is the classic mode's span only (the layout forms parse
 * no 128B_ATOM_* mode); tma_enum names the 128B_ATOM_* modes as well. */
static void modes(const struct swz *z, struct ros_equiv *q)
{
    const struct preset *p = presets_find(z->b, z->m, z->s);
    q->tma = p ? p->tma_span : -1;
    q->tma_enum = p ? p->tma : NULL;
    q->tma_status = p ? p->tma_status : NULL;
    q->gmma = p ? p->gmma : -1;
    q->umma = p ? p->umma : -1;
}

/* The F2 view: a 2D power-of-two tile whose element offsets are a linear
 * bijection onto [0, size), handed to lin_to_* with its contiguous dim last. */
static void linear_view(const struct lay *l, const uint32_t *bytes, struct ros_equiv *q)
{
    uint32_t eb = (uint32_t)l->element_bits / 8;
    if (l->rank != 2 || !bits_is_pow2(l->shape[0]) || !bits_is_pow2(l->shape[1]) || l->size < 2)
        return;
    int c = bytes[1] / eb == 1 ? 0 : 1;     /* contiguous: dim0's step is one element? */
    if (l->shape[0] == 1)
        c = 1;
    q->contiguous_dim = bytes[1] / eb == 1 || bytes[l->shape[0]] / eb == 1 ? c : -1;
    struct lin_tile t = {bits_log2_ceil(l->shape[1 - c]), bits_log2_ceil(l->shape[c])};
    int d = t.bits0 + t.bits1;
    /* lin element e = r << bits1 | col; its index in our colexicographic order */
    uint32_t col_mask = (1u << t.bits1) - 1;
#define IDX(e) (c == 1 ? ((e) >> t.bits1) + l->shape[0] * ((e) & col_mask) \
                       : ((e) & col_mask) + l->shape[0] * ((e) >> t.bits1))
    struct f2_mat fwd = {.rows = d, .cols = d}, inv;
    for (int j = 0; j < d; j++)
        fwd.col[j] = bytes[IDX(1u << j)] / eb;
    for (uint32_t e = 1; e < l->size; e++) {
        uint32_t low = e & -e;
        if (bytes[IDX(e)] / eb != (bytes[IDX(e ^ low)] / eb ^ bytes[IDX(low)] / eb) ||
            bytes[IDX(e)] % eb)
            return;
    }
#undef IDX
    if (bytes[0] != 0 || f2_inverse(&fwd, &inv) < 0)
        return;
    struct lin_mem m = {.n = d};
    for (int k = 0; k < d; k++)
        m.basis[k] = inv.col[k];
    q->linear = 1;
    q->cute = lin_to_cute(&t, l->element_bits, &m, &q->cb, &q->cm, &q->cs);
    int ord[2];
    q->triton = lin_to_triton(&t, &m, &q->vec, &q->per_phase, &q->max_phase, ord);
    /* lin's dim1 is our dim c */
    q->order[0] = ord[0] == 1 ? c : 1 - c;
    q->order[1] = 1 - q->order[0];
    int tr;
    q->nvmma = lin_to_nvmma(&t, l->element_bits, &m, &q->nvmma_bytes, &tr);
    /* the contiguous dim of that NVMMA layout, in our dims; Triton's
     * transposed = false means the last dim is contiguous */
    int x = tr ? 1 - c : c;
    q->nvmma_transposed = x == 0;
}

void ros_equivalents(const struct lay *l, const uint32_t *bytes, int one_to_one,
                     struct ros_equiv *q)
{
    memset(q, 0, sizeof *q);
    q->contiguous_dim = -1;
    q->has_swizzle = lay_swizzles(l, &q->bytes, &q->elems, &q->elements_ok);
    q->tma = q->gmma = q->umma = -1;
    q->alignment = 16;
    if (q->has_swizzle) {
        modes(&q->bytes, q);
        if (q->bytes.b > 0)
            q->alignment = 1u << swz_period_bits(&q->bytes);
    }
    if (one_to_one)
        linear_view(l, bytes, q);
    if (!q->has_swizzle && q->nvmma) {
        /* a Triton swizzled_shared that is also an NVMMA mode: that mode's swizzle */
        swz_init(&q->bytes, bits_log2_ceil((uint32_t)q->nvmma_bytes / 16), 4, 3, NULL);
        int ebl = bits_log2_ceil((uint32_t)l->element_bits / 8);
        q->elements_ok = 1;
        swz_init(&q->elems, q->bytes.b, 4 - ebl, 3, NULL);
        q->has_swizzle = 1;
        modes(&q->bytes, q);
        q->alignment = 1u << swz_period_bits(&q->bytes);
    }
}

int ros_desc_decode(uint64_t d, int sm100, struct ros_desc *o, struct sz_error *err)
{
    memset(o, 0, sizeof *o);
    o->sm100 = sm100;
    o->start = (uint32_t)(d & 0x3FFF) << 4;
    o->lbo = (uint32_t)(d >> 16 & 0x3FFF) << 4;
    o->sbo = (uint32_t)(d >> 32 & 0x3FFF) << 4;
    o->base_offset = (int)(d >> 49 & 7);
    o->swizzle_bytes = -1;
    if (!sm100) {
        /* GmmaDescriptor: layout_type in bits [62,64) (0 none, 1 128B, 2 64B, 3 32B) */
        o->layout_type = (int)(d >> 62);
        o->swizzle_bytes = presets_gmma(o->layout_type)->row_bytes;
    } else {
        /* UMMA SmemDescriptor: version [46,48) must be 1, lbo_mode bit 52,
         * layout_type [61,64) (0 none, 1 128B/32B atoms, 2 128B, 4 64B, 6 32B;
         * the others reserved: no row) */
        const struct preset *p;
        o->version = (int)(d >> 46 & 3);
        o->lbo_mode = (int)(d >> 52 & 1);
        o->layout_type = (int)(d >> 61);
        o->swizzle_bytes = (p = presets_umma(o->layout_type)) ? p->row_bytes : -1;
        if (o->version != 1)
            return sz_fail(err, SZ_INVALID_ARGUMENT, "descriptor",
                           "sm100 descriptors carry version 1 in bits 46-47, got %d",
                           o->version);
    }
    if (o->swizzle_bytes < 0)
        return sz_fail(err, SZ_INVALID_ARGUMENT, "descriptor",
                       "layout_type %d is reserved", o->layout_type);
    /* the pattern repeats every 8 rows of the swizzle width */
    o->pattern = o->swizzle_bytes ? 8u * (uint32_t)o->swizzle_bytes : 16u;
    return 0;
}

#if defined(__GNUC__)
__attribute__((format(printf, 4, 5)))
#endif
static void flag(struct ros_flags *f, const char *code, const char *sev, const char *fmt, ...)
{
    if (f->n == ROS_MAX_FLAGS)
        return;
    f->flag[f->n].code = code;
    f->flag[f->n].severity = sev;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(f->flag[f->n].message, sizeof f->flag[f->n].message, fmt, ap);
    va_end(ap);
    f->n++;
}

void ros_validate(const struct lay *l, const uint32_t *bytes, const struct ros_equiv *q,
                  uint32_t base, const struct ros_desc *desc, uint32_t collisions,
                  struct ros_flags *f, uint32_t *actual)
{
    memset(f, 0, sizeof *f);
    uint32_t eb = (uint32_t)l->element_bits / 8;
    if (collisions)
        flag(f, "not_one_to_one", "warning",
             "%u coordinates share an address with another (a broadcast or overlapping layout)",
             collisions);
    if (l->form == &lay_form_tma) {
        /* cuTensorMapEncodeTiled: boxDim[i] <= 256, boxDim[0] * elementSize a
         * multiple of 16 bytes and, with a swizzle, at most the swizzle span */
        uint32_t inner = l->shape[0] * eb;
        int span = l->a.tma.swizzle_bytes;
        if (span && inner > (uint32_t)span)
            flag(f, "box_exceeds_span", "error",
                 "the box's inner extent is %u bytes, wider than the %d-byte swizzle span: "
                 "cuTensorMapEncodeTiled refuses it; split the box or use %d elements",
                 inner, span, span / (int)eb);
        if (inner % 16)
            flag(f, "box_inner_not_16B", "error",
                 "the box's inner extent is %u bytes, not a multiple of 16", inner);
        for (int d = 0; d < l->rank; d++)
            if (l->shape[d] > 256)
                flag(f, "box_dim_over_256", "error", "box dimension %d is %u, above 256", d,
                     l->shape[d]);
    }
    int hw = q->has_swizzle && q->tma > 0;      /* a swizzle TMA and GMMA apply to addresses */
    if (base % 16)
        flag(f, "base_unaligned_16", "error",
             "the buffer base %u is not 16-byte aligned: no vector access, TMA or MMA "
             "descriptor can use it", base);
    if (hw && base % q->alignment) {
        /* hardware swizzles the absolute address: TMA writes element o at
         * Z(base + Z(o)), the layout expects base + o (Z is an involution) */
        for (uint32_t i = 0; i < l->size; i++) {
            uint32_t dense = swz_apply(&q->bytes, bytes[i]);
            uint32_t at = swz_apply(&q->bytes, base + dense) - base;
            if (actual)
                actual[i] = at;
            if (at != bytes[i]) {
                if (f->ncells < ROS_MAX_CELLS)
                    f->cells[f->ncells++] = (struct ros_cell){i, bytes[i], at};
                f->moved++;
            }
        }
        flag(f, "base_misaligned", "error",
             "%s needs a %u-byte aligned base; at %u (%u past a boundary) the hardware "
             "swizzle sees other address bits and %u of %u elements land elsewhere",
             ros_tma_name(q->tma), q->alignment, base, base % q->alignment, f->moved, l->size);
    } else if (actual) {
        memcpy(actual, bytes, (size_t)l->size * sizeof *actual);
    }
    if (desc == NULL)
        return;
    int mode = q->has_swizzle ? q->tma : -1;
    if (mode >= 0 && desc->swizzle_bytes != mode)
        flag(f, "descriptor_mode_mismatch", "error",
             "the descriptor's layout_type %d (%s) means a %s swizzle, but this layout is "
             "%s", desc->layout_type,
             desc->sm100 ? ros_umma_name(desc->layout_type) : ros_gmma_name(desc->layout_type),
             ros_tma_name(desc->swizzle_bytes), ros_tma_name(mode));
    else if (mode < 0 && desc->swizzle_bytes >= 0)
        flag(f, "descriptor_mode_mismatch", "error",
             "the descriptor assumes %s, but this layout is no TMA/MMA swizzle mode",
             ros_tma_name(desc->swizzle_bytes));
    if (desc->swizzle_bytes > 0 && desc->start % desc->pattern &&
        desc->base_offset != (int)(desc->start >> 7 & 7))
        flag(f, "descriptor_base_offset", "warning",
             "the start address %u is %u bytes past a %u-byte pattern boundary; PTX asks "
             "base_offset = (start >> 7) & 7 = %u, the descriptor has %d",
             desc->start, desc->start % desc->pattern, desc->pattern, desc->start >> 7 & 7,
             desc->base_offset);
    /* SBO: the step from one 8-row group of core matrices to the next, along
     * the non-contiguous dim (PTX, matrix descriptor; CuTe make_gmma_desc) */
    if (q->contiguous_dim >= 0 && l->rank == 2 && desc->swizzle_bytes > 0) {
        int r = 1 - q->contiguous_dim;
        uint32_t c8[2] = {0, 0};
        c8[r] = 8;
        if (l->shape[r] > 8) {
            uint32_t step = bytes[lay_index(l, c8)] - bytes[0];
            if (step != desc->sbo)
                flag(f, "descriptor_sbo", "warning",
                     "SBO is %u bytes but this layout steps %u bytes from row 0 to row 8",
                     desc->sbo, step);
        }
    }
}
