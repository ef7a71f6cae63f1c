/* presets.h - THE named swizzles: the page's presets (none, 32B, 64B, 128B,
 * 128B with a 32-byte unit), each with the hardware modes that name the same
 * map (TMA, GMMA on sm_90, UMMA / tcgen05 on sm_100).  One table, read by
 * GET /api/presets, /api/swizzle's "hardware", rosetta.c (the equivalents,
 * the descriptor decoder, the mode names), layout_tma.c (the tma: form) and
 * recommend.c: a mode's name is spelled here only.
 * Pure core: no I/O, no allocation, no JSON. */
#ifndef SZ_PRESETS_H
#define SZ_PRESETS_H

#include <stddef.h>

struct preset {
    const char *id, *label;         /* "128B", "128B" (the menu's words) */
    int b, m, s;                    /* Swizzle<b,m,s> on byte offsets */
    const char *tma;                /* CUtensorMapSwizzle enumerator */
    const char *tma_cuda;           /* the CUDA version that has it, NULL: every 12.x */
    int tma_span;                   /* 0/32/64/128: the classic mode's bytes; -1 for
                                     * a 128B_ATOM_* mode (layout_text.c parses none) */
    int gmma;                       /* GMMA::LayoutType (sm_90 descriptor), -1: none */
    const char *gmma_name, *gmma_atom;  /* "B128", "Layout_K_SW128_Atom"; NULL: none */
    int umma;                       /* UMMA::LayoutType / tcgen05 swizzle mode, -1: none */
    const char *umma_name;          /* "SWIZZLE_128B" (CuTe mma_sm100_desc.hpp) */
    const char *umma_words;         /* "128-byte swizzling" (PTX tcgen05 descriptor) */
    const char *tma_status;         /* what the GPUs here showed of the TMA mode */
    int row_bytes;                  /* 0 (none), 32, 64, 128: the swizzle's row, what a
                                     * GMMA/UMMA descriptor's layout_type decodes to */
};

extern const struct preset presets[];
extern const size_t presets_count;

/* The preset whose map Swizzle<b,m,s> is, or NULL: b == 0 is the identity
 * whatever m and s, the "none" row; any other needs all three to match. */
const struct preset *presets_find(int b, int m, int s);

/* The row of a hardware mode, or NULL where no row has it: the classic TMA
 * mode of `span` bytes (0, 32, 64, 128; tma_span), GMMA::LayoutType `t`,
 * UMMA::LayoutType `t` (the reserved 3, 5 and 7 have none).  Every place that
 * names or decodes a mode (rosetta.c, layout_tma.c) reads these. */
const struct preset *presets_tma(int span);
const struct preset *presets_gmma(int t);
const struct preset *presets_umma(int t);

#endif
