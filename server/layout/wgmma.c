/* wgmma.c - wgmma's shared-memory read cost (the measured rule, see wgmma.h)
 * and the elements a mismatched descriptor reads instead.  Computes no
 * conflicts: none were ever measured for wgmma (tests/calib/wgmma/check_rule.py).
 * Pure core: no I/O, no allocation. */
#include "wgmma.h"

#include <string.h>

#include "base/bits.h"
#include "model/swizzle.h"

uint32_t wgmma_wavefronts(uint32_t operand_bytes)
{
    return (operand_bytes + WGMMA_BYTES_PER_WAVEFRONT - 1) / WGMMA_BYTES_PER_WAVEFRONT;
}

/* the byte swizzle of a hardware mode (Swizzle<log2(span/16),4,3>); span 0 is none */
static void mode_swz(int span, struct swz *z)
{
    swz_init(z, span ? bits_log2_ceil((uint32_t)span / 16) : 0, 4, 3, NULL);
}

void wgmma_misread(const struct lay *l, const uint32_t *bytes, const struct ros_equiv *q,
                   uint32_t base, const struct ros_desc *d, struct wgmma_misread *m)
{
    memset(m, 0, sizeof *m);
    if (!q->has_swizzle || q->tma < 0 || d->swizzle_bytes < 0 || d->swizzle_bytes == q->tma)
        return;
    m->applies = 1;
    struct swz zl, zd;
    mode_swz(q->tma, &zl);
    mode_swz(d->swizzle_bytes, &zd);
    for (uint32_t i = 0; i < l->size; i++) {
        uint32_t dense = swz_apply(&zl, bytes[i]);
        uint32_t at = swz_apply(&zd, base + dense) - base;
        if (at == bytes[i])
            continue;
        m->wrong++;
        /* the element stored there: a scan, only for the few cells shown
         * (a scan for every element would be quadratic on big tiles) */
        if (m->ncells < WGMMA_MAX_CELLS) {
            uint32_t j = UINT32_MAX;
            for (uint32_t k = 0; k < l->size && j == UINT32_MAX; k++)
                if (bytes[k] == at)
                    j = k;
            m->cell[m->ncells].index = i;
            m->cell[m->ncells].expected = bytes[i];
            m->cell[m->ncells].read = at;
            m->cell[m->ncells].read_index = j;
            m->ncells++;
        }
    }
}
