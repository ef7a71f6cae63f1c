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
        struct acc_words ws;    /* word[] is read below n only */
        ws.n = 0;
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
 * The shared side follows the global lines (128 bytes): C1, "per line, the
 * busiest shared bank (lanes on one shared word do NOT merge: "ca4.s_same.
 * g_contig": 32) or global word (no broadcast: "ca4.s_contig.g_same": 32), lines
 * one after another", was exact on 368 of 380; issue 41's strided sweep
 * (tests/data/cp_strided_h200.json, H200, driver 580.159.04, 2026-11-28: 288 .ca
 * and 84 .cg rows, global sources 4..128 bytes apart, reversed, XOR-ed and
 * permuted within a line, into rows, columns, padded and swizzled tiles;
 * tests/calib/cp_async/README.md) showed it wrong both ways: consecutive lines
 * writing other banks overlap ("ca4.s_col8.g_s16", lane t -> row t%8, column t/8,
 * sources 16 B apart: 11, C1 32) and lines feeding one bank from other positions
 * wait ("ca4.s_pad_col8.g_s16": 7, C1 4).
 * L1. .ca (LDGSTS.E / .64 / .128), per instruction (check_strided.py's phase_cost
 *     is the reference; it and this code agree on every row):
 *     1. the active lanes in global-line order (lines as their first lane comes,
 *        lanes in lane order within a line), cut into phases of one bank row
 *        (128 / bytes lanes); phases are served one after another;
 *     2. line i of a phase (0-based) starts no earlier than wavefront i; each of its
 *        lanes, in lane order, takes the first wavefront at or after the start in
 *        which the banks of its shared words and its global words are free (one
 *        word per bank and one lane per global word a wavefront: no merging, no
 *        broadcast), and holds them for that wavefront;
 *     3. where line i writes a bank that an earlier line j of the phase writes from
 *        another set of source positions (4-byte words within their 128-byte
 *        line), line i starts no earlier than e_j + (i - j), e_j the wavefront
 *        after line j's last ("ca4.s_pad_col8.g_s16": 7; lines that feed every
 *        bank from the same positions queue without it: "ca4.s_col8dup.g_s16" 32);
 *     4. a phase costs its last wavefront (idle ones counted), the instruction the
 *        sum.
 *     Exact on 287 of the 288 strided .ca rows and 403 of the 412 of the first
 *     sweep (both GPUs): 690 of 700.  Step 2 counts from the line's index, not from
 *     the previous line's start: two pairs of lines gapped apart in one phase
 *     overlap ("ca8.s_sw343_col8div.g_s32": 10; from the previous start, 12).  The
 *     10 misses read permuted global or shared sides ("ca4.s_pad_col8.g_s64": 18,
 *     L1 19; "ca16.s_perm.g_perm": 15, L1 11): lines of one phase whose lanes are
 *     scrambled, within 4 of L1, and all marked not exact (C3).
 *     Step 3 is ncu's instrumentation, not the pipe: the hardware counter
 *     l1tex__data_pipe_lsu_wavefronts_mem_shared (tests/data/cp_hw_h200.json,
 *     cp_probe.cu, 296 .ca rows) reads L1 without step 3 on 35 of the 36 rows
 *     step 3 decides ("ca4.s_pad_col8.g_s16": 4, Source page 7) and on 284 of the
 *     296.  So `wavefronts` (and source_wavefronts) is L1, what the Source page and
 *     the sm__sass_* counter the tool reads show, and `cycles`, the wavefronts the
 *     pipe is held, is L1 without step 3.  Where those 296 part from it, the pipe
 *     reads more: "ca4.s_col8.g_s32" 26, "ca4.s_col8.g_s16_rndline" 25 (L1 14, 11):
 *     wide-strided or permuted sources into one column of rows: C4 marks that
 *     class's cycles not exact (copy_cycles_exact, the answer's cycles_exact).
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
 *     the 138 and equals L1 without step 3 (`cycles`) on 136 ("ca16.s_perm.
 *     g_stride64": hardware 16, Source page 20; "ca16.s_stride32.g_perm":
 *     hardware 12, Source 14); .cg's shared writes are not in that counter at all (it reads the
 *     launch's 6-7 other wavefronts with or without them), so for .cg the
 *     instrumented count is the only one, and it reads 0 for a predicated
 *     @P LDGSTS.E.BYPASS.128 (tests/calib/cp_async/tool_check.sh).
 *     L1 and C2 are exact on every measured row whose shared and global
 *     offsets are both F2-affine in the lane index (each lane's offset the XOR
 *     of a constant and of one fixed vector per set bit of the lane: contiguous,
 *     power-of-two strides, reversed, XOR-swizzled, rows of a tile: 553 of the
 *     700 .ca rows of both sweeps); every miss permutes lanes on one side or pads
 *     rows (not affine).  `copy_exact` says which: the answer's wavefronts_exact.
 * Cycles: the wavefronts the pipe is held (.ca: L1 without step 3, the hardware
 * counter's; .cg: C2, no counter sees them); the probe's clock64 waited for
 * every copy (latency-bound) and is not a check of them. */

/* Whether the active lanes' offsets are F2-affine in the lane index: for
 * active lanes a, b, c whose XOR d is active too, off[a]^off[b]^off[c] ==
 * off[d] (an affine map's defining identity; 32^3 checks at most). */
static int lanes_affine(const struct instr *in, const uint32_t *off)
{
    /* Every lane active (the usual copy): the identity over every triple is
     * the same as each offset being off[0] XOR the XOR of off[2^i] ^ off[0]
     * over the set bits i of its lane (take a = 0: off ^ off[0] is then
     * linear), 32 checks instead of 4960: the triples were a tenth of
     * test_census's sanitized run (perf, 2026-11-29). */
    uint32_t on = 0;
    for (uint32_t t = 0; t < INSTR_LANES; t++)
        on += in->offsets[t] != INSTR_INACTIVE;
    if (on == INSTR_LANES) {
        for (uint32_t t = 1; t < INSTR_LANES; t++) {
            uint32_t want = off[0];
            for (uint32_t i = 0; (1u << i) <= t; i++)
                if (t >> i & 1)
                    want ^= off[1u << i] ^ off[0];
            if (off[t] != want)
                return 0;
        }
        return 1;
    }
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

/* One phase of .ca copies under L1 (lanes seq[0..n), in line order): the
 * wavefronts it costs with step 3's gap (gap 1: the Source page) or without it
 * (gap 0: the hardware counter); with r, each lane's wavefront within the
 * phase into r->lane_pass. */
static uint32_t ca_phase(const struct instr *in, const uint32_t *seq, uint32_t n, int gap,
                         struct acc_result *r)
{
    /* src[i][b]: the source positions (4-byte word within its 128-byte global
     * line) that line i of the phase writes into bank b, one bit each */
    uint32_t line[INSTR_LANES], nlines = 0, end[INSTR_LANES];
    uint32_t src[INSTR_LANES][SZ_MAX_BANKS];
    uint32_t bank_free[SZ_MAX_BANKS] = {0};
    uint32_t gword[INSTR_LANES * 4], gfree[INSTR_LANES * 4], ng = 0, cost = 0;
    const uint32_t gwords = in->bytes / 4 ? in->bytes / 4 : 1;
    for (uint32_t k = 0; k < n; k++) {
        uint32_t t = seq[k], g = in->global_offsets[t] / 128, i = 0;
        while (i < nlines && line[i] != g)
            i++;
        if (i == nlines) {
            line[nlines] = g;
            memset(src[nlines++], 0, sizeof src[0]);
        }
        uint32_t words[SZ_MAX_LANE_WORDS], nw = acc_lane_words(in, t, words);
        for (uint32_t j = 0; j < nw; j++) {
            uint32_t at = in->bank_bytes < in->bytes ? j * in->bank_bytes : 0;
            src[i][words[j] % in->banks] |= 1u << ((in->global_offsets[t] + at) / 4 % 32);
        }
    }
    for (uint32_t i = 0; i < nlines; i++) {
        /* step 2: a line enters the pipe one wavefront after the one before it;
         * step 3: a bank that an earlier line j fed from other source positions
         * holds line i until j has drained, (i - j) wavefronts after it */
        uint32_t s = i;
        for (uint32_t j = 0; gap && j < i; j++)
            for (uint32_t b = 0; b < in->banks; b++)
                if (src[i][b] && src[j][b] && src[i][b] != src[j][b]) {
                    if (end[j] + (i - j) > s)
                        s = end[j] + (i - j);
                    break;
                }
        end[i] = s;
        for (uint32_t k = 0; k < n; k++) {
            uint32_t t = seq[k];
            if (in->global_offsets[t] / 128 != line[i])
                continue;
            uint32_t words[SZ_MAX_LANE_WORDS], nw = acc_lane_words(in, t, words), c = s;
            uint32_t gi[4];
            for (uint32_t j = 0; j < gwords; j++) {   /* this lane's global words */
                uint32_t w = in->global_offsets[t] / 4 + j, m = 0;
                while (m < ng && gword[m] != w)
                    m++;
                if (m == ng) {
                    gword[ng] = w;
                    gfree[ng++] = 0;
                }
                gi[j] = m;
            }
            /* the first wavefront at or after the line's start in which every
             * bank of its shared words and every one of its global words is free */
            for (int busy = 1; busy; ) {
                busy = 0;
                for (uint32_t j = 0; j < nw; j++)
                    if (bank_free[words[j] % in->banks] > c)
                        c = bank_free[words[j] % in->banks], busy = 1;
                for (uint32_t j = 0; j < gwords; j++)
                    if (gfree[gi[j]] > c)
                        c = gfree[gi[j]], busy = 1;
            }
            for (uint32_t j = 0; j < nw; j++)
                bank_free[words[j] % in->banks] = c + 1;
            for (uint32_t j = 0; j < gwords; j++)
                gfree[gi[j]] = c + 1;
            if (r)
                r->lane_pass[t] = (int)c;
            if (c + 1 > end[i])
                end[i] = c + 1;
        }
        if (end[i] > cost)
            cost = end[i];
    }
    return cost;
}

/* C4: whether a .ca phase (lanes seq[0..n), in line order) costing `cycles`
 * under L1 without step 3 is in the class where the hardware counter reads
 * more (tests/data/cp_hw_h200.json: 12 of 296 rows, "ca4.s_col8.g_s32" 26
 * where L1 says 14, "ca4.s_col8.g_s16_rndline" 25 for 11, "ca8.s_col8.g_s64"
 * 32 for 24, "ca16.s_half.g_perm" 5 for 4): L1 overlapped the phase's lines
 * (it costs less than its lines one after another) and one of them writes
 * two or more words into one bank (a column of rows) from sources read out
 * of order (the lanes' 32-byte sectors not monotone in lane order) or wide
 * (lanes 32 bytes or more apart).  It holds all 12 and 3 rows where the
 * hardware reads L1 ("ca4.s_sw243_col8.g_s16_xor" 5, "ca8.s_sw343_col8div.
 * g_s16_xor" 6, "ca8.s_sw243_col8.g_s16_xor" 6); no rule for the count. */
static int ca_cycles_inexact(const struct instr *in, const uint32_t *seq, uint32_t n,
                             uint32_t cycles)
{
    uint32_t lines[INSTR_LANES], nlines = 0, alone = 0;
    for (uint32_t k = 0; k < n; k++) {
        uint32_t g = in->global_offsets[seq[k]] / 128, i = 0;
        while (i < nlines && lines[i] != g)
            i++;
        if (i == nlines)
            lines[nlines++] = g;
    }
    for (uint32_t i = 0; i < nlines; i++) {
        uint32_t ls[INSTR_LANES], m = 0;
        for (uint32_t k = 0; k < n; k++)
            if (in->global_offsets[seq[k]] / 128 == lines[i])
                ls[m++] = seq[k];
        alone += ca_phase(in, ls, m, 0, NULL);
    }
    if (cycles >= alone)
        return 0;
    for (uint32_t i = 0; i < nlines; i++) {
        uint32_t ls[INSTR_LANES], m = 0, column = 0, up = 1, down = 1, wide = 0;
        uint32_t word[ACC_MAX_WORDS], nword = 0;
        for (uint32_t k = 0; k < n; k++)
            if (in->global_offsets[seq[k]] / 128 == lines[i])
                ls[m++] = seq[k];
        for (uint32_t k = 0; k < m; k++) {
            uint32_t words[SZ_MAX_LANE_WORDS], nw = acc_lane_words(in, ls[k], words);
            for (uint32_t j = 0; j < nw; j++) {
                uint32_t u = 0, same_bank = 0;
                while (u < nword && word[u] != words[j])
                    same_bank += word[u++] % in->banks == words[j] % in->banks;
                if (u == nword) {
                    column |= same_bank > 0;
                    word[nword++] = words[j];
                }
            }
            if (k > 0) {
                uint32_t a = in->global_offsets[ls[k - 1]], b = in->global_offsets[ls[k]];
                up &= a / 32 <= b / 32;
                down &= a / 32 >= b / 32;
                wide |= (a > b ? a - b : b - a) >= 32;
            }
        }
        if (column && (!(up || down) || wide))
            return 1;
    }
    return 0;
}

/* .ca copies (L1): lanes in line order, cut into phases of one bank row
 * (128 / bytes lanes), each phase costed by ca_phase. */
static void cost_copy_ca(const struct instr *in, const int *keep, struct acc_result *r)
{
    uint32_t lines[INSTR_LANES], nlines = 0, seq[INSTR_LANES], n = 0, per = lanes_per_phase(in);
    for (uint32_t t = 0; t < INSTR_LANES; t++) {
        uint32_t g = in->global_offsets[t] / 128, k = 0;
        if (!keep[t])
            continue;
        while (k < nlines && lines[k] != g)
            k++;
        if (k == nlines)
            lines[nlines++] = g;
    }
    for (uint32_t k = 0; k < nlines; k++)
        for (uint32_t t = 0; t < INSTR_LANES; t++)
            if (keep[t] && in->global_offsets[t] / 128 == lines[k])
                seq[n++] = t;
    for (uint32_t base = 0; base < n && r->nphases < ACC_MAX_PHASES; base += per) {
        uint32_t m = n - base < per ? n - base : per, plines = 0;
        struct acc_phase ph = {0};
        struct acc_words ws;    /* word[] is read below n only */
        ws.n = 0;
        uint32_t per_bank[SZ_MAX_BANKS] = {0}, seen[INSTR_LANES];
        for (uint32_t k = base; k < base + m; k++) {
            uint32_t t = seq[k], words[SZ_MAX_LANE_WORDS], nw = acc_lane_words(in, t, words);
            uint32_t g = in->global_offsets[t] / 128, same = 0, i = 0;
            ph.lane_mask |= 1u << t;
            ph.active_mask |= 1u << t;
            for (uint32_t j = 0; j < nw; j++) {
                acc_words_add(&ws, words[j]);
                if (++per_bank[words[j] % in->banks] > ph.lanes_per_bank)
                    ph.lanes_per_bank = per_bank[words[j] % in->banks];
            }
            for (uint32_t u = base; u < base + m; u++)   /* lanes on one global word */
                same += in->global_offsets[seq[u]] / 4 <= in->global_offsets[t] / 4 &&
                        (in->global_offsets[seq[u]] + in->bytes - 1) / 4 >= in->global_offsets[t] / 4;
            if (same > ph.lanes_per_address)
                ph.lanes_per_address = same;
            while (i < plines && seen[i] != g)
                i++;
            if (i == plines)
                seen[plines++] = g;
            r->lane_phase[t] = (int)r->nphases;
        }
        acc_phase_words(in, &ws, &ph);
        ph.wavefronts = ca_phase(in, seq + base, m, 1, r);
        ph.cycles = ca_phase(in, seq + base, m, 0, NULL);
        if (ca_cycles_inexact(in, seq + base, m, ph.cycles))
            r->copy_cycles_inexact = 1;
        /* the least a phase can cost: its lines enter one wavefront apart */
        ph.reason = ph.wavefronts <= plines ? ACC_CLEAN
                    : ph.max_per_bank > 1 ? ACC_CONFLICT : ACC_SERIAL;
        if (ph.max_per_bank > r->ways)
            r->ways = ph.max_per_bank;
        r->wavefronts += ph.wavefronts;
        r->cycles += ph.cycles;
        r->ideal_wavefronts += plines;
        r->phases[r->nphases++] = ph;
    }
}

/* .cg copies (C2): one phase per global line, one wavefront per (XOR, row)
 * class of its lanes. */
static void cost_copy_cg(const struct instr *in, const int *keep, struct acc_result *r)
{
    uint32_t line_of[INSTR_LANES], lines[INSTR_LANES], nlines = 0;
    for (uint32_t t = 0; t < INSTR_LANES; t++) {
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
        struct acc_words ws;    /* word[] is read below n only */
        ws.n = 0;
        uint32_t per_bank[SZ_MAX_BANKS] = {0}, classes[INSTR_LANES], nclass = 0;
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
                        (in->global_offsets[u] + in->bytes - 1) / 4 >= in->global_offsets[t] / 4;
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
        ph.wavefronts = ph.cycles = nclass;
        ph.reason = nclass > 1 ? (ph.max_per_bank > 1 ? ACC_CONFLICT : ACC_SERIAL) : ACC_CLEAN;
        if (ph.max_per_bank > r->ways)
            r->ways = ph.max_per_bank;
        r->wavefronts += nclass;
        r->cycles += nclass;
        r->ideal_wavefronts++;
        r->phases[r->nphases++] = ph;
    }
}

static void cost_copy(const struct instr *in, struct acc_result *r)
{
    int keep[INSTR_LANES];
    for (uint32_t t = 0; t < INSTR_LANES; t++) {
        keep[t] = in->offsets[t] != INSTR_INACTIVE;
        for (uint32_t u = 0; in->cg && keep[t] && u < t; u++)   /* C2's collapse */
            if (keep[u] && in->offsets[u] == in->offsets[t])
                keep[t] = 0;
    }
    if (in->cg)
        cost_copy_cg(in, keep, r);
    else
        cost_copy_ca(in, keep, r);
    r->bank_conflicts = r->wavefronts - r->ideal_wavefronts;
    r->source_wavefronts = r->wavefronts;
    r->copy_exact = lanes_affine(in, in->offsets) && lanes_affine(in, in->global_offsets);
    /* the pipe's count (cycles): .ca, L1 without step 3 where the hardware
     * counter agrees (C4); .cg, C2's own (no counter sees it) */
    r->copy_cycles_exact = r->copy_exact && !r->copy_cycles_inexact;
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
