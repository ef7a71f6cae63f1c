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
 * "Stagger"; the rule was fitted on the readings before, and only ATOM_SHARED
 * moved).  A fluid model of the four sub-partitions:
 *   - warp i runs on sub-partition i % 4 (n_s warps on sub-partition s);
 *   - a sub-partition sends one atomic every per = max(4, w) cycles at most
 *     (red at 8, 12, 16 warps: 4.02-4.04 cycles an instruction a
 *     sub-partition), and the pipe serves one wavefront a cycle;
 *   - a warp alone on its sub-partition sends one wavefront every LONE = 2
 *     cycles at most (issue 41's third run, tests/data/atomic_warps_all_h200.json,
 *     1..32 warps, 2026-11-28T16:42Z: one warp's red iteration is max(40.3,
 *     16 w) cycles, atom's max(28 + 2w, 16 w - 2) + 42.3: 4 wavefronts 104.3,
 *     8 168.3, 32 552.3); beside another warp their sends interleave and the
 *     sub-partition's per binds instead;
 *   - a warp's iteration is a chain: its 8 atomics per cycles apart, then red
 *     branches back (T = 8 per + 8.3: a lone red warp's 40.3 cycles at 4
 *     warps, "red_*.deg1" 1.260), atom waits for the last result and folds
 *     (T = 7 per + w + 44.3: a lone atom warp's 73.3, "atom_*.deg1" 2.291 at 4
 *     warps); two or more atom warps on a sub-partition stretch it to 75.1
 *     (8 warps: 1.1735 on all five forms; 5-7 warps then within 1.4%; 76.7,
 *     the centre of the two-state readings before, is 2.1-3.5% over them);
 *   - each sub-partition asks the pipe for w min(1/per, 8 n_s / T) wavefronts
 *     a cycle and gets its max-min fair share of one (the pipe round-robins
 *     over sub-partitions, not warps: "red_*.deg2" at 5 warps 2.407 and at 9
 *     warps 2.229, where a per-warp share would give 2.0); a sub-partition that
 *     finishes its warps' loops leaves its share to the others, and the launch
 *     ends with the last one.
 * Cycles = that time / (8 W) an instruction, never below atomic.c's 16-warp
 * answer (A10's 1.02 floor and the wavefronts).  Fitted once, on the 4-, 8-
 * and 16-warp rows (270); predicted, the 5-7 and 9-12-warp rows (432).  LONE
 * was read off the 1-warp rows (54); held out, 2, 3 and 13..32 warps (1080
 * rows of atomic_warps_all): every one it calls exact is within 2%.
 *
 * Where the fluid model cannot be exact (cycles_exact false), from the
 * mechanism, and checked on every row: on the 702 re-measured rows every row
 * it calls exact (631) is within 2%, every row outside 2% (33) is called not
 * exact, and 38 rows within 2% are called not exact too; on the 1728 of 1..32
 * warps, 1632 exact, 38 outside 2%, 58 within 2% not exact (test_access):
 *   N1. a sub-partition at its issue limit shares the pipe with one paced by
 *       its warps' round trips: their sends collide and the fluid shares do
 *       not see it (red one wavefront at 5, 6, 7 warps: 1.627, 1.376, 1.203,
 *       the rule 1.60, 1.33, 1.14; atom at 10 and 11: 1.227, 1.115, the rule
 *       1.20, 1.09);
 *   N2. atom from 2 wavefronts on, below 8 warps, where the warps beyond one a
 *       sub-partition bring less pipe work an iteration (8 w (W - 4)) than a
 *       lone warp's 44.3-cycle round trip: the lone warps' bursts (2w
 *       wavefronts every 4 cycles) and round trips can fall into step and the
 *       pipe idle (at phase 0 alone 4 warps read 3.041 at 2 wavefronts and
 *       36.10 at 32; the fastest phase 2.315 and 32.002, the rule 2.32, 32);
 *       where they do not, the rule is off the other way (2 wavefronts at 5
 *       and 6 warps: 2.052, 2.001, the rule 2.19, 2.08; 8 at 3 warps: 8.379,
 *       the rule 8.00);
 *   N3. the launch's tail left to one sub-partition with two warps, each
 *       held to its lone path (LONE w > per: 3 wavefronts or more): they fill
 *       the pipe only if their sends interleave exactly, and they do not quite
 *       (red 4 wavefronts at 5 warps: 4.072 at 12:49, 4.0815 at 17:03, the
 *       rule 4.000; 4.066 on 2026-11-29).  The launch
 *       loses about TAIL_SLIP cycles an instruction to it at every width (8
 *       wavefronts 8.080, 32: 32.07), so only widths where that is past 1.5%
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
#define RED_LOOP 8.3      /* a red warp's branch back, after its 8th atomic */
#define ATOM_TRIP 44.3    /* an atom warp's last result and fold, after its 8th */
#define ATOM_SHARED 75.1  /* an atom warp's iteration beside another on its sub-partition */
#define LONE 2.0          /* cycles a wavefront from a warp alone on its sub-partition */
#define LONE_LAST 3.0     /* its 8th atomic's result, before the path's end */
#define TAIL_SLIP 0.08    /* cycles an instruction N3's interleaving loses (5 warps) */

/* One warp's iteration on a sub-partition holding k warps (A14's chain). */
static double iteration(enum instr_op op, double per, double w, uint32_t k)
{
    /* a warp alone on its sub-partition sends a wavefront every LONE cycles at
     * most; beside another warp their sends interleave and the sub-partition's
     * per binds instead (k >= 2: 8.084 at 5 warps, 8 wavefronts, where the lone
     * bound on both warps would say 8.5) */
    double path = k == 1 ? 8 * LONE * w : 0;
    if (op == INSTR_RED)
        return 8 * per + RED_LOOP > path ? 8 * per + RED_LOOP : path;
    double sent = 7 * per + w > path - LONE_LAST ? 7 * per + w : path - LONE_LAST;
    double t = sent + ATOM_TRIP;
    return k > 1 && t < ATOM_SHARED ? ATOM_SHARED : t;
}

double atomic_warps_cycles(enum instr_op op, uint32_t w, uint32_t warps, int *exact,
                           const char **bound)
{
    const double per = w > ISSUE ? (double)w : ISSUE, wf = (double)w;
    double left[SUBS], want[SUBS], t = 0;
    int n1 = 0, n3 = 0, capped = 0, paced = 0;
    for (uint32_t s = 0; s < SUBS; s++) {
        uint32_t k = warps / SUBS + (s < warps % SUBS);
        double chain = 8.0 * k / iteration(op, per, wf, k);
        left[s] = 8.0 * k;                                   /* instructions */
        want[s] = k ? wf * (chain < 1 / per ? chain : 1 / per) : 0;
    }
    for (;;) {
        /* max-min fair shares of one wavefront a cycle over the busy ones */
        double share[SUBS] = {0}, cap = 1;
        int busy[SUBS], nb = 0, issue = 0, trip = 0, pipe = 0;
        for (uint32_t s = 0; s < SUBS; s++)
            if (left[s] > 1e-9)
                busy[nb++] = (int)s;
        if (nb == 0)
            break;
        for (int i = 1; i < nb; i++)   /* by demand, smallest first */
            for (int j = i; j > 0 && want[busy[j]] < want[busy[j - 1]]; j--) {
                int x = busy[j];
                busy[j] = busy[j - 1], busy[j - 1] = x;
            }
        for (int i = 0; i < nb; i++) {
            int s = busy[i];
            double fair = cap / (nb - i);
            share[s] = want[s] <= fair + 1e-12 ? want[s] : fair;
            cap -= share[s];
            if (share[s] < want[s] - 1e-12)
                pipe = 1;
            else if (want[s] >= wf / per - 1e-12)
                issue = 1;
            else
                trip = 1;
        }
        n1 |= issue && trip;
        /* N3: one sub-partition left with two warps whose lone paths (one
         * wavefront every LONE cycles each) only just fill the pipe */
        n3 |= nb == 1 && warps / SUBS + ((uint32_t)busy[0] < warps % SUBS) == 2 &&
              LONE * wf > per && TAIL_SLIP / wf > 0.015;
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
        t += dt;
    }
    int n2 = op == INSTR_ATOM && warps >= SUBS - 1 && warps < 2 * SUBS && w >= 2 &&
             8.0 * wf * (warps > SUBS ? warps - SUBS : 0) < ATOM_TRIP;
    *exact = !n1 && !n2 && !n3;
    *bound = n3 ? "one sub-partition's two warps left to fill the pipe alone (their sends "
                  "must interleave exactly: not exact)"
             : n1 ? "sub-partitions at their issue limit beside ones paced by round trips "
                    "(their sends collide: not exact)"
             : n2 ? "lone warps' round trips in step, the pipe idle between them (not exact)"
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
