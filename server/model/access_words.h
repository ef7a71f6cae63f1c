/* access_words.h - what one warp-wide shared-memory instruction's cost is
 * written into (acc_result: phases, passes, banks, the atomic's part) and the
 * bank words its lanes touch.  Both cost files fill it: access.c (loads,
 * stores, matrices, copies; the dispatch) and atomic.c (atomics), which
 * include this and not each other's header.
 * Pure core: no I/O, no allocation. */
#ifndef SZ_ACCESS_WORDS_H
#define SZ_ACCESS_WORDS_H

#include <stdint.h>

#include "instr.h"

#define ACC_MAX_PHASES 32

/* Why a phase took the passes it took. */
enum acc_reason {
    ACC_CLEAN,       /* every bank touched once: one pass */
    ACC_BROADCAST,   /* lanes shared words, no bank needed two: one pass */
    ACC_CONFLICT,    /* some bank held several distinct words: one pass per word */
    ACC_EMPTY,       /* no active lane: no wavefront, but the pipe still spends a cycle */
    ACC_SERIAL       /* atomics: lanes on one address served one after another */
};

struct acc_phase {
    uint32_t lane_mask;             /* lanes whose addresses this phase serves */
    uint32_t active_mask;           /* of those, the active ones */
    uint32_t wavefronts;            /* as Nsight Compute counts them */
    uint32_t cycles;                /* pipe cycles */
    uint32_t words;                 /* distinct bank words touched */
    uint32_t max_per_bank;          /* most distinct words in one bank */
    uint32_t worst_bank;            /* a bank holding max_per_bank words */
    uint32_t lanes_per_bank;        /* the most active lanes one bank serves */
    uint32_t lanes_per_address;     /* the most active lanes on one address */
    enum acc_reason reason;
};

/* What an atomic (op atom/red) adds to the answer; zero for other ops. */
struct acc_atomic {
    int is_atomic;
    int native;                     /* instr_form_native: one ATOMS on sm_90 */
    int merges;                     /* ATOMS.POPC.INC: lanes on one word merge (A9) */
    const char *sass;               /* atomic_form_sass: "ATOMS.POPC.INC.32", ... */
    double pipe_cycles;             /* the cycles with no branch per atomic (A10); the
                                     * branch's share is cycles - pipe_cycles (A11) */
    int cycles_exact;               /* cycles within 2% of clock64 in every measured
                                     * row of the class; else a floor (A10) */
    double cycles;                  /* clock64 per instruction: max(wavefronts, floor);
                                     * 0 when not native (no exact count exists) */
    double floor;                   /* the issue floor of the form's class */
    const char *floor_pin;          /* the measurement that pins it */
    uint32_t conflict_wavefronts;   /* distinct words sharing a bank: a load pays these too */
    uint32_t serial_wavefronts;     /* same-address lanes in turn: a load would broadcast */
    uint32_t lanes_per_address;     /* the most active lanes on one address, any phase */
    uint32_t warps;                 /* the warps a block the client asked cycles for
                                     * (atomic_warps.c, A14); 0: not asked (the tool's 16) */
    const char *warps_bound;        /* what sets the cycles at that warp count */
};

struct acc_result {
    uint32_t wavefronts;            /* ncu: l1tex__data_pipe_lsu_wavefronts_mem_shared_op_* */
    uint32_t source_wavefronts;     /* ncu's Source page (smsp__sass_l1tex_..._op_*): equal
                                     * to wavefronts except where noted in access.c */
    int paired;                     /* a vector load whose lane pairs share addresses:
                                     * served in half the phases */
    uint32_t ideal_wavefronts;      /* the same access with no bank conflict */
    uint32_t bank_conflicts;        /* wavefronts - ideal_wavefronts: ncu's conflict count */
    uint32_t ways;                  /* the n of "n-way": the worst phase's max_per_bank */
    int calibrated;                 /* the geometry measured: 32 banks x 4 bytes */
    uint32_t cycles;                /* SM cycles the pipe is held (what clock64 sees) */
    uint32_t nphases;
    struct acc_phase phases[ACC_MAX_PHASES];
    /* per lane: its phase, and the pass (0-based wavefront within the phase)
     * in which its words are served; -1 for inactive lanes */
    int lane_phase[INSTR_LANES];
    int lane_pass[INSTR_LANES];
    /* per lane with a phase: the bank of its first byte, and how many bank
     * words its bytes cover (1 when narrower than a bank; not capped at banks) */
    uint32_t lane_bank[INSTR_LANES];
    uint32_t lane_nbanks[INSTR_LANES];
    uint32_t bank_hits[SZ_MAX_BANKS];  /* lane-accesses per bank, all phases */
    struct acc_atomic atomic;
    int copy_exact;                 /* cp.async: wavefronts pinned by the sweeps (both
                                     * sides F2-affine in the lane: access.c, C3) */
    int copy_cycles_exact;          /* cp.async: cycles too (copy_exact, and not C4's
                                     * class where the hardware counter reads more) */
    int copy_cycles_inexact;        /* cp.async: a phase in C4's class (access.c) */
};

/* The wire name of a reason: "clean", "broadcast", ... */
const char *acc_reason_name(enum acc_reason r);

#define ACC_MAX_WORDS (INSTR_LANES * 16)  /* 32 lanes x 16 bytes on 1-byte banks */

/* A set of distinct bank words (byte offset / bank_bytes). */
struct acc_words {
    uint32_t n;
    uint32_t word[ACC_MAX_WORDS];
};

/* Add w to s unless it is there. */
void acc_words_add(struct acc_words *s, uint32_t w);

/* The bank words lane t touches (its bytes cut at bank boundaries) into out
 * (16 entries); returns how many. */
uint32_t acc_lane_words(const struct instr *in, uint32_t t, uint32_t *out);

/* A phase's words (ws) into ph: 1 with ph->max_per_bank and worst_bank when
 * a lane of it is active; else rule 4's empty phase (one pipe cycle) and 0. */
int acc_phase_words(const struct instr *in, const struct acc_words *ws, struct acc_phase *ph);

#endif
