/* atomic.c - what an atom.shared or red.shared costs: its phases, the lanes
 * each bank serves in turn (an atomic never broadcasts, but ATOMS.POPC.INC
 * merges), and the floor of its cycles with and without a branch around it.
 * The rules (A1-A13) are measured, each cited below (A14, other warp counts,
 * in atomic_warps.c); the loads' and stores' rules live in access.c.
 * Pure: no I/O, no allocation. */
#include "atomic.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "atomic_form.h"
#include "base/bits.h"

/* Measured on an H100 (tests/data/atomics_h100-80gb-hbm3.json: 40 warp
 * patterns x every atom/red form ptxas accepts for sm_90, plus atom with its
 * result unused; 1460 rows, 740 native; names in quotes are its patterns):
 *
 * A1. A native atomic (one ATOMS) is cut into phases as loads and stores are
 *     (rule 1: 32 lanes of 4 B, 16 lanes of 8 B).
 * A2. A phase costs the most active lanes any one bank serves.  Distinct words
 *     in one bank are served in turn as for loads ("w4_conf32": 32), and so
 *     are lanes on the SAME word: an atomic never broadcasts ("w4_same": 32,
 *     where a load takes 1; "w4_grp2": 2; "w4_grp16": 16;
 *     "w4_half_same_half_conf16": 32, 16 lanes on word 0 and 16 more words of
 *     bank 0).  An 8-byte lane is two bank words ("w8_grp2": 4, "w8_same": 32).
 * A3. cas moves two operands: twice that ("atom_cas_b32.w4_distinct": 2,
 *     "atom_cas_b32.w4_same": 64).
 * A4. red, and an atom whose result is unused, compile to the same ATOMS and
 *     cost the same wavefronts.
 * A1-A4 give the Source-page wavefronts of all 740 native rows exactly.  The
 * hardware counter (l1tex__..._op_atom) over-counts by a fraction, as it does
 * for stores ("w4_distinct": 1.30), and is not modelled.
 *
 * Cycles (clock64; 16 warps, 8 independent atomics an iteration): the pipe's
 * wavefronts, or the issue floor of the form when that is more,
 *     cycles = max(wavefronts, floor):
 * A5. all 32 lanes active, 4 B: red 2.04 ("red_*.w4_distinct", "w4_grp2");
 *     cas 2.27 ("atom_cas_b32.w4_distinct"); atom (the probe folds the
 *     results in) 2.12 + 0.04w: one wavefront costs less than two, the same
 *     1.7-2.0% in every set (one: "atom_*.w4_distinct", "f4_c1" 2.166-2.173
 *     on both devices, 2.150 in the tool's own kernel at its fastest phase;
 *     two: "atom_*.w4_grp2", "f4_c2", "f4_s2" 2.205-2.215, the tool 2.187;
 *     bench/results/test-gpu-h200-2026-11-29-final-atomics-forms-warps.txt),
 *     so 2.16 and 2.20, every row within 0.7%, where one 2.2 left the tool's
 *     2.150 2.3% under.  From three wavefronts the pipe's w is more.
 * A6. some lanes off: ptxas turns the predicated ATOMS into a branch around
 *     it, and the warp diverges and reconverges: red 4.09, atom 4.2
 *     ("w4_lanes0_15", "w4_one_lane": 4.09 and 4.18-4.22, cas included).
 * A7. 8 B (exch and cas .b64, the only native 8-byte forms) do not meet a
 *     fixed floor: see A8.  A5 and A6 hold within 2% on every 4-byte native
 *     row of both sweeps, wavefronts 1 to 64, all lanes and lanes off
 *     ("f4_c1".."f4_c10", "f4_h_c1".."f4_h_c8", "f4_m1_c1".."f4_m1_c8").
 * A8. 8-byte forms: the issue side grows with the wavefronts, g = F + beta*w,
 *     and it and the pipe do not overlap fully where they are close:
 *         cycles = (w^16 + g^16)^(1/16)      (a max with a rounded corner)
 *     per class, F and beta fitted on the H100's second sweep
 *     (tests/calib/atomics/patterns_floor.txt: 1-10 wavefronts by bank
 *     conflicts, by same-address lanes and with lanes off) and its first:
 *       every lane, exch     3.75 + 0.15w ("f8_c1_1": 2 -> 4.05, "f8_c2_1":
 *                            3 -> 4.18, "f8_c3_1" and "f8_s2_2": 4 -> 4.41,
 *                            "f8_c4_1": 5 -> 5.06, "f8_c5_1": 6 -> 6.02)
 *       every lane, cas      3.40 + 0.29w ("f8_c1_1": 4 -> 4.59, 6 -> 6.02)
 *       lanes off, 1 phase   5.19 + 0.10w ("f8_h_c1".."f8_h_c7": 5.27, 5.37,
 *                            5.48, 5.60, 5.76, 6.13, 7.02; cas the same by w)
 *       lanes off, 2 phases  5.36 + 0.13w ("f8_m1_c1_1": 2 -> 5.59, 4 -> 5.81)
 *     Within 1.21% of every 8-byte row on the H100, and within 1.43% on the
 *     H200, which the fit never saw (tests/data/atomics_floor_*.json).  It
 *     is a measured curve, not a mechanism: the corner is where the 16 warps'
 *     round trips, not the pipe, set the pace.
 * The 32-warp column of the first sweep was not measured (0 in every row), so
 * every floor is the 16-warp probe's.
 *
 * Not native (add.f32/f16x2/bf16x2/u64/f64, min/max/and/or/xor on 64 bits):
 * ptxas emits a load, then per lane a compare-and-swap (ATOMS.CAST.SPIN)
 * retried until no other lane changed the word in between.  Lanes on one
 * address succeed one per round ("atom_add_f32.w4_same": 431 cycles, where
 * add.u32 takes 32); a min/max/and/or/xor that leaves the word unchanged skips
 * the CAS ("atom_min_u64": no ATOMS executed at all).  The cost hangs on the
 * data and on the other lanes' timing: the model gives no count.
 *
 * A9-A11 (issue 23: tests/data/atomic_forms_*.json; tests/calib/atomic_forms'
 * 39 forms, CUDA C++ and PTX as written, 8 atomics an iteration, 16 warps;
 * names in quotes are "form.pattern" there; H100 and H200 alike):
 * A9.  A red that adds the constant 1 to a u32 (or inc.u32 with bound
 *      0xffffffff) compiles to ATOMS.POPC.INC (atomic_form.c says which
 *      forms), and lanes on one word MERGE: a phase costs the most distinct
 *      words any one bank holds, as a load ("cu_add_1.w4_same": 1 where
 *      ATOMS.ADD takes 32; "w4_hist8_rand": 1, "w4_hist8_rand_bank": 8,
 *      "w4_half_same_half_conf16": 17, "h4_bank0_words4": 4; Source page and
 *      clock64 alike).
 * A10. With no branch per atomic (guard "none": unconditional, or "once": one
 *      `if` around several), the pipe's own floor is one cycle: every lane on,
 *      cycles = max(wavefronts, 1.02) for every native form, 4 and 8 bytes
 *      ("red_add_u32_lane.w4_distinct" 1.02, "cu_add_1.w4_distinct" 1.01,
 *      "atom_cas_b32_used.w4_distinct" 2.02, "atom_exch_b64_used.f8_c2_1"
 *      3.01, "atom_cas_b64_used.f8_c1_1" 4.02; A8's curve is the branch's).
 *      Lanes off under one `if` around 8 atomics: red 1.03 ("cu_add_1_if",
 *      "cu_add_lane_if" .w4_lanes0_15, .w4_one_lane, .f4_m1_c1: 1.03), atom
 *      1.06 ("cu_add_1_used_if.w4_lanes0_15" 1.06) but 1.21 with every lane
 *      but one ("cu_add_1_used_if.f4_m1_c1"), and 1.05 with every lane on
 *      ("cu_add_1_used_if.w4_distinct", where unconditional it is 1.02): an
 *      atom whose result is used, at one wavefront with no branch per atomic,
 *      is a floor, not exact (cycles_exact false); from 2 wavefronts on the
 *      pipe hides it (within 2% on every row).
 * A12. That atom's extra cost hangs on how many lanes are on, nothing else
 *      (tests/data/atomic_masks_h100-80gb-hbm3.json: cu_add_1_used_if on 55
 *      masks, every lane on a word of its own bank, 1 wavefront): 1 to 16
 *      lanes on, whichever (the first k, the last k, even, odd, every fourth),
 *      1.053-1.059; 17 to 31 on, whichever (the first k, the last k, all but
 *      lane j for j = 0, 1, 7, 8, 15, 16, 24, 30, 31), 1.203-1.209; all 32,
 *      1.027 in that run, 1.047 in the forms sweep (H100), 1.030 (H200); the
 *      H200 masks alike (atomic_masks_h200.json: 1.056-1.060, 1.204-1.208,
 *      1.032).  The
 *      red forms under the same `if` read 1.02-1.03 on every mask, so it is
 *      the result's return, not the branch.  Floors: atom with lanes off 1.06
 *      up to 16 lanes and 1.21 above; red 1.02 and 1.03; atom with every lane
 *      on, A13.  Every unguarded row of the sweeps is then within 2%
 *      (cycles_exact).  The per-atomic branch (A11) shows the same step,
 *      smaller: red_add_u32_i1_p 4.09 up to 16 lanes, 4.13 above.
 * A11. The branch per atomic (guard "each", A5-A8) is what the difference
 *      costs: about 1 cycle with every lane on (2.04 - 1.02), 3 with lanes
 *      off (4.09 - 1.03), the same for ATOMS.POPC.INC ("red_add_u32_i1_p":
 *      2.04, 4.09) as for ATOMS.ADD ("red_add_u32_lane_p")
 * A13. (issue 41; tests/data/atomic_used_h200.json and atomic_warps_h200.json:
 *      the tool's own kernels, guard none, every lane on, the lane's value, 8
 *      atomics an iteration, atom folding its 8 results; H200, driver
 *      580.159.04, 2026-11-28.)  At the tool's 16 warps an atom whose result is
 *      used costs what red costs: 1.006-1.007 at one wavefront with 2048
 *      iterations ("atom_add_u32.deg1"; red 1.006), 1.019-1.020 with 512 (red
 *      1.017): the difference is the launch's fixed start and drain, about 1100
 *      cycles spread over fewer instructions, not the returned value.  The
 *      one-`if` forms (guard "once") with every lane on read more,
 *      1.026-1.047 ("cu_add_1_used_if.w4_distinct" 1.047 on the H100, 1.030 on
 *      the H200), which no single number shares within 2% with the tool's 1.006:
 *      "none" with every lane on is 1.02 (atom and red, every row within 1.4%),
 *      "once" 1.04 for atom (within 1.4%), red's `if` rows 1.018-1.027 (1.02).
 *      Fewer warps expose latency and the sub-partitions: warp w issues on
 *      sub-partition w % 4, a sub-partition sends at most one 32-lane atomic
 *      every 4 cycles (red at 8, 12, 16 warps: 8.05, 12.1, 16.1 cycles for one
 *      instruction of every warp), and an atom warp's iteration (8 atomics,
 *      then the fold waits for their results) takes about 73-76 cycles, a red
 *      warp's about 40 (one warp a sub-partition: 2.29 and 1.26 at 4 warps).  So
 *      at one wavefront: 8 warps 1.18-1.195 for atom (76 / 64) and 1.006 for
 *      red; 12 warps 1.006 for both; 9, 10, 11 warps (3 warps on some
 *      sub-partitions, 2 on others) 1.35, 1.25 and 1.12-1.16 for atom, 1.35,
 *      1.21, 1.10 for red (12 cycles a round over 9..11 instructions): the
 *      issue's 1.11-1.16 is 11 warps, not a cost of the returned value.  That
 *      rule (cycles = max(4 x the most warps on a sub-partition, the warp's
 *      iteration / 8) / warps, at one wavefront) is within 1.5% for atom at 4,
 *      9, 12, 16 warps and red at 4 and 8-16, but 3-6% low for atom at 5-8, 10,
 *      11 (a warp's iteration grows to about 76 cycles with two on a
 *      sub-partition) and 4-8% low for red at 5-7 (1.73 at 5 warps, the rule
 *      1.60).  Every rule here is for the tool's 16 warps; a request's
 *      "warps" re-costs the cycles for another block size (A14,
 *      atomic_warps.c: the pipe shared by sub-partition, each warp's iteration
 *      a chain; 635 of the 702 rows exact within 2%, the rest answered not
 *      exact). */

/* Lane t's pass: its turn in the busiest of its banks, lanes in lane order
 * (the hardware's order is not observable; the count is). */
static void atomic_passes(const struct instr *in, uint32_t lanes, struct acc_result *r)
{
    uint32_t turn[SZ_MAX_BANKS] = {0};
    for (uint32_t t = 0; t < INSTR_LANES; t++) {
        if (!(lanes >> t & 1))
            continue;
        uint32_t words[SZ_MAX_LANE_WORDS], n = acc_lane_words(in, t, words), pass = 0;
        for (uint32_t k = 0; k < n; k++) {
            uint32_t b = words[k] % in->banks;
            if (turn[b] > pass)
                pass = turn[b];
            turn[b]++;
        }
        r->lane_pass[t] = (int)pass;
    }
}

/* A9's passes: as a load's, distinct words of a bank in the order lanes
 * first ask for them; lanes on one word share a pass. */
static void merged_passes(const struct instr *in, uint32_t lanes, struct acc_result *r)
{
    uint32_t seen[INSTR_LANES * SZ_MAX_LANE_WORDS], rank[INSTR_LANES * SZ_MAX_LANE_WORDS];
    uint32_t nseen = 0, next[SZ_MAX_BANKS] = {0};
    for (uint32_t t = 0; t < INSTR_LANES; t++) {
        if (!(lanes >> t & 1))
            continue;
        uint32_t words[SZ_MAX_LANE_WORDS], n = acc_lane_words(in, t, words), pass = 0;
        for (uint32_t k = 0; k < n; k++) {
            uint32_t i = 0;
            while (i < nseen && seen[i] != words[k])
                i++;
            if (i == nseen) {
                seen[nseen] = words[k];
                rank[nseen++] = next[words[k] % in->banks]++;
            }
            if (rank[i] > pass)
                pass = rank[i];
        }
        r->lane_pass[t] = (int)pass;
    }
}

/* A10/A12/A13: the pipe's own floor, with no branch per atomic; `on` lanes
 * active.  Lanes off without a branch per atomic means one `if` around them
 * ("once"; "none" reaches here with lanes off only from a kernel's PTX, where
 * a branch around the block turned them off). */
static double pipe_floor(const struct instr *in, uint32_t on, const char **pin)
{
    if (on == INSTR_LANES && in->guard == INSTR_GUARD_ONCE && in->op == INSTR_ATOM) {
        *pin = "cu_add_1_used_if.w4_distinct: 1.047 (H100), 1.030 (H200); f4_c1 1.047, 1.043; "
               "h4_bins64_t7 1.026; mk_first32 1.032";
        return 1.04;
    }
    if (on == INSTR_LANES) {
        *pin = in->op == INSTR_RED
                   ? "red_add_u32_lane.w4_distinct: 1.02, cu_add_1.w4_distinct: 1.01; the tool's "
                     "red_add_u32.deg1: 1.006 (2048 iterations), 1.017 (512)"
                   : "cu_add_1_used.w4_distinct: 1.02; the tool's atom_add_u32.deg1: 1.006 "
                     "(2048 iterations), 1.020 (512)";
        return 1.02;
    }
    if (in->op == INSTR_RED) {
        *pin = "cu_add_lane_if.w4_lanes0_15: 1.03, cu_add_1_if.w4_one_lane: 1.03";
        return 1.03;
    }
    if (on <= INSTR_LANES / 2) {
        *pin = "cu_add_1_used_if.mk_first1..16, mk_last1..16, mk_even: 1.05-1.06";
        return 1.06;
    }
    *pin = "cu_add_1_used_if.mk_first17..31, mk_hole0..31, f4_m1_c1: 1.20-1.21";
    return 1.21;
}

/* A5-A7: the issue floor of the form, with all lanes active or not; A8: of an
 * 8-byte form, at w wavefronts.  `phases`: how many phases have a lane on. */
static void atomic_floor(const struct instr *in, int all, uint32_t phases, double w,
                         struct acc_atomic *a)
{
    if (instr_type_bytes(in->type) == 8) {
        /* A8's F + beta * w, fitted on the H100 (tests/data/atomics_floor_*) */
        static const struct { double f, beta; const char *pin; } cls[] = {
            {3.75, 0.15, "atom_exch_b64.f8_c1_1: 4.05, f8_c2_1: 4.18, f8_c3_1: 4.41"},
            {3.40, 0.29, "atom_cas_b64.f8_c1_1: 4.59, f8_c2_1: 6.02"},
            {5.19, 0.10, "atom_exch_b64.f8_h_c1..c6: 5.27, 5.37, 5.48, 5.60, 5.76, 6.13"},
            {5.36, 0.13, "atom_exch_b64.f8_m1_c1_1: 5.59, f8_m1_c2_2: 5.81"},
        };
        int k = all ? (in->func == INSTR_CAS ? 1 : 0) : phases > 1 ? 3 : 2;
        a->floor = cls[k].f + cls[k].beta * w;
        a->floor_pin = cls[k].pin;
    } else if (in->op == INSTR_RED) {
        a->floor = all ? 2.04 : 4.09;
        a->floor_pin = all ? "red_add_u32.w4_distinct: 2.04" : "red_add_u32.w4_lanes0_15: 4.09";
    } else if (in->func == INSTR_CAS && all) {
        a->floor = 2.27;
        a->floor_pin = "atom_cas_b32.w4_distinct: 2.27";
    } else if (all) {
        /* A5's atom: 2.12 + 0.04 w (2.16 at one wavefront, 2.20 at two;
         * from three on the pipe's w is more) */
        a->floor = 2.12 + 0.04 * w;
        a->floor_pin = "atom_add_u32.w4_distinct: 2.150-2.173, w4_grp2: 2.187-2.215";
    } else {
        a->floor = 4.2;
        a->floor_pin = "atom_add_u32.w4_one_lane: 4.18, atom_cas_b32: 4.22";
    }
}

/* The most active lanes of lanes [base, end) on one byte offset (A3: an
 * atomic never broadcasts).  An open-addressed table of twice the lanes counts
 * each offset once, O(lanes): comparing every pair, O(lanes^2), was a fifth of
 * test_census's time.  The same number: the largest count of any offset. */
#define ADDR_SLOTS 64      /* 2 x INSTR_LANES: half full at most */
#define ADDR_SHIFT 26      /* 32 - log2(ADDR_SLOTS): Fibonacci hashing's high bits */
static uint32_t most_on_one_address(const struct instr *in, uint32_t base, uint32_t end)
{
    _Static_assert(ADDR_SLOTS == 2 * INSTR_LANES && ADDR_SLOTS >> (32 - ADDR_SHIFT) == 1,
                   "the table: twice the lanes, indexed by the hash's top bits");
    uint32_t key[ADDR_SLOTS], count[ADDR_SLOTS] = {0}, most = 0;
    for (uint32_t t = base; t < end && t < INSTR_LANES; t++) {
        uint32_t o = in->offsets[t], h = (o * 2654435761u) >> ADDR_SHIFT;
        if (o == INSTR_INACTIVE)
            continue;
        while (count[h] && key[h] != o)
            h = (h + 1) % ADDR_SLOTS;
        key[h] = o;
        if (++count[h] > most)
            most = count[h];
    }
    return most;
}

void atomic_cost(const struct instr *in, uint32_t per, struct acc_result *r)
{
    struct acc_atomic *a = &r->atomic;
    const uint32_t mult = in->func == INSTR_CAS ? 2 : 1;
    uint32_t active = 0, phases = 0, conflict = 0, serial = 0;
    a->is_atomic = 1;
    a->native = instr_form_native(in->op, in->func, in->type);
    a->merges = a->native && atomic_form_merges(in);
    a->sass = atomic_form_sass(in);
    for (uint32_t base = 0; base < INSTR_LANES && r->nphases < ACC_MAX_PHASES; base += per) {
        struct acc_phase ph = {0};
        struct acc_words ws;    /* word[] is read below n only */
        ws.n = 0;
        uint32_t lanes_in_bank[SZ_MAX_BANKS] = {0};
        for (uint32_t t = base; t < base + per && t < INSTR_LANES; t++) {
            ph.lane_mask |= 1u << t;
            if (in->offsets[t] == INSTR_INACTIVE)
                continue;
            ph.active_mask |= 1u << t;
            uint32_t words[SZ_MAX_LANE_WORDS], n = acc_lane_words(in, t, words);
            for (uint32_t k = 0; k < n; k++) {
                acc_words_add(&ws, words[k]);
                if (++lanes_in_bank[words[k] % in->banks] > ph.lanes_per_bank)
                    ph.lanes_per_bank = lanes_in_bank[words[k] % in->banks];
            }
        }
        ph.lanes_per_address = most_on_one_address(in, base, base + per);
        uint32_t p = r->nphases++;
        if (acc_phase_words(in, &ws, &ph)) {
            /* A2 and A3 (A9: merged lanes pay as a load); the split: what a
             * load of the same words would pay (distinct words in one bank),
             * and what serializing adds. */
            uint32_t per_bank = a->merges ? ph.max_per_bank : ph.lanes_per_bank;
            ph.wavefronts = ph.cycles = per_bank * mult;
            conflict += (ph.max_per_bank - 1) * mult;
            serial += (per_bank - ph.max_per_bank) * mult;
            ph.reason = per_bank > ph.max_per_bank            ? ACC_SERIAL
                        : ph.max_per_bank > 1                 ? ACC_CONFLICT
                        : ph.lanes_per_bank > ph.max_per_bank ? ACC_BROADCAST
                                                              : ACC_CLEAN;
            r->ideal_wavefronts += mult;
        }
        if (ph.max_per_bank > r->ways)
            r->ways = ph.max_per_bank;
        if (ph.lanes_per_address > a->lanes_per_address)
            a->lanes_per_address = ph.lanes_per_address;
        r->wavefronts += ph.wavefronts;
        r->cycles += ph.cycles;
        active |= ph.active_mask;
        phases += ph.active_mask != 0;
        r->phases[p] = ph;
        for (uint32_t t = 0; t < INSTR_LANES; t++)
            if (ph.active_mask >> t & 1)
                r->lane_phase[t] = (int)p;
        if (a->merges)
            merged_passes(in, ph.active_mask, r);
        else
            atomic_passes(in, ph.active_mask, r);
    }
    if (!a->native) {
        /* No exact count exists for the loop: keep the picture, drop the numbers. */
        for (uint32_t p = 0; p < r->nphases; p++)
            r->phases[p].wavefronts = r->phases[p].cycles = 0;
        r->wavefronts = r->cycles = r->ideal_wavefronts = 0;
        return;
    }
    r->bank_conflicts = r->wavefronts - r->ideal_wavefronts;
    a->conflict_wavefronts = conflict;
    a->serial_wavefronts = serial;
    double w = (double)r->wavefronts;
    uint32_t on = 0;
    for (uint32_t t = 0; t < INSTR_LANES; t++)
        on += active >> t & 1;
    const int all = on == INSTR_LANES;
    const char *pipe_pin;
    double pf = pipe_floor(in, on, &pipe_pin);
    a->pipe_cycles = w > pf ? w : pf;                                /* A10 */
    a->cycles_exact = 1;
    if (in->guard != INSTR_GUARD_EACH) {
        a->floor = pf;
        a->floor_pin = pipe_pin;
        a->cycles = a->pipe_cycles;
        a->cycles_exact = 1;   /* A12: within 2% of every row, atom and red */
        return;
    }
    atomic_floor(in, all, phases, w, a);
    if (instr_type_bytes(in->type) == 8)
        a->cycles = pow(pow(w, 16) + pow(a->floor, 16), 1.0 / 16);   /* A8 */
    else
        a->cycles = w > a->floor ? w : a->floor;
}

const char *atomic_verdict(const struct instr *in, const struct acc_result *r, char *buf,
                               size_t cap)
{
    const struct acc_atomic *a = &r->atomic;
    buf[0] = '\0';
    if (!a->is_atomic)
        return buf;
    if (!a->native) {
        snprintf(buf, cap, "Not native on sm_90: ptxas emits a load, then per lane a "
                 "compare-and-swap (ATOMS.CAST.SPIN) retried until no other lane changed the "
                 "word in between, so lanes that share an address (here up to %u) succeed one "
                 "per round%s. The cost depends on the data and the timing: no exact count.",
                 a->lanes_per_address,
                 in->func == INSTR_ADD ? ""
                 : "; a value that leaves the word unchanged skips the CAS");
        return buf;
    }
    size_t n = 0;
    if (a->conflict_wavefronts)
        n += (size_t)snprintf(buf + n, cap - n, "Bank conflict: %u wavefronts from distinct "
                              "words sharing a bank (worst %u-way; a load pays these too). ",
                              a->conflict_wavefronts, r->ways);
    else
        n += (size_t)snprintf(buf + n, cap - n, "No bank conflict: no bank holds two "
                              "distinct words in one phase. ");
    if (n < cap && a->merges)
        n += (size_t)snprintf(buf + n, cap - n, "No same-address serialization: %s adds "
                              "1 for each lane once per word, so lanes on one address (up "
                              "to %u here) merge into one update. ", a->sass,
                              a->lanes_per_address);
    else if (n < cap && a->serial_wavefronts)
        n += (size_t)snprintf(buf + n, cap - n, "Same-address serialization: %u wavefronts, "
                              "because lanes on one address (up to %u) are served one after "
                              "another, where a load would broadcast the word. ",
                              a->serial_wavefronts, a->lanes_per_address);
    else if (n < cap)
        n += (size_t)snprintf(buf + n, cap - n, "No same-address serialization%s. ",
                              a->lanes_per_address > 1 ? " beyond the bank conflict"
                                                       : ": no two lanes share an address");
    if (n < cap && in->guard != INSTR_GUARD_EACH)
        snprintf(buf + n, cap - n, "Cycles: max(%u wavefronts, the pipe's %.2f-cycle floor): "
                 "%s.", r->wavefronts, a->floor,
                 in->guard == INSTR_GUARD_ONCE ? "one branch around several atomics, none "
                                                 "around each" : "no branch around the atomic");
    else if (n < cap && instr_type_bytes(in->type) == 8)
        snprintf(buf + n, cap - n, "Cycles: %.2f, the pipe's %u wavefronts and an issue side "
                 "that grows with them (%.2f here), which do not overlap fully where they are "
                 "close.", a->cycles, r->wavefronts, a->floor);
    else if (n < cap)
        snprintf(buf + n, cap - n, "Cycles: max(%u wavefronts, the %.2f-cycle issue floor), "
                 "%.2f of them the branch around each atomic.", r->wavefronts, a->floor,
                 a->cycles - a->pipe_cycles);
    return buf;
}
