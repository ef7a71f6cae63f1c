/* access.c - warp instruction -> phases -> wavefronts and cycles.
 *
 * The hardware model lives here and only here; every rule below cites the
 * measurement that taught it (tests/data/calib_*.json, pattern names in
 * quotes).  Pure: no I/O, no allocation. */
#include "access.h"
#include "atomic.h"

#include <math.h>
#include <stdio.h>
#include <string.h>


/* The pass in which each lane is served: in each bank, distinct words are
 * served in the order lanes first ask for them; a lane waits for its latest. */
static void assign_passes(const struct instr *in, uint32_t lanes, struct acc_result *r)
{
    uint32_t seen_word[ACC_MAX_WORDS], seen_rank[ACC_MAX_WORDS], nseen = 0;
    uint32_t next_rank[SZ_MAX_BANKS] = {0};
    for (uint32_t t = 0; t < INSTR_LANES; t++) {
        if (!(lanes >> t & 1) || in->offsets[t] == INSTR_INACTIVE)
            continue;
        uint32_t words[SZ_MAX_LANE_WORDS], n = acc_lane_words(in, t, words);
        int pass = 0;
        for (uint32_t k = 0; k < n; k++) {
            uint32_t i = 0;
            while (i < nseen && seen_word[i] != words[k])
                i++;
            if (i == nseen) {
                seen_word[nseen] = words[k];
                seen_rank[nseen++] = next_rank[words[k] % in->banks]++;
            }
            if ((int)seen_rank[i] > pass)
                pass = (int)seen_rank[i];
        }
        r->lane_pass[t] = pass;
    }
}

/* The rules, each learned on an H100 and checked on an H200 (tests/data:
 * calib_*.json, 198 patterns; sweep_shared_*.json, 300 vector loads and
 * stores whose lanes share addresses, issue 17; names in quotes are pattern
 * names there):
 *
 * 1. A phase moves at most one bank row (32 banks x 4 B = 128 B): 32 lanes of
 *    <= 4 B, 16 lanes of 8 B, 8 lanes of 16 B; one 8x16 B matrix of ldmatrix /
 *    stmatrix.  Phases never share a wavefront ("ldsm_x4_all_same": 4).
 * 2. A phase costs its bank-conflict degree: the most distinct bank words any
 *    one bank must deliver.  Lanes asking for the same word (or bytes of it)
 *    share it, loads and stores alike ("st32_bcast_all": 1, "ld8_bcast_all": 1).
 * 3. Vector loads (8 and 16 B) need half the phases (32 lanes of 8 B or 16
 *    lanes of 16 B per phase) when every lane t shares its address with lane
 *    t^1, or every lane t with lane t^2 (an inactive partner counts as
 *    sharing).  No other partner does: of the 31 XOR masks only 1 and 2 halve
 *    the phases ("ld64_shx1_dense", "ld64_shx2_dense": 1; "ld64_shx3_dense",
 *    "ld64_shx4_dense", "ld64_shx16_dense": 2; "ld64_shx1_6_dense": 1, since
 *    t^1 is in the group), and they halve once ("ld128_shx1_2_dense": 2, as
 *    "ld128_bcast_all").  The test is warp-wide ("ld128_pairs_but_last": 4).
 *    Stores never pair ("st128_bcast_all": 4, "st64_shx1_dense": 2).
 * 4. A phase with no active lane is no wavefront for ncu but still holds the
 *    pipe one cycle ("ld128_lanes0_7": 1 wavefront, 4 cycles; "ld128_one_lane":
 *    1 and 2, since the pairing of rule 3 leaves two phases).
 * 5. ncu's Source page (the smsp__sass_* metrics, computed by instrumentation)
 *    applies rule 3 per 16-lane half for 16-byte loads: "ld128_pairs_but_last"
 *    reads 3 there, while the hardware counter and clock64 read 4.
 * 6. The Source page counts a paired phase as one wavefront only when it is
 *    one; otherwise as what its two unpaired halves cost apart
 *    ("ld64_pair_lo_bank": 9 there, 8 on the hardware counter and clock64;
 *    "ld64_pair_bank_bank": 16 and 8; "ld64_pair_lo_lo": 1 and 1).
 * 7. For 16-byte loads with some lane of the warp inactive, the Source page
 *    also counts lanes 0-15 as one wavefront whenever their two phases
 *    together are one (at most one word per bank), shared addresses or not:
 *    "ld128_shx4_q01" (lanes 0-15, t and t^4 on one address, 64 B a phase
 *    in complementary banks) reads 1 there and 2 on the hardware counter;
 *    "ld128_shx4_q_off" 3 and 4; "ld128_shx4_lo4" (no lane shares: the
 *    partners are off) 3 and 4.  Only the first half: "ld128_shx4_q23" (the
 *    same in lanes 16-31) reads 2 and 2; and never with all 32 lanes on:
 *    "ld128_shx8_dense" reads 4 and 4 (tests/calib/sweep_vec_partial.json).
 * Other bank geometries: the same rules on their own bank row. */

static uint32_t lanes_per_phase(const struct instr *in)
{
    uint32_t row = in->banks * in->bank_bytes, w = instr_lane_bytes(in);
    uint32_t n = row / w;
    if (n == 0)
        n = 1;
    return n > INSTR_LANES ? INSTR_LANES : n;
}

/* Rule 3's test over lanes [first, last): every lane t and its partner
 * t ^ mask share an address or one of them is inactive. */
static int lanes_share(const struct instr *in, uint32_t first, uint32_t last, uint32_t mask)
{
    for (uint32_t t = first; t < last; t++) {
        uint32_t u = t ^ mask;
        if (u < first || u >= last)
            return 0;
        uint32_t a = in->offsets[t], b = in->offsets[u];
        if (a != INSTR_INACTIVE && b != INSTR_INACTIVE && a != b)
            return 0;
    }
    return 1;
}

static int pairs_share(const struct instr *in, uint32_t first, uint32_t last)
{
    return lanes_share(in, first, last, 1) || lanes_share(in, first, last, 2);
}

static int all_active(const struct instr *in)
{
    for (uint32_t t = 0; t < INSTR_LANES; t++)
        if (in->offsets[t] == INSTR_INACTIVE)
            return 0;
    return 1;
}

static int may_pair(const struct instr *in)
{
    return in->op == INSTR_LD && in->bytes >= 2 * in->bank_bytes &&
           lanes_per_phase(in) < INSTR_LANES;
}

/* Cost lanes [first, last) in phases of `per` lanes into r->phases (appended);
 * returns the wavefronts (rule 2 per phase, rule 4 for empty ones). */
static uint32_t cost_phases(const struct instr *in, uint32_t first, uint32_t last,
                            uint32_t per, struct acc_result *r, int record)
{
    uint32_t total = 0;
    for (uint32_t base = first; base < last; base += per) {
        struct acc_phase ph = {0};
        struct acc_words ws = {0};
        uint32_t lane_accesses = 0;
        for (uint32_t t = base; t < base + per && t < last; t++) {
            ph.lane_mask |= 1u << t;
            if (in->offsets[t] == INSTR_INACTIVE)
                continue;
            ph.active_mask |= 1u << t;
            uint32_t words[SZ_MAX_LANE_WORDS], n = acc_lane_words(in, t, words);
            lane_accesses += n;
            for (uint32_t k = 0; k < n; k++)
                acc_words_add(&ws, words[k]);
        }
        if (acc_phase_words(in, &ws, &ph)) {
            ph.wavefronts = ph.cycles = ph.max_per_bank;
            ph.reason = ph.max_per_bank > 1 ? ACC_CONFLICT
                        : ws.n < lane_accesses ? ACC_BROADCAST : ACC_CLEAN;
        }
        total += ph.wavefronts;
        if (record && r->nphases < ACC_MAX_PHASES) {
            uint32_t p = r->nphases++;
            r->phases[p] = ph;
            for (uint32_t t = 0; t < INSTR_LANES; t++)
                if (ph.active_mask >> t & 1)
                    r->lane_phase[t] = (int)p;
            assign_passes(in, ph.active_mask, r);
        }
    }
    return total;
}

/* ncu's Source page on lanes [first, last): it pairs as the hardware does
 * (rule 3), but a paired phase counts as one wavefront only when it is one;
 * otherwise it counts what its two unpaired halves would cost apart (rule 6). */
static uint32_t source_cost(const struct instr *in, uint32_t first, uint32_t last,
                            uint32_t per, struct acc_result *r)
{
    if (!pairs_share(in, first, last))
        return cost_phases(in, first, last, per, r, 0);
    uint32_t sum = 0;
    for (uint32_t b = first; b < last; b += 2 * per) {
        uint32_t merged = cost_phases(in, b, b + 2 * per, 2 * per, r, 0);
        sum += merged <= 1 ? merged : cost_phases(in, b, b + 2 * per, per, r, 0);
    }
    return sum;
}

/* ---- cp.async (LDGSTS) --------------------------------------------------------
 *
 * Measured on an H100 (tests/data/cp_async_h100-80gb-hbm3.json: 540 patterns,
 * shared sides x global sides, 4/8/16 bytes .ca and 16 bytes .cg; ncu's
 * Source-page smsp__sass_..._op_ldgsts per instruction, equal to the
 * deterministic sm__sass_ pair on every row; names in quotes are patterns).
 * The shared side follows the global lines: the lanes are served per 128-byte
 * global line they read, never two lines in one wavefront.
 * C1. .ca: a line's lanes cost the most lane-accesses any one shared bank
 *     takes (lanes on one shared word do NOT merge: "ca4.s_same.g_contig":
 *     32) or the most lanes reading one global word (no broadcast:
 *     "ca4.s_contig.g_same": 32), whichever is more ("ca4.s_contig.g_stride16":
 *     4 lines, 4; "ca16.s_contig.g_contig": 4; "ca8.s_contig.g_stride64": 16).
 *     Exact on 368 of the 380 .ca patterns; the 12 others scramble lanes on both
 *     sides ("*.s_perm.*", "*.g_perm"), where the hardware reads 1 to 4 more
 *     or 1 fewer ("ca8.s_perm.g_stride16": 6, C1 says 4).
 * C2. .cg (16 bytes, L2 only): lanes writing one shared address collapse into
 *     one ("cg16.s_same.*": 1 for every global side), and a line's lanes go in
 *     one wavefront only where each lane's shared 16-byte chunk is its global
 *     chunk XOR one constant, in one shared 128-byte row ("cg16.s_contig.g_rev":
 *     4, the chunks mirrored; "cg16.s_stride32.g_stride32": 8); otherwise each
 *     (XOR, row) class of the line is a wavefront ("cg16.s_contig.g_stride32":
 *     32 where .ca takes 8; "cg16.s_stride32.g_contig": 32).  The second sweep
 *     (patterns_second.txt) pins the classes: one line's lanes in 2 XOR classes
 *     cost 2 ("cg16.one_x0x1_4_4_r1"), in 4 cost 4, one class over 2 shared
 *     rows 2 ("cg16.one_x0_r2"), 2 classes over 2 rows 4.  Exact on 150 of the
 *     160 .cg patterns of the first sweep and all 24 of the second; the 10
 *     others read a randomly permuted global side and cost 1 to 3 fewer
 *     ("cg16.s_stride32.g_perm": 29, C2 says 32).
 * C3. Where the global lines are does not matter: the same 596 patterns with
 *     every line an L2 hit and an L1 miss, or an L1 hit, and 199 of them over
 *     16 warps x 4 iterations (cold, L2, L1, and all warps on the same lines),
 *     read exactly the cold counts on every row (tests/data/cp_states_h100-
 *     80gb-hbm3.json, 2585 rows), and so does the hardware counter
 *     l1tex__data_pipe_lsu_wavefronts_mem_shared on 138 .ca patterns in each
 *     state; the H200 reads the same (tests/data/cp_states_h200.json, the
 *     three hardware-counter runs).  So the answer takes no cache state.  The Source-page numbers are
 *     ncu's SASS instrumentation: the hardware counter equals them on 134 of
 *     the 138 and equals C1 on 137 ("ca16.s_perm.g_stride64": C1 16, hardware
 *     16, Source page 20; "ca16.s_stride32.g_perm": C1 15, hardware 12, Source
 *     14); .cg's shared writes are not in that counter at all (it reads the
 *     launch's 6-7 other wavefronts with or without them), so for .cg the
 *     instrumented count is the only one, and it reads 0 for a predicated
 *     @P LDGSTS.E.BYPASS.128 (tests/calib/cp_async/tool_check.sh).
 *     C1 and C2 are exact on every measured row whose shared and global
 *     offsets are both F2-affine in the lane index (each lane's offset the XOR
 *     of a constant and of one fixed vector per set bit of the lane: contiguous,
 *     power-of-two strides, reversed, XOR-swizzled, rows of a tile); all 22
 *     misses permute lanes at random on one side.  `copy_exact` says which:
 *     the answer's wavefronts_exact.
 * Cycles: the wavefronts the pipe is held; the probe's clock64 waited for
 * every copy (latency-bound) and is not a check of them. */

/* Whether the active lanes' offsets are F2-affine in the lane index: for
 * active lanes a, b, c whose XOR d is active too, off[a]^off[b]^off[c] ==
 * off[d] (an affine map's defining identity; 32^3 checks at most). */
static int lanes_affine(const struct instr *in, const uint32_t *off)
{
    for (uint32_t a = 0; a < INSTR_LANES; a++)
        for (uint32_t b = a + 1; in->offsets[a] != INSTR_INACTIVE && b < INSTR_LANES; b++)
            for (uint32_t c = b + 1; in->offsets[b] != INSTR_INACTIVE && c < INSTR_LANES; c++) {
                uint32_t d = a ^ b ^ c;
                if (in->offsets[c] != INSTR_INACTIVE && in->offsets[d] != INSTR_INACTIVE &&
                    (off[a] ^ off[b] ^ off[c]) != off[d])
                    return 0;
            }
    return 1;
}

static void cost_copy(const struct instr *in, struct acc_result *r)
{
    uint32_t line_of[INSTR_LANES], lines[INSTR_LANES], nlines = 0, w = in->bytes;
    int keep[INSTR_LANES];
    for (uint32_t t = 0; t < INSTR_LANES; t++) {
        keep[t] = in->offsets[t] != INSTR_INACTIVE;
        for (uint32_t u = 0; in->cg && keep[t] && u < t; u++)   /* C2's collapse */
            if (keep[u] && in->offsets[u] == in->offsets[t])
                keep[t] = 0;
        if (!keep[t])
            continue;
        uint32_t g = in->global_offsets[t] / 128, k = 0;
        while (k < nlines && lines[k] != g)
            k++;
        if (k == nlines)
            lines[nlines++] = g;
        line_of[t] = k;
    }
    for (uint32_t k = 0; k < nlines && r->nphases < ACC_MAX_PHASES; k++) {
        struct acc_phase ph = {0};
        struct acc_words ws = {0};
        uint32_t per_bank[SZ_MAX_BANKS] = {0}, cost = 0, classes[INSTR_LANES], nclass = 0;
        for (uint32_t t = 0; t < INSTR_LANES; t++) {
            if (!keep[t] || line_of[t] != k)
                continue;
            ph.lane_mask |= 1u << t;
            ph.active_mask |= 1u << t;
            uint32_t words[SZ_MAX_LANE_WORDS], n = acc_lane_words(in, t, words), same = 0;
            for (uint32_t j = 0; j < n; j++) {
                acc_words_add(&ws, words[j]);
                if (++per_bank[words[j] % in->banks] > ph.lanes_per_bank)
                    ph.lanes_per_bank = per_bank[words[j] % in->banks];
            }
            for (uint32_t u = 0; u < INSTR_LANES; u++)   /* lanes on one global word */
                same += keep[u] && in->global_offsets[u] / 4 <= in->global_offsets[t] / 4 &&
                        (in->global_offsets[u] + w - 1) / 4 >= in->global_offsets[t] / 4;
            if (same > ph.lanes_per_address)
                ph.lanes_per_address = same;
            uint32_t key = ((in->offsets[t] % 128 / 16) ^ (in->global_offsets[t] % 128 / 16)) |
                           in->offsets[t] / 128 << 3, c = 0;
            while (c < nclass && classes[c] != key)
                c++;
            if (c == nclass)
                classes[nclass++] = key;
            r->lane_phase[t] = (int)r->nphases;
            r->lane_pass[t] = (int)c;
        }
        acc_phase_words(in, &ws, &ph);
        cost = in->cg ? nclass
                      : ph.lanes_per_bank > ph.lanes_per_address ? ph.lanes_per_bank
                                                                 : ph.lanes_per_address;
        ph.wavefronts = ph.cycles = cost;
        ph.reason = cost > 1 ? (ph.max_per_bank > 1 ? ACC_CONFLICT : ACC_SERIAL) : ACC_CLEAN;
        if (ph.max_per_bank > r->ways)
            r->ways = ph.max_per_bank;
        r->wavefronts += cost;
        r->ideal_wavefronts++;
        r->phases[r->nphases++] = ph;
    }
    if (!in->cg)
        for (uint32_t t = 0; t < INSTR_LANES; t++)   /* C1: a lane's turn in its busiest bank */
            r->lane_pass[t] = r->lane_phase[t] >= 0 ? 0 : -1;
    r->cycles = r->wavefronts;
    r->bank_conflicts = r->wavefronts - r->ideal_wavefronts;
    r->source_wavefronts = r->wavefronts;
    r->copy_exact = lanes_affine(in, in->offsets) && lanes_affine(in, in->global_offsets);
}

void acc_cost(const struct instr *in, struct acc_result *r)
{
    memset(r, 0, sizeof *r);
    for (uint32_t t = 0; t < INSTR_LANES; t++)
        r->lane_phase[t] = r->lane_pass[t] = -1;
    uint32_t used = instr_used_lanes(in), per = lanes_per_phase(in);
    for (uint32_t t = 0; t < used; t++)
        if (in->offsets[t] != INSTR_INACTIVE) {
            uint32_t words[SZ_MAX_LANE_WORDS], n = acc_lane_words(in, t, words);
            for (uint32_t k = 0; k < n; k++)
                r->bank_hits[words[k] % in->banks]++;
        }
    if (instr_is_atomic(in->op)) {
        atomic_cost(in, per, r);
    } else if (instr_is_copy(in->op)) {
        cost_copy(in, r);
    } else {
        r->paired = may_pair(in) && pairs_share(in, 0, used);
        r->wavefronts = cost_phases(in, 0, used, r->paired ? 2 * per : per, r, 1);
        for (uint32_t p = 0; p < r->nphases; p++) {
            r->cycles += r->phases[p].cycles;
            r->ideal_wavefronts += r->phases[p].active_mask ? 1 : 0;
            if (r->phases[p].max_per_bank > r->ways)
                r->ways = r->phases[p].max_per_bank;
        }
        r->bank_conflicts = r->wavefronts - r->ideal_wavefronts;
    }
    r->calibrated = in->bank_bytes == 4 && in->banks == 32;
    for (uint32_t t = 0; t < INSTR_LANES; t++)
        if (r->lane_phase[t] >= 0) {
            uint32_t words[SZ_MAX_LANE_WORDS];
            r->lane_nbanks[t] = acc_lane_words(in, t, words);
            r->lane_bank[t] = words[0] % in->banks;
        }
    /* Rules 5-7: ncu's Source page. */
    r->source_wavefronts = r->wavefronts;
    if (may_pair(in)) {
        uint32_t span = 2 * per == INSTR_LANES / 2 ? INSTR_LANES / 2 : INSTR_LANES, sum = 0;
        for (uint32_t h = 0; h < used; h += span) {
            uint32_t c = source_cost(in, h, h + span, per, r);
            /* rule 7: the first half, one wavefront together, lanes off */
            if (h == 0 && span < INSTR_LANES && c > 1 && !all_active(in) &&
                cost_phases(in, 0, span, span, r, 0) == 1)
                c = 1;
            sum += c;
        }
        r->source_wavefronts = sum;
    }
}

double acc_clock_cycles(const struct acc_result *r)
{
    return r->atomic.is_atomic ? r->atomic.cycles : (double)r->cycles;
}
