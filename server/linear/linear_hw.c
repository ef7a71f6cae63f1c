/* linear_hw.c - which lanes of a wavefront one shared-memory phase serves, as
 * linear.c needs it: NVIDIA's 32-lane warps (the measured rule of access.c)
 * and AMD's 64-lane waves on 32- or 64-bank LDS (published rules, not measured
 * here; each cites its source), and a simulator of the published rules.
 * Pure: no I/O, no allocation.  It must not hold NVIDIA's model (access.c does). */
#include "linear_hw.h"

#include <string.h>

#include "base/bits.h"
#include "f2.h"
#include "model/instr.h"

/* Every answer built on an AMD rule carries this status (and the source). */
const char *const lin_published = "published, not measured here";

/* The sources, as the rules below use them. */
#define SRC_B128 "triton-lang/triton PR #11365 ([AMD][LAYOUTS] Refine segment computation " \
                 "to support DS_READ_B128) and unittest/Dialect/TritonGPU/SwizzleTest.cpp " \
                 "(bruteforceBankConflictsPerWavefront64)"
#define SRC_WAVE64 "triton-lang/triton PR #9662 ([AMD][LAYOUTS] Refine optimal swizzling for " \
                   "wavefront64: one phase is banks x 32 bits); ROCm Composable Kernel docs, " \
                   "'Understanding AMD GPU LDS and Bank Conflicts' (ds_write_b128: 8 phases " \
                   "of 8 consecutive lanes on 32 banks)"

int lin_lane_bits(int lanes)
{
    return lanes == 64 ? 6 : 5;
}

/* Phase 0 of the contiguous rule: lanes 0 .. 2^n - 1. */
static void contiguous(struct lin_phase *ph, int n)
{
    ph->n = n;
    for (int i = 0; i < n; i++)
        ph->lane[i] = 1u << i;
}

int lin_phase_rule(int lanes, int num_banks, uint32_t bytes, int is_load,
                   struct lin_phase *ph)
{
    memset(ph, 0, sizeof *ph);
    ph->lane_bits = lin_lane_bits(lanes);
    uint32_t row = 4u * (uint32_t)num_banks, eff = bytes < 4 ? 4 : bytes;
    uint32_t lpp = row / eff;
    if (lanes != 64) {
        /* NVIDIA: a phase moves one bank row; access.c measured it (pairing
         * of 8/16-byte loads is linear.c's, from access.c rule 3). */
        contiguous(ph, bits_log2_ceil(lpp > INSTR_LANES ? INSTR_LANES : lpp));
        ph->rule = "NVIDIA shared memory: a phase moves one bank row of consecutive lanes";
        ph->source = "measured: server/model/access.c, tests/data/calib_*.json";
        return 0;
    }
    ph->published = 1;
    if (bytes == 16 && is_load && num_banks == 32) {
        /* MI300 (CDNA3) ds_read_b128: 8 phases of 8 lanes.  Phase 0 is
         * lanes 0-3 and 20-23: span(l0, l1, l2^l4); lane bits l2, l3, l5
         * step from phase to phase.  (SRC_B128.) */
        ph->n = 3;
        ph->lane[0] = 1, ph->lane[1] = 2, ph->lane[2] = 4 | 16;
        ph->rule = "ds_read_b128 on MI300 (CDNA3, 32 banks): 8 phases of 8 lanes; phase 0 "
                   "is lanes 0-3 and 20-23, span(l0, l1, l2^l4), the others its cosets";
        ph->source = SRC_B128;
        return 0;
    }
    if (bytes == 16 && is_load && num_banks == 64) {
        /* MI350 (CDNA4) ds_read_b128: 4 phases of 16 lanes.  Phase 0 is
         * lanes 0-3, 12-15, 20-23, 24-27: span(l0, l1, l2^l3, l2^l4); l2
         * and l5 step from phase to phase.  (SRC_B128.) */
        ph->n = 4;
        ph->lane[0] = 1, ph->lane[1] = 2, ph->lane[2] = 4 | 8, ph->lane[3] = 4 | 16;
        ph->rule = "ds_read_b128 on MI350 (CDNA4, 64 banks): 4 phases of 16 lanes; phase 0 "
                   "is lanes 0-3, 12-15, 20-23 and 24-27, span(l0, l1, l2^l3, l2^l4), the "
                   "others its cosets";
        ph->source = SRC_B128;
        return 0;
    }
    /* Every other LDS access of a 64-lane wave: a phase is banks x 4 bytes
     * of consecutive lanes (SRC_WAVE64). */
    contiguous(ph, bits_log2_ceil(lpp > 64 ? 64 : lpp));
    ph->rule = num_banks == 64
                   ? "64-lane wave on MI350 (CDNA4, 64 banks): a phase is 256 bytes of "
                     "consecutive lanes"
                   : "64-lane wave on MI300 (CDNA3, 32 banks): a phase is 128 bytes of "
                     "consecutive lanes";
    ph->source = SRC_WAVE64;
    return 0;
}

/* The phase of lane t: t with every pivot of phase 0's reduced basis
 * cleared, the same for all lanes of one coset (its canonical member). */
uint32_t lin_phase_of(const struct lin_phase *ph, uint32_t t)
{
    struct f2_span s;
    f2_span_of(&s, ph->lane, ph->n);
    f2_span_canon(&s);
    for (int i = s.n - 1; i >= 0; i--) {
        int top = 31 - __builtin_clz(s.v[i]);
        if (t >> top & 1)
            t ^= s.v[i];
    }
    return t;
}

uint32_t lin_phase_lanes(const struct lin_phase *ph, uint32_t *out)
{
    uint32_t n = 0;
    for (uint32_t t = 0; t < (1u << ph->lane_bits); t++)
        if (lin_phase_of(ph, t) == 0)
            out[n++] = t;
    return n;
}

/* The published rules' cost of one instruction: per phase, the most distinct
 * 4-byte words any bank holds among its lanes' words (one word read by many
 * lanes is read once), summed over the phases.  No pairing, no other rule:
 * none is published for these GPUs.  The lane detail numbers phases densely
 * in order of their lowest lane and gives a word its rank among its bank's
 * distinct words in the phase (first come, first served: the order is not
 * published, only the count is), a lane the last pass of its words. */
void lin_published_detail(const struct lin_phase *ph, int num_banks, const uint32_t *addr,
                          uint32_t bytes, struct lin_pub *d)
{
    uint32_t lanes = 1u << ph->lane_bits, canon[64], nb = (uint32_t)num_banks;
    uint32_t words_per_lane = bytes < 4 ? 1 : bytes / 4;
    int dense[64];
    memset(d, 0, sizeof *d);
    for (uint32_t t = 0; t < 64; t++)
        dense[t] = -1;
    for (uint32_t t = 0; t < lanes; t++) {
        canon[t] = lin_phase_of(ph, t);
        if (dense[canon[t]] < 0)
            dense[canon[t]] = (int)d->nphases++;
        d->phase[t] = dense[canon[t]];
        d->phase_mask[d->phase[t]] |= 1ull << t;
        d->bank[t] = addr[t] / 4 % nb;
        d->nbanks[t] = words_per_lane;
    }
    for (uint32_t r = 0; r < d->nphases; r++) {
        uint32_t word[256], rank[256], count[SZ_MAX_BANKS] = {0}, nw = 0, worst = 0, wb = 0;
        for (uint32_t t = 0; t < lanes; t++) {
            if ((uint32_t)d->phase[t] != r)
                continue;
            for (uint32_t k = 0; k < words_per_lane; k++) {
                uint32_t w = addr[t] / 4 + k, j = 0;
                while (j < nw && word[j] != w)
                    j++;
                if (j == nw && nw < 256) {
                    word[nw] = w;
                    rank[nw++] = count[w % nb]++;
                    if (count[w % nb] > worst)
                        worst = count[w % nb], wb = w % nb;
                }
                if (j < nw && (int)rank[j] > d->pass[t])
                    d->pass[t] = (int)rank[j];
            }
        }
        d->phase_wf[r] = worst;
        d->phase_worst[r] = wb;
        d->wavefronts += worst;
        if (worst > d->ways)
            d->ways = worst;
    }
}

uint32_t lin_sim_published(const struct lin_phase *ph, int num_banks, const uint32_t *addr,
                           uint32_t bytes)
{
    struct lin_pub d;
    lin_published_detail(ph, num_banks, addr, bytes, &d);
    return d.wavefronts;
}
