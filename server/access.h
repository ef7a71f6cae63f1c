/* access.h - what one warp-wide shared-memory instruction costs: its phases,
 * the banks and distinct words each phase touches, the wavefronts Nsight
 * Compute counts and the cycles the shared-memory pipe is held.
 * Pure core: no I/O, no allocation; the result lives in the caller's struct.
 * The rules are calibrated on 32 banks x 4 bytes (tests/data/calib_*.json);
 * other geometries apply the same rules to their own bank row. */
#ifndef SZ_ACCESS_H
#define SZ_ACCESS_H

#include <stdint.h>

#include "error.h"
#include "instr.h"

#define ACC_MAX_PHASES 32

/* Why a phase took the passes it took. */
enum acc_reason {
    ACC_CLEAN,       /* every bank touched once: one pass */
    ACC_BROADCAST,   /* lanes shared words, no bank needed two: one pass */
    ACC_CONFLICT,    /* some bank held several distinct words: one pass per word */
    ACC_EMPTY        /* no active lane: no wavefront, but the pipe still spends a cycle */
};

struct acc_phase {
    uint32_t lane_mask;             /* lanes whose addresses this phase serves */
    uint32_t active_mask;           /* of those, the active ones */
    uint32_t wavefronts;            /* as Nsight Compute counts them */
    uint32_t cycles;                /* pipe cycles */
    uint32_t words;                 /* distinct bank words touched */
    uint32_t max_per_bank;          /* most distinct words in one bank */
    uint32_t worst_bank;            /* a bank holding max_per_bank words */
    enum acc_reason reason;
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
    uint32_t bank_hits[INSTR_MAX_BANKS];  /* lane-accesses per bank, all phases */
};

/* Cost `in` (which must pass instr_check) into `out`. */
void acc_cost(const struct instr *in, struct acc_result *out);

/* The wire name of a reason: "clean", "broadcast", ... */
const char *acc_reason_name(enum acc_reason r);

/* Nsight Compute's metrics for this instruction: the hardware counters of
 * wavefronts and bank conflicts (summed over every instruction of the kind,
 * ldmatrix under op_ld, stmatrix under op_st) and the per-instruction
 * Source-page metric that source_wavefronts predicts. */
const char *acc_ncu_wavefront_metric(enum instr_op op);
const char *acc_ncu_conflict_metric(enum instr_op op);
const char *acc_ncu_source_metric(enum instr_op op);

#endif
