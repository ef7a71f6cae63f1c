/* access.c - warp instruction -> phases -> wavefronts and cycles.
 *
 * The hardware model lives here and only here; every rule below cites the
 * measurement that taught it (tests/data/calib_*.json, pattern names in
 * quotes).  Pure: no I/O, no allocation. */
#include "access.h"

#include <math.h>
#include <stdio.h>
#include <string.h>


const char *acc_reason_name(enum acc_reason r)
{
    static const char *const names[] = {"clean", "broadcast", "conflict", "empty", "serial"};
    return (unsigned)r < 5 ? names[r] : "?";
}

/* On sm_90 the hardware counters file ldmatrix under op_ld and stmatrix under
 * op_st (the _op_ldsm/_op_stsm variants do not exist there: calib metadata,
 * "metrics_unavailable"); the Source-page metrics have one op per kind.
 * atom and red both run as ATOMS and count under op_atom (atomics_*.json). */
const char *acc_ncu_wavefront_metric(enum instr_op op)
{
    if (instr_is_atomic(op))
        return "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_atom.sum";
    return op == INSTR_LD || op == INSTR_LDMATRIX
               ? "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum"
               : "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum";
}

const char *acc_ncu_conflict_metric(enum instr_op op)
{
    if (instr_is_atomic(op))
        return "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_atom.sum";
    return op == INSTR_LD || op == INSTR_LDMATRIX
               ? "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum"
               : "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum";
}

const char *acc_ncu_source_metric(enum instr_op op)
{
    switch (op) {
    case INSTR_LD: return "smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_ld.sum";
    case INSTR_ST: return "smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_st.sum";
    case INSTR_LDMATRIX: return "smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_ldsm.sum";
    case INSTR_STMATRIX: return "smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_stsm.sum";
    case INSTR_ATOM:
    case INSTR_RED: return "smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_atom.sum";
    case INSTR_NOPS: break;
    }
    return "";
}


/* ---- costing ------------------------------------------------------------- */

#define MAX_WORDS (INSTR_LANES * 16)  /* 32 lanes x 16 bytes on 1-byte banks */

struct wordset {
    uint32_t n;
    uint32_t word[MAX_WORDS];   /* distinct bank words (byte offset / bank_bytes) */
};

static void ws_add(struct wordset *s, uint32_t w)
{
    for (uint32_t i = 0; i < s->n; i++)
        if (s->word[i] == w)
            return;
    s->word[s->n++] = w;
}

/* The bank words lane t touches: its bytes [o, o+w) cut at bank boundaries. */
static uint32_t lane_words(const struct instr *in, uint32_t t, uint32_t *out)
{
    uint32_t w = instr_lane_bytes(in), o = in->offsets[t];
    uint32_t first = o / in->bank_bytes, last = (o + w - 1) / in->bank_bytes;
    uint32_t n = 0;
    for (uint32_t x = first; x <= last; x++)
        out[n++] = x;
    return n;
}

/* Distinct words per bank over `s`; the most of them, and where. */
static uint32_t max_per_bank(const struct instr *in, const struct wordset *s,
                             uint32_t *worst)
{
    uint32_t count[SZ_MAX_BANKS] = {0}, best = 0;
    *worst = 0;
    for (uint32_t i = 0; i < s->n; i++) {
        uint32_t b = s->word[i] % in->banks;
        if (++count[b] > best) {
            best = count[b];
            *worst = b;
        }
    }
    return best;
}

/* The pass in which each lane is served: in each bank, distinct words are
 * served in the order lanes first ask for them; a lane waits for its latest. */
static void assign_passes(const struct instr *in, uint32_t lanes, struct acc_result *r)
{
    uint32_t seen_word[MAX_WORDS], seen_rank[MAX_WORDS], nseen = 0;
    uint32_t next_rank[SZ_MAX_BANKS] = {0};
    for (uint32_t t = 0; t < INSTR_LANES; t++) {
        if (!(lanes >> t & 1) || in->offsets[t] == INSTR_INACTIVE)
            continue;
        uint32_t words[SZ_MAX_LANE_WORDS], n = lane_words(in, t, words);
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

/* A phase's distinct words and, when a lane is active, its busiest bank (1);
 * else rule 4's empty phase, one pipe cycle (0). */
static int phase_words(const struct instr *in, const struct wordset *ws, struct acc_phase *ph)
{
    ph->words = ws->n;
    if (ph->active_mask == 0) {
        ph->reason = ACC_EMPTY;
        ph->cycles = 1;
        return 0;
    }
    ph->max_per_bank = max_per_bank(in, ws, &ph->worst_bank);
    return 1;
}

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
        struct wordset ws = {0};
        uint32_t lane_accesses = 0;
        for (uint32_t t = base; t < base + per && t < last; t++) {
            ph.lane_mask |= 1u << t;
            if (in->offsets[t] == INSTR_INACTIVE)
                continue;
            ph.active_mask |= 1u << t;
            uint32_t words[SZ_MAX_LANE_WORDS], n = lane_words(in, t, words);
            lane_accesses += n;
            for (uint32_t k = 0; k < n; k++)
                ws_add(&ws, words[k]);
        }
        if (phase_words(in, &ws, &ph)) {
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

/* ---- atomics ----------------------------------------------------------------
 *
 * Measured on an H100 (tests/data/atomics_h100-80gb-hbm3.json: 40 warp
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
 *     atom 2.2 ("atom_add_u32.w4_distinct" 2.17, "atom_*.w4_grp2" 2.21: the
 *     probe folds the results in); cas 2.27 ("atom_cas_b32.w4_distinct").
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
 * data and on the other lanes' timing: the model gives no count. */

/* Lane t's pass: its turn in the busiest of its banks, lanes in lane order
 * (the hardware's order is not observable; the count is). */
static void atomic_passes(const struct instr *in, uint32_t lanes, struct acc_result *r)
{
    uint32_t turn[SZ_MAX_BANKS] = {0};
    for (uint32_t t = 0; t < INSTR_LANES; t++) {
        if (!(lanes >> t & 1))
            continue;
        uint32_t words[SZ_MAX_LANE_WORDS], n = lane_words(in, t, words), pass = 0;
        for (uint32_t k = 0; k < n; k++) {
            uint32_t b = words[k] % in->banks;
            if (turn[b] > pass)
                pass = turn[b];
            turn[b]++;
        }
        r->lane_pass[t] = (int)pass;
    }
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
    } else {
        a->floor = all ? 2.2 : 4.2;
        a->floor_pin = all ? "atom_add_u32.w4_distinct: 2.17, w4_grp2: 2.21"
                           : "atom_add_u32.w4_one_lane: 4.18, atom_cas_b32: 4.22";
    }
}

static void cost_atomic(const struct instr *in, uint32_t per, struct acc_result *r)
{
    struct acc_atomic *a = &r->atomic;
    const uint32_t mult = in->func == INSTR_CAS ? 2 : 1;
    uint32_t active = 0, phases = 0, conflict = 0, serial = 0;
    a->is_atomic = 1;
    a->native = instr_form_native(in->op, in->func, in->type);
    for (uint32_t base = 0; base < INSTR_LANES && r->nphases < ACC_MAX_PHASES; base += per) {
        struct acc_phase ph = {0};
        struct wordset ws = {0};
        uint32_t lanes_in_bank[SZ_MAX_BANKS] = {0};
        for (uint32_t t = base; t < base + per && t < INSTR_LANES; t++) {
            ph.lane_mask |= 1u << t;
            if (in->offsets[t] == INSTR_INACTIVE)
                continue;
            ph.active_mask |= 1u << t;
            uint32_t words[SZ_MAX_LANE_WORDS], n = lane_words(in, t, words), same = 0;
            for (uint32_t k = 0; k < n; k++) {
                ws_add(&ws, words[k]);
                if (++lanes_in_bank[words[k] % in->banks] > ph.lanes_per_bank)
                    ph.lanes_per_bank = lanes_in_bank[words[k] % in->banks];
            }
            for (uint32_t u = base; u < base + per && u < INSTR_LANES; u++)
                same += in->offsets[u] == in->offsets[t];
            if (same > ph.lanes_per_address)
                ph.lanes_per_address = same;
        }
        uint32_t p = r->nphases++;
        if (phase_words(in, &ws, &ph)) {
            /* A2 and A3; the split: what a load of the same words would pay
             * (distinct words in one bank), and what serializing adds. */
            ph.wavefronts = ph.cycles = ph.lanes_per_bank * mult;
            conflict += (ph.max_per_bank - 1) * mult;
            serial += (ph.lanes_per_bank - ph.max_per_bank) * mult;
            ph.reason = ph.lanes_per_bank > ph.max_per_bank ? ACC_SERIAL
                        : ph.max_per_bank > 1              ? ACC_CONFLICT
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
    atomic_floor(in, active == 0xffffffffu, phases, w, a);
    if (instr_type_bytes(in->type) == 8)
        a->cycles = pow(pow(w, 16) + pow(a->floor, 16), 1.0 / 16);   /* A8 */
    else
        a->cycles = w > a->floor ? w : a->floor;
}

const char *acc_atomic_verdict(const struct instr *in, const struct acc_result *r, char *buf,
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
    if (n < cap && a->serial_wavefronts)
        n += (size_t)snprintf(buf + n, cap - n, "Same-address serialization: %u wavefronts, "
                              "because lanes on one address (up to %u) are served one after "
                              "another, where a load would broadcast the word. ",
                              a->serial_wavefronts, a->lanes_per_address);
    else if (n < cap)
        n += (size_t)snprintf(buf + n, cap - n, "No same-address serialization%s. ",
                              a->lanes_per_address > 1 ? " beyond the bank conflict"
                                                       : ": no two lanes share an address");
    if (n < cap && instr_type_bytes(in->type) == 8)
        snprintf(buf + n, cap - n, "Cycles: %.2f, the pipe's %u wavefronts and an issue side "
                 "that grows with them (%.2f here), which do not overlap fully where they are "
                 "close.", a->cycles, r->wavefronts, a->floor);
    else if (n < cap)
        snprintf(buf + n, cap - n, "Cycles: max(%u wavefronts, the %.2f-cycle issue floor).",
                 r->wavefronts, a->floor);
    return buf;
}

void acc_cost(const struct instr *in, struct acc_result *r)
{
    memset(r, 0, sizeof *r);
    for (uint32_t t = 0; t < INSTR_LANES; t++)
        r->lane_phase[t] = r->lane_pass[t] = -1;
    uint32_t used = instr_used_lanes(in), per = lanes_per_phase(in);
    for (uint32_t t = 0; t < used; t++)
        if (in->offsets[t] != INSTR_INACTIVE) {
            uint32_t words[SZ_MAX_LANE_WORDS], n = lane_words(in, t, words);
            for (uint32_t k = 0; k < n; k++)
                r->bank_hits[words[k] % in->banks]++;
        }
    if (instr_is_atomic(in->op)) {
        cost_atomic(in, per, r);
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
            r->lane_nbanks[t] = lane_words(in, t, words);
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
