/* layout_tma.c - the TMA row of the layout form table: tma:CU_TENSOR_MAP_SWIZZLE_*
 * over a box of the request's shape (shape[0] innermost; rows narrower than
 * the swizzle span padded to it, as the copy engine does), evaluated as a
 * strided layout with the mode's swizzle on bytes.  Reads the text and
 * builds; the box limits are rosetta.c's validators. */
#include "base/bits.h"
#include "layout_text.h"
#include "model/presets.h"


static int parse(struct cute_cur *c, struct lay *l)
{
    /* presets.c's classic modes (tma_span >= 0), the widest first */
    static const int spans[] = {128, 64, 32, 0};
    cute_ws(c);
    size_t at = c->i;
    for (int k = 0; k < 4; k++) {
        c->i = at;
        if (!cute_word(c, presets_tma(spans[k])->tma))
            continue;
        cute_ws(c);
        if (c->s[c->i] != '\0')
            return CUTE_AT(c, "unexpected text after the swizzle mode (the 128B_ATOM_* modes "
                             "are not modelled)");
        l->a.tma.swizzle_bytes = spans[k];
        return 0;
    }
    return CUTE_AT(c, "expected CU_TENSOR_MAP_SWIZZLE_NONE, _32B, _64B or _128B");
}

static int build(struct lay *l, struct sz_error *err)
{
    (void)err;
    lay_dense(l, 0);
    /* The copy engine pads a box row narrower than the swizzle span to the
     * span, then swizzles: measured on an H100 and an H200, every box the
     * driver encodes (tests/data/tma_placement_*.json, test_tma: a 16-byte
     * box row in the 32B mode puts its rows 32 bytes apart).  NONE keeps rows
     * at their own width. */
    uint32_t eb = (uint32_t)l->element_bits / 8, span = (uint32_t)l->a.tma.swizzle_bytes;
    if (span && eb && l->shape[0] * eb < span)
        for (int k = 1; k < l->rank; k++)
            l->leaf_stride[k] = l->leaf_stride[k] / l->shape[0] * (span / eb);
    if (l->a.tma.swizzle_bytes) {
        /* 32B, 64B, 128B = Swizzle<1|2|3,4,3> on the shared-memory address
         * (CuTe mma_traits_sm90_gmma.hpp, Layout_*_SW*_Atom_Bits) */
        swz_init(&l->z, bits_log2_ceil((uint32_t)l->a.tma.swizzle_bytes / 16), 4, 3, NULL);
        l->domain = LAY_SWZ_BYTES;
    }
    return 0;
}

const struct lay_form lay_form_tma = {
    .name = "tma", .label = "TMA", .opener = "tma:", .shaped = 1,
    .parse = parse, .build = build, .swizzle = lay_strided_swizzle,
};
