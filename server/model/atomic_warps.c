/* atomic_warps.c - rule A14: what an atomic costs per instruction when the
 * tool's loop runs on W warps of one block, from how the SM is built (four
 * sub-partitions sharing one shared-memory pipe), not from a table of rows.
 * It must not touch any other rule: at the tool's 16 warps every number is
 * atomic.c's.  Pure: no I/O, no allocation. */
#include "atomic_warps.h"

#include "atomic_form.h"

/* A14 (issue 41; tests/data/atomic_warps_h200.json, 702 rows: the tool's atom
 * (result used: ATOMS.* Rn, the 8 results folded) and red (ATOMS.* RZ) kernels,
 * add/min .u32/.s32 and exch.b32, guard none, every lane on, the lane's value,
 * 8 atomics an iteration, 1 to 32 wavefronts, 4..12 and 16 warps, 2048 and 512
 * iterations; atomic_used_h200.json's cycles_w8 and cycles_w32; H200, driver
 * 580.159.04, 2026-11-28; the atomic_warps files re-measured 2026-11-29T01:26Z
 * by the tool that keeps the fastest of 19 starting phases, which repeats
 * within 0.09% over three processes, tests/calib/atomics_warps/README.md,
 * "Stagger"; refitted on those, 2026-11-29, with tests/calib/atomics_warps/
 * a14.py, a copy of this rule).  A fluid model of the four sub-partitions:
 *   - warp i runs on sub-partition i % 4 (n_s warps on sub-partition s);
 *   - a sub-partition sends one atomic every per = max(4, w) cycles at most
 *     (red at 8, 12, 16 warps: 4.02-4.04 cycles an instruction a
 *     sub-partition), and the pipe serves one wavefront a cycle;
 *   - a warp alone on its sub-partition sends one wavefront every LONE = 2
 *     cycles at most (tests/data/atomic_warps_all_h200.json, 1..32 warps,
 *     2026-11-29: one warp's red iteration is max(40.05, 16 w) cycles, atom's
 *     max(28 + 2w, 16 w - 2) + 42.04: 1, 2, 4, 8, 32 wavefronts 72.04, 74.04,
 *     104.04, 168.04, 552.04); beside another warp their sends interleave and
 *     the sub-partition's per binds instead;
 *   - a warp's iteration is a chain: its 8 atomics per cycles apart, then red
 *     branches back (T = 8 per + 8.05: "red_*.deg1" 5.0057 at one warp), atom
 *     waits for the last result and folds (T = 7 per + w + 42.04, the 8th
 *     atomic's w wavefronts at the lone rate, 2w, for a lone warp:
 *     "atom_*.deg1" 9.0054 at one warp); two or more atom warps on a
 *     sub-partition stretch it to 75.1 (8 warps: 1.1735 on all five forms;
 *     5-7 warps then within 1.4%);
 *   - each sub-partition asks the pipe for w min(1/per, 8 n_s / T) wavefronts
 *     a cycle and gets its max-min fair share of one (the pipe round-robins
 *     over sub-partitions, not warps: "red_*.deg2" at 5 warps 2.4007 and at 9
 *     warps 2.2226, where a per-warp share would give 2.0); a sub-partition
 *     that finishes its warps' loops leaves its share to the others, and the
 *     launch ends with the last one;
 *   - but lone atom warps beside a sub-partition whose share is short of its
 *     demand leave no such tail, and wait for the pipe (atomic_warps_cycles);
 *   - two measured losses on top: N1_SLIP where issue-bound sub-partitions
 *     run beside paced ones (N1 below), PAIR_SLIP where three lone atom warps
 *     must fill the pipe (3 warps, 8 and 32 wavefronts).
 * Cycles = that time / (8 W) an instruction, never below atomic.c's 16-warp
 * answer (A10's 1.02 floor and the wavefronts).  Fitted once on the 4-, 8-
 * and 16-warp rows (270) and predicted on the 5-7 and 9-12-warp rows (432) of
 * the readings before; refitted 2026-11-29: ATOM_SHARED on 8 warps (76.7 ->
 * 75.1), ATOM_TRIP (44.3 -> 42.04, LONE_LAST 3 -> 2) and RED_LOOP (8.3 ->
 * 8.05) on the 1-warp rows (54), held out the lone warps at 2..4 warps (all
 * within 0.1%) and 13..32 warps; N1_SLIP on red at 5-7 warps, held out atom
 * at 9-11; PAIR_SLIP on 3 warps at 8 wavefronts, held out 32.
 *
 * Where the rule is not called exact (cycles_exact false), from the
 * mechanism, and checked on every row: on the 702 re-measured rows every row
 * is within 2%, 636 called exact and 66 not; on the 1728 of 1..32 warps,
 * every row within 2%, 1637 exact, 91 not; on the 1782 of three processes,
 * every row within 2%, 1509 exact (test_access).  The ncu pass's 162 rows
 * (atomic_warps_ncu_h200.json, re-measured 2026-11-29T02:17Z: cycles from the
 * fastest phase) are all within 2%, 132 exact (at phase 0 alone 25 of them,
 * N2's 4 warps, were outside):
 *   N1. a sub-partition at its issue limit shares the pipe with one paced by
 *       its warps' round trips: their sends collide, and one at its issue
 *       limit cannot make up a cycle it waited.  The fluid shares do not see
 *       it; the launch loses about N1_SLIP = 1.7 cycles a round (the
 *       sub-partition's 8 k atomics) for each issue-bound sub-partition while
 *       paced ones run, the losses adding up (red one wavefront at 5, 6, 7
 *       warps, 1, 2, 3 issue-bound: 1.6266, 1.3761, 1.2034, the shares alone
 *       1.60, 1.33, 1.14, with N1_SLIP 1.6266, 1.3777, 1.1998; held out, atom
 *       at 9, 10, 11: 1.3487, 1.2267, 1.1151, the shares alone 1.33, 1.20,
 *       1.09, with N1_SLIP 1.3518, 1.2332, 1.1362).  Not exact: the cost is
 *       read off, not derived, and at one starting phase these rows moved
 *       between runs (below).  Even at the fastest of 19 phases red at 5
 *       warps has two states a process: 1.6266 or 1.7262 (+6.1%), every red
 *       row of a process the same; 20 of 52 processes read the upper one
 *       (tests/calib/atomics_warps/bistable_h200.json and bistable2_h200.json,
 *       46 processes, and the GPU suite's 2 a run, three runs; H200,
 *       2026-11-29).  More often right after an ncu pass (12 of 14, the
 *       suite's first process after its forms section each time) than not
 *       (8 of 38); a cold GPU, a pause, the warp count before: no rule.  The
 *       rule answers the lower state and calls it not exact: a floor;
 *   N2. atom from 2 wavefronts on at 3..5 warps, where at most one
 *       sub-partition holds a pair and it brings less pipe work an iteration
 *       (8 w (W - 4)) than a lone warp's round trip: whether the lone warps'
 *       bursts and round trips fall into step, the pipe idle, is decided by
 *       the warps' starting phase.  At phase 0 alone (the tool before
 *       2026-11-29) 3 warps read 3.555 at 2 wavefronts and 37.34 at 32, 4 warps 3.041 and
 *       36.10, 5 warps up to 2.111 at 2 and 4.208 at 4; the fastest of 19
 *       phases 3.086, 32.383, 2.315, 32.002, 2.0517, 4.0024 (the rule 3.085,
 *       32.379, 2.314, 32.0, 2.051, 4.000);
 *   N3. the launch's tail left to one sub-partition with two warps, each
 *       held to its lone path (LONE w > per: 3 wavefronts or more): they fill
 *       the pipe only if their sends interleave exactly, and they do not quite
 *       (red 4 wavefronts at 5 warps: 4.072 at 12:49, 4.0815 at 17:03, the
 *       rule 4.000; 4.066 on 2026-11-29).  The launch
 *       loses about TAIL_SLIP cycles an instruction to it at every width (8
 *       wavefronts 8.074, 32: 32.069), so only widths where that is past 1.5%
 *       of the w cycles are called not exact.
 * Why no cycle-level rule for N1 and N2: the loops' full SASS (tests/calib/
 * atomics_warps/sass_sm90.txt) is one instruction stream for all nine forms,
 * yet at one starting phase N1's rows moved between runs of the same binary
 * (atom_min_s32 one wavefront at 9 warps: 1.354 at 12:49, 1.502 at 16:42),
 * and where ptxas places the loop moves the fastest phase's reading by up to
 * 5.7% (stagger_summary.txt): the time there depends on state the
 * instruction stream does not hold. */

#define SUBS 4            /* sub-partitions of an SM (sm_90) */
#define ISSUE 4.0         /* cycles between one sub-partition's atomics, at least */
#define RED_LOOP 8.05     /* a red warp's branch back, after its 8th atomic */
#define ATOM_TRIP 42.04   /* an atom warp's last result and fold, after its 8th */
#define ATOM_SHARED 75.1  /* an atom warp's iteration beside another on its sub-partition */
#define LONE 2.0          /* cycles a wavefront from a warp alone on its sub-partition */
#define LONE_LAST 2.0     /* its 8th atomic's result, before the path's end */
#define TAIL_SLIP 0.08    /* cycles an instruction N3's interleaving loses (5 warps) */
#define N1_SLIP 1.7       /* cycles N1's collisions cost an issue-bound sub-partition a round */
#define PAIR_SLIP 3.03    /* cycles two lone-rate warps lose each time they must fill the pipe */

/* One warp's iteration on a sub-partition holding k warps (A14's chain), its
 * atomics each waiting `wait` cycles for the pipe besides. */
static double iteration(enum instr_op op, double per, double w, uint32_t k, double wait)
{
    /* a warp alone on its sub-partition sends a wavefront every LONE cycles at
     * most; beside another warp their sends interleave and the sub-partition's
     * per binds instead (k >= 2: red 8.074 at 5 warps, 8 wavefronts, where the lone
     * bound on both warps would say 8.5) */
    double path = k == 1 ? 8 * LONE * w : 0;
    if (op == INSTR_RED)
        return (8 * per + RED_LOOP > path ? 8 * per + RED_LOOP : path) + 8 * wait;
    /* the 8th atomic's wavefronts leave at the lone rate, or beside another
     * warp at the pipe's */
    double last = k == 1 ? LONE * w : w;
    double sent = 7 * per + last > path - LONE_LAST ? 7 * per + last : path - LONE_LAST;
    double t = sent + ATOM_TRIP;
    return (k > 1 && t < ATOM_SHARED ? ATOM_SHARED : t) + 8 * wait;
}

/* Max-min fair shares of the pipe's one wavefront a cycle over the busy
 * sub-partitions (left > 0), each asking want[s]: share[s]; busy[] is
 * filled with them by demand, smallest first, and the count returned. */
static int fair_shares(const double *left, const double *want, double *share, int *busy)
{
    double cap = 1;
    int nb = 0;
    for (int s = 0; s < SUBS; s++) {
        share[s] = 0;
        if (left[s] > 1e-9)
            busy[nb++] = s;
    }
    for (int i = 1; i < nb; i++)
        for (int j = i; j > 0 && want[busy[j]] < want[busy[j - 1]]; j--) {
            int x = busy[j];
            busy[j] = busy[j - 1], busy[j - 1] = x;
        }
    for (int i = 0; i < nb; i++) {
        int s = busy[i];
        double fair = cap / (nb - i);
        share[s] = want[s] <= fair + 1e-12 ? want[s] : fair;
        cap -= share[s];
    }
    return nb;
}

/* What holds a sub-partition back at its fair share: the pipe (the share is
 * short of its demand), its issue limit (one atomic every per cycles), or its
 * warps' round trips. */
enum held { HELD_PIPE, HELD_ISSUE, HELD_TRIP };
static enum held held_by(double share, double want, double wf, double per)
{
    if (share < want - 1e-12)
        return HELD_PIPE;
    return want >= wf / per - 1e-12 ? HELD_ISSUE : HELD_TRIP;
}

/* What each sub-partition (k[s] warps) asks of the pipe, in wavefronts a
 * cycle: its chain's pace, at most one atomic every per cycles. */
static void demands(enum instr_op op, double per, double w, const uint32_t *k,
                    const double *wait, double *want)
{
    for (int s = 0; s < SUBS; s++) {
        double chain = k[s] ? 8.0 * k[s] / iteration(op, per, w, k[s], wait[s]) : 0;
        want[s] = w * (chain < 1 / per ? chain : 1 / per);
    }
}

double atomic_warps_cycles(enum instr_op op, uint32_t w, uint32_t warps, int *exact,
                           const char **bound)
{
    const double per = w > ISSUE ? (double)w : ISSUE, wf = (double)w;
    const double none[SUBS] = {0};
    double left[SUBS], want[SUBS], share[SUBS], t = 0;
    uint32_t k[SUBS];
    int busy[SUBS], n1 = 0, n3 = 0, capped = 0, paced = 0, lone = 0, full = 0;
    for (int s = 0; s < SUBS; s++) {
        k[s] = warps / SUBS + ((uint32_t)s < warps % SUBS);
        left[s] = 8.0 * k[s];                                /* instructions */
        lone |= k[s] == 1;
    }
    demands(op, per, wf, k, none, want);
    int nb = fair_shares(left, want, share, busy), ncap = 0;
    for (int i = 0; i < nb; i++)
        ncap += held_by(share[busy[i]], want[busy[i]], wf, per) == HELD_PIPE;
    if (op == INSTR_ATOM && lone && ncap) {
        /* Lone atom warps beside a sub-partition the pipe cannot keep up with
         * (issue 41, 2026-11-29 readings: atom 2 wavefronts at 5 and 6
         * warps, 2.0517 and 2.0014, 4 at 5 warps 4.0024, where the fair
         * shares' tail said 2.20, 2.08, 4.15):
         *   - a lone warp sends its 8 atomics in a burst and then waits out
         *     its round trip, asking nothing: the capped sub-partitions take
         *     the pipe meanwhile, so no sub-partition is left to end alone
         *     below the pipe's rate (the launch has no tail, unlike red at 5
         *     warps, 2 wavefronts, 2.4007, whose lone warps never wait);
         *   - each atomic of a warp paced by its round trip finds the pipe
         *     serving a capped sub-partition's atomic (they always have one
         *     waiting) and waits on average for half of it, w/2, and for a
         *     whole one of each further capped sub-partition that round
         *     robin puts ahead of it half the time: ncap w/2 cycles.
         * Time = the longest of the pipe's work (8 W w) and each
         * sub-partition's own (with those waits).  Nothing fitted: the
         * three configurations it changes, 5 forms each, land at -0.0%,
         * -0.1%, -0.1% of the readings. */
        double wait[SUBS];
        for (int s = 0; s < SUBS; s++)
            wait[s] = k[s] && held_by(share[s], want[s], wf, per) == HELD_TRIP ? ncap * wf / 2 : 0;
        demands(op, per, wf, k, wait, want);
        t = 8.0 * warps * wf;
        for (int s = 0; s < SUBS; s++)
            if (k[s] && 8.0 * k[s] * wf / want[s] > t)
                t = 8.0 * k[s] * wf / want[s];
        /* Three lone warps (3 warps), each at its lone rate (LONE w > per):
         * while one waits out its round trip the other two fill the pipe
         * only if their sends interleave exactly (2 / LONE = one wavefront a
         * cycle), and they lose about PAIR_SLIP cycles each time (fitted on 8
         * wavefronts, 8.3789: 3 x 3.03 cycles a round of 24 atomics; held
         * out 32, 32.3828, the rule 32.379; N3's tail at 5 warps loses as
         * much, 3.2 cycles a round of 40: TAIL_SLIP).  With four the other
         * three have room (8.0020) and red warps never wait (7.9991). */
        if (warps == SUBS - 1 && (warps - 1) / LONE == 1 && LONE * wf > per)
            t += warps * PAIR_SLIP;
        full = 1;
        nb = 0;
    }
    while (nb > 0) {
        int issue = 0, trip = 0, pipe = 0;
        double rounds = 0;   /* issue-bound sub-partitions' rounds a cycle */
        for (int i = 0; i < nb; i++) {
            int s = busy[i];
            enum held h = held_by(share[s], want[s], wf, per);
            pipe |= h == HELD_PIPE;
            trip |= h == HELD_TRIP;
            if (h == HELD_ISSUE)
                issue = 1, rounds += 1 / (8.0 * k[s] * per);
        }
        n1 |= issue && trip;
        /* N3: one sub-partition left with two warps whose lone paths (one
         * wavefront every LONE cycles each) only just fill the pipe */
        n3 |= nb == 1 && k[busy[0]] == 2 && LONE * wf > per && TAIL_SLIP / wf > 0.015;
        capped |= pipe;
        paced |= trip;
        double dt = 0;
        for (int i = 0; i < nb; i++) {
            double d = left[busy[i]] * wf / share[busy[i]];
            if (i == 0 || d < dt)
                dt = d;
        }
        for (int i = 0; i < nb; i++)
            left[busy[i]] -= share[busy[i]] * dt / wf;
        /* N1's collisions: each issue-bound sub-partition loses N1_SLIP cycles
         * a round (its k warps' 8 atomics each) while paced ones run beside
         * it, and the losses add up over them (see N1 above) */
        t += dt + (issue && trip ? N1_SLIP * rounds * dt : 0);
        nb = fair_shares(left, want, share, busy);
    }
    /* N2: at most one sub-partition holds two warps (3..5 warps), the rest
     * one each, and the pair brings less pipe work an iteration than a lone
     * warp's round trip */
    int n2 = op == INSTR_ATOM && warps >= SUBS - 1 && warps <= SUBS + 1 && w >= 2 &&
             8.0 * wf * (warps > SUBS ? warps - SUBS : 0) < ATOM_TRIP;
    *exact = !n1 && !n2 && !n3;
    *bound = n3 ? "one sub-partition's two warps left to fill the pipe alone (their sends "
                  "must interleave exactly: not exact)"
             : n1 ? "sub-partitions at their issue limit beside ones paced by round trips "
                    "(their sends collide: not exact; red at 5 warps read 6% more in 20 of "
                    "52 processes of one build on an H200)"
             : n2 ? "lone warps' round trips: the warps' starting phase decides whether they "
                    "fall in step (not exact)"
             : full ? "the pipe, kept full: lone warps waiting for their results leave it to "
                      "the others"
             : capped ? "the pipe, shared over the sub-partitions"
             : paced ? "the warps' round trips (too few warps to hide them)"
                     : "a sub-partition's one atomic every 4 cycles";
    return t / (8.0 * warps);
}

void atomic_warps_apply(const struct instr *in, uint32_t warps, struct acc_result *r)
{
    struct acc_atomic *a = &r->atomic;
    if (!a->is_atomic || !a->native)
        return;
    a->warps = warps;
    a->warps_bound = "the tool's 16 warps, which the other rules are for";
    if (warps == ATOMIC_WARPS_DEFAULT)
        return;
    int all = 1;
    for (uint32_t t = 0; t < INSTR_LANES; t++)
        all &= in->offsets[t] != INSTR_INACTIVE;
    if (in->guard != INSTR_GUARD_NONE || !all || instr_type_bytes(in->type) != 4 ||
        in->func == INSTR_CAS || a->merges) {
        a->cycles_exact = 0;
        a->warps_bound = "measured at 16 warps only for this form (A14 covers guard none, "
                         "every lane on, 4 bytes, not cas or ATOMS.POPC.INC): the 16-warp "
                         "cycles, not exact";
        return;
    }
    int exact;
    double c = atomic_warps_cycles(in->op, r->wavefronts, warps, &exact, &a->warps_bound);
    if (c > a->cycles)
        a->cycles = c;
    a->pipe_cycles = a->cycles;   /* guard none: no branch share */
    a->cycles_exact = exact;
}
